package server

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/aiwolf/agent"
	"github.com/wolfden/wolfden/internal/rating"
)

// playTeam plays games matched games of the 5 agents of team: self-match,
// so that each game's village and wolves are both the team's.
func playTeam(t *testing.T, ts *testServer, team string, games int, seed uint64) {
	t.Helper()
	url := "ws" + strings.TrimPrefix(ts.http.URL, "http") + "/aiwolf/ws"
	for g := range games {
		var wg sync.WaitGroup
		errs := make([]error, 5)
		for i := range 5 {
			wg.Go(func() {
				res, err := agent.Play(t.Context(), url, agent.Options{Name: fmt.Sprintf("%s%d", team, i+1), Seed: seed + uint64(10*g+i), Discard: true})
				if err == nil && !res.Finished {
					err = fmt.Errorf("no FINISH")
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("%s%d, game %d: %v", team, i+1, g+1, err)
			}
		}
	}
}

// agentRun waits until the aiwolf-5 run counts games games, and returns it.
func agentRun(t *testing.T, ts *testServer, games int) arenaRun {
	t.Helper()
	for {
		var runs []arenaRun
		if err := ts.api.Do(context.Background(), "GET", "/api/arena", "", nil, &runs); err != nil {
			t.Fatal(err)
		}
		if len(runs) > 0 && runs[0].Run == "aiwolf-5" && runs[0].Games >= games {
			if !runs[0].Agents || runs[0].Games != games {
				t.Fatalf("the agents' run: %+v; want %d games", runs[0], games)
			}
			return runs[0]
		}
		select {
		case <-t.Context().Done():
			t.Fatalf("the agents' run never counted %d games: %+v", games, runs)
		case <-time.After(20 * time.Millisecond): // polling the state, not waiting for it
		}
	}
}

func standing(run arenaRun, team, side string) (arenaRating, bool) {
	for _, r := range run.Ratings {
		if r.Program == team && r.Side == side {
			return r, true
		}
	}
	return arenaRating{}, false
}

func TestMatchedGamesRateTheAgentTeamsBySide(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wolfden.db")
	opts := Options{AIWolf: &aiwolf.Options{Players: 5, ActionTimeout: 5 * time.Second, ResponseTimeout: 5 * time.Second}}
	ts := newTestServerAt(t, path, opts)
	var wg sync.WaitGroup
	wg.Go(func() { playTeam(t, ts, "alpha", 2, 1) })
	wg.Go(func() { playTeam(t, ts, "beta", 2, 101) })
	wg.Wait()
	if t.Failed() {
		return
	}
	run := agentRun(t, ts, 4)
	if len(run.Ratings) != 4 {
		t.Fatalf("the standings: %+v; want alpha and beta, village and wolf", run.Ratings)
	}
	for _, team := range []string{"alpha", "beta"} {
		wins := 0
		for _, side := range []string{"village", "wolf"} {
			r, ok := standing(run, team, side)
			switch {
			case !ok:
				t.Errorf("%s has no %s standing", team, side)
			case r.Games != 2 || r.Wins > 2 || r.Sigma >= rating.Sigma0 || r.Mu == rating.Mu0:
				t.Errorf("%s on the %s side: %+v; want 2 games rated", team, side, r)
			}
			wins += r.Wins
		}
		if wins > 2 {
			t.Errorf("%s won %d of its 2 games", team, wins)
		}
	}

	ts = ts.restart(t, opts)
	again := agentRun(t, ts, 4)
	if fmt.Sprint(again.Ratings) != fmt.Sprint(run.Ratings) {
		t.Fatalf("after a restart:\n got %+v\nwant %+v", again.Ratings, run.Ratings)
	}
	playTeam(t, ts, "alpha", 1, 21)
	after := agentRun(t, ts, 5)
	for _, side := range []string{"village", "wolf"} {
		a, _ := standing(after, "alpha", side)
		b, _ := standing(after, "beta", side)
		was, _ := standing(run, "beta", side)
		if a.Games != 3 || b != was {
			t.Errorf("%s side after alpha's third game: alpha %+v, beta %+v (was %+v)", side, a, b, was)
		}
	}
}
