package rules

// The psychic (通灵师, ROLES-MORE.md) checks one other living player a
// night and learns his card, as the seer does under seer_sees=role. The
// result is an EvCheck naming the card.

func init() {
	check, choices := onAnother(CmdCheck, "the psychic must check another living player")
	hooks[Psychic] = roleHooks{
		wake:  func(g *Game) { g.wakeAlone(Psychic) },
		step:  StepNight,
		check: check,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvCheck, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target, Role: g.role[c.Target]})
		},
		choices: choices,
	}
}
