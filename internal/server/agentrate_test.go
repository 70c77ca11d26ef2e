package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/aiwolf/agent"
	"github.com/wolfden/wolfden/internal/arena"
	"github.com/wolfden/wolfden/internal/rating"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/sqlite"
	"github.com/wolfden/wolfden/rules"
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

// agentRun waits until the aiwolf-5 run counts games games, and returns it
// (it fails if the run counts more).
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
	// One game at a time, each rated before the next starts: the order
	// the games were rated in is the order their rooms were made.
	for i, team := range []string{"alpha", "alpha", "beta", "beta"} {
		playTeam(t, ts, team, 1, uint64(100*i+1))
		agentRun(t, ts, i+1)
	}
	run := agentRun(t, ts, 4)
	// The standings are the arena's crediting of the stored games, in order.
	want := map[arena.Key]rating.Rating{}
	rooms, err := ts.st.Rooms(context.Background(), store.StatusOver)
	if err != nil || len(rooms) != 4 {
		t.Fatalf("the matched games' rooms: %d, %v", len(rooms), err)
	}
	slices.SortFunc(rooms, func(a, b store.Room) int { return a.Created.Compare(b.Created) })
	for _, rec := range rooms {
		var cfg roomConfig
		var seats []seatRec
		if err := errors.Join(json.Unmarshal(rec.Config, &cfg), json.Unmarshal(rec.Seats, &seats)); err != nil {
			t.Fatal(err)
		}
		b, _ := cfg.board()
		recs, err := ts.st.Records(context.Background(), rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		var events []rules.Event
		for _, r := range recs {
			events = append(events, r.Events...)
		}
		g, err := rules.Replay(b, cfg.Seed, events)
		if err != nil {
			t.Fatal(err)
		}
		teams := make([]string, len(seats))
		for i, st := range seats {
			teams[i] = strings.TrimRight(st.Nick, "0123456789")
		}
		keys, rank, _ := arena.Teams(g, teams)
		arena.Credit(want, keys, rank)
	}
	for _, r := range run.Ratings {
		if w := want[arena.Key{Program: r.Program, Side: r.Side}]; r.Mu != w.Mu || r.Sigma != w.Sigma {
			t.Errorf("%s on the %s side: mu %v sigma %v; the stored games give %+v", r.Program, r.Side, r.Mu, r.Sigma, w)
		}
	}
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

// racingStanding is a store on which another node credits a game of team
// gamma to the standing between this node's read and its first write.
type racingStanding struct {
	*sqlite.DB
	raced bool
	stale int // UpdateArenaStanding calls refused as stale
}

func (r *racingStanding) UpdateArenaStanding(ctx context.Context, rows []store.ArenaRating) error {
	if !r.raced {
		r.raced = true
		theirs := store.ArenaRating{Run: rows[0].Run, At: rows[0].At, Board: rows[0].Board, Games: rows[0].Games,
			Program: "gamma", Side: "wolf", Mu: 30, Sigma: 7, Played: 1, Wins: 1}
		if err := r.DB.UpdateArenaStanding(ctx, []store.ArenaRating{theirs}); err != nil {
			return err
		}
	}
	err := r.DB.UpdateArenaStanding(ctx, rows)
	if errors.Is(err, store.ErrStaleRating) {
		r.stale++
	}
	return err
}

// TestAStandingCreditedByAnotherNodeIsReadAgain: a game credited to the
// agents' standing by another node between this node's read and its write
// makes the write stale; the standing is read again and this game credited
// after the other: both count, and neither's teams are lost.
func TestAStandingCreditedByAnotherNodeIsReadAgain(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	st := &racingStanding{DB: db}
	ts := newTestServerOver(t, st, Options{AIWolf: &aiwolf.Options{Players: 5, ActionTimeout: 5 * time.Second, ResponseTimeout: 5 * time.Second}})
	playTeam(t, ts, "alpha", 1, 7)
	run := agentRun(t, ts, 2)
	if st.stale != 1 {
		t.Errorf("%d writes refused as stale, want 1", st.stale)
	}
	if g, ok := standing(run, "gamma", "wolf"); !ok || g.Mu != 30 || g.Games != 1 {
		t.Errorf("the other node's team: %+v, %v", g, ok)
	}
	for _, side := range []string{"village", "wolf"} {
		if a, ok := standing(run, "alpha", side); !ok || a.Games != 1 || a.Mu == rating.Mu0 {
			t.Errorf("alpha on the %s side: %+v, %v; want its game credited", side, a, ok)
		}
	}
}

// countingStanding counts the reads of the agents' standing.
type countingStanding struct {
	*sqlite.DB
	reads int
}

func (c *countingStanding) ArenaStanding(ctx context.Context, run string, programs []string) (int, []store.ArenaRating, error) {
	c.reads++
	return c.DB.ArenaStanding(ctx, run, programs)
}

// TestANodeReadsTheStandingOfTeamsItHasNotRead: a cluster's node that
// wrote a standing credits the next game of the same teams without
// reading it again (a read a matched game was a tenth of the store's work
// with 50 agents); a team it has not read yet is read. A server alone
// reads the whole standing once: a team it has not seen has no rows.
func TestANodeReadsTheStandingOfTeamsItHasNotRead(t *testing.T) {
	for _, c := range []struct {
		name  string
		sole  bool
		reads []int
	}{
		{"a cluster's node", false, []int{1, 1, 2, 2, 2}},
		{"a server alone", true, []int{1, 1, 1, 1, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, err := sqlite.Open(filepath.Join(t.TempDir(), "w.db"))
			if err != nil {
				t.Fatal(err)
			}
			st := &countingStanding{DB: db}
			ts := newTestServerOver(t, st, Options{AIWolf: &aiwolf.Options{Players: 5, ActionTimeout: 5 * time.Second, ResponseTimeout: 5 * time.Second}})
			ts.agentRates.Lock()
			ts.soleWriter = c.sole
			ts.agentRates.Unlock()
			var run arenaRun
			for i, team := range []string{"alpha", "alpha", "beta", "alpha", "beta"} {
				playTeam(t, ts, team, 1, uint64(10*i+3))
				run = agentRun(t, ts, i+1)
				ts.agentRates.Lock()
				reads := st.reads
				ts.agentRates.Unlock()
				if reads != c.reads[i] {
					t.Errorf("after game %d (%s): %d reads of the standing, want %d", i+1, team, reads, c.reads[i])
				}
			}
			for team, games := range map[string]int{"alpha": 3, "beta": 2} {
				for _, side := range []string{"village", "wolf"} {
					if r, ok := standing(run, team, side); !ok || r.Games != games {
						t.Errorf("%s on the %s side: %+v, %v; want its %d games credited", team, side, r, ok, games)
					}
				}
			}
		})
	}
}
