package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"time"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/llm"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// start deals the game of an open room; bots take the empty seats (closed
// ones too). A room that is not a practice gets its seed now. The room's
// change to running and the game's first records are stored in one
// transaction: a crash or a failure at any moment leaves either a running
// game with its deal or the room as it was, never a room running without a
// deal. A request the client gives up on still completes or fails whole.
func (s *Server) start(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() {
		writeErr(w, errDraining)
		return
	}
	rm := s.holdOpen(w, r, true)
	if rm == nil {
		return
	}
	defer rm.mu.Unlock()
	before, seats := rm.cfg, slices.Clone(rm.seats)
	undo := func() { rm.cfg, rm.seats, rm.rec.Status = before, seats, store.StatusOpen }
	for i := range rm.seats { // bots take the empty seats
		if rm.seats[i].empty() {
			rm.seats[i] = seatRec{Bot: true}
		}
	}
	if err := s.llmReady(rm); err != nil {
		undo()
		writeErr(w, err)
		return
	}
	if !rm.cfg.Practice {
		rm.cfg.Seed = s.dealSeed(rm.rec.ID)
	}
	cfg, err := s.gameConfig(rm)
	if err != nil {
		undo()
		writeErr(w, err)
		return
	}
	rm.rec.Status = store.StatusRunning
	rm.encode()
	rec := rm.rec
	hooks := s.hooks(rm)
	hooks.Begin = func(ctx context.Context, recs []store.Record) error {
		err := s.st.StartGame(ctx, rec, recs...)
		s.wrote(err)
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 30*time.Second)
	defer cancel()
	a, err := game.Start(ctx, rm.rec.ID, cfg, s.st, hooks, s.log)
	if err != nil {
		undo()
		rm.encode()
		writeErr(w, s.storeFailed(rm.rec.ID, err))
		return
	}
	s.run(rm, a)
	s.conductAgents(rm, nil)
	s.m.rooms.WithLabelValues(store.StatusOpen).Dec()
	s.m.rooms.WithLabelValues(store.StatusRunning).Inc()
	s.log.Info("game started", "room", rm.rec.ID)
	writeJSON(w, http.StatusOK, s.describe(rm))
}

// gameConfig builds the actor's settings from the room.
func (s *Server) gameConfig(rm *room) (game.Config, error) {
	b, err := rm.cfg.board()
	if err != nil {
		return game.Config{}, err
	}
	t, err := rm.cfg.timers()
	if err != nil {
		return game.Config{}, err
	}
	cfg := game.Config{Board: b, Seed: rm.cfg.Seed, Timers: t, Level: bot.Level(rm.cfg.Bots), Unpaced: rm.cfg.AIWolf,
		CardSeen: rm.cfg.CardSeen}
	if cfg.Remind, err = game.ParseRemind(rm.cfg.Remind); err != nil {
		return game.Config{}, err
	}
	if rm.cfg.Deal != nil {
		if cfg.Deal, err = parseDeal(rm.cfg.Deal); err != nil {
			return game.Config{}, err
		}
	}
	if rm.cfg.Bots == llm.Level {
		cfg.Level = bot.Smart // for a model's seat left empty (llm.go)
	}
	for i, st := range rm.seats {
		if st.Bot && !rm.llmSeat(i) { // a model's seat is a connection's, not the actor's bot
			cfg.Bots |= 1 << uint(i+1)
		}
	}
	return cfg, nil
}

func (s *Server) hooks(rm *room) game.Hooks {
	h := game.Hooks{
		Command: func(result string, took time.Duration) {
			s.m.commands.WithLabelValues(result).Inc()
			if result == "ok" {
				s.m.latency.Observe(took.Seconds())
			}
		},
		Over: func(w rules.Camp) {
			// Called from the actor: the room's status is stored off its
			// goroutine, once the goroutines the end readied have run. A
			// goroutine just started runs next, ahead of them: the room's
			// save, its records' move in the writer's transaction, went
			// before the AIWolf agents' FINISH (0.3 ms at p50 on one core,
			// docs/benchmarks.md). The end is stored already; its status
			// is the server's bookkeeping.
			go func() {
				runtime.Gosched()
				s.finish(rm, w)
			}()
		},
		Failed:      func(err error) { s.log.Error("game stopped", "room", rm.rec.ID, "err", err) },
		WriteFailed: func(err error) { s.m.storeFails.Inc() },
		Lost: func(err error) bool {
			if !s.lost(err) {
				return false
			}
			// Fenced: another node has the game now. Its players are told
			// nothing but to go there (1012 moved, dropRoom); it is no
			// stall, and says nothing about this node's store.
			s.log.Warn("cluster: a write was fenced; another node has the room", "room", rm.rec.ID, "err", err)
			go s.cl.abandon(rm.rec.ID, false)
			return true
		},
		Stalled: func(on bool) {
			if rm.stalled.Swap(on) != on {
				s.stall(on)
			}
		},
	}
	if s.opts.Voice != nil {
		h.Voice = rm.setVoices
	}
	return h
}

