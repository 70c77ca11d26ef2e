package rules

import (
	"slices"
	"testing"
)

// The secrets of std-12-eternal's roles (ROLES-MORE-2.md 蚀时狼妃, 定序王子):
// the shelter is the queen's alone, a rebound tells nobody it happened (the
// caster's result looks as if it had landed, the queen is not told it spent
// her shelter), and the prince's window looks the same from every seat.

var eternalDeal = []Role{Seer, Witch, Guard, SequencePrince, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, EclipseWolfQueen}

// eternalNight plays night 1 of std-12-eternal: the queen shelters the
// wolf 9, the seer checks seer, the guard protects 5, the pack attacks 6.
func eternalNight(t *testing.T, seer Seat) *Game {
	t.Helper()
	g := presetGame(t, "std-12-eternal", eternalDeal)
	g.board.Options[OptSeerSees] = SeesWolfOrNot
	play(t, g, Command{Seat: 12, Kind: CmdShelter, Target: 9})
	play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: seer}, Command{Seat: 3, Kind: CmdProtect, Target: 5})
	for w := Seat(9); w <= 12; w++ {
		play(t, g, Command{Seat: w, Kind: CmdAttack, Target: 6})
	}
	play(t, g, Command{Seat: 2, Kind: CmdSkip})
	return g
}

// TestTheShelterAndItsReboundTellNobody: the shelter is told to the queen
// alone; the seer whose check of the sheltered wolf rebounded is told the
// seat he named with his own reading, as a check of a good player reads;
// the queen, the sheltered wolf and the pack are told exactly the same
// whether a power rebounded or not, that night and when the next falls
// (the spent shelter changes nothing she sees, nor what she may name).
func TestTheShelterAndItsReboundTellNobody(t *testing.T) {
	rebound, plain := eternalNight(t, 9), eternalNight(t, 7)
	for s := Seat(1); s <= 12; s++ {
		if toldKind(rebound, s, EvShelter) != (s == 12) {
			t.Fatalf("seat %d (%s) told of the shelter", s, rebound.Role(s))
		}
	}
	if x := told(rebound, 1, EvCheck); len(x) != 1 || x[0].Target != 9 || x[0].Value != ResultGood {
		t.Fatalf("the seer's rebounded check: %v, want seat 9 read as good", x)
	}
	if a, b := told(rebound, 1, EvCheck)[0], told(plain, 1, EvCheck)[0]; a.Value != b.Value || a.Role != b.Role {
		t.Fatalf("the rebounded check %v reads otherwise than a check of a villager %v", a, b)
	}
	if !rebound.rebounded {
		t.Fatal("the seer's check of the sheltered did not rebound")
	}
	if a, b := kinds(rebound, 9), kinds(rebound, 10); !slices.Equal(a, b) {
		t.Fatalf("the sheltered wolf was told %v, his mate %v", a, b)
	}
	// To the dawn and the next night's shelter stage.
	for _, g := range []*Game{rebound, plain} {
		g.Timeout()
		for g.step != StepEclipse && !g.over {
			g.Timeout()
		}
	}
	if !rebound.riftClosed || plain.riftClosed {
		t.Fatalf("the shelter spent: %v after a rebound, %v without", rebound.riftClosed, plain.riftClosed)
	}
	for _, s := range []Seat{9, 10, 11, 12} {
		a, b := rebound.Stream(s, 0, nil), plain.Stream(s, 0, nil)
		if !slices.Equal(a, b) {
			t.Fatalf("seat %d (%s) was told %v after a rebound, %v without", s, rebound.Role(s), a, b)
		}
	}
	if a, b := rebound.Choices(12, nil), plain.Choices(12, nil); !slices.Equal(a, b) {
		t.Fatalf("the queen may do %v with her shelter spent, %v with it whole", a, b)
	}
}

// TestThePrincesWindowLooksTheSameToEverySeat: the window after the first
// exile vote is the same public step for every living player, whoever holds
// the prince's card; a pass is told to the one who passed alone, so that
// nobody learns who is still awaited; the rewind is public.
func TestThePrincesWindowLooksTheSameToEverySeat(t *testing.T) {
	g := eternalNight(t, 7)
	g.Timeout() // to the day
	for g.step != StepVote && !g.over {
		g.Timeout()
	}
	for _, v := range Seats(g.voters(StepVote)) {
		play(t, g, Command{Seat: v, Kind: CmdVote, Target: 9})
	}
	if g.step != StepRewind {
		t.Fatalf("after the first exile vote the step is %s, want rewind", g.step)
	}
	if g.Pending() != g.pubAlive {
		t.Fatalf("the window awaits %v, want every living player %v", Seats(g.Pending()), Seats(g.pubAlive))
	}
	a, b := g.Stream(4, 0, nil), g.Stream(7, 0, nil)
	wa, wb := a[len(a)-1], b[len(b)-1]
	wa.Seq, wb.Seq = 0, 0
	if wa != wb || wa.Kind != EvStep || Step(wa.Value) != StepRewind {
		t.Fatalf("the window opened to the prince as %v, to a villager as %v", wa, wb)
	}
	play(t, g, Command{Seat: 1, Kind: CmdSkip}, Command{Seat: 5, Kind: CmdSkip})
	if n4, n7 := len(g.Stream(4, 0, nil)), len(g.Stream(7, 0, nil)); n4 != len(a) || n7 != len(b) {
		t.Fatalf("the others' passes were told: the prince has %d events (%d before), a villager %d (%d)", n4, len(a), n7, len(b))
	}
	if c := g.Choices(7, nil); len(c) != 1 || c[0].Kind != CmdSkip {
		t.Fatalf("a villager may %v in the window, want only pass", c)
	}
	if !slices.ContainsFunc(g.Choices(4, nil), func(c Choice) bool { return c.Kind == CmdRewind }) {
		t.Fatal("the prince may not rewind in the window")
	}
	play(t, g, Command{Seat: 4, Kind: CmdRewind})
	for s := Seat(1); s <= 12; s++ {
		if x := told(g, s, EvRewind); len(x) != 1 || x[0].Seat != 4 {
			t.Fatalf("seat %d was told the rewind as %v", s, x)
		}
	}
}
