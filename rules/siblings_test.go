package rules

import (
	"slices"
	"strings"
	"testing"
)

// TestSiblingsComeAsAGroup: ROLES-MORE-2.md deals the sisters as a pair and
// the brothers as three; any other count is refused, naming the rule.
func TestSiblingsComeAsAGroup(t *testing.T) {
	base := []Role{Werewolf, Werewolf, Seer, Villager, Villager}
	for _, tc := range []struct {
		name  string
		extra []Role
		err   string
	}{
		{"two sisters", []Role{Sister, Sister}, ""},
		{"one sister", []Role{Sister}, "sisters (姐妹) come as a pair: the board holds 1"},
		{"three sisters", []Role{Sister, Sister, Sister}, "come as a pair: the board holds 3"},
		{"three brothers", []Role{Brother, Brother, Brother}, ""},
		{"two brothers", []Role{Brother, Brother}, "brothers (三兄弟) come as three: the board holds 2"},
		{"four brothers", []Role{Brother, Brother, Brother, Brother}, "come as three: the board holds 4"},
	} {
		b := Board{Cards: append(append([]Role{}, base...), tc.extra...)}
		err := b.Validate()
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.err)
		}
	}
}

// TestSiblingsMeetingIsTheirsAlone: the meeting (who the sisters are, that
// they met tonight) is told to the sisters only: a brother, a villager and a
// wolf of the same board learn nothing of it, and their views hold no
// sibling; each group is told its own meeting only.
func TestSiblingsMeetingIsTheirsAlone(t *testing.T) {
	g := dealtGame(t, nil, Sister, Sister, Brother, Brother, Brother, Seer, Werewolf, Werewolf, Werewolf, Villager)
	for _, s := range []Seat{1, 2} {
		v := g.View(s)
		if v.Siblings != Mask(1, 2) || v.Met != Mask(1, 2) {
			t.Fatalf("sister %d: siblings %v met %v, want [1 2] both", s, Seats(v.Siblings), Seats(v.Met))
		}
		if m := told(g, s, EvSiblings); len(m) != 1 || m[0].Role != Sister {
			t.Fatalf("sister %d was told %v, want the sisters' meeting only", s, m)
		}
		if v.Known[1] != Sister || v.Known[2] != Sister {
			t.Fatalf("sister %d knows %v", s, v.Known)
		}
	}
	if v := g.View(3); v.Siblings != Mask(3, 4, 5) || len(told(g, 3, EvSiblings)) != 1 {
		t.Fatalf("the brother's view: siblings %v", Seats(v.Siblings))
	}
	for _, s := range []Seat{3, 7, 10} {
		for _, e := range told(g, s, EvSiblings) {
			if e.Role == Sister {
				t.Fatalf("seat %d (%v) was told the sisters' meeting %v", s, g.Role(s), e)
			}
		}
	}
	for _, s := range []Seat{7, 10} {
		if v := g.View(s); v.Siblings != 0 || v.Met != 0 || v.Known[1] != NoRole {
			t.Fatalf("seat %d (%v) sees siblings %v met %v", s, g.Role(s), Seats(v.Siblings), Seats(v.Met))
		}
	}
	// A villager's stream and a sister's differ by the meeting alone: the
	// sister's has exactly one more event, tonight.
	if a, b := len(g.Stream(1, 0, nil)), len(g.Stream(10, 0, nil)); a != b+1 {
		t.Fatalf("the sister received %d events, the villager %d: want one more (the meeting)", a, b)
	}
}

// TestSiblingsNarration: the sisters are called in the setup group on
// night 1 (after the wild child), then as a group after the gravekeeper on
// their later nights (ROLES-MORE-2.md §5, both wake orders).
func TestSiblingsNarration(t *testing.T) {
	for _, order := range []uint8{SeerFirst, WolvesFirst} {
		g := dealtGame(t, map[Option]uint8{OptNightOrder: order}, Sister, Sister, Gravekeeper, Seer, Werewolf, Werewolf, Villager, Villager, Villager)
		want := map[int][]Role{1: {Sister, Seer, Werewolf, Gravekeeper}, 2: {Seer, Werewolf, Gravekeeper}, 3: {Seer, Werewolf, Gravekeeper, CallSisters}}
		if order == WolvesFirst {
			want = map[int][]Role{1: {Sister, Werewolf, Seer, Gravekeeper}, 2: {Werewolf, Seer, Gravekeeper}, 3: {Werewolf, Seer, Gravekeeper, CallSisters}}
		}
		for n := 1; n <= 3; n++ {
			if got := calledRoles(g.Narration(n)); !slices.Equal(got, want[n]) {
				t.Errorf("night_order %d, night %d calls %v, want %v", order, n, got, want[n])
			}
		}
	}
}
