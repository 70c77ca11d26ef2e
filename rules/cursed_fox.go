package rules

// The cursed fox (咒狐, ROLES-MORE-2.md) is a third party alone (camp fox).
// The wolves' attack on him fails silently (the witch is still told the
// target; the elder's rule does not apply). A seer's check kills him in
// the night (cause checked), a mirror seer's too, and under
// cursed_fox_killed_by=any_village_check every village check (the
// psychic's); the check still reports good. The poison, the hunt, the exile,
// a shot and a duel kill him as anyone; the dream saves him from every
// night death. He reads as good and is neither god nor plain. He wins alone
// if he is alive when any other camp meets its winning condition (judge):
// the game ends with him as the sole winner.
//
// Choices where the page is silent: a check that the magician's swap moved
// onto him kills him (the check landed on him), one moved away does not; a
// feared or powerless checker made no check, so nothing kills him; a draw
// (the stalemate) is no camp's win and he does not steal it; the fox's
// theft is judged with the angel's, before the camps.

func init() {
	hooks[CursedFox] = roleHooks{
		attacked:  func(g *Game, t Seat, hit, healed, guarded bool) bool { return true },
		readsWolf: readsGood,
	}
}

// cursedBy: a check by card r kills the cursed fox (cursed_fox_killed_by).
func (g *Game) cursedBy(r Role) bool {
	switch r {
	case Seer, MirrorSeer:
		return true
	case Psychic:
		return g.opt(OptCursedFoxKilledBy) == KilledByAnyVillageCheck
	}
	return false
}

// resolveCursedFox: tonight's killing checks of the fox kill him.
func (g *Game) resolveCursedFox(b *batch) {
	f := g.firstOf(CursedFox, g.alive)
	if f == NoSeat || g.nightSafe(f, CauseChecked) {
		return
	}
	for i := len(g.events) - 1; i >= 0 && g.events[i].Kind != EvNight; i-- {
		e := &g.events[i]
		if e.Kind != EvCheck {
			continue
		}
		// The lucky one's gift check (the EvGiftUse after it) is a village
		// check whatever his card, made before the warden's trade.
		gift := i+1 < len(g.events) && g.events[i+1].Kind == EvGiftUse && g.events[i+1].Seat == e.Seat
		if gift && g.landed(e.Target) == f && g.opt(OptCursedFoxKilledBy) == KilledByAnyVillageCheck ||
			!gift && g.lands(e.Seat, e.Target) == f && g.cursedBy(g.role[e.Seat]) {
			g.kill(f, CauseChecked, false, false, b)
			return
		}
	}
}

// foxSteals: the cursed fox lives while a camp meets its winning condition.
func (g *Game) foxSteals(w Camp) bool {
	return w != NoCamp && w != Draw && g.firstOf(CursedFox, g.alive) != NoSeat
}