// run tracks a live game until its actor stops.
func (s *Server) run(rm *room, a *game.Actor) {
	rm.actor = a
	s.seatLLMs(rm, a)
	s.games.Add(1)
	s.m.games.Inc()
	go func() {
		<-a.Done()
		rm.endVoice()
		s.m.games.Dec()
		s.games.Done()
	}()
}

// finish marks a room over, and ends its live game after the linger time.
func (s *Server) finish(rm *room, w rules.Camp) {
	rm.mu.Lock()
	linger := s.opts.Linger
	if rm.rec.Status == store.StatusOver { // restored on its end screen: what is left of its linger
		linger -= time.Since(rm.rec.Updated)
	}
	if rm.rec.Status == store.StatusRunning {
		rm.rec.Status = store.StatusOver
		if err := s.save(context.Background(), rm); err != nil {
			s.log.Error("save room", "room", rm.rec.ID, "err", err)
		}
		s.m.rooms.WithLabelValues(store.StatusRunning).Dec()
		s.m.rooms.WithLabelValues(store.StatusOver).Inc()
	}
	s.codes.over(rm.rec.Code, rm.rec.ID)
	a := rm.actor
	rm.mu.Unlock()
	s.log.Info("game over", "room", rm.rec.ID, "winner", w.String())
	s.recordResults(rm)
	if rm.cfg.AIWolf {
		s.fillIDs(context.Background())
	}
	if s.draining.Load() {
		a.Stop()
		return
	}
	t := time.NewTimer(max(linger, 0))
	defer t.Stop()
	select {
	case <-t.C:
		a.Stop()
	case <-a.Done():
	}
	rm.mu.Lock()
	moved := rm.moved
	rm.mu.Unlock()
	if moved { // its next owner lets it go
		return
	}
	s.mu.Lock()
	delete(s.rooms, rm.rec.ID)
	s.mu.Unlock()
	s.codes.free(rm.rec.Code, rm.rec.ID) // unless its rematch took it
	if s.cl != nil {
		s.cl.disown(rm.rec.ID)
	}
}

func (s *Server) pause(on bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.liveRoom(w, r, func(rm *room, a *game.Actor) error { return a.Pause(on) })
	}
}

// extend gives the running step more time at the host's word (forum
// pace): {"by": "2h"}.
func (s *Server) extend(w http.ResponseWriter, r *http.Request) {
	var req struct {
		By string `json:"by"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	d, err := time.ParseDuration(req.By)
	if err != nil {
		writeErr(w, fail(http.StatusBadRequest, "bad_extend", "by: %q is not a duration such as \"2h\" or \"30m\"", req.By))
		return
	}
	if d < game.MinExtend || d > game.MaxPhase {
		writeErr(w, fail(http.StatusBadRequest, "bad_extend", "by: %v is out of range (%v to %v)", d, game.MinExtend, game.MaxPhase))
		return
	}
	s.liveRoom(w, r, func(rm *room, a *game.Actor) error { return a.Extend(d) })
}

func (s *Server) redCard(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Seat int `json:"seat"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	s.liveRoom(w, r, func(rm *room, a *game.Actor) error {
		if req.Seat < 1 || req.Seat > len(rm.seats) {
			return fail(http.StatusBadRequest, "bad_seat", "seat %d is not in this room (1 to %d)", req.Seat, len(rm.seats))
		}
		return a.RedCard(rules.Seat(req.Seat))
	})
}

// liveRoom runs a host's act on a running game.
func (s *Server) liveRoom(w http.ResponseWriter, r *http.Request, f func(rm *room, a *game.Actor) error) {
	rm, err := s.roomFor(r.Context(), r.PathValue("id"))
	if err != nil {
		writeErr(w, err)
		return
	}
	rm.mu.Lock()
	a, host := rm.actor, rm.isHost(bearer(r))
	rm.mu.Unlock()
	switch {
	case !host:
		writeErr(w, errNotHost)
		return
	case a == nil:
		writeErr(w, fail(http.StatusConflict, "not_running", "the game is not running"))
		return
	}
	if err := f(rm, a); err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			err = fail(http.StatusConflict, "refused", "%v", err)
		}
		writeErr(w, err)
		return
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	writeJSON(w, http.StatusOK, s.describe(rm))
}

