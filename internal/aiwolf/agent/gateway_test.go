package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/aiwolf/agent"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// serve starts wolfden's server with the gateway on a fresh SQLite file.
func serve(t *testing.T, players int) (ws, api string, st store.Store) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "wolfden.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(st, server.Options{AIWolf: &aiwolf.Options{Players: players,
		ActionTimeout: 10 * time.Second, ResponseTimeout: 10 * time.Second}})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Close(ctx)
		hs.Close()
		_ = st.Close()
	})
	return "ws" + strings.TrimPrefix(hs.URL, "http") + "/aiwolf/ws", hs.URL, st
}

// playTeam plays one game of n agents of a team and returns their results.
func playTeam(t *testing.T, ws, team string, n int, seed uint64) []agent.Result {
	t.Helper()
	res := make([]agent.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res[i], errs[i] = agent.Play(t.Context(), ws, agent.Options{Name: fmt.Sprintf("%s%d", team, i+1), Seed: seed + uint64(i)})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s%d: %v", team, i+1, err)
		}
	}
	return res
}

// csvWinner is the winner the server's contest log gives a finished
// game (its "result" line, from the engine's game-over event).
func csvWinner(t *testing.T, api string, st store.Store, games int) map[string]string {
	t.Helper()
	// The agents are told FINISH before the room is stored as over.
	var rooms []store.Room
	for len(rooms) < games {
		var err error
		if rooms, err = st.Rooms(t.Context(), store.StatusOver); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	out := map[string]string{}
	for _, r := range rooms {
		body := getText(t, api+"/api/rooms/"+r.ID+"/replay?format=aiwolf-csv")
		var winner, gameID string
		for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
			f := strings.Split(l, ",")
			if len(f) == 5 && f[1] == "result" {
				winner = f[4]
			}
		}
		var log struct {
			GameID string `json:"game_id"`
		}
		if err := json.Unmarshal([]byte(getText(t, api+"/api/rooms/"+r.ID+"/replay?format=aiwolf-json")), &log); err != nil {
			t.Fatal(err)
		}
		gameID = log.GameID
		out[gameID] = winner
	}
	return out
}

func getText(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, b)
	}
	return string(b)
}

// TestPlaysWholeGamesOnTheGateway plays 5- and 13-player games: every
// agent reaches FINISH, all agree on the winner, which is the server's,
// the roles dealt are the regulation's, and what the agents said (the
// seer's results, the wolves' whispered attack) went through.
func TestPlaysWholeGamesOnTheGateway(t *testing.T) {
	for _, tc := range []struct {
		players int
		roles   map[string]int
	}{
		{5, map[string]int{agent.Werewolf: 1, agent.Possessed: 1, agent.Seer: 1, agent.Villager: 2}},
		{13, map[string]int{agent.Werewolf: 3, agent.Possessed: 1, agent.Seer: 1, agent.Bodyguard: 1, agent.Medium: 1, agent.Villager: 6}},
	} {
		t.Run(fmt.Sprint(tc.players), func(t *testing.T) {
			ws, api, st := serve(t, tc.players)
			want := []string{"COMINGOUT", "DIVINED", "VOTE"}
			if tc.players == 13 {
				want = append(want, "ATTACK", "IDENTIFIED")
			}
			heardAll := func(said map[string]bool) bool {
				for _, w := range want {
					if !said[w] {
						return false
					}
				}
				return true
			}
			// The deal is the server's and the seats go to whoever connects
			// first, so a game may give the medium nothing to identify (it
			// is attacked on night 1, or executed on day 1): three games
			// are played, and more, up to ten, until every statement went
			// through.
			winners := map[string]string{}
			said := map[string]bool{}
			for g := 0; g < 3 || g < 10 && !heardAll(said); g++ {
				res := playTeam(t, ws, "kanolab", tc.players, uint64(100*g))
				roles := map[string]int{}
				heard, replied := map[string]bool{}, map[string]bool{}
				for _, r := range res {
					if !r.Finished || r.Winner == "" || r.GameID != res[0].GameID || r.Winner != res[0].Winner || len(r.Errors) != 0 {
						t.Errorf("%s: %+v", r.Name, r)
					}
					roles[r.Role]++
					for _, p := range r.Packets {
						for _, tk := range append(p.TalkHistory, p.WhisperHistory...) {
							if f := strings.Fields(tk.Text); len(f) > 0 {
								heard[f[0]] = true
							}
						}
					}
					for _, text := range r.Replies {
						if f := strings.Fields(text); len(f) > 0 && slices.Contains(want, f[0]) {
							replied[f[0]] = true
						}
					}
				}
				for w := range replied {
					if !heard[w] {
						t.Errorf("game %d: an agent said %s and no agent heard it", g, w)
					}
				}
				maps.Copy(said, heard)
				if fmt.Sprint(roles) != fmt.Sprint(tc.roles) {
					t.Errorf("game %d: roles %v, want %v", g, roles, tc.roles)
				}
				winners[res[0].GameID] = res[0].Winner
			}
			if server := csvWinner(t, api, st, len(winners)); fmt.Sprint(server) != fmt.Sprint(winners) {
				t.Errorf("the agents' winners %v, the server's %v", winners, server)
			}
			for _, w := range want {
				if !said[w] {
					t.Errorf("no %s was said in %d games (said: %v)", w, len(winners), said)
				}
			}
		})
	}
}

