// Package server is wolfden's HTTP and WebSocket front: rooms, seats and
// tokens, the live games' connections, health and metrics. The games
// themselves run in internal/game; everything lasting is in internal/store.
package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/wolfden/wolfden/internal/accounts"
	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/ledger"
	"github.com/wolfden/wolfden/internal/llm"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/voice"
	"github.com/wolfden/wolfden/rules"
)

// Options configure a server.
type Options struct {
	// Voice, if set, is the WebRTC stack of the rooms' voice (voice.go);
	// nil: no voice.
	Voice *voice.Stack
	// LLM, if set, is the endpoint of the seats played by a language
	// model (bot level llm, internal/llm); without it such seats are
	// refused.
	LLM *llm.Config
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
	// JoinsPerMinute bounds the seats one address may take a minute (as
	// many at once); 0 means no bound (load tests).
	JoinsPerMinute int
	// BalancePerMinute bounds the balance simulations one address may ask
	// a minute (POST /api/balance; a fifth as many searches for
	// suggestions); 0 takes DefaultBalancePerMinute, below 0 no bound.
	BalancePerMinute int
	// BalanceBudget is how long a balance estimate may take, its wait for a
	// slot included (a search for suggestions, four times as long); past it
	// the answer is 503 busy. 0 takes 5 s.
	BalanceBudget time.Duration
	// CodesPerMinute bounds the room codes one address may look up a
	// minute (GET /api/codes/{code} and /j/{code}); 0 takes
	// DefaultCodesPerMinute, below 0 no bound.
	CodesPerMinute int
	// PublicURL is where players reach the server (https://wolf.example.com),
	// for the links the QR codes hold when a proxy hides it; "" takes the
	// scheme and host each request came to.
	PublicURL string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client: the per-address limits count the address it gives. A
	// request from any other peer is counted by the peer's own address.
	TrustedProxies []netip.Prefix
	// IPv6Prefix groups IPv6 clients for the per-address limits: the
	// addresses that share their first IPv6Prefix bits count as one
	// (0: DefaultIPv6Prefix, a /64; 128 counts each address alone). An IPv4
	// address counts alone.
	IPv6Prefix int
	// AIWolf, if set, runs the AIWolf gateway: /aiwolf/ws here, /ws on
	// its own listener (AIWolf), agent seats in rooms (docs/aiwolf.md).
	AIWolf *aiwolf.Options
	// Cluster, if set, makes the server a node of a cluster (cluster.go,
	// docs/cluster.md); its store must be fenced by Cluster.Leases.
	Cluster *Cluster
	// Fairness are the rules of which finished games count in the
	// accounts' statistics (internal/ledger; docs/accounts.md).
	Fairness ledger.Rules
	// Seasons is how long a rating season lasts ("": a quarter).
	Seasons ledger.Seasons
	// AuthPerMinute bounds the sign-ins and sign-ups one address may try
	// a minute (password or passkey; as many at once); 0 takes
	// DefaultAuthPerMinute, below 0 no bound.
	AuthPerMinute int
	// RPID is the domain players' passkeys belong to (--rp-id, else
	// --domain); "" takes the host each request came to.
	RPID string
	// Accounts configure the accounts (password costs, sessions).
	Accounts accounts.Options
	// Ready are more checks of /readyz (a cluster's bus connection,
	// docs/cluster.md): the first error makes it answer 503 with it.
	Ready []func() error
	// Chat are the chat platforms whose groups play here (docs/chat.md): a
	// bridge per platform runs from Restore to Stop; a platform that also
	// serves HTTP (interface{ http.Handler; Path() string }) is mounted at
	// its Path.
	Chat []chat.Platform
	// ChatRoom, if set, adjusts each room a chat group opens (tests: a
	// seed, short timers).
	ChatRoom func(*chat.Open)
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
	joinLim  *hostLimits
	specLim  *hostLimits // spectator connections an address may open a minute
	voiceLim *hostLimits // voice connections an address may open a minute
	codeLim  *hostLimits // room codes an address may look up a minute
	codes    *codeBook   // the live rooms' short codes (codes.go)
	bal      *balanceState
	lim      limits
	secret   [32]byte // mixed into every deal's seed (dealSeed)
	// The store's health (faults.go): games paused on a failed write, and
	// whether the server's own last write failed.
	stalled      atomic.Int32
	storeFailing atomic.Bool
	acc          *accounts.Service
	authLim      *hostLimits  // sign-ins and sign-ups an address may try a minute
	pruned       atomic.Int64 // when expired sessions were last dropped (unix ns)
	xorigin      *http.CrossOriginProtection
	agents       *aiwolf.Gateway           // nil without Options.AIWolf
	agentRates   sync.Mutex                // one matched game rated at a time, in the order they end (agentrate.go)
	agentKnown   map[string]*knownStanding // under agentRates: each regulation's standing as this node last wrote it
	soleWriter   bool                      // not a cluster's node: nothing else writes its store (agentStanding)
	ids          idPool                    // matched games' room IDs, reserved ahead of need (roomids.go)
	matchedCfg   matchedConfig             // the last matched game's room config, for the next (agents.go)
	cl           *node                     // nil without Options.Cluster
	ledgerMu     sync.Mutex                // one game's ratings updated at a time (ledger.go)
	games        sync.WaitGroup            // live games
	sessions     sync.WaitGroup            // open WebSocket connections
	chat         *chatRunner               // the chat platforms' bridges, once started (chat.go)
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
		roomLim: newHostLimits(opts.RoomsPerMinute), joinLim: newHostLimits(opts.JoinsPerMinute),
		specLim: newHostLimits(defaultLimits.spectatorsPerMinute), lim: defaultLimits,
		voiceLim: newHostLimits(voicePerMinute),
		bal:      newBalanceState(opts.BalancePerMinute, opts.BalanceBudget), codes: newCodeBook(st, opts.Log, opts.Linger)}
	s.codeLim = newHostLimits(s.codesPerMinute())
	s.acc = accounts.New(st, opts.Accounts)
	s.authLim = newHostLimits(s.authPerMinute())
	s.xorigin = http.NewCrossOriginProtection()
	if _, err := rand.Read(s.secret[:]); err != nil {
		panic(err)
	}
	if opts.AIWolf != nil {
		ao := *opts.AIWolf
		if ao.Log == nil {
			ao.Log = opts.Log
		}
		g, err := aiwolf.New(agentHost{s}, ao)
		if err != nil {
			panic(err) // the caller checks the options (cmd/wolfden: --aiwolf-players)
		}
		s.agents = g
	}
	if opts.Cluster != nil {
		s.cl = newNode(s, *opts.Cluster)
	}
	s.soleWriter = s.cl == nil
	s.routes()
	return s
}

