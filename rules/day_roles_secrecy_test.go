package rules

import (
	"slices"
	"testing"
)

// The secrets of the day-side roles of ROLES-MORE-2.md.

// TestTheEldersChoicesAreTheirsUntilDawn: the silence elder's and the
// vote-ban elder's picks are told to each alone at night; the silenced and
// the banned are told nothing more than another villager until the dawn
// tells the whole table, so that the night's streams of the silenced, the
// banned and an untouched villager are the same event for event.
func TestTheEldersChoicesAreTheirsUntilDawn(t *testing.T) {
	g := dealtGame(t, nil, SilenceElder, VoteBanElder, Seer, Werewolf, Werewolf, Villager, Villager, Villager, Villager, Villager)
	play(t, g, Command{Seat: 1, Kind: CmdSilence, Target: 6}, Command{Seat: 2, Kind: CmdVoteBan, Target: 7},
		Command{Seat: 3, Kind: CmdCheck, Target: 4})
	for _, w := range Seats(g.Killers()) {
		play(t, g, Command{Seat: w, Kind: CmdAttack, Target: 10})
	}
	for s := Seat(1); s <= 10; s++ {
		if x := told(g, s, EvSilence); len(x) != 0 != (s == 1) {
			t.Errorf("seat %d (%s) was told the silence: %v", s, g.Role(s), x)
		}
		if x := told(g, s, EvVoteBan); len(x) != 0 != (s == 2) {
			t.Errorf("seat %d (%s) was told the vote ban: %v", s, g.Role(s), x)
		}
	}
	silenced, banned, other := kinds(g, 6), kinds(g, 7), kinds(g, 8)
	if !slices.Equal(silenced, other) || !slices.Equal(banned, other) {
		t.Fatalf("the silenced was told %v, the banned %v, another villager %v", silenced, banned, other)
	}
	if !slices.Contains(other, EvSilenced) || !slices.Contains(other, EvVoteBanned) {
		t.Fatalf("the dawn did not tell the table: %v", other)
	}
	if v := g.View(8); v.Silenced != 6 || v.VoteBanned != 7 {
		t.Fatalf("a villager's view: silenced %d, banned %d", v.Silenced, v.VoteBanned)
	}
}

// TestTheCardChecksAreTheCheckersAlone: the pure white's and the wolf
// witch's checks are told to each alone: the wolf witch's packmate is told
// no more than another wolf's mate would be (the werewolves' streams are
// the same), the checked pure white no more than a villager; the deaths
// they cause are told at dawn like any other, causes hidden.
func TestTheCardChecksAreTheCheckersAlone(t *testing.T) {
	g := dealtGame(t, map[Option]uint8{OptSheriff: SheriffNone}, PureWhite, Witch, Villager, Werewolf, WolfWitch, Villager, Villager, Villager, Villager, Werewolf)
	play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 4}, Command{Seat: 5, Kind: CmdCheck, Target: 1})
	for _, w := range Seats(g.Killers()) {
		play(t, g, Command{Seat: w, Kind: CmdAttack, Target: 9})
	}
	play(t, g, Command{Seat: 2, Kind: CmdSkip})
	for s := Seat(1); s <= 10; s++ {
		x := told(g, s, EvCheck)
		if want := s == 1 || s == 5; (len(x) == 1) != want || len(x) > 1 {
			t.Errorf("seat %d (%s) was told the checks %v", s, g.Role(s), x)
		}
	}
	if a, b := kinds(g, 4), kinds(g, 10); !slices.Equal(a, b) {
		t.Fatalf("the checked werewolf was told %v, the other werewolf %v", a, b)
	}
	if a, b := kinds(g, 3), kinds(g, 6); !slices.Equal(a, b) {
		t.Fatalf("two villagers were told %v and %v", a, b)
	}
	for _, e := range g.Stream(3, 0, nil) {
		if e.Kind == EvDeath && e.Value != 0 {
			t.Fatalf("a villager was told a death's cause: %v", e)
		}
	}
}
