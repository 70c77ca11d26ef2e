package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// The AIWolf gateway's side of the server (internal/aiwolf,
// docs/aiwolf.md): rooms for matched agents, agent seats in a room of
// the web client, and the gateway's listener.

// agentHost is the server as the gateway sees it.
type agentHost struct{ s *Server }

// StartAgents makes and starts a room whose seats are the matched agents.
func (h agentHost) StartAgents(ctx context.Context, preset string, options map[string]string, names []string, timers game.Timers) (aiwolf.Game, error) {
	s := h.s
	if s.draining.Load() {
		return aiwolf.Game{}, errDraining
	}
	cfg, err := s.matchedCfg.get(preset, options, timers)
	if err != nil {
		return aiwolf.Game{}, err
	}
	_, cfg.HostHash = newToken() // nobody holds it: a matched game has no host
	cfg.AIWolf = true
	rm := &room{cfg: cfg, seats: make([]seatRec, len(names))}
	for i, n := range names {
		rm.seats[i] = seatRec{Nick: n, Agent: true}
	}
	// The room starts at once: a store that can is asked to make it with
	// its game's start, in one transaction (an AIWolf game's start waited
	// for two). A cluster's node leases the room first (addRoom): it is
	// made first.
	_, opens := s.st.(store.GameOpener)
	rm.unstored = opens && s.cl == nil
	if err := s.addRoom(ctx, rm); err != nil {
		return aiwolf.Game{}, err
	}
	rm.mu.Lock()
	a, err := s.startGame(ctx, rm)
	unstored := rm.unstored
	rm.mu.Unlock()
	if err != nil {
		if unstored { // nothing of it was stored: it never was
			s.mu.Lock()
			delete(s.rooms, rm.rec.ID)
			s.mu.Unlock()
			s.m.rooms.WithLabelValues(store.StatusOpen).Dec()
		}
		return aiwolf.Game{}, err
	}
	b, _ := rm.cfg.board()
	return aiwolf.Game{Room: rm.rec.ID, Actor: a, Board: b, Seed: rm.cfg.Seed}, nil
}

// matchedConfig keeps the room config of the last matched game's
// settings: a gateway asks for the same every time, and reading them
// again (the preset's board, every option checked and written out) was
// 24 µs of a start before its first INITIALIZE.
type matchedConfig struct {
	mu      sync.Mutex
	preset  string
	options map[string]string
	timers  game.Timers
	cfg     *roomConfig // nil: none yet
}

// get is the room config of a matched game of these settings, the
// caller's own to change.
func (m *matchedConfig) get(preset string, options map[string]string, timers game.Timers) (roomConfig, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cfg == nil || m.preset != preset || m.timers != timers || !maps.Equal(m.options, options) {
		req := createRequest{Name: "AIWolf " + preset, Preset: preset, Options: options, Timers: timers.Map()}
		cfg, err := req.config()
		if err != nil {
			return roomConfig{}, err
		}
		m.preset, m.options, m.timers, m.cfg = preset, maps.Clone(options), timers, &cfg
	}
	c := *m.cfg
	c.Cards, c.Deal = slices.Clone(c.Cards), slices.Clone(c.Deal)
	c.Options, c.Timers = maps.Clone(c.Options), maps.Clone(c.Timers)
	return c, nil
}

// startGame deals and starts an open room's game as start does, the
// caller holding rm.mu; the room's change to running and the game's first
// records are one transaction.
func (s *Server) startGame(ctx context.Context, rm *room) (*game.Actor, error) {
	if !rm.cfg.Practice {
		rm.cfg.Seed = s.dealSeed(rm.rec.ID)
	}
	cfg, err := s.gameConfig(rm)
	if err != nil {
		return nil, err
	}
	rm.rec.Status = store.StatusRunning
	rm.encode()
	rec := rm.rec
	hooks := s.hooks(rm)
	hooks.Begin = func(ctx context.Context, recs []store.Record) error {
		var err error
		if rm.unstored {
			err = s.st.(store.GameOpener).OpenGame(ctx, rec, recs...)
		} else {
			err = s.st.StartGame(ctx, rec, recs...)
		}
		s.wrote(err)
		return err
	}
	a, err := game.Start(ctx, rm.rec.ID, cfg, s.st, hooks, s.log)
	if err != nil {
		rm.rec.Status = store.StatusOpen
		rm.encode()
		return nil, s.storeFailed(rm.rec.ID, err)
	}
	rm.unstored = false
	s.run(rm, a)
	s.m.rooms.WithLabelValues(store.StatusOpen).Dec()
	s.m.rooms.WithLabelValues(store.StatusRunning).Inc()
	if !rm.cfg.AIWolf { // the gateway logs its matches' start, with the agents
		s.log.Info("game started", "room", rm.rec.ID)
	}
	return a, nil
}

