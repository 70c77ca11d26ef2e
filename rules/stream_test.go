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
	b.Options[OptNightOrder] = SeerFirst // the nights below are written in 000's order
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

// TestAllyCardTellsTheDeadNothing: the first dead names the wolves' ally;
// naming a wolf does nothing, but his own stream must read the same either
// way (the moderator's record of it is his alone).
func TestAllyCardTellsTheDeadNothing(t *testing.T) {
	p, _ := LookupPreset("std-12")
	b, _ := p.Board(12)
	if err := b.Options.Set("event_cards", "on"); err != nil {
		t.Fatal(err)
	}
	found := 0
	for seed := uint64(1); seed < 200 && found < 5; seed++ {
		g, _ := New(b, seed, nil)
		r := rand.New(rand.NewPCG(seed, 2))
		for steps := 0; steps < 2000; steps++ {
			if over, _ := g.Over(); over {
				break
			}
			if st, s := g.Step(); st == StepAlly {
				var wolf, good Seat
				for x := Seat(1); x <= 12; x++ {
					if x != s && g.Alive(x) && g.Role(x).IsWolf() && wolf == NoSeat {
						wolf = x
					}
					if x != s && g.Alive(x) && !g.Role(x).IsWolf() && good == NoSeat {
						good = x
					}
				}
				if wolf == NoSeat || good == NoSeat {
					break
				}
				found++
				for _, target := range []Seat{wolf, good} {
					fork, err := Replay(b, seed, g.Events())
					if err != nil {
						t.Fatal(err)
					}
					before := len(fork.Stream(s, 0, nil))
					if err := fork.Do(Command{Seat: s, Kind: CmdAlly, Target: target}); err != nil {
						t.Fatal(err)
					}
					for _, e := range fork.Stream(s, before, nil) {
						if e.Kind == EvAlly && (e.Value != 0 || e.To != s.bit() || e.Public) {
							t.Fatalf("seed %d: naming %s, the dead seat %d reads %+v", seed, fork.Role(target), s, e)
						}
					}
				}
				break
			}
			legal := g.Legal(firstPending(g), nil)
			if err := g.Do(legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if found == 0 {
		t.Fatal("no game reached the ally card")
	}
}

func firstPending(g *Game) Seat {
	p := g.Pending()
	for s := Seat(1); s <= MaxSeats; s++ {
		if p&s.bit() != 0 {
			return s
		}
	}
	return NoSeat
}
