package rules

// The eclipse wolf queen (蚀时狼妃, ROLES-MORE-2.md) is a wolf of the pack
// who also wakes alone each night, in a stage of her own after the
// nightmare's and before everyone else's, and shelters one living player
// in the time rift (herself allowed; not the same player two nights in a
// row, a skipped night breaking the chain). That night every night power
// of a village god aimed at the sheltered player (as the magician's swap
// left it) lands on its caster instead (rebound); the caster is told his
// result as if it had landed where he aimed. The first night a power
// rebounds spends the shelter for the rest of the game. She is not told:
// she keeps being woken, naming and being refused exactly as before, so
// nothing on her screen changes with it. The wolves' attack is no god's
// power and never rebounds.

type eclipseState struct {
	shelter     Seat // tonight's sheltered player, as named
	lastShelter Seat // last night's
	rebounded   bool // a power rebounded tonight …
	riftClosed  bool // … so the shelter is spent for the rest of the game
}

func init() {
	hooks[EclipseWolfQueen] = roleHooks{
		nightFalls: func(g *Game) {
			g.lastShelter, g.shelter = g.shelter, NoSeat
			g.riftClosed = g.riftClosed || g.rebounded
			g.rebounded = false
		},
		setup: func(g *Game) bool {
			s := g.firstOf(EclipseWolfQueen, g.alive)
			if s == NoSeat || g.has(g.loversCamp, s) || g.lost[Wolves] {
				return false
			}
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepEclipse), Role: EclipseWolfQueen, Mask: s.bit()})
			return true
		},
		nightly: true,
		step:    StepEclipse,
		check: func(g *Game, c Command) (refusal, bool) {
			if c.Kind != CmdShelter {
				return accept, false
			}
			switch t := c.Target; {
			case !g.has(g.alive, t):
				return refuse(CodeTarget, "", "the eclipse wolf queen shelters a living player"), true
			case t == g.lastShelter:
				return refuse(CodeRule, "", "the eclipse wolf queen may not shelter seat %d two nights in a row", t), true
			}
			return accept, true
		},
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvShelter, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: func(g *Game, s Seat) [2]Choice {
			return [2]Choice{choice(CmdShelter, g.alive&^g.lastShelter.bit(), false)}
		},
	}
}

func (g *Game) applyShelter(e *Event) {
	g.shelter = e.Target
	g.pending &^= e.Seat.bit()
}

// rebound is where a night power of seat s that landed on l (after the
// magician's swap) ends: on s when l is tonight's sheltered player, s holds
// a village god's card and the shelter is not spent; else on l. A power a
// player aims at himself while sheltered lands where it would anyway and
// is no rebound.
func (g *Game) rebound(s, l Seat) Seat {
	if l == NoSeat || l != g.shelter || s == l || g.riftClosed || !g.isNight || !g.role[s].IsGod() {
		return l
	}
	return s
}

// lands is where seat s's night power aimed at t lands: the magician's
// swap, then the eclipse queen's rebound, then the warden's betrayal
// (ROLES-MORE-2.md §5, step 2). A power that never rebounds (not a village
// god's) takes aimed.
func (g *Game) lands(s, t Seat) Seat { return g.betray(s, g.rebound(s, g.landed(t))) }

// noteRebound marks tonight as a night a power rebounded, from the event
// of a village god's power (applied while a player is sheltered), so that
// the shelter is spent from the next night on.
func (g *Game) noteRebound(e *Event) {
	l := e.Target
	switch e.Kind {
	case EvProtect, EvHeal, EvPoison, EvCheck, EvDream, EvHunt, EvSilence, EvVoteBan, EvGift:
		l = g.landed(l)
	case EvCurse: // the curse is not swapped (crow.go)
	case EvDance: // each of the three choices
		for m := e.Mask; m != 0; {
			s := g.lowest(m)
			m &^= s.bit()
			if l := g.landed(s); g.rebound(e.Seat, l) != l {
				g.rebounded = true
			}
		}
		return
	default:
		return
	}
	if g.rebound(e.Seat, l) != l {
		g.rebounded = true
	}
}
