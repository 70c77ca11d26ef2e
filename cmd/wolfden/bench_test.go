package main

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/bench/load"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store/memory"
)

// TestBenchLoadWiring: the command turns its flags into a run of the load
// tool (bench/load, which tests the run itself) and prints its report, as
// JSON with --json.
func TestBenchLoadWiring(t *testing.T) {
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
	args := []string{"bench", "load", "--url", hs.URL, "--metrics-url", op.URL, "--games", "1", "--preset", "std-9", "--seed", "7",
		"--timers", "setup=30ms,night=30ms,witch=30ms,speech=500ms,vote=500ms,other=500ms"}
	out, err := wolfden(t, append(args, "--json")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rep load.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.URL != hs.URL || rep.Preset != "std-9" || rep.PlayersPerGame != 9 || rep.Games != 1 || rep.GamesOver != 1 || rep.Errors != 0 {
		t.Errorf("--json report: %+v", rep)
	}
	out, err = wolfden(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := "wolfden bench load: 1 std-9 games (9 players each) on " + hs.URL + "\n"; !strings.HasPrefix(out, want) ||
		!strings.Contains(out, "\n  errors           0\n") {
		t.Errorf("text report:\n%s\nwant it to start %q and count no errors", out, want)
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

func TestBenchVoiceRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--serve", "127.0.0.1:0", "--url", "http://127.0.0.1:1"}, "--serve and --url go in two processes"},
		{[]string{"--cpuprofile", "x.prof"}, "--cpuprofile profiles the server's side: it goes with --serve"},
		{[]string{"--serve", "0.0.0.0:0"}, "is not a loopback address"},
		{[]string{"--serve", "18100"}, `--serve "18100"`},
		{[]string{"--url", "http://127.0.0.1:1", "--rooms", "0"}, "rooms ≥ 1"},
		{[]string{"--url", "127.0.0.1:18100"}, "is not the address of a --serve process"},
	} {
		out, err := wolfden(t, append([]string{"bench", "voice"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v\n%s\nwant an error with %q", c.args, err, out, c.want)
		}
	}
}

func TestBenchAIWolfRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--url", "ws://127.0.0.1:1/ws"}, "--url and --server-pid go together"},
		{[]string{"--by-request"}, "--by-request splits the turnaround of a --url run"},
	} {
		out, err := wolfden(t, append([]string{"bench", "aiwolf"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v\n%s\nwant an error with %q", c.args, err, out, c.want)
		}
	}
}