// AgentSeat is the agent seat a room's join token holds.
func (h agentHost) AgentSeat(id, token string) (rules.Seat, error) {
	rm, err := h.s.roomFor(context.Background(), id)
	if err != nil {
		return 0, err
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	seat := rm.seatOf(token)
	switch {
	case seat == 0:
		return 0, errors.New("this token holds no seat in this room")
	case !rm.seats[seat-1].Agent:
		return 0, fmt.Errorf("seat %d is not an agent seat (the host opens one: POST /api/rooms/%s/seats/%d/agent)", seat, id, seat)
	case rm.rec.Status != store.StatusOpen && rm.rec.Status != store.StatusRunning:
		return 0, errors.New("the game is over")
	}
	return seat, nil
}

// agents names a room's agent seats, or nil.
func (rm *room) agents() map[rules.Seat]string {
	var m map[rules.Seat]string
	for i, st := range rm.seats {
		if st.Agent {
			if m == nil {
				m = map[rules.Seat]string{}
			}
			m[rules.Seat(i+1)] = st.Nick
		}
	}
	return m
}

// conductAgents hands a running room's agent seats to the gateway (at its
// start, and when a restart restores it). The caller holds rm.mu.
func (s *Server) conductAgents(rm *room, recs []store.Record) {
	agents := rm.agents()
	if s.agents == nil || agents == nil || rm.actor == nil {
		return
	}
	b, _ := rm.cfg.board()
	gm := aiwolf.Game{Room: rm.rec.ID, Actor: rm.actor, Board: b, Seed: rm.cfg.Seed, Matched: rm.cfg.AIWolf}
	if err := s.agents.Resume(gm, agents, recs); err != nil {
		s.log.Error("aiwolf: the game's agent seats could not be conducted", "room", rm.rec.ID, "err", err)
	}
}

// openAgentSeat makes an empty seat of an open room an agent seat, or gives
// an agent seat a new token (the old one no longer holds it): the token is
// the agent's, given as Authorization: Bearer at /aiwolf/ws?room=ID, and
// the link /aiwolf/ws?room=ID&code=C holds a one-use code of it
// (aiwolf.SeatCodeTTL), never the token: URLs are logged on their way.
func (s *Server) openAgentSeat(w http.ResponseWriter, r *http.Request) {
	if s.agents == nil {
		writeErr(w, fail(http.StatusNotFound, "no_aiwolf", "this server has no AIWolf gateway (wolfden serve --aiwolf)"))
		return
	}
	s.openRoom(w, r, true, func(rm *room) (any, error) {
		n, err := pathSeat(r, rm)
		if err != nil {
			return nil, err
		}
		st := &rm.seats[n-1]
		if !st.empty() && !st.Agent {
			return nil, fail(http.StatusConflict, "taken", "seat %d is taken", n)
		}
		tok, h := newToken()
		code, err := s.agents.SeatCode(rm.rec.ID, tok)
		if err != nil {
			return nil, fail(http.StatusServiceUnavailable, "busy", "%v", err)
		}
		if st.Agent {
			st.Hash = h
		} else {
			*st = seatRec{Nick: "agent", Hash: h, Agent: true}
		}
		if err := s.save(r.Context(), rm); err != nil {
			return nil, s.storeFailed(rm.rec.ID, err)
		}
		return map[string]any{"seat": n, "token": tok, "code_expires_in": int(aiwolf.SeatCodeTTL.Seconds()),
			"url": fmt.Sprintf("/aiwolf/ws?room=%s&code=%s", rm.rec.ID, code)}, nil
	})
}

// replayAIWolf answers a finished game's AIWolf logs.
func (s *Server) replayAIWolf(w http.ResponseWriter, r *http.Request, rm *room, format string) {
	recs, err := s.st.Records(r.Context(), rm.rec.ID)
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the game could not be read"))
		return
	}
	if !aiwolf.HasLog(recs) {
		writeErr(w, fail(http.StatusNotFound, "no_aiwolf_log", "this game had no AIWolf agents"))
		return
	}
	rm.mu.Lock()
	names := map[rules.Seat]string{}
	for i, st := range rm.seats {
		names[rules.Seat(i+1)] = st.Nick
	}
	rm.mu.Unlock()
	w.Header().Set("Cache-Control", "no-store")
	switch format {
	case "aiwolf-csv":
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=\"aiwolf-%s.log\"", rm.rec.ID))
		err = aiwolf.WriteCSV(w, names, recs)
	default:
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=\"aiwolf-%s.json\"", rm.rec.ID))
		err = aiwolf.WriteJSON(w, rm.rec.ID, names, recs)
	}
	if err != nil {
		s.log.Error("aiwolf log", "room", rm.rec.ID, "err", err)
	}
}