// TestMisbehavioursAgainstTheGateway: one agent of five misbehaves in each
// game (silent votes past a short timeout, garbage targets, a connection
// dropped mid-game and rejoined by name, slow replies); the others, and
// the misbehaving one, still reach FINISH of the same game.
func TestMisbehavioursAgainstTheGateway(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts agent.Options
	}{
		{"silent", agent.Options{Silent: map[string]bool{agent.ReqVote: true, agent.ReqTalk: true}}},
		{"garbage", agent.Options{Garbage: map[string]bool{agent.ReqVote: true, agent.ReqDivine: true, agent.ReqTalk: true}}},
		{"drop and rejoin", agent.Options{DropAfter: 2, Rejoin: true, RejoinDelay: 50 * time.Millisecond}},
		{"slow", agent.Options{Delay: 20 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := sqlite.Open(filepath.Join(t.TempDir(), "wolfden.db"))
			if err != nil {
				t.Fatal(err)
			}
			srv := server.New(st, server.Options{AIWolf: &aiwolf.Options{Players: 5,
				ActionTimeout: 300 * time.Millisecond, ResponseTimeout: 300 * time.Millisecond}})
			hs := httptest.NewServer(srv)
			defer func() {
				hs.CloseClientConnections()
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				_ = srv.Close(ctx)
				hs.Close()
				_ = st.Close()
			}()
			ws := "ws" + strings.TrimPrefix(hs.URL, "http") + "/aiwolf/ws"
			res := make([]agent.Result, 5)
			errs := make([]error, 5)
			// A game that stalls fails here, saying where, instead of
			// holding the package until go test's own timeout.
			ctx, cancel := context.WithTimeout(t.Context(), misbehaviourDeadline)
			defer cancel()
			var wg sync.WaitGroup
			for i := range 5 {
				wg.Go(func() {
					o := agent.Options{Name: fmt.Sprintf("mis%d", i+1), Seed: uint64(i)}
					if i == 0 {
						tc.opts.Name, tc.opts.Seed = o.Name, o.Seed
						o = tc.opts
					}
					res[i], errs[i] = agent.Play(ctx, ws, o)
				})
			}
			wg.Wait()
			if ctx.Err() != nil && t.Context().Err() == nil {
				var b strings.Builder
				_ = pprof.Lookup("goroutine").WriteTo(&b, 1)
				t.Logf("goroutines at the deadline:\n%s", b.String())
				t.Fatalf("the game did not end within %v:\n%s", misbehaviourDeadline, stalled(res, errs))
			}
			for i, r := range res {
				if errs[i] != nil || !r.Finished || r.GameID != res[1].GameID || r.Winner != res[1].Winner {
					t.Errorf("%s: %v %+v", r.Name, errs[i], r)
				}
			}
			names := 0
			for _, p := range res[0].Packets {
				if p.Request == agent.ReqName {
					names++
				}
			}
			// A silent agent is also probed with NAME after each timeout.
			if tc.opts.Rejoin && names != 2 {
				t.Errorf("the rejoining agent was asked its name %d times, want 2 (one a connection)", names)
			}
		})
	}
}

// misbehaviourDeadline bounds one misbehaviour game: it takes about a
// second; the server's own backstop timers are minutes long.
const misbehaviourDeadline = 2 * time.Minute

// stalled says, per agent, what it was waiting on when a game stalled:
// the last request it received, and whether it had answered it.
func stalled(res []agent.Result, errs []error) string {
	var b strings.Builder
	for i, r := range res {
		fmt.Fprintf(&b, "  %s (%s): ", r.Name, r.Agent)
		switch {
		case r.Finished:
			b.WriteString("finished\n")
			continue
		case len(r.Packets) == 0:
			b.WriteString("no packet received")
		default:
			p := r.Packets[len(r.Packets)-1]
			day := -1
			if p.Info != nil {
				day = p.Info.Day
			}
			fmt.Fprintf(&b, "waited after %s of day %d (packet %d, %d replies sent)", p.Request, day, len(r.Packets), len(r.Replies))
		}
		fmt.Fprintf(&b, ": %v\n", errs[i])
	}
	return b.String()
}
