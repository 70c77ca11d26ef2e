package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/ledger"
	"github.com/wolfden/wolfden/internal/rating"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
	"github.com/wolfden/wolfden/sim"
)

// The ledger's share of the server (docs/accounts.md): after each finished
// game the results of its accounts' seats are stored and their ratings
// updated; a room says whether it is rated; a seat asks for its own
// rating change after the end.

// rated tells whether a room's games change ratings: a room that is not a
// practice, on a board whose simulated village rate is within the rated
// band (ledger.Rated). Whether the game then counts is known at its end.
func (c *roomConfig) rated() bool {
	if c.Practice {
		return false
	}
	b, err := c.board()
	if err != nil {
		return false
	}
	t, err := sim.PresetBalances()
	if err != nil {
		return false
	}
	p, ok := t.Lookup(b)
	return ledger.Rated(p.Village.Rate, ok)
}

// maxRatingTries bounds the rereads of a game's ratings that keep being
// changed by other nodes' games.
const maxRatingTries = 8

// recordResults stores a finished game's results and updates its
// accounts' ratings. It runs on every end a server sees, a restored one's
// too: the store keeps a game's results once (store.ErrRecorded), so a
// crash between the end and this write is made good at the restart.
func (s *Server) recordResults(rm *room) {
	lg, ok := s.st.(store.Ledger)
	if !ok { // a store that keeps no results (a test's wrapper)
		return
	}
	rm.mu.Lock()
	id, cfg := rm.rec.ID, rm.cfg
	seats := make([]ledger.Seat, len(rm.seats))
	for i, st := range rm.seats {
		// A bot's, a model's or an AIWolf agent's seat is no person's.
		seats[i] = ledger.Seat{Seat: i + 1, Bot: st.Bot || st.Agent}
	}
	rm.mu.Unlock()
	if !slices.ContainsFunc(seats, func(st ledger.Seat) bool { return !st.Bot }) {
		return // a game of bots and agents keeps no results: nothing to read
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := func() error {
		accounts, err := s.st.SeatAccounts(ctx, id)
		if err != nil || len(accounts) == 0 {
			return err
		}
		recs, err := s.st.Records(ctx, id)
		if err != nil || len(recs) == 0 {
			return err
		}
		events, _, err := game.Log(recs)
		if err != nil {
			return err
		}
		away, err := game.AwayPhases(recs)
		if err != nil {
			return err
		}
		for i := range seats {
			seats[i].Account = accounts[i+1]
			seats[i].AwayPhases = away[rules.Seat(seats[i].Seat)]
		}
		g := ledger.Read(events, seats)
		g.Practice = cfg.Practice
		at := endOf(recs)
		season := s.opts.Seasons.Of(at)
		results := ledger.Results(s.opts.Fairness, g, ledger.Info{Room: id, Board: cfg.Preset, Rated: cfg.rated(), Season: season, At: at})
		if len(results) == 0 {
			return nil
		}
		// One game's ratings are read and written at a time on a node; a
		// game of the same account recorded by another node in between
		// makes the store refuse the write as stale, and the ratings are
		// read and computed again.
		s.ledgerMu.Lock()
		defer s.ledgerMu.Unlock()
		ids := make([]string, len(results))
		for i, r := range results {
			ids[i] = r.AccountID
		}
		for try := 1; ; try++ {
			current, err := lg.Ratings(ctx, season, ids...)
			if err != nil {
				return err
			}
			rated, ratings := ledger.Update(g, slices.Clone(results), current)
			err = lg.RecordGame(ctx, rated, ratings)
			if !errors.Is(err, store.ErrStaleRating) || try == maxRatingTries {
				return err
			}
		}
	}()
	switch {
	case errors.Is(err, store.ErrRecorded):
	case err != nil:
		s.log.Error("the game's results could not be stored", "room", id, "err", err)
	}
	rm.mu.Lock()
	rm.recorded = true
	rm.mu.Unlock()
}

// endOf is when a game ended: the time of the record that holds its end,
// the same after a restart (chat and notes may follow it); else the last
// record's.
func endOf(recs []store.Record) time.Time {
	for i := len(recs) - 1; i >= 0; i-- {
		for _, e := range recs[i].Events {
			if e.Kind == rules.EvGameOver {
				return recs[i].At.UTC()
			}
		}
	}
	return recs[len(recs)-1].At.UTC()
}

// ratingInfo is a rating as the API gives it.
type ratingInfo struct {
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Ordinal float64 `json:"ordinal"` // mu − 3·sigma, what the leaderboard sorts by
	Low     float64 `json:"low"`     // the 95% interval of the skill
	High    float64 `json:"high"`
}

func ratingOf(v store.RatingValue) ratingInfo {
	r := rating.Rating{Mu: v.Mu, Sigma: v.Sigma}
	lo, hi := r.Interval()
	return ratingInfo{Mu: v.Mu, Sigma: v.Sigma, Ordinal: r.Ordinal(), Low: lo, High: hi}
}

// seatResult is GET /api/rooms/{id}/rating: the asking seat's own result
// and rating change, never another's.
type seatResult struct {
	Pending bool        `json:"pending,omitempty"` // the results are being stored: ask again
	Linked  bool        `json:"linked"`            // an account held the seat
	Counted bool        `json:"counted,omitempty"`
	Reason  string      `json:"reason,omitempty"` // why it does not count
	Outcome string      `json:"outcome,omitempty"`
	Rated   bool        `json:"rated,omitempty"`
	Side    string      `json:"side,omitempty"`
	Season  string      `json:"season,omitempty"`
	Before  *ratingInfo `json:"before,omitempty"`
	After   *ratingInfo `json:"after,omitempty"`
}

var errNotOver = fail(http.StatusConflict, "not_over", "the result is known once the game is over")

// seatRating answers a seat (its token) with its own result of the room's
// finished game: a player learns his rating change, and nothing of any
// other seat's.
func (s *Server) seatRating(w http.ResponseWriter, r *http.Request) {
	rm, err := s.roomFor(r.Context(), r.PathValue("id"))
	if err != nil {
		writeErr(w, err)
		return
	}
	rm.mu.Lock()
	seat, status, recorded := rm.seatOf(bearer(r)), rm.rec.Status, rm.recorded
	rm.mu.Unlock()
	switch {
	case seat == 0:
		writeErr(w, errToken)
		return
	case status != store.StatusOver:
		writeErr(w, errNotOver)
		return
	}
	lg, ok := s.st.(store.Ledger)
	if !ok {
		writeJSON(w, http.StatusOK, seatResult{})
		return
	}
	accounts, err := s.st.SeatAccounts(r.Context(), rm.rec.ID)
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the result could not be read"))
		return
	}
	account := accounts[int(seat)]
	if account == "" {
		writeJSON(w, http.StatusOK, seatResult{})
		return
	}
	if !s.ownAccount(r, account) {
		writeErr(w, errSignIn)
		return
	}
	results, err := lg.RoomResults(r.Context(), rm.rec.ID)
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the result could not be read"))
		return
	}
	for _, res := range results {
		if res.AccountID != account {
			continue
		}
		out := seatResult{Linked: true, Counted: res.Counted, Reason: res.Reason, Outcome: res.Outcome, Rated: res.Rated,
			Side: res.Side, Season: res.Season}
		if res.Rated {
			b, a := ratingOf(res.Before), ratingOf(res.After)
			out.Before, out.After = &b, &a
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	writeJSON(w, http.StatusOK, seatResult{Linked: true, Pending: !recorded})
}