// abort ends a running game at its host's word: its players are told and
// their connections closed, the game's records are dropped, and the room
// waits again with its seats as they were (a new deal at the next start).
func (s *Server) abort(w http.ResponseWriter, r *http.Request) {
	s.liveRoom(w, r, func(rm *room, a *game.Actor) error {
		rm.mu.Lock()
		defer rm.mu.Unlock()
		if rm.actor != a || rm.rec.Status != store.StatusRunning {
			return fail(http.StatusConflict, "not_running", "the game is not running")
		}
		if err := a.Abort(); err != nil {
			return err
		}
		rm.actor, rm.rec.Status = nil, store.StatusOpen
		rm.encode()
		err := s.st.ResetRoom(context.WithoutCancel(r.Context()), rm.rec)
		s.wrote(err)
		if err != nil {
			return s.storeFailed(rm.rec.ID, err)
		}
		s.m.rooms.WithLabelValues(store.StatusRunning).Dec()
		s.m.rooms.WithLabelValues(store.StatusOpen).Inc()
		s.log.Info("game aborted by its host", "room", rm.rec.ID)
		return nil
	})
}

// again opens the rematch of a finished game: a new room with the same
// board, rules, timers and seats (everyone's token holds his seat there
// too) and a new deal. Asked twice, it answers the same room.
func (s *Server) again(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() {
		writeErr(w, errDraining)
		return
	}
	rm, err := s.roomFor(r.Context(), r.PathValue("id"))
	if err != nil {
		writeErr(w, err)
		return
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	switch {
	case !rm.isHost(bearer(r)):
		writeErr(w, errNotHost)
		return
	case rm.rec.Status != store.StatusOver:
		writeErr(w, fail(http.StatusConflict, "not_over", "a rematch can be opened once the game is over"))
		return
	}
	if rm.cfg.Next != "" {
		next, err := s.roomFor(r.Context(), rm.cfg.Next)
		if err != nil {
			writeErr(w, err)
			return
		}
		next.mu.Lock()
		defer next.mu.Unlock()
		writeJSON(w, http.StatusOK, s.describe(next))
		return
	}
	if !s.roomLim.allow(s.clientAddr(r)) {
		writeErr(w, errRoomRate)
		return
	}
	// A new deal: a practice room's from a random seed, shown in its
	// info; any other room's is drawn when the rematch starts.
	nx := &room{cfg: rm.cfg, seats: slices.Clone(rm.seats)}
	nx.cfg.Next, nx.cfg.Seed, nx.cfg.Deal = "", 0, nil // a new deal
	if nx.cfg.Practice {
		nx.cfg.Seed = randomSeed()
	}
	if s.codes.holds(rm.rec.Code, rm.rec.ID) { // the table keeps its code for the next game
		nx.rec.Code = rm.rec.Code
	}
	if err := s.addRoom(r.Context(), nx); err != nil {
		if nx.rec.Code != "" { // the code goes back to the finished room
			if err := s.codes.give(context.WithoutCancel(r.Context()), rm.rec.Code, rm.rec.ID); err != nil {
				s.log.Warn("a finished room's code could not be given back after its rematch failed", "room", rm.rec.ID, "err", err)
			}
			s.codes.over(rm.rec.Code, rm.rec.ID)
		}
		writeErr(w, err)
		return
	}
	nx.mu.Lock()
	s.linkSeats(r.Context(), nx)
	nx.mu.Unlock()
	rm.cfg.Next = nx.rec.ID
	if err := s.save(r.Context(), rm); err != nil {
		s.log.Error("save room", "room", rm.rec.ID, "err", err)
	}
	s.log.Info("rematch opened", "room", nx.rec.ID, "after", rm.rec.ID)
	writeJSON(w, http.StatusCreated, s.describe(nx))
}

// replay is a finished game's whole log, every event with its audience:
// the god's view, given only once the game is over.
func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	rm, err := s.roomFor(r.Context(), r.PathValue("id"))
	if err != nil {
		writeErr(w, err)
		return
	}
	rm.mu.Lock()
	status, info := rm.rec.Status, s.describe(rm)
	rm.mu.Unlock()
	if status != store.StatusOver {
		writeErr(w, fail(http.StatusForbidden, "not_over", "the replay is available once the game is over"))
		return
	}
	switch f := r.URL.Query().Get("format"); f {
	case "":
	case "aiwolf-csv", "aiwolf-json":
		s.replayAIWolf(w, r, rm, f)
		return
	default:
		writeErr(w, fail(http.StatusBadRequest, "bad_format", "unknown format %q (aiwolf-csv or aiwolf-json; none for the replay)", f))
		return
	}
	recs, err := s.st.Records(r.Context(), rm.rec.ID)
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the game could not be read"))
		return
	}
	events, msgs, err := game.Log(recs)
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the game could not be read"))
		return
	}
	notes, err := game.Notes(recs)
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the game could not be read"))
		return
	}
	roles := map[int]string{}
	for _, e := range events {
		if e.Kind == rules.EvRole || e.Kind == rules.EvSwap {
			roles[int(e.Seat)] = e.Role.String()
		}
	}
	if r.URL.Query().Get("download") != "" {
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=\"wolfden-%s.json\"", rm.rec.ID))
	}
	writeJSON(w, http.StatusOK, map[string]any{"room": info, "seed": rm.cfg.Seed, "roles": roles,
		"events": events, "chats": msgs, "notes": notes})
}
