// Package server is wolfden's HTTP and WebSocket front: rooms, seats and
// tokens, the live games' connections, health and metrics. The games
// themselves run in internal/game; everything lasting is in internal/store.
package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// Options configure a server.
type Options struct {
	// Origins are the extra hosts (patterns of path.Match, such as
	// "example.com" or "*.example.com") whose pages may open WebSockets;
	// the server's own host is always allowed.
	Origins []string
	// Linger is how long a finished game stays live for its players to
	// read the end and talk; then it is only a replay.
	Linger time.Duration
	Log    *slog.Logger
	// Web is the web client's files, served at /; nil serves none.
	Web fs.FS
	// RoomsPerMinute bounds the rooms one address may create a minute
	// (as many at once); 0 means no bound (load tests).
	RoomsPerMinute int
}

// Server holds the rooms.
type Server struct {
	st   store.Store
	opts Options
	log  *slog.Logger
	m    *metrics
	mux  *http.ServeMux

	mu       sync.Mutex
	rooms    map[string]*room
	draining atomic.Bool
	roomLim  *hostLimits
	games    sync.WaitGroup // live games
	sessions sync.WaitGroup // open WebSocket connections
}

type room struct {
	mu    sync.Mutex
	rec   store.Room
	cfg   roomConfig
	seats []seatRec
	actor *game.Actor
}

// New makes a server on a store. Call Restore before serving to resume
// the games the store holds.
func New(st store.Store, opts Options) *Server {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Linger == 0 {
		opts.Linger = 10 * time.Minute
	}
	s := &Server{st: st, opts: opts, log: opts.Log, m: newMetrics(), rooms: map[string]*room{},
		roomLim: newHostLimits(opts.RoomsPerMinute)}
	s.routes()
	return s
}

// ServeHTTP makes the server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin") // room links carry no token, but keep them home
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	m.HandleFunc("GET /readyz", s.readyz)
	m.Handle("GET /metrics", promhttp.HandlerFor(s.m.reg, promhttp.HandlerOpts{}))
	m.HandleFunc("GET /api/presets", s.presets)
	m.HandleFunc("GET /api/options", s.options)
	m.HandleFunc("GET /api/rooms", s.listRooms)
	m.HandleFunc("POST /api/rooms", s.createRoom)
	m.HandleFunc("GET /api/rooms/{id}", s.getRoom)
	m.HandleFunc("POST /api/rooms/{id}/join", s.join)
	m.HandleFunc("POST /api/rooms/{id}/leave", s.leave)
	m.HandleFunc("POST /api/rooms/{id}/bots", s.addBots)
	m.HandleFunc("DELETE /api/rooms/{id}/seats/{seat}", s.clearSeat)
	m.HandleFunc("POST /api/rooms/{id}/order", s.reorder)
	m.HandleFunc("POST /api/rooms/{id}/start", s.start)
	m.HandleFunc("POST /api/rooms/{id}/pause", s.pause(true))
	m.HandleFunc("POST /api/rooms/{id}/resume", s.pause(false))
	m.HandleFunc("POST /api/rooms/{id}/red-card", s.redCard)
	m.HandleFunc("GET /api/rooms/{id}/replay", s.replay)
	m.HandleFunc("POST /api/rooms/{id}/again", s.again)
	m.HandleFunc("GET /ws/{id}", s.websocket)
	if s.opts.Web != nil {
		m.Handle("GET /", static(s.opts.Web))
	}
	s.mux = m
}

