package rules

// The wolf witch (狼巫, ROLES-MORE-2.md) is a wolf of the pack (she wakes,
// picks and is told with the wolves, reads as a wolf, may self-explode).
// During the wolves' turn she checks one living player outside the pack (a
// packmate is refused; the hidden wolf and the gargoyle may be named) and
// learns his card. From night 2 the pure white she checks dies in the
// night (cause purify, resolvePurify). Her check is owed beside the pack's
// pick, by the due flag (as the wolf beauty's charm).

func init() {
	nightFalls, wake, skipped := dueBesideThePack(WolfWitch)
	hooks[WolfWitch] = roleHooks{
		nightFalls: nightFalls,
		wake:       wake,
		due:        true,
		skipped:    skipped,
		step:       StepNight,
		check:      checkWolfWitch,
		exec:       execCardCheck,
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if g.has(g.due, s) {
				c[0] = choice(CmdCheck, g.alive&^g.pack()&^s.bit(), false)
			}
			return c
		},
	}
}

func checkWolfWitch(g *Game, c Command) (refusal, bool) {
	if c.Kind != CmdCheck {
		return accept, false
	}
	switch t := c.Target; {
	case !g.has(g.due, c.Seat):
		return refuse(CodeNotNow, "", "the wolf witch has checked tonight"), true
	case !g.has(g.alive, t) || t == c.Seat:
		return refuse(CodeTarget, "", "the wolf witch must check another living player"), true
	case g.has(g.pack(), t):
		return refuse(CodeTarget, "", "the wolf witch may not check a wolf of her pack"), true
	}
	return accept, true
}
