package rules

import "testing"

// Helpers of the secrecy tests that play a fixed deal: each seat's card is
// named, so that a test can say which seat is told what.

// dealtGame starts a game of the cards deal, dealt in that order (seat 1
// the first): every option at its default (its first value) but those opts
// sets.
func dealtGame(t *testing.T, opts map[Option]uint8, deal ...Role) *Game {
	t.Helper()
	b := Board{Cards: deal}
	for o, v := range opts {
		b.Options[o] = v
	}
	g, err := New(b, 1, deal)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// told lists the events of kind k in seat s's stream: what he was told of
// that kind.
func told(g *Game, s Seat, k EventKind) []Event {
	var out []Event
	for _, e := range g.Stream(s, 0, nil) {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}
