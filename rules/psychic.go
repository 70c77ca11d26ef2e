package rules

// The psychic (通灵师, ROLES-MORE.md) checks one other living player a
// night and learns his card, as the seer does under seer_sees=role. The
// result is an EvCheck naming the card.

func init() {
	hooks[Psychic] = roleHooks{
		wake:  func(g *Game) { g.wakeAlone(Psychic) },
		step:  StepNight,
		check: checkPsychic,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvCheck, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target, Role: g.role[c.Target]})
		},
		choices: func(g *Game, s Seat) [2]Choice {
			return [2]Choice{choice(CmdCheck, g.alive&^s.bit(), false)}
		},
	}
}

func checkPsychic(g *Game, c Command) (refusal, bool) {
	if c.Kind != CmdCheck {
		return accept, false
	}
	if c.Target == c.Seat || !g.has(g.alive, c.Target) {
		return refuse(CodeTarget, "", "the psychic must check another living player"), true
	}
	return accept, true
}
