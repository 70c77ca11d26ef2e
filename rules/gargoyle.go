package rules

// The gargoyle (石像鬼, ROLES-MORE.md) is of the wolf camp but alone: he
// does not know the wolves and they do not know him, and he is never in
// their channel. Each night he checks one player and learns his card. He
// reads as a wolf. When every wolf of the pack is dead he takes the kill and
// attacks alone each night (killers); he may self-explode. Holding the kill,
// he owes the pack's pick beside his check, so his check is owed by the
// due flag, not the pending mask (as the wolf beauty's charm).

func init() {
	nightFalls, wake, skipped := dueBesideThePack(Gargoyle)
	hooks[Gargoyle] = roleHooks{
		lone:       true,
		nightFalls: nightFalls,
		wake:       wake,
		due:        true,
		skipped:    skipped,
		step:       StepNight,
		check:      checkGargoyle,
		exec:       execCardCheck,
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if g.has(g.due, s) {
				c[0] = choice(CmdCheck, g.alive&^s.bit(), false)
			}
			return c
		},
	}
}

func checkGargoyle(g *Game, c Command) (refusal, bool) {
	if c.Kind != CmdCheck {
		return accept, false
	}
	if !g.has(g.due, c.Seat) {
		return refuse(CodeNotNow, "", "the gargoyle has checked tonight"), true
	}
	if !g.anotherLiving(c) {
		return refuse(CodeTarget, "", "the gargoyle must check another living player"), true
	}
	return accept, true
}
