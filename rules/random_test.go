package rules

import (
	"math/rand/v2"
	"testing"
)

// playRandom drives a game with random legal commands until it ends or
// maxCommands is reached; it returns the number of commands sent.
func playRandom(tb interface{ Fatalf(string, ...any) }, g *Game, r *rand.Rand, maxCommands int) int {
	var buf []Command
	n := 0
	for !g.over && n < maxCommands {
		actors := g.Pending()
		// Now and then a wolf who is not awaited may act (self-explosion).
		if r.IntN(16) == 0 || actors == 0 {
			actors = g.all
		}
		var cands [MaxSeats]Seat
		k := 0
		for s := Seat(1); s <= g.n; s++ {
			if actors&s.bit() != 0 {
				cands[k] = s
				k++
			}
		}
		if k == 0 {
			tb.Fatalf("no one can act at step %s", g.step)
		}
		s := cands[r.IntN(k)]
		buf = g.Legal(s, buf[:0])
		if len(buf) == 0 {
			if g.Pending()&s.bit() != 0 {
				tb.Fatalf("seat %d is awaited at %s but has no legal command", s, g.step)
			}
			continue
		}
		c := buf[r.IntN(len(buf))]
		if err := g.Do(c); err != nil {
			tb.Fatalf("legal command %v refused: %v", c, err)
		}
		n++
	}
	return n
}

func TestRandomGamesEnd(t *testing.T) {
	for _, p := range Presets() {
		for seed := uint64(0); seed < 300; seed++ {
			b, err := p.Board(0)
			if err != nil {
				t.Fatal(err)
			}
			g, err := New(b, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(seed, 7))
			playRandom(t, g, r, 5000)
			if !g.over {
				t.Fatalf("%s seed %d: not over after 5000 commands (step %s day %d)", p.Name, seed, g.step, g.day)
			}
		}
	}
}
