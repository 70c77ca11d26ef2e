package load

import (
	"context"
	"math"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store/memory"
)

// quick are timers that end a std-12 game of random clients in seconds.
var quick = map[string]string{"setup": "30ms", "night": "30ms", "witch": "30ms", "tick": "100ms",
	"speech": "500ms", "vote": "500ms", "other": "500ms", "bot": "0s"}

// testServer is a server in this process and its operator listener.
func testServer(t *testing.T) (url, metricsURL string) {
	st := memory.New()
	srv := server.New(st, server.Options{})
	hs := httptest.NewServer(srv)
	op := httptest.NewServer(srv.Operator())
	t.Cleanup(func() {
		op.Close()
		hs.Close()
		srv.Stop()
		st.Close()
	})
	return hs.URL, op.URL
}

func quickConfig(url, metricsURL string) Config {
	return Config{URL: url, MetricsURL: metricsURL, Games: 3, Players: 12, Preset: "std-12",
		Seed: 7, Timers: quick, Parallel: 64, Timeout: 10 * time.Minute}
}

// TestRunPlaysEveryGame: three std-12 games of twelve load clients each.
func TestRunPlaysEveryGame(t *testing.T) {
	start := time.Now()
	rep, err := Run(context.Background(), quickConfig(testServer(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("3 games in %v: %.1fs of play, %d commands, latency p50 %.2fms p99 %.2fms max %.2fms",
		time.Since(start).Round(time.Millisecond), rep.WallSeconds, rep.Commands, rep.Latency.P50, rep.Latency.P99, rep.Latency.Max)
	switch {
	case rep.Games != 3 || rep.GamesStarted != 3 || rep.GamesOver != 3:
		t.Errorf("games: %d asked, %d started, %d over", rep.Games, rep.GamesStarted, rep.GamesOver)
	case rep.Players != 36 || rep.Connected != 36 || rep.PlayersPerGame != 12:
		t.Errorf("players: %d joined, %d connected, %d a game", rep.Players, rep.Connected, rep.PlayersPerGame)
	case rep.ConnectedPeak != 36 || rep.LiveGamesPeak != 3:
		t.Errorf("the server's peaks: %d connections, %d live games", rep.ConnectedPeak, rep.LiveGamesPeak)
	case rep.Errors != 0:
		t.Errorf("%d errors: %v", rep.Errors, rep.ErrorSamples)
	}
	l := rep.Latency
	if rep.Commands == 0 || l.Count != rep.Commands || !(0 < l.P50 && l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.Max) {
		t.Errorf("%d commands, latencies %+v", rep.Commands, l)
	}
	if rep.WallSeconds <= 0 || rep.GamesPerSecond <= 0 || rep.CommandsPerSec <= 0 || rep.SetupSeconds <= 0 {
		t.Errorf("times: set-up %vs, play %vs, %v games/s, %v commands/s", rep.SetupSeconds, rep.WallSeconds, rep.GamesPerSecond, rep.CommandsPerSec)
	}
	// The server counted every acknowledged command (and maybe commands of
	// the clients that the end of the game cut short).
	if rep.ServerCommands["ok"] < rep.Commands || rep.ServerCommands["busy"] != 0 {
		t.Errorf("server commands %v, clients' %d", rep.ServerCommands, rep.Commands)
	}
	if s := rep.ServerLatency; !(0 < s.P50 && s.P50 <= s.P90 && s.P90 <= s.P99) {
		t.Errorf("the server's part of the latency: %+v", s)
	}
	if rep.Memory.Source != "go_memstats_heap_inuse_bytes" || rep.Memory.Connected <= 0 || rep.RSS.Peak <= 0 {
		t.Errorf("memory %+v, rss %+v", rep.Memory, rep.RSS)
	}
	// The server's CPU time: the play is part of the run, and shared by the games.
	if c := rep.ServerCPU; !(0 < c.Play && c.Play <= c.Run && c.PerGame == c.Play/float64(rep.GamesOver)) {
		t.Errorf("the server's CPU: %+v", c)
	}
}

// TestRunStaggered: staggered, each game plays from its own set-up on, and
// every game still ends.
func TestRunStaggered(t *testing.T) {
	cfg := quickConfig(testServer(t))
	cfg.Stagger, cfg.Ramp = true, 300*time.Millisecond
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Staggered || rep.GamesOver != 3 || rep.Errors != 0 || rep.Commands == 0 || rep.WallSeconds < rep.SetupSeconds {
		t.Fatalf("staggered run: %+v", rep)
	}
}

// TestRunRefusesAConfigItCannotRun: a caller that skips the command's
// checks gets an error, not a run that waits for its timeout.
func TestRunRefusesAConfigItCannotRun(t *testing.T) {
	ok := quickConfig("http://127.0.0.1:1", "http://127.0.0.1:1")
	for _, c := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no address", func(c *Config) { c.URL = "" }, "both needed"},
		{"no games", func(c *Config) { c.Games = 0 }, "0 games"},
		{"no players", func(c *Config) { c.Players = 0 }, "0 players"},
		{"nothing in flight", func(c *Config) { c.Parallel = 0 }, "0 set up at a time"},
		{"no time", func(c *Config) { c.Timeout = 0 }, "timeout must be positive"},
	} {
		cfg := ok
		c.edit(&cfg)
		if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}

func TestHistogramQuantile(t *testing.T) {
	before := map[string]float64{`x_bucket{le="0.1"}`: 5, `x_bucket{le="0.2"}`: 5, `x_bucket{le="+Inf"}`: 5}
	after := map[string]float64{`x_bucket{le="0.1"}`: 55, `x_bucket{le="0.2"}`: 95, `x_bucket{le="+Inf"}`: 105, "y": 1}
	h := histogramDelta(before, after, "x")
	for _, c := range []struct{ q, want float64 }{{0.25, 0.05}, {0.5, 0.1}, {0.7, 0.15}, {0.99, 0.2}} {
		if got := h.quantile(c.q); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("quantile %v: %v, want %v", c.q, got, c.want)
		}
	}
	if got := histogramDelta(after, after, "x").quantile(0.5); got != 0 {
		t.Errorf("an empty histogram's median: %v", got)
	}
}
