package game

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
)

// BenchmarkLiveGameMemory measures what a live game holds in the server,
// connections apart: 1,000 std-12 games, eleven bots and one absent player
// each, paused mid-game on a long timer. Reports heap bytes per game.
func BenchmarkLiveGameMemory(b *testing.B) {
	p := std12(&testing.T{})
	tm := Timers{Setup: 10 * time.Millisecond, Night: 10 * time.Millisecond, Witch: 10 * time.Millisecond,
		Speech: time.Hour, Vote: time.Hour, Other: time.Hour}
	const games = 1000
	for i := 0; i < b.N; i++ {
		st := discard{memory.New()} // records go to disk in the server, not to its heap
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		actors := make([]*Actor, games)
		for g := range actors {
			cfg := Config{Board: p, Seed: uint64(g), Timers: tm, Bots: 0x1ffe &^ 2}
			a, err := Start(context.Background(), fmt.Sprint(g), cfg, st, Hooks{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			actors[g] = a
		}
		time.Sleep(500 * time.Millisecond) // the games reach day 1, where they wait an hour
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/games, "heap-bytes/game")
		b.ReportMetric(float64(after.StackInuse-before.StackInuse)/games, "stack-bytes/game")
		for _, a := range actors {
			a.Stop()
		}
	}
}

// discard is a store that keeps no records, as a database on disk does not
// in the server's memory.
type discard struct{ *memory.Store }

func (discard) Append(context.Context, string, ...store.Record) error { return nil }
