package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/wolfden/wolfden/internal/arena"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/rating"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// Finished is a game played elsewhere (wolfden arena), to be kept as any
// room's finished game.
type Finished struct {
	Name   string // the room's name
	Preset string // the board's preset, if any
	Board  rules.Board
	Seed   uint64
	Names  []string // seat i+1's name: the program that played it
	// Log is the game's records, numbered from 1, as an actor stores them
	// (messages included), or one record of its events.
	Log []store.Record
}

// Archive stores a finished game as a room that is over, so that its
// replay is read by GET /api/rooms/{id}/replay as any game's, and returns
// the room's id. The room is a practice room (its seed is known, its games
// count for nobody) and private (never listed); its seats are bots named
// after their programs.
func Archive(ctx context.Context, st store.Store, f Finished) (string, error) {
	var last *rules.Event
	for i, r := range f.Log {
		if r.N != int64(i+1) {
			return "", fmt.Errorf("archive: record %d is numbered %d", i+1, r.N)
		}
		if n := len(r.Events); n > 0 {
			last = &r.Events[n-1]
		}
	}
	if last == nil || last.Kind != rules.EvGameOver {
		return "", errors.New("archive: the game is not over")
	}
	if len(f.Names) != f.Board.Players() {
		return "", errors.New("archive: one name per seat is needed")
	}
	t, err := game.Pace("standard")
	if err != nil {
		return "", err
	}
	cfg := roomConfig{Name: f.Name, Preset: f.Preset, Timers: t.Map(), Pace: "standard", Bots: "smart", Seed: f.Seed,
		Practice: true, Private: true}
	cfg.setBoard(f.Board)
	seats := make([]seatRec, len(f.Names))
	for i, n := range f.Names {
		seats[i] = seatRec{Nick: n, Bot: true}
	}
	at := f.Log[0].At
	for _, r := range f.Log {
		if r.At.After(at) {
			at = r.At
		}
	}
	rec := store.Room{ID: newRoomID(), Created: f.Log[0].At.UTC(), Updated: at.UTC(), Status: store.StatusOver}
	if rec.Config, err = json.Marshal(cfg); err != nil {
		return "", err
	}
	if rec.Seats, err = json.Marshal(seats); err != nil {
		return "", err
	}
	// Created open (private: never listed), then over with its whole log
	// in one transaction: a reader never finds the room over without its
	// game.
	open := rec
	open.Status = store.StatusOpen
	if err := st.CreateRoom(ctx, open); err != nil {
		return "", err
	}
	if err := st.StartGame(ctx, rec, f.Log...); err != nil {
		return "", err
	}
	return rec.ID, nil
}

// arenaRuns is how many of the latest wolfden arena runs GET /api/arena
// lists.
const arenaRuns = 20

// arenaRun is one run of wolfden arena as GET /api/arena gives it.
type arenaRun struct {
	Run   string    `json:"run"`
	At    time.Time `json:"at"`
	Board string    `json:"board"`
	Seed  uint64    `json:"seed"`
	Games int       `json:"games"`
	// Agents: the AIWolf agent teams' standing run (its programs are
	// teams), updated after each matched game of the gateway.
	Agents  bool          `json:"agents,omitempty"`
	Ratings []arenaRating `json:"ratings"`
}

type arenaRating struct {
	Program string  `json:"program"`
	Side    string  `json:"side"`
	Rating  float64 `json:"rating"` // the ordinal, mu − 3·sigma
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	Games   int     `json:"games"`
	Wins    int     `json:"wins"`
	Tokens  float64 `json:"tokens,omitempty"`  // a model's, per game
	Seconds float64 `json:"seconds,omitempty"` // a model's, per game
}

// arenaTable serves the programs' ratings that wolfden arena runs stored in
// this server's database (docs/arena.md), the newest run first, after the
// AIWolf agent teams' standing runs: public figures about programs,
// updated once a game is over, nothing of any game being played.
func (s *Server) arenaTable(w http.ResponseWriter, r *http.Request) {
	runs := []arenaRun{}
	ar, ok := s.st.(store.Arena)
	if !ok {
		writeJSON(w, http.StatusOK, runs)
		return
	}
	var rows []store.ArenaRating
	for _, run := range agentRuns {
		agents, err := ar.ArenaRun(r.Context(), run)
		if err != nil {
			writeErr(w, fail(http.StatusInternalServerError, "store", "the arena's ratings could not be read"))
			return
		}
		// Stored in the order the teams first played; listed the village's
		// first, then the wolves', each side's teams by name.
		slices.SortStableFunc(agents, func(a, b store.ArenaRating) int {
			return compareKeys(arena.Key{Program: a.Program, Side: a.Side}, arena.Key{Program: b.Program, Side: b.Side})
		})
		rows = append(rows, agents...)
	}
	latest, err := ar.ArenaRatings(r.Context(), arenaRuns+len(agentRuns))
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the arena's ratings could not be read"))
		return
	}
	tournaments := 0
	for _, row := range latest {
		if slices.Contains(agentRuns, row.Run) {
			continue
		}
		if len(rows) == 0 || rows[len(rows)-1].Run != row.Run {
			if tournaments == arenaRuns {
				break
			}
			tournaments++
		}
		rows = append(rows, row)
	}
	for _, row := range rows {
		if len(runs) == 0 || runs[len(runs)-1].Run != row.Run {
			runs = append(runs, arenaRun{Run: row.Run, At: row.At, Board: row.Board, Seed: row.Seed, Games: row.Games,
				Agents: slices.Contains(agentRuns, row.Run)})
		}
		rt := rating.Rating{Mu: row.Mu, Sigma: row.Sigma}
		lo, hi := rt.Interval()
		run := &runs[len(runs)-1]
		run.Ratings = append(run.Ratings, arenaRating{Program: row.Program, Side: row.Side, Rating: rt.Ordinal(), Mu: row.Mu,
			Sigma: row.Sigma, Low: lo, High: hi, Games: row.Played, Wins: row.Wins, Tokens: row.Tokens, Seconds: row.Seconds})
	}
	writeJSON(w, http.StatusOK, runs)
}
