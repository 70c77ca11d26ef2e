package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/sqlite"
	"github.com/wolfden/wolfden/rules"
)

// restoreTimers stall a game wherever its one human is awaited by day (an
// hour to speak or vote), while the nights (5 ms slots) and the bots (no
// pause) move on at once.
var restoreTimers = map[string]string{"setup": "5ms", "night": "5ms", "witch": "5ms",
	"speech": "1h", "vote": "1h", "other": "1h", "bot": "0s"}

// restoreDay is the day up to which the human plays before leaving.
const restoreDay = 2

// BenchmarkRestore1000 times a server's Restore of 1,000 running std-12
// games from SQLite: what a restart costs before it serves again.
//
// The store is filled through a real server: in each room seat 1 is a
// human (a villager, chosen by the seed, so that the nights never wait for
// him) and the eleven others are the server's bots. The human plays random
// legal choices over a WebSocket until day 2, then leaves; the game goes on
// until he is awaited by day, where an hour-long timer holds it. Games that
// end first are not counted; rooms are made until 1,000 are held.
func BenchmarkRestore1000(b *testing.B) {
	const games = 1000
	path := filepath.Join(b.TempDir(), "restore.db")
	t0 := time.Now()
	recs, events := fillRestoreStore(b, path, games)
	info, _ := os.Stat(path)
	size := int64(0)
	if info != nil {
		size = info.Size()
	}
	b.Logf("filled in %v: %d running games, %.1f records and %.0f events a game, database %.1f MB",
		time.Since(t0).Round(time.Millisecond), games, float64(recs)/games, float64(events)/games, float64(size)/1e6)

	ctx := context.Background()
	var took time.Duration
	for b.Loop() {
		b.StopTimer()
		st, err := sqlite.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		s := New(st, Options{})
		b.StartTimer()
		start := time.Now()
		n, err := s.Restore(ctx)
		took += time.Since(start)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if n != games {
			b.Fatalf("restored %d games, want %d", n, games)
		}
		s.Stop()
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(games*b.N)/took.Seconds(), "games/s")
	b.ReportMetric(float64(recs)/games, "records/game")
}

// fillRestoreStore makes n running, stalled games in a new SQLite file and
// returns the records and events they hold.
func fillRestoreStore(b *testing.B, path string, n int) (recs, events int) {
	b.Helper()
	st, err := sqlite.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	s := New(st, Options{})
	hs := httptest.NewServer(s)
	api := &client.API{Base: hs.URL}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	seeds := restoreSeeds(ctx)
	// slots bounds the games kept plus the games being made, so that
	// exactly n are kept.
	var kept, slots atomic.Int64
	var firstErr error
	var errOnce sync.Once
	fail := func(err error) { errOnce.Do(func() { firstErr = err; cancel() }) }
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for ctx.Err() == nil {
				if slots.Add(1) > int64(n) {
					slots.Add(-1)
					if kept.Load() >= int64(n) {
						return
					}
					time.Sleep(10 * time.Millisecond)
					continue
				}
				var seed uint64
				select {
				case seed = <-seeds:
				case <-ctx.Done():
					return
				}
				ok, err := restoreGame(ctx, s, api, hs.URL, seed)
				if err != nil {
					fail(err)
					return
				}
				if ok {
					kept.Add(1)
				} else {
					slots.Add(-1)
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		b.Fatal(firstErr)
	}
	// The games that ended store their end from a goroutine of their own:
	// wait until the store holds exactly the games kept as running.
	for {
		running, err := st.Rooms(ctx, store.StatusRunning)
		if err != nil {
			b.Fatal(err)
		}
		if len(running) == n {
			for _, r := range running {
				rs, err := st.Records(ctx, r.ID)
				if err != nil {
					b.Fatal(err)
				}
				recs += len(rs)
				for _, x := range rs {
					events += len(x.Events)
				}
			}
			break
		}
		if ctx.Err() != nil {
			b.Fatalf("%d running games in the store, want %d", len(running), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	hs.Close()
	s.Stop()
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
	return recs, events
}

// restoreSeeds yields the seeds that deal seat 1 a villager in std-12.
func restoreSeeds(ctx context.Context) <-chan uint64 {
	p, err := rules.LookupPreset("std-12")
	if err != nil {
		panic(err)
	}
	board, err := p.Board(12)
	if err != nil {
		panic(err)
	}
	out := make(chan uint64)
	go func() {
		for seed := uint64(1); ; seed++ {
			g, err := rules.New(board, seed, nil)
			if err != nil {
				panic(err)
			}
			if g.Role(1) != rules.Villager {
				continue
			}
			select {
			case out <- seed:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// restoreGame makes one game and reports whether it is running, stalled on
// its absent human, once he has left.
func restoreGame(ctx context.Context, s *Server, api *client.API, base string, seed uint64) (bool, error) {
	var c client.Created
	body := map[string]any{"preset": "std-12", "seed": seed, "practice": true, "nickname": "human", "timers": restoreTimers}
	if err := api.Do(ctx, "POST", "/api/rooms", "", body, &c); err != nil {
		return false, err
	}
	if err := api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		return false, err
	}
	conn, err := client.Dial(ctx, base, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		return false, err
	}
	var role string
	r := rand.New(rand.NewPCG(seed, 1))
	st, err := conn.PlayRandom(ctx, r, func(f client.Frame) bool {
		if f.Type == "state" && f.Role != "" {
			role = f.Role
		}
		var day struct{ Day int }
		if f.Type == "state" {
			_ = json.Unmarshal(f.Raw, &day)
		}
		return day.Day >= restoreDay
	})
	_ = conn.Kill()
	if err != nil {
		return false, fmt.Errorf("seed %d: %v", seed, err)
	}
	if role != rules.Villager.String() {
		return false, fmt.Errorf("seed %d: seat 1 is a %s, not a villager", seed, role)
	}
	if st.Winner != "" {
		return false, nil
	}
	// Let the bots play on until the game waits for the human (nothing
	// changes for a while) or ends.
	s.mu.Lock()
	rm := s.rooms[c.Room.ID]
	s.mu.Unlock()
	rm.mu.Lock()
	a := rm.actor
	rm.mu.Unlock()
	var last game.Status
	for same := 0; same < 5; {
		if err := sleepOrDone(ctx, 20*time.Millisecond); err != nil {
			return false, err
		}
		now, err := a.Status()
		if err != nil {
			return false, err
		}
		if now.Over {
			return false, nil
		}
		if now == last {
			same++
		} else {
			last, same = now, 0
		}
	}
	return true, nil
}

func sleepOrDone(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
