package rules

// The psychic (通灵师, ROLES-MORE.md) checks one other living player a
// night and learns his card, as the seer does under seer_sees=role. The
// result is an EvCheck naming the card.

func init() {
	check, choices := onAnother(CmdCheck, "the psychic must check another living player")
	hooks[Psychic] = roleHooks{
		wake:      func(g *Game) { g.wakeAlone(Psychic) },
		step:      StepNight,
		lateCheck: true, // under wolves_first: StepCheck, after the witch
		check:     check,
		exec:      execCardCheck,
		choices:   choices,
	}
}

// execCardCheck tells a card check (the psychic's, the gargoyle's): the
// seat he named, with the card of the seat the check landed on, so that
// the magician's swap moves it as it moves the seer's.
func execCardCheck(g *Game, c Command) {
	g.emit(Event{Kind: EvCheck, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target, Role: g.role[g.aimed(c.Seat, c.Target)]})
}
