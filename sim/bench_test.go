package sim

import (
	"context"
	"fmt"
	"testing"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/rules"
)

// benchStd12 simulates b.N std-12 games on one worker: the deal, the bots
// (the worker's, reset for each game), every command, and the counting.
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

// scaledStd12 is std-12 grown or shrunk to n players: a third of them
// wolves, the same four gods (seer, witch, hunter, idiot), villagers for
// the rest, std-12's options. It measures how a bot's cost grows with the
// table, the cards staying alike.
func scaledStd12(b *testing.B, n int) Board {
	std := preset(b, "std-12", 0)
	cards := make([]rules.Role, 0, n)
	for range n / 3 {
		cards = append(cards, rules.Werewolf)
	}
	cards = append(cards, rules.Seer, rules.Witch, rules.Hunter, rules.Idiot)
	for len(cards) < n {
		cards = append(cards, rules.Villager)
	}
	name := fmt.Sprintf("std-%d", n)
	return Board{Name: name, Source: "bench", Board: rules.Board{Cards: cards, Options: std.Board.Options}}
}

// benchPlayers simulates b.N games of the scaled std-12 at 8, 12, 16 and 20
// players on one worker, reporting games/s, the events of a game (averaged
// over the run's first 200 games, played before the clock starts) and the
// time per event: a cost linear in the length of the game keeps ns/event
// flat as the table grows.
func benchPlayers(b *testing.B, level bot.Level) {
	for _, n := range []int{8, 12, 16, 20} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			cfg := Config{Boards: []Board{scaledStd12(b, n)}, Games: b.N, Seed: 1, Workers: 1, Bots: AllAt(level)}
			events := eventsPerGame(b, &cfg, 200)
			b.ReportAllocs()
			b.ResetTimer()
			if _, err := Run(context.Background(), cfg); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(events, "events/game")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/events, "ns/event")
		})
	}
}

// eventsPerGame is the mean length of the log over the first games of
// cfg's first board, played as Run plays them.
func eventsPerGame(b *testing.B, cfg *Config, games int) float64 {
	p := newPlayer(cfg, make([]tally, 1))
	total := 0
	for i := range games {
		if err := p.play(0, i); err != nil {
			b.Fatal(err)
		}
		total += len(p.game.Events())
	}
	return float64(total) / float64(games)
}

func BenchmarkRandomPlayers(b *testing.B) { benchPlayers(b, bot.Random) }

func BenchmarkSmartPlayers(b *testing.B) { benchPlayers(b, bot.Smart) }
