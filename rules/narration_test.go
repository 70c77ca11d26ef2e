package rules

import (
	"slices"
	"testing"
)

func calledRoles(calls []Call) []Role {
	var out []Role
	for _, c := range calls {
		if c.Key == "role.open" {
			out = append(out, c.Role)
		}
	}
	return out
}

// TestNarrateAbsentRoles: narrate_absent_roles=on calls every role of the
// board, dead ones too, so that silence tells nothing; off calls only the
// roles still in play. The first-night calls (thief, cupid, lovers) come on
// night 1 only.
func TestNarrateAbsentRoles(t *testing.T) {
	b := Board{Cards: []Role{Werewolf, Werewolf, Seer, Witch, Cupid, Thief, Villager, Villager, Villager, Villager}}
	deal := []Role{Werewolf, Werewolf, Seer, Witch, Cupid, Thief, Villager, Villager, Villager, Villager}
	for _, absent := range []bool{false, true} {
		b.Options[OptNarrateAbsentRoles] = 0
		if absent {
			b.Options[OptNarrateAbsentRoles] = On
		}
		g, err := New(b, 1, deal)
		if err != nil {
			t.Fatal(err)
		}
		night1 := calledRoles(g.Narration(1))
		want1 := []Role{Thief, Cupid, CallLovers, Seer, Werewolf, Witch}
		if !slices.Equal(night1, want1) {
			t.Errorf("absent=%v night 1 calls %v, want %v", absent, night1, want1)
		}
		// Kill the seer: the witch poisons her on night 1.
		for _, c := range []Command{{Seat: 6, Kind: CmdSkip}, {Seat: 5, Kind: CmdSkip}, {Seat: 3, Kind: CmdSkip},
			{Seat: 1, Kind: CmdSkip}, {Seat: 2, Kind: CmdSkip}, {Seat: 4, Kind: CmdPoison, Target: 3}} {
			if err := g.Do(c); err != nil {
				t.Fatalf("%v: %v", c, err)
			}
		}
		if g.Alive(3) {
			t.Fatal("the seer should be dead")
		}
		night2 := calledRoles(g.Narration(2))
		want2 := []Role{Werewolf, Witch}
		if absent {
			want2 = []Role{Seer, Werewolf, Witch}
		}
		if !slices.Equal(night2, want2) {
			t.Errorf("absent=%v night 2 calls %v, want %v (the seer is dead)", absent, night2, want2)
		}
	}
}