// apiError is an error with its HTTP status and a stable code.
type apiError struct {
	status int
	code   string
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func fail(status int, code, format string, args ...any) *apiError {
	return &apiError{status, code, fmt.Sprintf(format, args...)}
}

var (
	errNoRoom   = fail(http.StatusNotFound, "no_room", "no such room")
	errToken    = fail(http.StatusUnauthorized, "token", "a valid token is required (Authorization: Bearer TOKEN)")
	errDraining = fail(http.StatusServiceUnavailable, "draining", "the server is shutting down; try again soon")
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeErr(w http.ResponseWriter, err error) {
	var e *apiError
	if !errors.As(err, &e) {
		e = fail(http.StatusBadRequest, "bad_request", "%s", err.Error())
	}
	writeJSON(w, e.status, map[string]any{"error": map[string]string{"code": e.code, "message": e.msg}})
}

// readBody decodes a small JSON body strictly; an empty body is {}.
func readBody(w http.ResponseWriter, r *http.Request, v any) error {
	body := http.MaxBytesReader(w, r.Body, 64<<10)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return fail(http.StatusBadRequest, "bad_json", "malformed JSON body: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) { // one object, nothing after it
		return fail(http.StatusBadRequest, "bad_json", "malformed JSON body: data after the JSON object")
	}
	return nil
}

// Tokens are 256 random bits; only their SHA-256 is stored, and they are
// never logged.
func newToken() (token, hash string) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, hashToken(token)
}

func hashToken(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}

func bearer(r *http.Request) string {
	a := r.Header.Get("Authorization")
	if t, ok := strings.CutPrefix(a, "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return ""
}

func sameHash(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// seatOf is the seat a token holds in the room, or 0.
func (rm *room) seatOf(token string) rules.Seat {
	if token == "" {
		return 0
	}
	h := hashToken(token)
	seat := rules.Seat(0)
	for i := range rm.seats { // no early exit: the time taken does not depend on the seat
		if sameHash(rm.seats[i].Hash, h) {
			seat = rules.Seat(i + 1)
		}
	}
	return seat
}

func (rm *room) isHost(token string) bool {
	return token != "" && sameHash(rm.cfg.HostHash, hashToken(token))
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() {
		http.Error(w, "draining", http.StatusServiceUnavailable)
		return
	}
	fmt.Fprintln(w, "ready")
}

func (s *Server) presets(w http.ResponseWriter, r *http.Request) {
	type preset struct {
		Name        string            `json:"name"`
		Chinese     string            `json:"chinese"`
		Description string            `json:"description"`
		MinPlayers  int               `json:"min_players"`
		MaxPlayers  int               `json:"max_players"`
		Cards       []string          `json:"cards"` // at min_players
		Options     map[string]string `json:"options"`
	}
	var out []preset
	for _, p := range rules.Presets() {
		b, err := p.Board(p.MinPlayers)
		if err != nil {
			continue
		}
		var c roomConfig
		c.setBoard(b)
		c.Options["narrate_absent_roles"] = "on" // as a room gets it (config.go)
		out = append(out, preset{p.Name, p.Chinese, p.Description, p.MinPlayers, p.MaxPlayers, c.Cards, c.Options})
	}
	writeJSON(w, http.StatusOK, out)
}

// options lists every option with its values (the first is the default)
// and every role a custom board may hold.
func (s *Server) options(w http.ResponseWriter, r *http.Request) {
	type option struct {
		Name   string   `json:"name"`
		Values []string `json:"values"`
		Doc    string   `json:"doc"`
	}
	var opts []option
	for _, o := range rules.AllOptions() {
		opts = append(opts, option{o.Name(), o.Values(), o.Doc()})
	}
	var roles []string
	for _, r := range rules.Roles() {
		if r.Implemented() {
			roles = append(roles, r.String())
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"options": opts, "roles": roles})
}

// roomList is the rooms in memory. A room's lock may be held while the
// server's is taken (again does), never the reverse: callers lock the rooms
// after this returns.
func (s *Server) roomList() []*room {
	s.mu.Lock()
	defer s.mu.Unlock()
	rooms := make([]*room, 0, len(s.rooms))
	for _, rm := range s.rooms {
		rooms = append(rooms, rm)
	}
	return rooms
}

// roomFor finds a room in memory, or loads a finished one from the store.
func (s *Server) roomFor(ctx context.Context, id string) (*room, error) {
	s.mu.Lock()
	rm := s.rooms[id]
	s.mu.Unlock()
	if rm != nil {
		return rm, nil
	}
	rec, err := s.st.Room(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNoRoom
	}
	if err != nil {
		return nil, err
	}
	return loadRoom(rec)
}

func loadRoom(rec store.Room) (*room, error) {
	rm := &room{rec: rec}
	if err := json.Unmarshal(rec.Config, &rm.cfg); err != nil {
		return nil, fmt.Errorf("room %s: config: %v", rec.ID, err)
	}
	if err := json.Unmarshal(rec.Seats, &rm.seats); err != nil {
		return nil, fmt.Errorf("room %s: seats: %v", rec.ID, err)
	}
	return rm, nil
}

// save writes the room's record; the caller holds rm.mu.
func (s *Server) save(ctx context.Context, rm *room) error {
	rm.rec.Config, _ = json.Marshal(rm.cfg)
	rm.rec.Seats, _ = json.Marshal(rm.seats)
	rm.rec.Updated = time.Now().UTC()
	return s.st.UpdateRoom(ctx, rm.rec)
}

var base32NoPad = base32.StdEncoding.WithPadding(base32.NoPadding)

// StaleRoom is how long an open room may wait untouched before the lobby
// stops listing it.
const StaleRoom = 24 * time.Hour

// newRoomID is 80 random bits: a room's address is not guessable.
func newRoomID() string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return strings.ToLower(base32NoPad.EncodeToString(b[:]))
}

func (s *Server) createRoom(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() {
		writeErr(w, errDraining)
		return
	}
	if !s.roomLim.allow(r) {
		writeErr(w, fail(http.StatusTooManyRequests, "rate", "too many rooms created from this address; try again in a minute"))
		return
	}
	var req createRequest
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	cfg, err := req.config()
	if err != nil {
		writeErr(w, fail(http.StatusBadRequest, "bad_room", "%v", err))
		return
	}
	if err := checkName("nickname", req.Nickname, true); err != nil {
		writeErr(w, fail(http.StatusBadRequest, "bad_name", "%v", err))
		return
	}
	host, hostHash := newToken()
	cfg.HostHash = hostHash
	b, _ := cfg.board()
	rm := &room{cfg: cfg, seats: make([]seatRec, b.Players())}
	out := map[string]any{"host_token": host}
	if req.Nickname != "" {
		tok, h := newToken()
		rm.seats[0] = seatRec{Nick: req.Nickname, Hash: h}
		out["seat"], out["token"] = 1, tok
	}
	now := time.Now().UTC()
	rm.rec = store.Room{ID: newRoomID(), Created: now, Updated: now, Status: store.StatusOpen}
	rm.rec.Config, _ = json.Marshal(rm.cfg)
	rm.rec.Seats, _ = json.Marshal(rm.seats)
	if err := s.st.CreateRoom(r.Context(), rm.rec); err != nil {
		s.log.Error("create room", "err", err)
		writeErr(w, fail(http.StatusInternalServerError, "store", "the room could not be stored"))
		return
	}
	s.mu.Lock()
	s.rooms[rm.rec.ID] = rm
	s.mu.Unlock()
	s.m.rooms.WithLabelValues(store.StatusOpen).Inc()
	s.log.Info("room created", "room", rm.rec.ID, "cards", len(cfg.Cards))
	rm.mu.Lock()
	out["room"] = s.describe(rm)
	rm.mu.Unlock()
	writeJSON(w, http.StatusCreated, out)
}

// roomInfo is a room as anyone may see it.
type roomInfo struct {
	ID      string            `json:"id"`
	Name    string            `json:"name"`
	Status  string            `json:"status"`
	Preset  string            `json:"preset,omitempty"`
	Cards   []string          `json:"cards"`
	Options map[string]string `json:"options"`
	Timers  map[string]string `json:"timers"`
	Bots    string            `json:"bots"`
	Players int               `json:"players"`
	Taken   int               `json:"taken"`
	Seats   []seatInfo        `json:"seats"`
	Game    *gameInfo         `json:"game,omitempty"`
	You     rules.Seat        `json:"you,omitempty"`  // the seat of the token the request carried
	Next    string            `json:"next,omitempty"` // the rematch's room, once the host opened it
}

type seatInfo struct {
	Seat rules.Seat `json:"seat"`
	Nick string     `json:"nick,omitempty"`
	Bot  bool       `json:"bot,omitempty"`
}

type gameInfo struct {
	Day    int    `json:"day"`
	Night  bool   `json:"night"`
	Alive  int    `json:"alive"`
	Paused bool   `json:"paused,omitempty"`
	Over   bool   `json:"over,omitempty"`
	Winner string `json:"winner,omitempty"`
}

// describe is the public view of a room; the caller holds rm.mu.
func (s *Server) describe(rm *room) roomInfo {
	in := roomInfo{ID: rm.rec.ID, Name: rm.cfg.Name, Status: rm.rec.Status, Preset: rm.cfg.Preset, Next: rm.cfg.Next,
		Cards: rm.cfg.Cards, Options: rm.cfg.Options, Timers: rm.cfg.Timers, Bots: rm.cfg.Bots, Players: len(rm.seats)}
	for i, st := range rm.seats {
		if !st.empty() {
			in.Taken++
		}
		in.Seats = append(in.Seats, seatInfo{Seat: rules.Seat(i + 1), Nick: st.Nick, Bot: st.Bot})
	}
	if rm.actor != nil {
		if g, err := rm.actor.Status(); err == nil {
			in.Game = &gameInfo{Day: g.Day, Night: g.Night, Alive: g.Alive, Paused: g.Paused, Over: g.Over}
			if g.Over {
				in.Game.Winner = g.Winner.String()
			}
		}
	}
	return in
}

func (s *Server) listRooms(w http.ResponseWriter, r *http.Request) {
	status := r.URL.Query().Get("status")
	if status == "" {
		status = store.StatusOpen
	}
	if status != store.StatusOpen && status != store.StatusRunning {
		writeErr(w, fail(http.StatusBadRequest, "bad_status", "status must be open or running"))
		return
	}
	rooms := s.roomList()
	slices.SortFunc(rooms, func(a, b *room) int { return a.rec.Created.Compare(b.rec.Created) })
	out := []roomInfo{}
	stale := time.Now().Add(-StaleRoom)
	for _, rm := range rooms {
		rm.mu.Lock()
		// A room nobody has touched for a day is not offered any more; its
		// link still works.
		if rm.rec.Status == status && (status != store.StatusOpen || rm.rec.Updated.After(stale)) {
			out = append(out, s.describe(rm))
		}
		rm.mu.Unlock()
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getRoom(w http.ResponseWriter, r *http.Request) {
	rm, err := s.roomFor(r.Context(), r.PathValue("id"))
	if err != nil {
		writeErr(w, err)
		return
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	info := s.describe(rm)
	info.You = rm.seatOf(bearer(r)) // the host may have moved him
	writeJSON(w, http.StatusOK, info)
}

// openRoom runs f on an open room, then stores the room.
func (s *Server) openRoom(w http.ResponseWriter, r *http.Request, host bool, f func(rm *room) (any, error)) {
	rm, err := s.roomFor(r.Context(), r.PathValue("id"))
	if err != nil {
		writeErr(w, err)
		return
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if host && !rm.isHost(bearer(r)) {
		writeErr(w, fail(http.StatusForbidden, "not_host", "only the room's host may do this (Authorization: Bearer HOST_TOKEN)"))
		return
	}
	if rm.rec.Status != store.StatusOpen {
		writeErr(w, fail(http.StatusConflict, "started", "the game has already started"))
		return
	}
	out, err := f(rm)
	if err != nil {
		writeErr(w, err)
		return
	}
	if err := s.save(r.Context(), rm); err != nil {
		s.log.Error("save room", "room", rm.rec.ID, "err", err)
		writeErr(w, fail(http.StatusInternalServerError, "store", "the room could not be stored"))
		return
	}
	if out == nil {
		out = s.describe(rm)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Nickname string `json:"nickname"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	if err := checkName("nickname", req.Nickname, false); err != nil {
		writeErr(w, fail(http.StatusBadRequest, "bad_name", "%v", err))
		return
	}
	s.openRoom(w, r, false, func(rm *room) (any, error) {
		for i := range rm.seats {
			if rm.seats[i].empty() {
				tok, h := newToken()
				rm.seats[i] = seatRec{Nick: req.Nickname, Hash: h}
				return map[string]any{"seat": i + 1, "token": tok, "room": s.describe(rm)}, nil
			}
		}
		return nil, fail(http.StatusConflict, "full", "the room is full")
	})
}

func (s *Server) leave(w http.ResponseWriter, r *http.Request) {
	s.openRoom(w, r, false, func(rm *room) (any, error) {
		seat := rm.seatOf(bearer(r))
		if seat == 0 {
			return nil, errToken
		}
		rm.seats[seat-1] = seatRec{}
		return nil, nil
	})
}

func (s *Server) addBots(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Count int `json:"count"` // fill this many empty seats (0: all)
		Seat  int `json:"seat"`  // or this one
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	s.openRoom(w, r, true, func(rm *room) (any, error) {
		if req.Seat != 0 {
			if req.Seat < 1 || req.Seat > len(rm.seats) {
				return nil, fail(http.StatusBadRequest, "bad_seat", "seat %d is not in this room (1 to %d)", req.Seat, len(rm.seats))
			}
			if !rm.seats[req.Seat-1].empty() {
				return nil, fail(http.StatusConflict, "taken", "seat %d is taken", req.Seat)
			}
			rm.seats[req.Seat-1] = seatRec{Bot: true}
			return nil, nil
		}
		if req.Count < 0 {
			return nil, fail(http.StatusBadRequest, "bad_count", "count cannot be negative")
		}
		added := 0
		for i := range rm.seats {
			if rm.seats[i].empty() && (req.Count == 0 || added < req.Count) {
				rm.seats[i] = seatRec{Bot: true}
				added++
			}
		}
		if added == 0 {
			return nil, fail(http.StatusConflict, "full", "no empty seat")
		}
		return nil, nil
	})
}

func (s *Server) clearSeat(w http.ResponseWriter, r *http.Request) {
	s.openRoom(w, r, true, func(rm *room) (any, error) {
		var n int
		if _, err := fmt.Sscanf(r.PathValue("seat"), "%d", &n); err != nil || n < 1 || n > len(rm.seats) {
			return nil, fail(http.StatusBadRequest, "bad_seat", "seat %q is not in this room (1 to %d)", r.PathValue("seat"), len(rm.seats))
		}
		rm.seats[n-1] = seatRec{}
		return nil, nil
	})
}

func (s *Server) reorder(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Order []int `json:"order"` // new seat i holds who sat at Order[i-1]
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	s.openRoom(w, r, true, func(rm *room) (any, error) {
		n := len(rm.seats)
		if len(req.Order) != n {
			return nil, fail(http.StatusBadRequest, "bad_order", "order must list all %d seats once", n)
		}
		seen := make([]bool, n+1)
		next := make([]seatRec, n)
		for i, o := range req.Order {
			if o < 1 || o > n || seen[o] {
				return nil, fail(http.StatusBadRequest, "bad_order", "order must list all %d seats once; %d is wrong or repeated", n, o)
			}
			seen[o] = true
			next[i] = rm.seats[o-1]
		}
		rm.seats = next
		return nil, nil
	})
}

func (s *Server) start(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() {
		writeErr(w, errDraining)
		return
	}
	s.openRoom(w, r, true, func(rm *room) (any, error) {
		for i := range rm.seats { // bots take the empty seats
			if rm.seats[i].empty() {
				rm.seats[i] = seatRec{Bot: true}
			}
		}
		rm.rec.Status = store.StatusRunning
		if err := s.save(r.Context(), rm); err != nil {
			rm.rec.Status = store.StatusOpen
			return nil, fail(http.StatusInternalServerError, "store", "the room could not be stored")
		}
		cfg, err := s.gameConfig(rm)
		if err != nil {
			return nil, err
		}
		a, err := game.Start(r.Context(), rm.rec.ID, cfg, s.st, s.hooks(rm), s.log)
		if err != nil {
			s.log.Error("start game", "room", rm.rec.ID, "err", err)
			rm.rec.Status = store.StatusOpen
			return nil, fail(http.StatusInternalServerError, "start", "the game could not start")
		}
		s.run(rm, a)
		s.m.rooms.WithLabelValues(store.StatusOpen).Dec()
		s.m.rooms.WithLabelValues(store.StatusRunning).Inc()
		s.log.Info("game started", "room", rm.rec.ID)
		return nil, nil
	})
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
	cfg := game.Config{Board: b, Seed: rm.cfg.Seed, Timers: t, Level: bot.Level(rm.cfg.Bots)}
	for i, st := range rm.seats {
		if st.Bot {
			cfg.Bots |= 1 << uint(i+1)
		}
	}
	return cfg, nil
}

func (s *Server) hooks(rm *room) game.Hooks {
	return game.Hooks{
		Command: func(result string, took time.Duration) {
			s.m.commands.WithLabelValues(result).Inc()
			if result == "ok" {
				s.m.latency.Observe(took.Seconds())
			}
		},
		Over: func(w rules.Camp) {
			// Called from the actor: the room's status is stored off its goroutine.
			go s.finish(rm, w)
		},
		Failed: func(err error) { s.log.Error("game stopped: store failure", "room", rm.rec.ID, "err", err) },
	}
}

// run tracks a live game until its actor stops.
func (s *Server) run(rm *room, a *game.Actor) {
	rm.actor = a
	s.games.Add(1)
	s.m.games.Inc()
	go func() {
		<-a.Done()
		s.m.games.Dec()
		s.games.Done()
	}()
}

// finish marks a room over, and ends its live game after the linger time.
func (s *Server) finish(rm *room, w rules.Camp) {
	rm.mu.Lock()
	if rm.rec.Status == store.StatusRunning {
		rm.rec.Status = store.StatusOver
		if err := s.save(context.Background(), rm); err != nil {
			s.log.Error("save room", "room", rm.rec.ID, "err", err)
		}
		s.m.rooms.WithLabelValues(store.StatusRunning).Dec()
		s.m.rooms.WithLabelValues(store.StatusOver).Inc()
	}
	a := rm.actor
	rm.mu.Unlock()
	s.log.Info("game over", "room", rm.rec.ID, "winner", w.String())
	if s.draining.Load() {
		a.Stop()
		return
	}
	t := time.NewTimer(s.opts.Linger)
	defer t.Stop()
	select {
	case <-t.C:
		a.Stop()
	case <-a.Done():
	}
	s.mu.Lock()
	delete(s.rooms, rm.rec.ID)
	s.mu.Unlock()
}

func (s *Server) pause(on bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.liveRoom(w, r, func(rm *room, a *game.Actor) error { return a.Pause(on) })
	}
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
		writeErr(w, fail(http.StatusForbidden, "not_host", "only the room's host may do this (Authorization: Bearer HOST_TOKEN)"))
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
		writeErr(w, fail(http.StatusForbidden, "not_host", "only the room's host may do this (Authorization: Bearer HOST_TOKEN)"))
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
	if !s.roomLim.allow(r) {
		writeErr(w, fail(http.StatusTooManyRequests, "rate", "too many rooms created from this address; try again in a minute"))
		return
	}
	nx := &room{cfg: rm.cfg, seats: slices.Clone(rm.seats)}
	nx.cfg.Next, nx.cfg.Seed = "", randomSeed()
	now := time.Now().UTC()
	nx.rec = store.Room{ID: newRoomID(), Created: now, Updated: now, Status: store.StatusOpen}
	nx.rec.Config, _ = json.Marshal(nx.cfg)
	nx.rec.Seats, _ = json.Marshal(nx.seats)
	if err := s.st.CreateRoom(r.Context(), nx.rec); err != nil {
		s.log.Error("create room", "err", err)
		writeErr(w, fail(http.StatusInternalServerError, "store", "the room could not be stored"))
		return
	}
	rm.cfg.Next = nx.rec.ID
	if err := s.save(r.Context(), rm); err != nil {
		s.log.Error("save room", "room", rm.rec.ID, "err", err)
	}
	s.mu.Lock()
	s.rooms[nx.rec.ID] = nx
	s.mu.Unlock()
	s.m.rooms.WithLabelValues(store.StatusOpen).Inc()
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
		"events": events, "chats": msgs})
}

// Restore resumes every game the store holds as running, and loads the
// open rooms.
func (s *Server) Restore(ctx context.Context) (int, error) {
	open, err := s.st.Rooms(ctx, store.StatusOpen)
	if err != nil {
		return 0, err
	}
	for _, rec := range open {
		rm, err := loadRoom(rec)
		if err != nil {
			return 0, err
		}
		s.mu.Lock()
		s.rooms[rec.ID] = rm
		s.mu.Unlock()
		s.m.rooms.WithLabelValues(store.StatusOpen).Inc()
	}
	running, err := s.st.Rooms(ctx, store.StatusRunning)
	if err != nil {
		return 0, err
	}
	for _, rec := range running {
		rm, err := loadRoom(rec)
		if err != nil {
			return 0, err
		}
		recs, err := s.st.Records(ctx, rec.ID)
		if err != nil {
			return 0, err
		}
		cfg, err := s.gameConfig(rm)
		if err != nil {
			return 0, fmt.Errorf("room %s: %v", rec.ID, err)
		}
		a, err := game.Restore(rec.ID, cfg, s.st, recs, s.hooks(rm), s.log)
		if err != nil {
			return 0, err
		}
		rm.mu.Lock()
		s.run(rm, a)
		rm.mu.Unlock()
		s.mu.Lock()
		s.rooms[rec.ID] = rm
		s.mu.Unlock()
		s.m.rooms.WithLabelValues(store.StatusRunning).Inc()
	}
	return len(running), nil
}

// Drain refuses new rooms and games and makes /readyz answer 503; the
// games being played go on.
func (s *Server) Drain() {
	s.draining.Store(true)
	var ended []*game.Actor
	for _, rm := range s.roomList() {
		rm.mu.Lock()
		if rm.actor != nil && rm.rec.Status == store.StatusOver {
			ended = append(ended, rm.actor)
		}
		rm.mu.Unlock()
	}
	for _, a := range ended { // finished games need not linger
		a.Stop()
	}
}

// Wait waits until every live game has ended, or ctx is done.
func (s *Server) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { s.games.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops the games (Stop), then waits until every connection has been
// sent its last frames and closed, or ctx is done.
func (s *Server) Close(ctx context.Context) error {
	s.Stop()
	done := make(chan struct{})
	go func() { s.sessions.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stop ends every live game's actor. Their games are stored and resume at
// the next start.
func (s *Server) Stop() {
	var actors []*game.Actor
	for _, rm := range s.roomList() {
		rm.mu.Lock()
		if rm.actor != nil {
			actors = append(actors, rm.actor)
		}
		rm.mu.Unlock()
	}
	for _, a := range actors {
		a.Stop()
	}
}
