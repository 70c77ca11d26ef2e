package rules

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkStd12RandomGame plays whole std-12 games with random legal
// choices: the deal, every command, and the moderator's resolution.
func BenchmarkStd12RandomGame(b *testing.B) {
	p, _ := LookupPreset("std-12")
	board, _ := p.Board(0)
	r := rand.New(rand.NewPCG(1, 2))
	var buf []Choice
	b.ReportAllocs()
	cmds := 0
	for i := 0; i < b.N; i++ {
		g, err := New(board, uint64(i), nil)
		if err != nil {
			b.Fatal(err)
		}
		cmds += randomGame(g, r, &buf)
	}
	b.ReportMetric(float64(cmds)/float64(b.N), "cmds/game")
}

// randomGame plays to the end: an awaited seat, one of its choices (no
// claims), one of the choice's targets, all at random. It returns the commands sent.
func randomGame(g *Game, r *rand.Rand, buf *[]Choice) int {
	n := 0
	for !g.over {
		s := nth(g.Pending(), r.IntN(popcount(g.Pending())))
		*buf = g.Choices(s, (*buf)[:0])
		// Random play makes no claims, as random bots: Choices lists them last
		// but for a self-explosion.
		k := 0
		for _, c := range *buf {
			if c.Kind != CmdClaim {
				(*buf)[k] = c
				k++
			}
		}
		ch := (*buf)[r.IntN(k)]
		c := Command{Seat: s, Kind: ch.Kind, Value: ch.Value}
		if ch.Pick != 0 {
			c.Mask = randomSubset(r, ch.Targets, ch.Pick)
			if g.Do(c) != nil {
				panic("legal command refused")
			}
			n++
			continue
		}
		k = popcount(ch.Targets)
		if ch.NoTarget {
			k++
		}
		if i := r.IntN(k); i < popcount(ch.Targets) {
			c.Target = nth(ch.Targets, i)
		}
		if g.Do(c) != nil {
			panic("legal command refused")
		}
		n++
	}
	return n
}

// nth is the i-th seat (from 0) of a mask.
func nth(m uint32, i int) Seat {
	for s := Seat(1); s <= MaxSeats; s++ {
		if m&s.bit() != 0 {
			if i == 0 {
				return s
			}
			i--
		}
	}
	return NoSeat
}

// BenchmarkPresetsRandomGame plays whole random games on every preset at its
// usual size, one Game reset for each game as the simulator does, part-2
// roles included (new-moon: piper, elder, scapegoat,
// idiot, guard, event cards; forum: cupid, black lovers, camp judging).
func BenchmarkPresetsRandomGame(b *testing.B) {
	for _, p := range Presets() {
		n := max(p.MinPlayers, min(12, p.MaxPlayers))
		board, err := p.Board(n)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p.Name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			var buf []Choice
			g := new(Game)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := g.Reset(board, uint64(i), nil); err != nil {
					b.Fatal(err)
				}
				randomGame(g, r, &buf)
			}
		})
	}
}

// randomSubset draws pick seats of m (AnySubset: each seat with even odds).
func randomSubset(r *rand.Rand, m uint32, pick int8) uint32 {
	if pick == AnySubset {
		return m & r.Uint32()
	}
	var out uint32
	for i := int8(0); i < pick; i++ {
		s := nth(m&^out, r.IntN(popcount(m&^out)))
		out |= s.bit()
	}
	return out
}
