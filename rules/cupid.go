package rules

// Cupid (丘比特) links two lovers on the first night; a lover dies with the
// other (殉情). A cross-camp couple wins as the last two alive (000 C), or,
// with black_lovers, leaves its camps to form the lovers' camp (黑情侣), and
// holds the kill once the wolf camp has lost (寡妇刀). cupid_camp says what
// becomes of cupid.

type loversState struct {
	lovers     uint32
	loversCamp uint32 // black lovers and, by cupid_camp, cupid (黑情侣阵营)
	widowKnife bool   // the black lovers hold the kill
}

func init() {
	hooks[Cupid] = roleHooks{
		setup: func(g *Game) bool {
			if g.lovers != 0 {
				return false
			}
			s := g.firstOf(Cupid, g.alive)
			if s == NoSeat || g.powersLost {
				return false
			}
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepCupid), Role: Cupid, Mask: s.bit()})
			return true
		},
		step: StepCupid,
		check: func(g *Game, c Command) (refusal, bool) {
			if c.Kind != CmdLink {
				return accept, false
			}
			if popcount(c.Mask) != 2 || c.Mask&^g.alive != 0 {
				return refuse(CodeTarget, "", "cupid links two living players"), true
			}
			return accept, true
		},
		exec: func(g *Game, c Command) { g.link(c.Seat, c.Mask) },
		choices: func(g *Game, s Seat) [2]Choice {
			return [2]Choice{{Kind: CmdLink, Targets: g.alive, Pick: 2}}
		},
	}
}

// link makes two players lovers (cupid, night 1) and tells them.
func (g *Game) link(cupid Seat, pair uint32) {
	g.emit(Event{Kind: EvLovers, To: pair | cupid.bit(), Seat: cupid, Mask: pair})
	a := g.lowest(pair)
	b := g.lowest(pair &^ a.bit())
	if g.opt(OptLoversSeeRoles) == On {
		g.emit(Event{Kind: EvLoverRole, To: a.bit(), Seat: b, Role: g.role[b]})
		g.emit(Event{Kind: EvLoverRole, To: b.bit(), Seat: a, Role: g.role[a]})
	}
	if g.opt(OptBlackLovers) == On && g.crossLovers() {
		// A cross-camp couple leaves its camps: with cupid (cupid_camp=lovers)
		// it forms the lovers' camp; a wolf in it loses the kill and the wolf
		// group (002).
		camp := pair
		if g.opt(OptCupidCamp) == CupidLovers {
			camp |= cupid.bit()
		}
		g.emit(Event{Kind: EvBlackLovers, To: camp, Mask: camp})
	}
}

func (g *Game) applyLovers(e *Event) {
	s := e.Seat
	g.lovers = e.Mask
	g.pending &^= s.bit()
	switch g.opt(OptCupidCamp) {
	case CupidPlain: // 002 variant: 牵线指婚后变为无技能平民
		g.gods &^= s.bit()
		g.plain |= s.bit()
	case CupidLovers: // 002: 月老的阵营转变为与情侣相同; no longer a god of the village
		g.gods &^= s.bit()
		if !g.crossLovers() {
			// A couple of one camp makes no lovers' camp: he stays with the
			// village as 无技能平民 (002 村民阵营), for every win rule.
			g.plain |= s.bit()
		}
	}
}

// crossLovers: the lovers belong to different camps.
func (g *Game) crossLovers() bool {
	a := g.lowest(g.lovers)
	b := g.lowest(g.lovers &^ a.bit())
	return a != NoSeat && b != NoSeat && g.role[a].Camp() != g.role[b].Camp()
}

// loverDies: the other lover dies with s (殉情). It is a chain of the seat,
// not of a card, so kill runs it before the card's own.
func (g *Game) loverDies(s Seat, public, silent bool, b *batch) {
	if g.has(g.lovers, s) {
		if p := g.lovers &^ s.bit(); p&g.alive != 0 {
			g.kill(g.lowest(p), CauseLove, public, silent, b)
		}
	}
}
