package rules

import (
	"slices"
	"testing"
)

// TestMirrorSeerStreamLooksLikeTheSeers: the mirror seer must not learn his
// card (ROLES-MORE-2.md 灯影预言家). Played with a true seer through the same
// night, each checking a wolf, the two seats receive streams alike event for
// event but for the seat and the result: the same kinds, the role and the
// wake both saying seer, under both wake orders; and the narration calls the
// seer alone.
func TestMirrorSeerStreamLooksLikeTheSeers(t *testing.T) {
	for _, order := range []uint8{SeerFirst, WolvesFirst} {
		g := dealtGame(t, map[Option]uint8{OptNightOrder: order, OptSeerSees: SeesWolfOrNot},
			MirrorSeer, Seer, Witch, Villager, Villager, Villager, Werewolf, Werewolf, Villager)
		if order == SeerFirst {
			play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 7}, Command{Seat: 2, Kind: CmdCheck, Target: 7})
		}
		play(t, g, Command{Seat: 7, Kind: CmdAttack, Target: 9}, Command{Seat: 8, Kind: CmdAttack, Target: 9},
			Command{Seat: 3, Kind: CmdSkip})
		if order == WolvesFirst {
			play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 7}, Command{Seat: 2, Kind: CmdCheck, Target: 7})
		}
		mirror, seer := g.Stream(1, 0, nil), g.Stream(2, 0, nil)
		if len(mirror) != len(seer) {
			t.Fatalf("order %d: the mirror seer received %d events, the seer %d", order, len(mirror), len(seer))
		}
		for i := range mirror {
			m, s := mirror[i], seer[i]
			if m.Kind != s.Kind || m.Role != s.Role || m.Public != s.Public || m.Value != s.Value && m.Kind != EvCheck {
				t.Fatalf("order %d, event %d: the mirror seer got %v, the seer %v", order, i, m, s)
			}
		}
		if v := g.View(1); v.Role != Seer || v.Known[1] != Seer || v.Checks[7] != 1 {
			t.Fatalf("order %d: the mirror seer's view: role %v, checks %v", order, v.Role, v.Checks[7])
		}
		if g.Role(1) != MirrorSeer {
			t.Fatalf("the moderator holds seat 1 as %v", g.Role(1))
		}
		for n := 1; n <= 2; n++ {
			calls := calledRoles(g.Narration(n))
			if slices.Contains(calls, MirrorSeer) || !slices.Contains(calls, Seer) {
				t.Fatalf("order %d night %d calls %v: want the seer's call, never the mirror seer's", order, n, calls)
			}
		}
	}
}

// TestMirrorSeerIsCalledAsTheSeer: a board with a mirror seer and no seer
// still calls "seer", so that his card is not named by the narration.
func TestMirrorSeerIsCalledAsTheSeer(t *testing.T) {
	g := dealtGame(t, nil, MirrorSeer, Witch, Villager, Villager, Werewolf, Werewolf, Villager)
	if calls := calledRoles(g.Narration(1)); !slices.Equal(calls, []Role{Seer, Werewolf, Witch}) {
		t.Fatalf("night 1 calls %v, want seer, wolves, witch", calls)
	}
}

// TestMirrorSeerRefusesTheThief: the thief would see a mirror seer's card in
// the middle as it is; the board is refused, naming both.
func TestMirrorSeerRefusesTheThief(t *testing.T) {
	b := Board{Cards: []Role{MirrorSeer, Thief, Werewolf, Werewolf, Villager, Villager, Villager, Villager}}
	if err := b.Validate(); err == nil || err.Error() != "rules: the thief (小偷) and the mirror seer (灯影预言家) do not play together" {
		t.Fatalf("got %v", err)
	}
}
