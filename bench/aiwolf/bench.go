// Package aiwolf measures wolfden's AIWolf (人狼知能) gateway: 5-player
// games of K concurrent instant agents (internal/aiwolf/agent) over
// loopback WebSockets against an in-process server whose store is a real
// SQLite file, every request and reply stored as in production. It reports
// games per second, the requests' latency as the gateway logged it (from
// the request's write to its reply's read) and the heap before and after.
// `wolfden bench aiwolf` runs it; BenchmarkGames is its `go test -bench`.
package aiwolf

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	gw "github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/aiwolf/agent"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// Players is the regulation the benchmark plays (aiwolf-5).
const Players = 5

// Config is one run.
type Config struct {
	// Agents is K, the agents connected at once: a multiple of 5, each five
	// a team playing its games back to back.
	Agents int
	// Games is how many games are played in all.
	Games int
	// Dir holds the SQLite file; "" makes a temporary directory, removed
	// after the run.
	Dir string
	// Seed seeds the agents' choices (the deals are the server's).
	Seed uint64
	// Linger is how long a finished game stays live on the server (its end
	// screen for humans; AIWolf agents leave at FINISH). 0 takes 1 s.
	Linger time.Duration
}

// Report is a run's figures.
type Report struct {
	Agents     int           `json:"agents"`
	Games      int           `json:"games"`
	Failed     int           `json:"failed"` // agents whose game ended in an error
	FirstError string        `json:"first_error,omitempty"`
	GOMAXPROCS int           `json:"gomaxprocs"`
	Elapsed    time.Duration `json:"elapsed_ns"`
	GamesPerS  float64       `json:"games_per_s"`
	// Requests are the requests that got a reply, as the gateway's stored
	// log has them; their latency is the gateway's measure.
	Requests   int           `json:"requests"`
	Unanswered int           `json:"unanswered"` // requests logged with an error
	P50        time.Duration `json:"p50_ns"`
	P99        time.Duration `json:"p99_ns"`
	Max        time.Duration `json:"max_ns"`
	// The live heap after a collection: once the server is up, after half
	// the games and after all of them (the last once every game has left
	// the server's memory, after Linger).
	HeapBefore uint64 `json:"heap_before"`
	HeapMiddle uint64 `json:"heap_middle"`
	HeapAfter  uint64 `json:"heap_after"`
	// StoreBytes is the SQLite file's size with its WAL at the end.
	StoreBytes int64 `json:"store_bytes"`
	// CPU is the process's user and system time over the games (server and
	// agents together); GamesPerCPUS is the games a second of one core
	// plays, a figure that other load on the machine does not change as it
	// changes GamesPerS. The agents' goroutines carry the pprof label
	// side=agent, so a CPU profile of the run splits the two.
	CPU          time.Duration `json:"cpu_ns"`
	GamesPerCPUS float64       `json:"games_per_cpu_s"`
}

func (c *Config) check() error {
	if c.Agents < Players || c.Agents%Players != 0 {
		return fmt.Errorf("bench aiwolf: %d agents: a positive multiple of %d (one team of %d a game)", c.Agents, Players, Players)
	}
	if c.Games < 1 {
		return fmt.Errorf("bench aiwolf: %d games: play at least one", c.Games)
	}
	if c.Linger < 0 {
		return fmt.Errorf("bench aiwolf: linger %v is negative", c.Linger)
	}
	if c.Linger == 0 {
		c.Linger = time.Second
	}
	return nil
}

// Run plays cfg.Games games and measures them. An agent's failure (a
// connection the gateway closed, say) is counted in the report, not
// returned: the error is for a run that could not be measured.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if err := cfg.check(); err != nil {
		return Report{}, err
	}
	dir := cfg.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "wolfden-bench-aiwolf-")
		if err != nil {
			return Report{}, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	path := filepath.Join(dir, "wolfden.db")
	st, err := sqlite.Open(path)
	if err != nil {
		return Report{}, err
	}
	defer st.Close()
	srv := server.New(st, server.Options{Linger: cfg.Linger, Log: slog.New(slog.DiscardHandler),
		AIWolf: &gw.Options{Players: Players}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Report{}, err
	}
	hs := &http.Server{Handler: srv, ErrorLog: nil}
	go hs.Serve(ln)
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Close(cctx)
		_ = hs.Shutdown(cctx)
	}()
	url := "ws://" + ln.Addr().String() + "/aiwolf/ws"

	rep := Report{Agents: cfg.Agents, Games: cfg.Games, GOMAXPROCS: runtime.GOMAXPROCS(0)}
	rep.HeapBefore = heap()
	var played atomic.Int64
	var middle sync.Once
	half := int64(cfg.Games / 2)
	start, cpu0 := time.Now(), cpuTime()
	actx := pprof.WithLabels(ctx, pprof.Labels("side", "agent"))
	failed, firstErr := playTeams(actx, url, "b", cfg.Agents, cfg.Games, cfg.Seed, nil, func() {
		if played.Add(1) == half {
			middle.Do(func() { rep.HeapMiddle = heap() })
		}
	})
	rep.Elapsed, rep.CPU = time.Since(start), cpuTime()-cpu0
	rep.GamesPerCPUS = float64(cfg.Games) / rep.CPU.Seconds()
	rep.GamesPerS = float64(cfg.Games) / rep.Elapsed.Seconds()
	rep.Failed = failed
	if ctx.Err() != nil {
		return rep, ctx.Err()
	}
	if rep.HeapMiddle == 0 {
		rep.HeapMiddle = heap()
	}
	// The games leave the server's memory once their linger is over.
	if err := sleep(ctx, cfg.Linger+cfg.Linger/2); err != nil {
		return rep, err
	}
	rep.HeapAfter = heap()
	lat, unanswered, err := latencies(ctx, st, cfg.Games)
	if err != nil {
		return rep, err
	}
	rep.Requests, rep.Unanswered = len(lat), unanswered
	if len(lat) > 0 {
		slices.Sort(lat)
		rep.P50, rep.P99, rep.Max = pct(lat, 0.50), pct(lat, 0.99), lat[len(lat)-1]
	}
	for _, f := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(f); err == nil {
			rep.StoreBytes += fi.Size()
		}
	}
	if firstErr != nil {
		rep.FirstError = firstErr.Error()
	}
	return rep, nil
}

