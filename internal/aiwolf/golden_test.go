package aiwolf_test

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// updating tells -update, the flag logs_test.go (package aiwolf, in this
// same test binary) defines for every golden file of testdata.
func updating() bool { return flag.Lookup("update").Value.String() == "true" }

// seededHost is a Host whose matched games are dealt from a fixed seed,
// on a memory store: the same agents play the same game, packet for
// packet (the server's own host draws every deal's seed at random).
type seededHost struct {
	seed   uint64
	mu     sync.Mutex
	n      int
	acts   map[string]*game.Actor
	stores map[string]*memory.Store // every game's, kept for its logs
}

func (h *seededHost) StartAgents(ctx context.Context, preset string, options map[string]string, names []string, timers game.Timers) (aiwolf.Game, error) {
	p, err := rules.LookupPreset(preset)
	if err != nil {
		return aiwolf.Game{}, err
	}
	b, err := p.Board(len(names))
	if err != nil {
		return aiwolf.Game{}, err
	}
	for k, v := range options {
		if err := b.Options.Set(k, v); err != nil {
			return aiwolf.Game{}, err
		}
	}
	h.mu.Lock()
	h.n++
	room := fmt.Sprintf("golden%d", h.n)
	h.mu.Unlock()
	st := memory.New()
	a, err := game.Start(ctx, room, game.Config{Board: b, Seed: h.seed, Timers: timers, Unpaced: true}, st, game.Hooks{}, nil)
	if err != nil {
		return aiwolf.Game{}, err
	}
	h.mu.Lock()
	h.acts[room] = a
	if h.stores == nil {
		h.stores = map[string]*memory.Store{}
	}
	h.stores[room] = st
	h.mu.Unlock()
	return aiwolf.Game{Room: room, Actor: a, Board: b, Seed: h.seed, Matched: true}, nil
}

func (h *seededHost) AgentSeat(room, token string) (rules.Seat, error) {
	return 0, fmt.Errorf("no agent seats here")
}
func (h *seededHost) NameAgent(string, rules.Seat, string) {}
func (h *seededHost) Finished(room string) {
	h.mu.Lock()
	a := h.acts[room]
	delete(h.acts, room)
	h.mu.Unlock()
	if a != nil {
		go a.Stop()
	}
}

// seededGateway serves the gateway alone on a seeded host.
func seededGateway(t *testing.T, seed uint64, opts aiwolf.Options) (string, *aiwolf.Gateway, *seededHost) {
	t.Helper()
	if opts.ActionTimeout == 0 {
		opts.ActionTimeout = 20 * time.Second
	}
	if opts.ResponseTimeout == 0 {
		opts.ResponseTimeout = 20 * time.Second
	}
	h := &seededHost{seed: seed, acts: map[string]*game.Actor{}}
	g, err := aiwolf.New(h, opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(g)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		g.Close()
		hs.Close()
	})
	return "ws" + strings.TrimPrefix(hs.URL, "http"), g, h
}

// over waits for every game of the host to have been told its end (the
// request log is stored by then).
func (h *seededHost) over(t *testing.T) {
	t.Helper()
	waitFor(t, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.acts) == 0
	})
}

// What differs between two runs of one seeded game: the game id (a ULID
// of the time) and the talk's times. The golden files hold them as 0s.
var (
	gameIDField = regexp.MustCompile(`"game_id":"[0-9A-Z]{26}"`)
	timeField   = regexp.MustCompile(`"time":[0-9]+`)
)

func normalised(raw string) string {
	raw = gameIDField.ReplaceAllString(raw, `"game_id":"00000000000000000000000000"`)
	return timeField.ReplaceAllString(raw, `"time":0`)
}

// TestPacketsMatchTheGoldenGames plays a seeded 5- and 13-player matched
// game of honest agents and compares every packet each agent received,
// byte for byte (game id and talk times zeroed), with
// testdata/packets-N.txt. go test -run TestPacketsMatchTheGoldenGames
// -update ./internal/aiwolf/ rewrites them; their shape was checked by
// hand against the reference server's packets (docs/aiwolf.md, "Golden
// packets").
func TestPacketsMatchTheGoldenGames(t *testing.T) {
	for _, n := range []int{5, 13} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ws, g, _ := seededGateway(t, 27, aiwolf.Options{Players: n})
			agents := make([]*testAgent, n)
			for i := range agents {
				agents[i] = &testAgent{name: fmt.Sprintf("golden%d", i+1)}
			}
			// One at a time, so that seat i is golden{i+1}'s.
			for i, a := range agents {
				a.run(t, ws)
				waitFor(t, func() bool { _, w := g.Live(); return w == i+1 || i == n-1 })
			}
			for _, a := range agents {
				a.wait(t, 240*time.Second)
			}
			var b strings.Builder
			for _, a := range agents {
				a.mu.Lock()
				for _, raw := range a.raw {
					fmt.Fprintf(&b, "%s %s\n", a.name, normalised(raw))
				}
				a.mu.Unlock()
			}
			path := filepath.Join("testdata", fmt.Sprintf("packets-%d.txt", n))
			if updating() {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -run TestPacketsMatchTheGoldenGames -update writes it)", err)
			}
			if got := b.String(); got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := range max(len(gl), len(wl)) {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Fatalf("%s line %d differs:\n got: %s\nwant: %s", path, i+1, g, w)
					}
				}
			}
		})
	}
}

// waitFor polls a condition of the test's own state (not of time).
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); !ok(); {
		if time.Now().After(end) {
			t.Fatal("the condition never held")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
