package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStreamHidesTheCountOfSecrets: a villager's stream up to the sheriff
// campaign is the same whether the night killed nobody, one or two players,
// and whatever the wolves and the witch did: not even the number of his
// events tells him.
func TestStreamHidesTheCountOfSecrets(t *testing.T) {
	p, _ := LookupPreset("std-12")
	b, _ := p.Board(0)
	deal := []Role{Seer, Witch, Hunter, Idiot, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, Werewolf}
	nights := [][]Command{
		{{Seat: 9, Kind: CmdSkip}, {Seat: 10, Kind: CmdSkip}, {Seat: 11, Kind: CmdSkip}, {Seat: 12, Kind: CmdSkip}, {Seat: 2, Kind: CmdSkip}},
		{{Seat: 9, Kind: CmdAttack, Target: 5}, {Seat: 10, Kind: CmdAttack, Target: 6}, {Seat: 11, Kind: CmdAttack, Target: 5}, {Seat: 12, Kind: CmdAttack, Target: 5}, {Seat: 2, Kind: CmdSkip}},
		{{Seat: 9, Kind: CmdAttack, Target: 5}, {Seat: 10, Kind: CmdAttack, Target: 5}, {Seat: 11, Kind: CmdAttack, Target: 5}, {Seat: 12, Kind: CmdAttack, Target: 5}, {Seat: 2, Kind: CmdPoison, Target: 6}},
	}
	var want []Event
	for i, night := range nights {
		g, err := New(b, 1, deal)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Do(Command{Seat: 1, Kind: CmdCheck, Target: 7}); err != nil {
			t.Fatal(err)
		}
		for _, c := range night {
			if err := g.Do(c); err != nil {
				t.Fatal(err)
			}
		}
		if st, _ := g.Step(); st != StepSignup {
			t.Fatalf("night %d: at %s, want signup", i, st)
		}
		got := g.Stream(7, 0, nil)
		for j, e := range got {
			if e.Seq != int32(j+1) {
				t.Fatalf("event %d of the stream is numbered %d", j+1, e.Seq)
			}
		}
		if i == 0 {
			want = got
			continue
		}
		if !slices.Equal(got, want) {
			t.Fatalf("night variant %d: seat 7 receives\n%v\nwhere a peaceful night gives\n%v", i, got, want)
		}
	}
	if last := want[len(want)-1]; last.Kind != EvStep || Step(last.Value) != StepSignup {
		t.Fatalf("the stream should end with the signup step, got %v", last)
	}
}

// TestStreamResumesFromAnyPoint: a client that has n events gets exactly
// the rest, numbered from n+1.
func TestStreamResumesFromAnyPoint(t *testing.T) {
	p, _ := LookupPreset("std-9")
	b, _ := p.Board(0)
	g, _ := New(b, 3, nil)
	all := g.Stream(4, 0, nil)
	for n := range all {
		rest := g.Stream(4, n, nil)
		if !slices.Equal(rest, all[n:]) {
			t.Fatalf("from %d: got %v, want %v", n, rest, all[n:])
		}
	}
}

// TestUpdateViewMatchesView: a view kept up to date move after move is the
// view built afresh, for every seat at every moment of random games.
func TestUpdateViewMatchesView(t *testing.T) {
	for _, p := range Presets() {
		b, _ := p.Board(0)
		g, _ := New(b, 5, nil)
		kept := make([]View, g.n+1)
		for s := range kept {
			kept[s].Seat = Seat(s)
		}
		r := rand.New(rand.NewPCG(5, 5))
		for !g.over {
			playRandom(t, g, r, 1)
			for s := Seat(1); s <= g.n; s++ {
				g.UpdateView(&kept[s])
				if fresh := g.View(s); kept[s] != fresh {
					t.Fatalf("%s seat %d at %s: kept %+v, fresh %+v", p.Name, s, g.step, kept[s], fresh)
				}
			}
		}
	}
}