// latencies reads every finished game's request log back from the store,
// as the replay endpoint serves it (aiwolf-json).
func latencies(ctx context.Context, st store.Store, games int) ([]time.Duration, int, error) {
	rooms, err := st.Rooms(ctx, store.StatusOver)
	if err != nil {
		return nil, 0, err
	}
	if len(rooms) < games {
		return nil, 0, fmt.Errorf("bench aiwolf: %d games played but %d stored as over", games, len(rooms))
	}
	var out []time.Duration
	unanswered := 0
	var buf bytes.Buffer
	for _, r := range rooms {
		recs, err := st.Records(ctx, r.ID)
		if err != nil {
			return nil, 0, err
		}
		buf.Reset()
		if err := gw.WriteJSON(&buf, r.ID, nil, recs); err != nil {
			return nil, 0, err
		}
		var log struct {
			Entries []struct {
				Request string `json:"request_type"`
				Micros  int64  `json:"latency_us"`
				Error   string `json:"error"`
			} `json:"entries"`
		}
		if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
			return nil, 0, fmt.Errorf("bench aiwolf: room %s's request log: %w", r.ID, err)
		}
		for _, l := range log.Entries {
			switch {
			case !agent.NeedsReply(l.Request):
			case l.Error != "":
				unanswered++
			default:
				out = append(out, time.Duration(l.Micros)*time.Microsecond)
			}
		}
	}
	return out, unanswered, nil
}

func pct(sorted []time.Duration, p float64) time.Duration {
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// cpuTime is the process's user and system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// heap is the live heap after a full collection.
func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Print writes reports as a table.
func Print(w io.Writer, reps []Report) error {
	_, err := fmt.Fprintf(w, "%6s %7s %6s %10s %12s %9s %9s %9s %9s %11s %11s %11s %6s\n",
		"agents", "games", "procs", "games/s", "games/cpu-s", "requests", "p50", "p99", "max", "heap before", "heap middle", "heap after", "failed")
	for _, r := range reps {
		if err != nil {
			break
		}
		_, err = fmt.Fprintf(w, "%6d %7d %6d %10.1f %12.1f %9d %9s %9s %9s %11s %11s %11s %6d\n",
			r.Agents, r.Games, r.GOMAXPROCS, r.GamesPerS, r.GamesPerCPUS, r.Requests, r.P50.Round(time.Microsecond),
			r.P99.Round(time.Microsecond), r.Max.Round(time.Microsecond), mib(r.HeapBefore), mib(r.HeapMiddle), mib(r.HeapAfter), r.Failed)
	}
	return err
}

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// playTeams plays games matched games on the gateway at url: agents/Players
// teams at once, each playing one game after another until every game is
// claimed. A team a game: its agents are named prefix, the team and the
// game, then x and the seat's digit alone (b0007g000012x1 … x5, team
// b0007g000012x), since an agent that lost its connection in a game still
// running would otherwise be taken back into it by name, and its team
// would wait for its fifth forever. seat, if set, adds to an agent's
// options and gives what to do once it has played (nil: nothing);
// gameOver, if set, runs after each game of a team. It returns how many
// agents failed, and the first error. The teams' goroutines carry ctx's
// profiler labels.
func playTeams(ctx context.Context, url, prefix string, agents, games int, seed uint64,
	seat func(o *agent.Options) (after func()), gameOver func()) (failed int, first error) {
	var claimed, nfailed atomic.Int64
	var mu sync.Mutex
	var teams sync.WaitGroup
	for team := range agents / Players {
		teams.Go(func() {
			pprof.SetGoroutineLabels(ctx)
			for g := 0; ; g++ {
				if claimed.Add(1) > int64(games) || ctx.Err() != nil {
					return
				}
				var seats sync.WaitGroup
				for i := range Players {
					seats.Go(func() {
						o := agent.Options{Name: fmt.Sprintf("%s%04dg%06dx%d", prefix, team, g, i+1),
							Seed: seed + uint64(team)<<32 + uint64(g)<<8 + uint64(i), Discard: true}
						var after func()
						if seat != nil {
							after = seat(&o)
						}
						_, err := agent.Play(ctx, url, o)
						if after != nil {
							after()
						}
						if err != nil {
							nfailed.Add(1)
							mu.Lock()
							if first == nil {
								first = err
							}
							mu.Unlock()
						}
					})
				}
				seats.Wait()
				if gameOver != nil {
					gameOver()
				}
			}
		})
	}
	teams.Wait()
	return int(nfailed.Load()), first
}
