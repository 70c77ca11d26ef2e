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

// TestNightOrderCalls: the narration follows night_order. Under
// wolves_first (the 狼人杀 presets) the table hears 守卫 → 狼人 → 女巫 →
// 预言家; under seer_first (000: classic, new-moon) the seer comes before the
// wolves. Both lists hold the same calls.
func TestNightOrderCalls(t *testing.T) {
	cards := []Role{Werewolf, Werewolf, Werewolf, WhiteWolfKing, Seer, Witch, Hunter, Guard, Villager, Villager, Villager, Villager}
	for _, tc := range []struct {
		order string
		want  []Role
	}{
		{"seer_first", []Role{Guard, Seer, Werewolf, Witch}},
		{"wolves_first", []Role{Guard, Werewolf, Witch, Seer}},
	} {
		b := Board{Cards: cards}
		if err := b.Options.Set("night_order", tc.order); err != nil {
			t.Fatal(err)
		}
		g, err := New(b, 1, cards)
		if err != nil {
			t.Fatal(err)
		}
		if got := calledRoles(g.Narration(1)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: night 1 calls %v, want %v", tc.order, got, tc.want)
		}
	}
	// wolvesFirstCalls is nightCalls with the checkers moved after the witch.
	var moved, rest []Role
	for _, r := range nightCalls {
		if hooksOf(r).lateCheck {
			moved = append(moved, r)
		} else {
			rest = append(rest, r)
		}
	}
	w := slices.Index(rest, Witch) + 1
	want := slices.Concat(rest[:w], moved, rest[w:])
	if !slices.Equal(wolvesFirstCalls[:], want) {
		t.Errorf("wolvesFirstCalls = %v, want %v", wolvesFirstCalls, want)
	}
}

// TestNightOrderPresets: wolves_first is the default of the 狼人杀 presets,
// seer_first that of classic, new-moon, mh-angel and the AIWolf regulations.
func TestNightOrderPresets(t *testing.T) {
	for _, p := range Presets() {
		want := "wolves_first"
		switch p.Name {
		case "classic", "new-moon", "mh-angel", "aiwolf-5", "aiwolf-13":
			want = "seer_first"
		}
		if got := p.Options.Get(OptNightOrder); got != want {
			t.Errorf("preset %s: night_order=%s, want %s", p.Name, got, want)
		}
	}
}
