package rules

import "testing"

// The secrecy of the gargoyle, the hidden wolf, the possessed, the wild
// child and the blood moon apostle (ROLES-MORE.md): what two seats of
// different roles are told.

// TestGargoyleChecksAreHisAlone: the gargoyle learns the card he checked;
// the checked seer, a wolf and a villager are told nothing of it; the
// wolves do not know him and he does not know them.
func TestGargoyleChecksAreHisAlone(t *testing.T) {
	g := dealtGame(t, nil, Gargoyle, Seer, Witch, Werewolf, Werewolf, Villager, Villager, Villager)
	play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 2})
	if v := g.View(1); v.Known[2] != Seer || v.Wolves != 0 || v.Known[4] != NoRole {
		t.Fatalf("the gargoyle's view: knows 2 as %v, wolves %v, 4 as %v", v.Known[2], Seats(v.Wolves), v.Known[4])
	}
	for _, s := range []Seat{2, 4, 6} {
		v := g.View(s)
		if v.Known[1] != NoRole || (s != 2 && v.Known[2] != NoRole) || len(told(g, s, EvCheck)) != 0 {
			t.Fatalf("seat %d (%s) learnt of the gargoyle's check: %v", s, g.role[s], v.Known)
		}
	}
	if v := g.View(4); v.Wolves != Mask(4, 5) {
		t.Fatalf("the wolves know %v, want [4 5] without the gargoyle", Seats(v.Wolves))
	}
}

// TestWolvesAreNotToldOfTheHiddenWolf: the hidden wolf knows the pack; a
// wolf's view holds nothing of him, nor does a villager's.
func TestWolvesAreNotToldOfTheHiddenWolf(t *testing.T) {
	g := dealtGame(t, nil, HiddenWolf, Seer, Witch, Werewolf, Werewolf, Villager, Villager, Villager)
	if v := g.View(1); v.Wolves != Mask(4, 5) || v.Known[4] != Werewolf {
		t.Fatalf("the hidden wolf knows %v, want the pack [4 5]", Seats(v.Wolves))
	}
	for _, s := range []Seat{4, 6} {
		if v := g.View(s); v.Known[1] != NoRole || v.Wolves&Mask(1) != 0 {
			t.Fatalf("seat %d (%s) knows the hidden wolf: %v %v", s, g.role[s], v.Known[1], Seats(v.Wolves))
		}
	}
	play(t, g, Command{Seat: 4, Kind: CmdAttack, Target: 6})
	if p := told(g, 1, EvAttackPick); len(p) != 0 {
		t.Fatalf("the hidden wolf reads the wolves' channel: %v", p)
	}
}

// TestPossessedKnowsNoWolf: the possessed is told no wolf and nothing of
// their night; the wolf is not told of him.
func TestPossessedKnowsNoWolf(t *testing.T) {
	g := dealtGame(t, nil, Possessed, Seer, Werewolf, Villager, Villager)
	play(t, g, Command{Seat: 3, Kind: CmdAttack, Target: 4})
	v := g.View(1)
	if v.Wolves != 0 || v.Known[3] != NoRole || len(told(g, 1, EvAttackPick)) != 0 || len(told(g, 1, EvWolfTeam)) != 0 {
		t.Fatalf("the possessed knows the wolves: %v %v", Seats(v.Wolves), v.Known[3])
	}
	if w := g.View(3); w.Known[1] != NoRole || w.Wolves != Mask(3) {
		t.Fatalf("the wolf knows the possessed: %v %v", w.Known[1], Seats(w.Wolves))
	}
}

// TestWildChildModelIsHisAlone: the model and the others are not told of
// the choice; when the model dies the wild child alone is told he turned,
// and the pack and he learn each other; the seer is told nothing.
func TestWildChildModelIsHisAlone(t *testing.T) {
	g := dealtGame(t, map[Option]uint8{OptSeerSees: SeesWolfOrNot}, WildChild, Seer, Witch, Werewolf, Werewolf, Villager, Villager, Villager)
	play(t, g, Command{Seat: 1, Kind: CmdModel, Target: 6}, Command{Seat: 2, Kind: CmdCheck, Target: 1})
	if v := g.View(1); v.Model != 6 || v.Turned {
		t.Fatalf("the wild child's view: model %d, turned %v", v.Model, v.Turned)
	}
	for s := Seat(2); s <= 8; s++ {
		if len(told(g, s, EvModel)) != 0 || g.View(s).Model != NoSeat {
			t.Fatalf("seat %d (%s) was told the model", s, g.role[s])
		}
	}
	play(t, g, Command{Seat: 4, Kind: CmdAttack, Target: 6}, Command{Seat: 5, Kind: CmdAttack, Target: 6},
		Command{Seat: 3, Kind: CmdSkip})
	if v := g.View(1); !v.Turned || v.Wolves != Mask(1, 4, 5) {
		t.Fatalf("the wild child's view after his model died: turned %v, wolves %v", v.Turned, Seats(v.Wolves))
	}
	if v := g.View(4); v.Wolves != Mask(1, 4, 5) || v.Turned {
		t.Fatalf("a wolf's view after the turn: wolves %v", Seats(v.Wolves))
	}
	for _, s := range []Seat{2, 6, 7} {
		v := g.View(s)
		if len(told(g, s, EvWildWolf)) != 0 || v.Wolves != 0 || v.Known[1] != NoRole {
			t.Fatalf("seat %d (%s) learnt of the wild child's turn", s, g.role[s])
		}
	}
}

// TestBloodMoonTellsNothing: the blood moon apostle's explosion is public,
// his card and its effect are the moderator's: no seat is sent EvBloodMoon,
// and in the night after the seer (not woken) and a wolf (woken) differ only
// by the wake.
func TestBloodMoonTellsNothing(t *testing.T) {
	g := dealtGame(t, map[Option]uint8{OptSpeechOrder: SpeechLeftOfVictim, OptLastWords: LastWordsNone},
		BloodMoon, Seer, Witch, Werewolf, Werewolf, Villager, Villager, Villager)
	play(t, g, Command{Seat: 2, Kind: CmdCheck, Target: 4})
	for _, w := range []Seat{1, 4, 5} {
		play(t, g, Command{Seat: w, Kind: CmdAttack, Target: 8})
	}
	play(t, g, Command{Seat: 3, Kind: CmdSkip})
	for st, _ := g.Step(); st != StepSpeech; st, _ = g.Step() {
		g.Timeout()
	}
	play(t, g, Command{Seat: 1, Kind: CmdExplode})
	for s := Seat(1); s <= 8; s++ {
		if len(told(g, s, EvBloodMoon)) != 0 {
			t.Fatalf("seat %d was told the blood moon", s)
		}
		if s != 1 && g.View(s).Known[1] != NoRole && !g.has(g.wolves, s) {
			t.Fatalf("seat %d learnt the apostle's card", s)
		}
	}
	if st, _ := g.Step(); st != StepNight {
		t.Fatalf("at %v, want the night after the explosion", st)
	}
	if v := g.View(2); v.Pending {
		t.Fatal("the seer is woken in the blood moon's night")
	}
	if v := g.View(4); !v.Pending {
		t.Fatal("the wolves are not woken in the blood moon's night")
	}
}
