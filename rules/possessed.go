package rules

// The possessed (狂人, ROLES-MORE.md; AIWolf's POSSESSED) is of the wolf
// camp but human: no power, no kill, he cannot self-explode, does not know
// the wolves and they do not know him, and he reads as good. He wins with
// the wolves; for their win he counts with the humans (wolf_win: parity,
// half), and he is neither god nor plain for kill_side; the village does
// not need him dead to win (win.go, g.humans).
//
// The AIWolf boards also play the pack's wolf_no_target=off (the wolves
// may not attack nobody: a night with no pick gets an attack drawn by the
// moderator) and first_night_attack=off (night 1 has no attack): both in
// werewolf.go.

func init() {
	hooks[Possessed] = roleHooks{
		lone:      true,
		human:     true,
		noExplode: true,
		readsWolf: readsGood,
	}
}

// readsGood: the card reads as good to every camp check.
func readsGood(*Game, Seat) bool { return false }
