package rules

// The pure white (纯白之女, ROLES-MORE-2.md) checks another living player a
// night and learns his card, as the psychic does, in the checkers' slot.
// From night 2 a player of the wolf camp in truth she checks dies in the
// night (cause purify): the guard and the heal do not stop it (it is no
// attack), the dream does; the spirit knight reflects her check as the
// seer's (he lives, she dies). On night 1 her check only informs.

type purifyState struct {
	pureCheck Seat // tonight's check of the pure white, where it landed
	wolfCheck Seat // tonight's check of the wolf witch, where it landed
}

func init() {
	check, choices := onAnother(CmdCheck, "the pure white must check another living player")
	hooks[PureWhite] = roleHooks{
		nightFalls: func(g *Game) { g.pureCheck, g.wolfCheck = NoSeat, NoSeat },
		wake:       func(g *Game) { g.wakeAlone(PureWhite) },
		step:       StepNight,
		lateCheck:  true, // under wolves_first: StepCheck, after the witch
		check:      check,
		exec:       execCardCheck,
		choices:    choices,
	}
}

// applyCardCheck keeps the check of a card whose check may kill (the pure
// white's, the wolf witch's), where it landed (the magician's swap).
func (g *Game) applyCardCheck(e *Event) {
	if g.step == StepLucky { // the lucky one's gift, whatever his card (miracle_merchant.go)
		return
	}
	switch g.role[e.Seat] {
	case PureWhite:
		g.pureCheck = g.lands(e.Seat, e.Target)
	case WolfWitch:
		g.wolfCheck = g.aimed(e.Seat, e.Target)
	}
}

// resolvePurify: the check deaths of the night (ROLES-MORE-2.md §5 step 7),
// from night 2: the wolf the pure white checked, the pure white the wolf
// witch checked. A checker killed or poisoned tonight still resolves his
// check (it was made before); the village's lost powers stop the pure
// white's as they stopped her wake.
func (g *Game) resolvePurify(b *batch) {
	if g.night < 2 {
		return
	}
	if t := g.pureCheck; t != NoSeat && g.ofWolfCamp(t) && g.has(g.alive, t) && !g.nightSafe(t, CausePurify) {
		g.kill(t, CausePurify, false, false, b)
	}
	if t := g.wolfCheck; t != NoSeat && g.role[t] == PureWhite && g.has(g.alive, t) && !g.nightSafe(t, CausePurify) {
		g.kill(t, CausePurify, false, false, b)
	}
}
