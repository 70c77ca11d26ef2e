package rules

import "math/bits"

// The crow (乌鸦, ROLES-MORE.md) may curse one other living player a
// night: at the next day's first exile vote (not its PK re-vote) the cursed
// carries one extra vote against him, shown in the result as the crow's
// without naming the crow's seat (EvCursedVote).

type crowState struct {
	cursed    Seat  // the last curse …
	cursedDay int16 // … and the day whose first exile vote it weighs on
}

func init() {
	check, choices := onAnother(CmdCurse, "the crow must curse another living player")
	hooks[Crow] = roleHooks{
		wake:  func(g *Game) { g.wakeAlone(Crow) },
		step:  StepNight,
		check: check,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvCurse, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: choices,
		extraVote: func(g *Game, st Step) (Seat, int) {
			t := g.cursed
			if t == NoSeat || g.day != g.cursedDay || g.exileRounds != 0 || g.revoting() || !g.has(g.pubAlive, t) {
				return NoSeat, 0
			}
			switch st {
			case StepVote, StepSeqVote, StepMobVote:
			default:
				return NoSeat, 0
			}
			if g.opt(OptSheriff) == SheriffDay1TopVote && !g.sheriffDone {
				return NoSeat, 0 // that vote elects the sheriff, it exiles nobody
			}
			return t, 2 // one vote, in half-votes
		},
	}
}

func (g *Game) applyCurse(e *Event) {
	// The eclipse queen's rebound, then the warden's betrayal (not the
	// magician's swap: ROLES-MORE.md leaves the curse out of it).
	g.cursed, g.cursedDay = g.betray(e.Seat, g.rebound(e.Seat, e.Target)), g.day+1
	g.pending &^= e.Seat.bit()
}

// extraVote asks the board's roles for a seat that carries extra votes in
// the vote of step s being counted (roleHooks.extraVote).
func (g *Game) extraVote(s Step) (Seat, int) {
	for m := g.cardSet; m != 0; m &= m - 1 {
		if f := hooks[bits.TrailingZeros64(m)].extraVote; f != nil {
			if t, w := f(g, s); t != NoSeat {
				return t, w
			}
		}
	}
	return NoSeat, 0
}
