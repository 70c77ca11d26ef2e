package rules

// The angel (天使, ROLES-MORE-2.md; Miller's Hollow) wants to die at once: if
// the first day's exile vote puts him out, or the wolves' attack kills him
// on night 1, he wins alone and the game ends there (the announcement is
// made first: the exile, or the dawn). Any other death, or a later one,
// gives nothing; after night 1 he is a plain villager who reads as good. A
// board with the angel starts by day (Validate: first_phase=day), so that
// day 1 comes before night 1. The village's powers lost (the elder) take his
// win too (A: a powerless angel does not win).
//
// Choices where the page is silent: the first day's vote is day 1's, its PK
// re-vote included (a scapegoat killed by a tie is not the angel exiled);
// an angel both attacked and poisoned on night 1 dies of the poison
// (resolveNight's cause) and does not win; his death is the moderator's
// to judge (EvAngelWins, told to nobody), and the table learns of the win
// with the game's end.

type angelState struct {
	angelWon bool // the angel died as he wished: he wins (judge)
}

func init() {
	hooks[Angel] = roleHooks{
		onDeath: func(g *Game, s Seat, c Cause, public bool) (uint32, Cause) {
			exiled := c == CauseExile && g.day == 1 && !g.isNight
			eaten := c == CauseAttack && g.night == 1 && g.isNight
			if (exiled || eaten) && !g.powersLost && !g.angelWon {
				g.emit(Event{Kind: EvAngelWins, Seat: s, Value: int16(c)})
			}
			return 0, CauseNone
		},
	}
}
