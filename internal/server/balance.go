package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"github.com/wolfden/wolfden/rules"
	"github.com/wolfden/wolfden/sim"
)

// Balance before play (docs/server.md, "Balance"): a board's simulated win
// rates, from the presets' embedded table or a short smart-bot simulation,
// and one-change edits that bring the village nearer 50%. No room, seed or
// live game is involved: a board's figures are seeded with a hash of the
// board alone (sim.BoardSeed), so nothing of a real deal can be rehearsed.

// balanceRequest is the body of POST /api/balance: the board as a room's
// creation takes it. A seed, a deal or a room is refused by name.
type balanceRequest struct {
	Preset  string            `json:"preset"`
	Board   string            `json:"board"`
	Players int               `json:"players"`
	Options map[string]string `json:"options"`

	// Refused: a simulation is never seeded by a caller nor a room.
	Seed     json.RawMessage `json:"seed"`
	Deal     json.RawMessage `json:"deal"`
	Room     json.RawMessage `json:"room"`
	Practice json.RawMessage `json:"practice"`
}

// The budgets of a request: past them the answer is 503 busy, never a
// figure of fewer games (an answer depends only on the board).
const (
	balanceBudget = 5 * time.Second // a quick estimate, its wait for a slot included (Options.BalanceBudget); suggestions get four times it
	// DefaultBalancePerMinute is Options.BalancePerMinute's default: the
	// estimates one address may ask a minute (as many at once); a search
	// for suggestions counts in its own bucket of a fifth as many.
	DefaultBalancePerMinute = 30
)

var (
	errBalanceRate = fail(http.StatusTooManyRequests, "rate", "too many balance simulations from this address; try again in a minute")
	errBalanceBusy = fail(http.StatusServiceUnavailable, "busy", "the server is busy simulating other boards; try again soon")
	// A web page asks again as its board changes: the newest question is
	// the one to answer.
	errBalanceOusted = fail(http.StatusServiceUnavailable, "busy", "a newer balance request from this address took this one's place in the queue")
	errBalanceSeed   = fail(http.StatusBadRequest, "seed",
		"a balance simulation takes a board only: no seed, deal, practice or room (its seed comes from the board, never from a room's deal)")
)

// balanceState is the server's share of the balance endpoints: their rate
// limits and the slots that bound how many simulations run at once (each on
// one goroutine), so that games being played are never starved.
type balanceState struct {
	lim, suggestLim *hostLimits
	slots           *fairQueue
	budget          time.Duration
}

func newBalanceState(perMinute int, budget time.Duration) *balanceState {
	if perMinute == 0 {
		perMinute = DefaultBalancePerMinute
	}
	if budget <= 0 {
		budget = balanceBudget
	}
	st := &balanceState{slots: newFairQueue(max(1, runtime.GOMAXPROCS(0)/4)), budget: budget}
	if perMinute > 0 {
		st.lim = newHostLimits(perMinute)
		st.suggestLim = newHostLimits(max(1, perMinute/5))
	}
	return st
}

// acquire waits for a simulation slot, its turn among the addresses
// waiting (fairQueue), until ctx is done.
func (b *balanceState) acquire(ctx context.Context, addr string) error {
	return b.slots.acquire(ctx, addr)
}

func (b *balanceState) release() { b.slots.release() }

// busy answers err, with a Retry-After of one budget when the server was
// too busy.
func (b *balanceState) busy(w http.ResponseWriter, err error) {
	if err == errBalanceBusy || err == errBalanceOusted {
		w.Header().Set("Retry-After", strconv.Itoa(int(max(1, b.budget.Seconds()))))
	}
	writeErr(w, err)
}

// balanceBoard reads the request's board with the room creation's parsing
// and checks (createRequest.config): the same board, the same refusals.
func balanceBoard(req *balanceRequest) (rules.Board, string, error) {
	if req.Seed != nil || req.Deal != nil || req.Room != nil || req.Practice != nil {
		return rules.Board{}, "", errBalanceSeed
	}
	cr := createRequest{Preset: req.Preset, Board: req.Board, Players: req.Players, Options: req.Options}
	cfg, err := cr.config()
	if err == nil {
		var b rules.Board
		if b, err = cfg.board(); err == nil {
			return b, cfg.Preset, nil
		}
	}
	var ae *apiError
	if !errors.As(err, &ae) {
		err = fail(http.StatusBadRequest, "bad_board", "%v", err)
	}
	return rules.Board{}, "", err
}

