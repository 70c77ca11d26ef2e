package rules

// The piper (吹笛人) charms two players a night, each once; he wins alone
// when every other living player is charmed (judge). The charmed wake
// together at the end of the night step and learn who they are.

type piperState struct {
	charmed uint32 // the piper's charmed players
}

func init() {
	hooks[Piper] = roleHooks{
		wake: func(g *Game) {
			if s := g.firstOf(Piper, g.alive); s != NoSeat && g.alive&^s.bit()&^g.charmed != 0 {
				g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNight), Role: Piper})
			}
		},
		due:     true,
		skipped: func(g *Game, s Seat) { g.due &^= g.holder[Piper].bit() },
		step:    StepNight,
		// "charm N" names the last one left to charm.
		normalize: func(g *Game, c Command) Command {
			if c.Kind == CmdCharm && c.Mask == 0 && c.Target != NoSeat {
				c.Mask, c.Target = c.Target.bit(), NoSeat
			}
			return c
		},
		check: checkPiper,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvEnchant, To: c.Seat.bit(), Seat: c.Seat, Mask: c.Mask})
		},
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if g.has(g.due, s) {
				t := g.enchantable(s)
				c[0] = Choice{Kind: CmdCharm, Targets: t, Pick: int8(min(2, popcount(t)))}
			}
			return c
		},
		told: func(g *Game) {
			if g.charmed != 0 {
				m := g.charmed & g.alive
				g.emit(Event{Kind: EvCharmed, To: m | g.seatsOf(Piper, g.alive), Mask: m})
			}
		},
	}
}

func checkPiper(g *Game, c Command) (refusal, bool) {
	if c.Kind != CmdCharm {
		return accept, false
	}
	s := c.Seat
	want := min(2, popcount(g.enchantable(s)))
	switch {
	case !g.has(g.due, s):
		return refuse(CodeNotNow, "", "the piper has charmed tonight"), true
	case c.Target != NoSeat || popcount(c.Mask) != want || c.Mask&^g.enchantable(s) != 0:
		return refuse(CodeTarget, "", "the piper charms two other living players not yet charmed"), true
	}
	return accept, true
}

func (g *Game) applyEnchant(e *Event) {
	g.charmed |= e.Mask
	g.due &^= g.holder[Piper].bit()
}

// enchantable: the players the piper may charm tonight.
func (g *Game) enchantable(s Seat) uint32 { return g.alive &^ s.bit() &^ g.charmed }

// piperWins: every other living player is charmed.
func (g *Game) piperWins(alive uint32) bool {
	piper := g.seatsOf(Piper, alive)
	return piper != 0 && alive&^piper&^g.charmed == 0
}
