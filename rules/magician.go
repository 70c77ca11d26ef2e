package rules

// The magician (魔术师, ROLES-MORE.md) wakes in a stage of his own each
// night, after the nightmare and before everyone else, and may swap two
// players (himself included): for that night every action aimed at one of
// them lands on the other (landed). Under magician_swap_once (default on)
// each player may be swapped at most once per game. Nobody else is told.

type magicianState struct {
	swapA, swapB Seat   // tonight's swap
	swappedEver  uint32 // every player swapped so far (magician_swap_once)
}

func init() {
	hooks[Magician] = roleHooks{
		nightFalls: func(g *Game) { g.swapA, g.swapB = NoSeat, NoSeat },
		setup: func(g *Game) bool {
			s := g.firstOf(Magician, g.alive)
			if s == NoSeat || !g.villagePower() {
				return false
			}
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepMagician), Role: Magician, Mask: s.bit()})
			return true
		},
		nightly: true,
		step:    StepMagician,
		check: func(g *Game, c Command) (refusal, bool) {
			if c.Kind != CmdSwap {
				return accept, false
			}
			if c.Target != NoSeat || popcount(c.Mask) != 2 || c.Mask&^g.alive != 0 {
				return refuse(CodeTarget, "", "the magician swaps two living players"), true
			}
			if g.opt(OptMagicianSwapOnce) == DefaultOn && c.Mask&g.swappedEver != 0 {
				return refuse(CodeRule, "magician_swap_once=on", "a player may be swapped only once per game"), true
			}
			return accept, true
		},
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvMagic, To: c.Seat.bit(), Seat: c.Seat, Mask: c.Mask})
		},
		choices: func(g *Game, s Seat) [2]Choice {
			t := g.alive
			if g.opt(OptMagicianSwapOnce) == DefaultOn {
				t &^= g.swappedEver
			}
			if popcount(t) < 2 {
				return [2]Choice{}
			}
			return [2]Choice{{Kind: CmdSwap, Targets: t, Pick: 2}}
		},
	}
}

func (g *Game) applyMagic(e *Event) {
	g.swapA = g.lowest(e.Mask)
	g.swapB = g.lowest(e.Mask &^ g.swapA.bit())
	g.swappedEver |= e.Mask
	g.pending &^= e.Seat.bit()
}

// landed is where tonight's action aimed at t lands: the other player of
// the magician's swap, or t (ROLES-MORE.md: every action, attack, heal,
// poison, guard, check, dream, hunt, charm).
func (g *Game) landed(t Seat) Seat {
	switch {
	case !g.isNight || t == NoSeat:
		return t
	case t == g.swapA:
		return g.swapB
	case t == g.swapB:
		return g.swapA
	}
	return t
}
