package main

import (
	"encoding/json"
	"math"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store/memory"
)

// TestBenchLoadPlaysEveryGame runs the load tool against a server in this
// process: three std-12 games of twelve load clients each.
func TestBenchLoadPlaysEveryGame(t *testing.T) {
	st := memory.New()
	srv := server.New(st, server.Options{})
	hs := httptest.NewServer(srv)
	op := httptest.NewServer(srv.Operator())
	defer func() {
		op.Close()
		hs.Close()
		srv.Stop()
		st.Close()
	}()
	start := time.Now()
	out, err := wolfden(t, "bench", "load", "--url", hs.URL, "--metrics-url", op.URL, "--games", "3", "--seed", "7", "--json",
		"--timers", "setup=30ms,night=30ms,witch=30ms,speech=500ms,vote=500ms,other=500ms")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rep loadReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
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

func TestBenchLoadRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--games", "0"}, "--games must be 1 or more"},
		{[]string{"--url", "ftp://example.com"}, `--url "ftp://example.com" is not the address of a server`},
		{[]string{"--url", "127.0.0.1:8080"}, "is not the address of a server"},
		{[]string{"--url", "http://127.0.0.1:8080/api"}, "is not the address of a server"},
		{[]string{"--timers", "dawn=1s"}, `unknown timer "dawn"`},
		{[]string{"--timers", "night"}, `"night" is not NAME=DURATION`},
		{[]string{"--timers", "night=soon"}, `"soon" is not a duration`},
		{[]string{"--players", "-1"}, "--players cannot be negative"},
		{[]string{"--players", "9"}, "preset std-12 is for 12 players, not 9"},
		{[]string{"--preset", "nope"}, "--preset"},
		{[]string{"--ramp", "-1s"}, "--ramp cannot be negative"},
		{[]string{"--parallel", "0"}, "--parallel must be 1 or more"},
		{[]string{"--nodes", "http://127.0.0.1:8082,127.0.0.1:8083"}, `"127.0.0.1:8083" is not the address of a server`},
	} {
		args := append([]string{"bench", "load"}, c.args...)
		_, err := wolfden(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error with %q", c.args, err, c.want)
		}
	}
	// A server that is not there is said so before anything starts.
	hs := httptest.NewServer(nil)
	url := hs.URL
	hs.Close()
	_, err := wolfden(t, "bench", "load", "--url", url, "--games", "1")
	if err == nil || !strings.Contains(err.Error(), "reading "+url+"/metrics") {
		t.Errorf("no server: got %v", err)
	}
}

// TestBenchLoadStaggered: with --stagger each game plays from its own
// set-up on, and every game still ends.
func TestBenchLoadStaggered(t *testing.T) {
	st := memory.New()
	srv := server.New(st, server.Options{})
	hs := httptest.NewServer(srv)
	op := httptest.NewServer(srv.Operator())
	defer func() {
		op.Close()
		hs.Close()
		srv.Stop()
		st.Close()
	}()
	out, err := wolfden(t, "bench", "load", "--url", hs.URL, "--metrics-url", op.URL, "--games", "3", "--seed", "7", "--json",
		"--stagger", "--ramp", "300ms", "--timers", "setup=30ms,night=30ms,witch=30ms,speech=500ms,vote=500ms,other=500ms")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rep loadReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !rep.Staggered || rep.GamesOver != 3 || rep.Errors != 0 || rep.Commands == 0 || rep.WallSeconds < rep.SetupSeconds {
		t.Fatalf("staggered run: %+v", rep)
	}
}
