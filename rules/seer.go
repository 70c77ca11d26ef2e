package rules

// The seer (预言家) checks one player a night and learns what seer_sees says
// of him.

func init() {
	check, choices := onAnother(CmdCheck, "the seer must check another living player")
	hooks[Seer] = roleHooks{
		wake:      func(g *Game) { g.wakeAlone(Seer) },
		step:      StepNight,
		lateCheck: true, // under wolves_first: StepCheck, after the witch
		check:     check,
		exec:      execSeer,
		choices:   choices,
		// Called while a seer or a mirror seer lives: the mirror seer
		// answers the seer's call (mirror_seer.go).
		awake: func(g *Game) bool {
			return g.firstOf(Seer, g.alive) != NoSeat || g.firstOf(MirrorSeer, g.alive) != NoSeat
		},
	}
}

func execSeer(g *Game, c Command) { g.emit(seerCheck(g, c)) }

// seerCheck is the seer's check of c's target as seer_sees tells it.
func seerCheck(g *Game, c Command) Event {
	s, t := c.Seat, c.Target
	e := Event{Kind: EvCheck, To: s.bit(), Seat: s, Target: t}
	t = g.lands(s, t) // the magician's swap, the eclipse queen's rebound, the warden's betrayal: the card of the seat the check landed on
	switch g.opt(OptSeerSees) {
	case SeesRole:
		e.Role = g.cardSeen(t)
	case SeesWolfOrNot: // as he reads: the hidden wolf and the possessed as good
		if g.readsWolf(t) {
			e.Value = ResultWolf
		}
	default: // black lovers (and cupid with them) have left the village too
		if g.readsNotVillage(t) {
			e.Value = ResultNotVillage
		}
	}
	return e
}
