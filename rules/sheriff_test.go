package rules

import (
	"fmt"
	"slices"
	"testing"
)

// signupTold is what seat s was told since the signup opened, as text.
func signupTold(g *Game, s Seat) []string {
	var out []string
	in := false
	for _, e := range g.Stream(s, 0, nil) {
		if e.Kind == EvStep && Step(e.Value) == StepSignup {
			in = true
			continue
		}
		if in {
			out = append(out, e.String())
		}
	}
	return out
}

// TestHandsForTheSheriffGoUpTogether: the table raises its hands at once
// (上警), so a seat that stands or stays out is told so alone, the others
// hear nothing of it until the signup closes, and then every candidate is
// shown together, in seat order. A villager and a wolf hear the same.
func TestHandsForTheSheriffGoUpTogether(t *testing.T) {
	g := std12(t, nil)
	play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 9})
	wolvesAttack(t, g, 5)
	play(t, g, Command{Seat: 2, Kind: CmdSkip})
	if st, _ := g.Step(); st != StepSignup {
		t.Fatalf("at %s, want the signup", st)
	}
	play(t, g, Command{Seat: 7, Kind: CmdRun}, Command{Seat: 10, Kind: CmdSkip})

	if got := signupTold(g, 7); !slices.Equal(got, []string{"run 7"}) {
		t.Fatalf("the villager who stood was told %q, want his own hand only", got)
	}
	if got := signupTold(g, 10); !slices.Equal(got, []string{"skip 10"}) {
		t.Fatalf("the wolf who stayed out was told %q, want his own hand only", got)
	}
	for _, s := range []Seat{6, 11} { // a villager and a wolf who have not chosen
		if got := signupTold(g, s); len(got) != 0 {
			t.Fatalf("seat %d was told %q before choosing, want nothing", s, got)
		}
		if c := g.View(s).Candidates; c != 0 {
			t.Fatalf("seat %d sees candidates %v before the signup closes", s, Seats(c))
		}
	}
	if c := g.View(7).Candidates; c != Mask(7) {
		t.Fatalf("the candidate sees candidates %v, want himself", Seats(c))
	}

	play(t, g, Command{Seat: 3, Kind: CmdRun})
	g.Timeout() // the others stay out
	for _, s := range []Seat{6, 11} {
		told := signupTold(g, s)
		want := []string{fmt.Sprintf("skip %d", s), "run 3", "run 7"}
		if len(told) < 3 || !slices.Equal(told[:3], want) {
			t.Fatalf("seat %d was told %q at the close, want %q first", s, told, want)
		}
		if c := g.View(s).Candidates; c != Mask(3, 7) {
			t.Fatalf("seat %d sees candidates %v after the close, want [3 7]", s, Seats(c))
		}
	}
	// The client tells a seat's own hand from its publication by Value, as
	// it does a secret ballot's.
	for _, e := range g.Stream(7, 0, nil) {
		if e.Kind == EvRun && e.Public != (e.Value == 1) {
			t.Fatalf("%v: public %v with value %d; want value 1 on the published copies only", e.String(), e.Public, e.Value)
		}
	}
	r, err := Replay(g.Board(), g.Seed(), g.Events())
	if err != nil {
		t.Fatal(err)
	}
	if r.View(6).Candidates != Mask(3, 7) {
		t.Fatalf("the replayed game's candidates %v, want [3 7]", Seats(r.View(6).Candidates))
	}
}