// balanceAnswer is what POST /api/balance answers.
type balanceAnswer struct {
	Preset  string            `json:"preset,omitempty"`
	Players int               `json:"players"`
	Cards   []string          `json:"cards"`
	Options map[string]string `json:"options"`
	// Source: "table" (the presets' embedded table, 10,000 games) or
	// "simulation" (played for this answer).
	Source      string              `json:"source"`
	Balance     sim.Balance         `json:"balance"`
	Suggestions []suggestionAnswer  `json:"suggestions,omitempty"`
	Suggest     *suggestionsSummary `json:"suggest,omitempty"`
}

// suggestionAnswer is one edit with its figures; the board after it is the
// request's with that one change.
type suggestionAnswer struct {
	sim.Change
	Balance sim.Balance `json:"balance"`
}

type suggestionsSummary struct {
	Candidates int `json:"candidates"` // edits tried
}

func (s *Server) balance(w http.ResponseWriter, r *http.Request) {
	suggest := r.URL.Query().Get("suggest")
	wantSuggest := suggest == "1" || suggest == "true"
	if suggest != "" && !wantSuggest && suggest != "0" && suggest != "false" {
		writeErr(w, fail(http.StatusBadRequest, "bad_query", "suggest=%q: give suggest=1 (or leave it out)", suggest))
		return
	}
	for k := range r.URL.Query() {
		if k != "suggest" {
			writeErr(w, fail(http.StatusBadRequest, "bad_query", "unknown query parameter %q (only suggest=1)", k))
			return
		}
	}
	addr := s.clientAddr(r)
	lim := s.bal.lim
	if wantSuggest {
		lim = s.bal.suggestLim
	}
	if !lim.allow(addr) {
		writeErr(w, errBalanceRate)
		return
	}
	var req balanceRequest
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	b, preset, err := balanceBoard(&req)
	if err != nil {
		writeErr(w, err)
		return
	}
	var c roomConfig
	c.setBoard(b)
	delete(c.Options, "narrate_absent_roles") // no one's play depends on it (sim.Canonical)
	out := balanceAnswer{Preset: preset, Players: b.Players(), Cards: c.Cards, Options: c.Options}

	budget := s.bal.budget
	if wantSuggest {
		budget *= 4
	}
	ctx, cancel := context.WithTimeout(r.Context(), budget)
	defer cancel()
	tab, _ := sim.PresetBalances()
	if p, ok := tab.Lookup(b); ok {
		out.Source, out.Balance = "table", p.Balance
	}
	if out.Source == "" || wantSuggest {
		if err := s.bal.acquire(ctx, addr); err != nil {
			s.bal.busy(w, err)
			return
		}
		defer s.bal.release()
	}
	start := time.Now()
	if out.Source == "" {
		bal, err := sim.Estimate(ctx, b, sim.QuickGames(b.Players()))
		if err != nil {
			s.bal.busy(w, simFailed(ctx, err))
			return
		}
		out.Source, out.Balance = "simulation", bal
	}
	if wantSuggest {
		list, err := sim.Suggest(ctx, b, sim.SuggestConfig{})
		if err != nil {
			s.bal.busy(w, simFailed(ctx, err))
			return
		}
		out.Suggest = &suggestionsSummary{Candidates: len(sim.Candidates(b))}
		out.Suggestions = []suggestionAnswer{}
		for _, sg := range list {
			out.Suggestions = append(out.Suggestions, suggestionAnswer{sg.Change, sg.Balance})
		}
	}
	s.log.Debug("balance", "players", b.Players(), "suggest", wantSuggest, "took", time.Since(start))
	writeJSON(w, http.StatusOK, out)
}

// simFailed is a simulation's error as the caller is told it: past the
// budget, busy; else the engine or a bot refused the board.
func simFailed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return errBalanceBusy
	}
	return fail(http.StatusUnprocessableEntity, "sim_failed", "the board could not be simulated: %v", err)
}

// balancePresets answers the presets' embedded table.
func (s *Server) balancePresets(w http.ResponseWriter, r *http.Request) {
	tab, err := sim.PresetBalances()
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "internal", "%v", err))
		return
	}
	writeJSON(w, http.StatusOK, tab)
}