// dealSeed is the seed of a game being dealt: fresh random bits mixed with
// the server's secret, so that nobody, the host included, can know the deal
// or the bots' choices before they are told. It is stored with the room.
func (s *Server) dealSeed(room string) uint64 {
	var nonce [32]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		panic(err)
	}
	m := hmac.New(sha256.New, s.secret[:])
	m.Write(nonce[:])
	m.Write([]byte(room))
	return binary.LittleEndian.Uint64(m.Sum(nil))
}

// ServeHTTP makes the server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin") // room links carry no token, but keep them home
	s.mux.ServeHTTP(w, r)
}

// Operator is the operator listener's handler (--metrics-addr): /metrics,
// /readyz and /healthz, and the accounts (GET /accounts, POST
// /accounts/{name}/lock and /unlock). Nothing a player can reach counts what happens at
// night, so these are not on the public handler.
func (s *Server) Operator() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", healthz)
	m.HandleFunc("GET /readyz", s.readyz)
	if s.cl != nil {
		m.HandleFunc("GET /cluster", s.clusterInfo)
	}
	m.Handle("GET /metrics", promhttp.HandlerFor(s.m.reg, promhttp.HandlerOpts{}))
	s.operatorAccounts(m)
	return m
}

func healthz(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") }

// The public listener's timeouts. A WebSocket is not bound by them: its
// handler lifts the deadlines before taking the connection over.
const (
	ReadHeaderTimeout = 10 * time.Second  // a request's headers
	ReadTimeout       = 30 * time.Second  // a whole request, body included
	WriteTimeout      = 60 * time.Second  // an answer
	IdleTimeout       = 120 * time.Second // a kept-alive connection between requests
)

// HTTPServer is an http.Server for h with the public listener's timeouts.
func HTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: ReadHeaderTimeout, ReadTimeout: ReadTimeout,
		WriteTimeout: WriteTimeout, IdleTimeout: IdleTimeout}
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", healthz)
	// Operators' pages are on the operator listener (Operator); here they
	// are not found, not the web client's page.
	m.HandleFunc("GET /readyz", http.NotFound)
	m.HandleFunc("GET /metrics", http.NotFound)
	m.HandleFunc("GET /api/presets", s.presets)
	m.HandleFunc("GET /api/options", s.options)
	m.HandleFunc("POST /api/balance", s.balance)
	m.HandleFunc("GET /api/balance/presets", s.balancePresets)
	m.HandleFunc("GET /api/rooms", s.listRooms)
	m.HandleFunc("POST /api/rooms", s.createRoom)
	m.HandleFunc("GET /api/rooms/{id}", s.routed(s.getRoom))
	m.HandleFunc("POST /api/rooms/{id}/join", s.routed(s.join))
	m.HandleFunc("POST /api/rooms/{id}/leave", s.routed(s.leave))
	m.HandleFunc("POST /api/rooms/{id}/bots", s.routed(s.addBots))
	m.HandleFunc("DELETE /api/rooms/{id}/seats/{seat}", s.routed(s.clearSeat))
	m.HandleFunc("POST /api/rooms/{id}/seats/{seat}/open", s.routed(s.openSeat))
	m.HandleFunc("POST /api/rooms/{id}/order", s.routed(s.reorder))
	m.HandleFunc("POST /api/rooms/{id}/start", s.routed(s.start))
	m.HandleFunc("POST /api/rooms/{id}/pause", s.routed(s.pause(true)))
	m.HandleFunc("POST /api/rooms/{id}/resume", s.routed(s.pause(false)))
	m.HandleFunc("POST /api/rooms/{id}/red-card", s.routed(s.redCard))
	m.HandleFunc("POST /api/rooms/{id}/extend", s.routed(s.extend))
	m.HandleFunc("POST /api/rooms/{id}/voice", s.routed(s.voiceOffer))
	m.HandleFunc("POST /api/rooms/{id}/voice/answer", s.routed(s.voiceAnswer))
	m.HandleFunc("POST /api/rooms/{id}/voice/mute", s.routed(s.voiceMute))
	m.HandleFunc("GET /api/rooms/{id}/replay", s.routed(s.replay))
	m.HandleFunc("GET /api/rooms/{id}/rating", s.routed(s.seatRating))
	m.HandleFunc("GET /api/players/{name}", s.player)
	m.HandleFunc("GET /api/leaderboard", s.leaderboard)
	m.HandleFunc("GET /api/seasons", s.seasons)
	m.HandleFunc("GET /api/arena", s.arenaTable)
	m.HandleFunc("POST /api/rooms/{id}/again", s.routed(s.again))
	m.HandleFunc("POST /api/rooms/{id}/abort", s.routed(s.abort))
	m.HandleFunc("POST /api/rooms/{id}/seen/skip", s.routed(s.skipSeen))
	m.HandleFunc("GET /ws/{id}", s.websocket)
	m.HandleFunc("POST /api/rooms/{id}/seats/{seat}/agent", s.routed(s.openAgentSeat))
	if s.agents != nil {
		m.Handle("GET /aiwolf/ws", s.agents)
		m.HandleFunc("POST /aiwolf/code", s.agents.ServeCode)
	}
	m.HandleFunc("GET /api/codes/{code}", s.codeRoom)
	m.HandleFunc("GET /j/{code}", s.joinLink)
	m.HandleFunc("GET /api/rooms/{id}/qr.svg", s.routed(s.roomQR))
	s.accountRoutes(m)
	s.mountChat(m)
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
	errNotHost  = fail(http.StatusForbidden, "not_host", "only the room's host may do this (Authorization: Bearer HOST_TOKEN)")
	errRoomRate = fail(http.StatusTooManyRequests, "rate", "too many rooms created from this address; try again in a minute")
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

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() {
		http.Error(w, "draining", http.StatusServiceUnavailable)
		return
	}
	if why := s.storeTrouble(); why != "" {
		http.Error(w, why, http.StatusServiceUnavailable)
		return
	}
	for _, ready := range s.opts.Ready {
		if err := ready(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
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

// options answers what a room may be made with (game.Choices): every
// option with its values, every role a custom board may hold, the paces.
func (s *Server) options(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, game.Choices())
}

// Restore resumes every game the store holds as running, keeps the games
// that ended less than Linger ago readable on their end screen, and loads
// the open rooms. It returns how many games it resumed. One game that
// cannot be restored (a damaged record) does not keep the others from
// resuming: it is set aside as lost, logged with its reason, and its
// players are told when they come (docs/server.md, "When the store fails").
func (s *Server) Restore(ctx context.Context) (int, error) {
	if s.cl != nil { // a node adopts the rooms no node owns, and no more
		n := len(s.roomList())
		if err := s.cl.start(ctx); err != nil {
			return 0, err
		}
		return len(s.roomList()) - n, nil
	}
	open, err := s.st.Rooms(ctx, store.StatusOpen)
	if err != nil {
		return 0, err
	}
	for _, rec := range open {
		rm, err := loadRoom(rec)
		if err != nil {
			return 0, err
		}
		s.hold(rm)
	}
	resumed := 0
	for _, status := range []string{store.StatusRunning, store.StatusOver} {
		recs, err := s.st.Rooms(ctx, status)
		if err != nil {
			return 0, err
		}
		for _, rec := range recs {
			if status == store.StatusOver && time.Since(rec.Updated) >= s.opts.Linger {
				continue // only a replay now
			}
			ok, err := s.restoreGame(ctx, rec)
			if err != nil {
				return resumed, err
			}
			if ok && status == store.StatusRunning {
				resumed++
			}
		}
	}
	s.startChat()
	s.fillIDs(ctx)
	return resumed, nil
}

// hold keeps a room in memory, counted by its status, and enters its code.
func (s *Server) hold(rm *room) {
	s.holdCode(context.Background(), rm)
	// Under the room's lock: a restored game may be ending already
	// (finish), moving its count from running to over.
	rm.mu.Lock()
	id := rm.rec.ID
	s.m.rooms.WithLabelValues(rm.rec.Status).Inc()
	rm.mu.Unlock()
	s.mu.Lock()
	s.rooms[id] = rm
	s.mu.Unlock()
}

// restoreGame rebuilds one room's game from its records. A room stored as
// running without a record (a start cut short by a crash, before starts
// were one transaction) goes back to waiting; a game that cannot be
// rebuilt is set aside as lost. Only a failure to read the store is an
// error.
func (s *Server) restoreGame(ctx context.Context, rec store.Room) (bool, error) {
	recs, err := s.st.Records(ctx, rec.ID)
	if err != nil {
		return false, err
	}
	rm, err := loadRoom(rec)
	if err == nil && len(recs) == 0 && rec.Status == store.StatusRunning {
		rm.rec.Status = store.StatusOpen
		if err := s.save(ctx, rm); err != nil {
			return false, err
		}
		s.log.Warn("a start was cut short: the room waits again", "room", rec.ID)
		s.hold(rm)
		return false, nil
	}
	var a *game.Actor
	if err == nil {
		var cfg game.Config
		if cfg, err = s.gameConfig(rm); err == nil {
			// Held while restoring: a game that is over reports its end at
			// once (finish), which must find its actor.
			rm.mu.Lock()
			a, err = game.Restore(rec.ID, cfg, s.st, recs, s.hooks(rm), s.log)
			if err == nil {
				s.run(rm, a)
				if rec.Status == store.StatusRunning {
					s.conductAgents(rm, recs)
				}
			}
			rm.mu.Unlock()
		}
	}
	if s.lost(err) { // its first write was fenced: another node has it, undamaged
		return false, err
	}
	if err != nil {
		s.log.Error("a game could not be restored; it is set aside as lost", "room", rec.ID, "status", rec.Status, "err", err)
		rec.Status, rec.Updated = store.StatusLost, time.Now().UTC()
		if err := s.st.UpdateRoom(ctx, rec); err != nil {
			return false, err
		}
		s.m.lost.Inc()
		return false, nil
	}
	s.hold(rm)
	return true, nil
}

// Drain refuses new rooms and games and makes /readyz answer 503; the
// games being played go on.
func (s *Server) Drain() {
	s.draining.Store(true)
	if s.cl != nil { // the other nodes take the games at once
		s.cl.handOver()
	}
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
	s.stopChat() // the bridges leave their games before the games stop
	if s.cl != nil {
		s.cl.stop()
	}
	if s.agents != nil {
		s.agents.Close()
	}
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