// AIWolf is the gateway's own listener's handler (--aiwolf-addr): /ws, as
// the reference serves it, for agents that expect ws://HOST:8080/ws.
func (s *Server) AIWolf() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", healthz)
	if s.agents != nil {
		m.Handle("GET /ws", s.agents)
		m.HandleFunc("POST /code", s.agents.ServeCode)
	}
	return m
}

// AIWolfLive reports how many games the gateway conducts and how many
// agents wait for one (0, 0 without the gateway).
func (s *Server) AIWolfLive() (games, waiting int) {
	if s.agents == nil {
		return 0, 0
	}
	return s.agents.Live()
}

// Finished stops a matched game's actor once its agents were told the end
// (its end is stored already) and rates its agent teams; a web room's
// lingers as any other.
func (h agentHost) Finished(id string) {
	h.s.mu.Lock()
	rm := h.s.rooms[id]
	h.s.mu.Unlock()
	if rm == nil {
		return
	}
	rm.mu.Lock()
	a, matched := rm.actor, rm.cfg.AIWolf
	rm.mu.Unlock()
	if matched && a != nil {
		go func() {
			a.Stop()
			if err := h.s.rateAgents(context.Background(), id, a); err != nil {
				h.s.log.Error("aiwolf: the agent teams could not be rated", "room", id, "err", err)
			}
			h.s.writeAIWolfFiles(id)
		}()
	}
}

// writeAIWolfFiles writes a matched game's logs to the files
// --aiwolf-config's loggers name, once its end is stored.
func (s *Server) writeAIWolfFiles(id string) {
	o := s.opts.AIWolf
	if o == nil || (!o.JSONLog.Enable && !o.GameLog.Enable) {
		return
	}
	recs, err := s.st.Records(context.Background(), id)
	if err == nil {
		err = aiwolf.WriteFiles(o, id, s.seatNicks(id), recs)
	}
	if err != nil {
		s.log.Error("aiwolf log files", "room", id, "err", err)
	}
}

// seatNicks are a room's seats' nicknames (the agents' names).
func (s *Server) seatNicks(id string) map[rules.Seat]string {
	names := map[rules.Seat]string{}
	s.mu.Lock()
	rm := s.rooms[id]
	s.mu.Unlock()
	if rm == nil {
		return names
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	for i, st := range rm.seats {
		names[rules.Seat(i+1)] = st.Nick
	}
	return names
}

// NameAgent names an agent seat after its agent. A seat of an open room is
// saved at once; a running room's with its next change.
func (h agentHost) NameAgent(id string, seat rules.Seat, name string) {
	rm, err := h.s.roomFor(context.Background(), id)
	if err != nil {
		return
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if int(seat) < 1 || int(seat) > len(rm.seats) || !rm.seats[seat-1].Agent || rm.seats[seat-1].Nick == name {
		return
	}
	if checkName("nickname", name, false) != nil {
		return // a name the room's nicknames may not hold keeps "agent"
	}
	rm.seats[seat-1].Nick = name
	if err := h.s.save(context.Background(), rm); err != nil {
		h.s.log.Error("save room", "room", id, "err", err)
	}
}
