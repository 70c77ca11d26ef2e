package sim

import (
	"context"
	"testing"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/rules"
)

// benchStd12 simulates b.N std-12 games on one worker: the deal, the bots
// (made afresh for each game), every command, and the counting.
func benchStd12(b *testing.B, level bot.Level) {
	cfg := Config{Boards: []Board{preset(b, "std-12", 0)}, Games: b.N, Seed: 1, Workers: 1, Bots: AllAt(level)}
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := Run(context.Background(), cfg); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func BenchmarkRandomStd12(b *testing.B) { benchStd12(b, bot.Random) }

func BenchmarkSmartStd12(b *testing.B) { benchStd12(b, bot.Smart) }

// BenchmarkTally is the simulator's own cost per game: counting a finished
// std-12 game (one walk over its log).
func BenchmarkTally(b *testing.B) {
	board := preset(b, "std-12", 0).Board
	g, err := rules.New(board, 1, nil)
	if err != nil {
		b.Fatal(err)
	}
	bots := make([]bot.Bot, g.Players())
	for s := range bots {
		bots[s], _ = bot.New(bot.Random, rules.Seat(s+1), len(bots), bot.Seed(1, rules.Seat(s+1)))
	}
	if _, err := bot.Play(g, bots); err != nil {
		b.Fatal(err)
	}
	var t tally
	b.ReportAllocs()
	for b.Loop() {
		t.add(g)
	}
	b.ReportMetric(float64(len(g.Events())), "events/game")
}
