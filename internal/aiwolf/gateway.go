package aiwolf

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/coder/websocket"
	"github.com/oklog/ulid/v2"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// Options configure the gateway.
type Options struct {
	// Players is the regulation matched games are played on: 5 (preset
	// aiwolf-5) or 13 (aiwolf-13).
	Players int
	// Contest: a game starts once Players distinct teams wait (one
	// connection of each); otherwise (self-match, the reference's
	// default) once Players connections of one team wait.
	Contest bool
	// Secret, if set, requires a JWT (HS256) signed with it: claims role
	// PLAYER and team, the team of the agent's name.
	Secret []byte
	// ActionTimeout is how long a request waits for its reply (the
	// reference: 60 s); ResponseTimeout how long the NAME probe after a
	// timeout waits (120 s); NameTimeout how long a new connection has to
	// send its name (ResponseTimeout).
	ActionTimeout, ResponseTimeout, NameTimeout time.Duration
	// Acceptable is the grace a reply has past ActionTimeout before it is
	// late (the reference's timeout.acceptable; agents are told only
	// ActionTimeout).
	Acceptable time.Duration
	// Talk and Whisper, if set, are a matched game's talk and whisper
	// limits in place of the regulation's (--aiwolf-config's game.talk
	// and game.whisper).
	Talk, Whisper *TalkSetting
	// JSONLog and GameLog, when enabled, write each matched game's JSON
	// and CSV logs to files once it ends, as the reference's json_logger
	// and game_logger do (the server calls WriteFiles).
	JSONLog, GameLog FileLog
	// Pings: every PingEvery while the agent owes no reply, answered
	// within PingWait (ActionTimeout unless set), or the connection is
	// dead (its seat is played by the bot until the agent reconnects).
	PingEvery, PingWait time.Duration
	Log                 *slog.Logger
	// Profiles, if set, give a matched game's agents in-game names and
	// profile texts (the reference's custom_profile) in place of
	// Agent[01]…: at least Players of them, their names distinct.
	// ShuffleProfiles draws each game's from the list in an order of its
	// own, from the game's seed (the reference shuffles its list for every
	// game); without it seat i takes Profiles[i-1]. A web room's agent
	// seats keep Agent[NN] (names.go).
	Profiles        []Profile
	ShuffleProfiles bool
	// TalkDuration and WhisperDuration, when set, play a matched game's
	// talk (whisper) in the group-chat mode, each phase lasting at most
	// that long (the reference's talk.duration and whisper.duration);
	// otherwise in rounds of TALK (WHISPER) requests (groupchat.go).
	TalkDuration, WhisperDuration time.Duration
	// After runs f once d has passed, and returns what stops it: the
	// group chats' clock (time.AfterFunc when nil; a test's own).
	After func(d time.Duration, f func()) (stop func() bool)
}

func (o *Options) defaults() {
	if o.Players == 0 {
		o.Players = 5
	}
	if o.ActionTimeout == 0 {
		o.ActionTimeout = 60 * time.Second
	}
	if o.ResponseTimeout == 0 {
		o.ResponseTimeout = 120 * time.Second
	}
	if o.NameTimeout == 0 {
		o.NameTimeout = o.ResponseTimeout
	}
	if o.PingEvery == 0 {
		o.PingEvery = 2 * time.Second
	}
	if o.PingWait == 0 {
		o.PingWait = o.ActionTimeout
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.After == nil {
		o.After = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
}

// Preset is the preset of a regulation's size.
func Preset(players int) (string, error) {
	switch players {
	case 5:
		return "aiwolf-5", nil
	case 13:
		return "aiwolf-13", nil
	}
	return "", fmt.Errorf("aiwolf: no regulation for %d players (5 or 13)", players)
}

// MatchOptions are the options a matched game's room sets over its
// preset, for AIWolf's flow: the day's talk is free rounds among everyone
// (a free discussion, not speeches in turn), and a tied vote is settled by
// lot among the tied, with no second vote (vote.max_count 1). They are
// room options, not the presets': the presets keep their examples,
// transcripts and balance figures, and a web room on aiwolf-5 may play
// either way.
func MatchOptions() map[string]string {
	return map[string]string{"speech_order": "free", "vote_tie": "random"}
}

// Game is a started game the gateway conducts.
type Game struct {
	Room  string
	Actor *game.Actor
	Board rules.Board
	Seed  uint64
	// Matched: the gateway matched its agents (a restored game says so).
	Matched bool
}

// Host is what the gateway needs of the server: rooms for matched agents,
// and the seat an agent seat's token holds.
type Host interface {
	// StartAgents makes a room on preset with options whose seats are the
	// agents named, in seat order, unpaced, with timers, and starts its
	// game.
	StartAgents(ctx context.Context, preset string, options map[string]string, names []string, timers game.Timers) (Game, error)
	// AgentSeat is the agent seat a room's join token holds.
	AgentSeat(room, token string) (rules.Seat, error)
	// NameAgent gives a room's agent seat its agent's name, once it
	// answered NAME (the room's seats, the logs show it).
	NameAgent(room string, seat rules.Seat, name string)
	// Finished says that a matched game's agents were told its end: its
	// live game need not linger (nobody reads an end screen), so memory
	// stays flat over thousands of games.
	Finished(room string)
}

// Gateway serves agents.
type Gateway struct {
	host Host
	opts Options
	log  *slog.Logger
	quit chan struct{}

	mu      sync.Mutex
	waiting []*conn
	tables  map[string]*table
	parked  map[parkKey]*conn // agents of a room's agent seat, before its game starts
	closed  bool
	codes   *urlCodes // the codes that stand for a credential in a URL
	wg      sync.WaitGroup
}

type parkKey struct {
	room string
	seat rules.Seat
}

// New makes a gateway on a host.
func New(host Host, opts Options) (*Gateway, error) {
	opts.defaults()
	if _, err := Preset(opts.Players); err != nil {
		return nil, err
	}
	if err := checkProfiles(opts.Profiles, opts.Players); err != nil {
		return nil, err
	}
	return &Gateway{host: host, opts: opts, log: opts.Log, quit: make(chan struct{}),
		tables: map[string]*table{}, parked: map[parkKey]*conn{}, codes: newURLCodes()}, nil
}

// Timers are a matched game's: each request has its own timeout (the
// gateway's), so the moderator's timers are only a backstop, past it.
func (g *Gateway) Timers() game.Timers {
	t := game.DefaultTimers
	back := g.opts.ActionTimeout + g.opts.ResponseTimeout + 5*time.Second
	t.Vote, t.Witch, t.Setup, t.Other = back, back, back, back
	// The day's talk rounds, and the first night's (day 0's talk), ask
	// many requests in turn.
	t.Speech = min(game.MaxTimer, max(40*back, g.opts.TalkDuration+back))
	t.Night = max(t.Speech, min(game.MaxTimer, g.opts.WhisperDuration+back))
	t.Bot = 0
	return t
}

// Close stops matching and conducting; the games stay in the store and
// resume with the server.
func (g *Gateway) Close() {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return
	}
	g.closed = true
	close(g.quit)
	waiting := g.waiting
	g.waiting = nil
	tables := make([]*table, 0, len(g.tables))
	for _, t := range g.tables {
		tables = append(tables, t)
	}
	g.mu.Unlock()
	for _, c := range waiting {
		c.closeWith(websocket.StatusGoingAway, "the server is shutting down")
	}
	for _, t := range tables {
		close(t.quit)
		<-t.ended
	}
}

// ServeHTTP takes an agent's WebSocket: NAME first, then a game.
// ?room=ID takes a room's agent seat instead of a match, with the seat's
// token as Authorization: Bearer or a code of it (?code=, codes.go). A
// match with a secret takes the team's JWT the same two ways. A room's seat
// needs no JWT: its token is the host's grant of that one seat.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Has("token") {
		http.Error(w, errTokenInURL.Error(), http.StatusBadRequest)
		return
	}
	room, code := q.Get("room"), q.Get("code")
	var gr grant
	if code != "" {
		var ok bool
		if gr, ok = g.codes.take(code); !ok || gr.room != room {
			http.Error(w, "the code is unknown, spent or expired: a code serves one connection, within a minute of its making (an agent seat's link: ten minutes)", http.StatusUnauthorized)
			return
		}
	}
	var claims Claims
	var seat rules.Seat
	switch {
	case room != "":
		tok := bearer(r)
		if code != "" {
			tok = gr.token
		}
		var err error
		if seat, err = g.host.AgentSeat(room, tok); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
	case g.opts.Secret != nil && code != "":
		claims = gr.claims
	case g.opts.Secret != nil:
		var err error
		if claims, err = verify(g.opts.Secret, bearer(r), time.Now().Unix()); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
	}
	out := &batcher{}
	ws, err := websocket.Accept(batching(w, out), r, &websocket.AcceptOptions{InsecureSkipVerify: true,
		CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return
	}
	c := newConn(ws, out)
	go c.read()
	c.pinger(g.opts.PingEvery, g.opts.PingWait)
	name, err := c.ask(namePacket, g.opts.NameTimeout)
	name = strings.TrimSpace(name)
	if err == nil {
		err = checkName(name)
	}
	if err == nil && g.opts.Secret != nil && teamOf(name) != claims.Team {
		err = fmt.Errorf("the name %q is not of the token's team %q", name, claims.Team)
	}
	if err != nil {
		c.closeWith(websocket.StatusPolicyViolation, "NAME: "+err.Error())
		return
	}
	c.name, c.team = name, teamOf(name)
	if room != "" {
		g.host.NameAgent(room, seat, name)
		g.takeSeat(c, room, seat)
	} else if !g.reconnect(c) && !g.reconnectSoon(c) {
		g.wait(c)
	}
	<-c.done
}

// checkName refuses names no in-game log could hold.
// ServeCode trades the credential of the request's Authorization: Bearer
// for a code that stands for it in a WebSocket URL, once: POST
// /aiwolf/code with the team's JWT (a gateway with a secret), or POST
// /aiwolf/code?room=ID with an agent seat's token. It answers
// {"code":…,"expires_in":SECONDS}.
func (g *Gateway) ServeCode(w http.ResponseWriter, r *http.Request) {
	room := r.URL.Query().Get("room")
	tok := bearer(r)
	var gr grant
	ttl := CodeTTL
	switch {
	case room != "":
		if _, err := g.host.AgentSeat(room, tok); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		gr = grant{room: room, token: tok}
	case g.opts.Secret == nil:
		http.Error(w, "this gateway takes agents without a token: connect without a code (or give ?room=ID for an agent seat)", http.StatusBadRequest)
		return
	default:
		claims, err := verify(g.opts.Secret, tok, time.Now().Unix())
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		gr = grant{claims: claims}
	}
	code, err := g.codes.mint(gr, ttl)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, "{\"code\":%q,\"expires_in\":%d}\n", code, int(ttl.Seconds()))
}

// SeatCode is a code for a room's agent seat, for the link its host copies
// to his agent (SeatCodeTTL).
func (g *Gateway) SeatCode(room, token string) (string, error) {
	return g.codes.mint(grant{room: room, token: token}, SeatCodeTTL)
}

func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("an empty name (reply to NAME with the agent's name, such as kanolab1)")
	case len(name) > 64:
		return errors.New("a name longer than 64 bytes")
	}
	for _, r := range name {
		if !unicode.IsPrint(r) || r == ',' {
			return fmt.Errorf("the name %q holds %q (printable characters, no comma)", truncate(name, 40), r)
		}
	}
	return nil
}

// reconnect puts an agent back into the running game where a seat of its
// name has no connection (the oldest such game first).
func (g *Gateway) reconnect(c *conn) bool {
	g.mu.Lock()
	var best *seat
	for _, t := range g.tables {
		for _, s := range t.seats {
			if s != nil && s.free(c.name) {
				if best == nil || t.born.Before(best.t.born) {
					best = s
				}
			}
		}
	}
	g.mu.Unlock()
	if best == nil {
		return false
	}
	g.log.Info("aiwolf: an agent reconnected", "room", best.t.room, "agent", best.t.name(best.no), "name", c.name)
	best.t.box.put(mail{seat: best, conn: c})
	return true
}

// reconnectSoon waits, while a running seat of the agent's name still has
// a connection, for that connection to be found dead (an agent that
// restarts comes back before its old connection's end is noticed): up to
// one ping's wait. A healthy connection stays, and the newcomer goes to
// the waiting room.
func (g *Gateway) reconnectSoon(c *conn) bool {
	end := time.Now().Add(g.opts.PingEvery + g.opts.PingWait)
	for g.claimed(c.name) && time.Now().Before(end) && !c.gone() {
		time.Sleep(10 * time.Millisecond)
		if g.reconnect(c) {
			return true
		}
	}
	return false
}

// claimed reports whether a running seat of that name has a connection.
func (g *Gateway) claimed(name string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, t := range g.tables {
		for _, s := range t.seats {
			if s != nil && s.taken(name) {
				return true
			}
		}
	}
	return false
}

// wait puts a connection in the waiting room and starts any game it
// completes.
func (g *Gateway) wait(c *conn) {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		c.closeWith(websocket.StatusGoingAway, "the server is shutting down")
		return
	}
	g.waiting = append(g.waiting, c)
	group := g.match()
	g.mu.Unlock()
	c.afterGone(func() { // a connection that dies while it waits leaves the room
		g.mu.Lock()
		for i, w := range g.waiting {
			if w == c {
				g.waiting = append(g.waiting[:i], g.waiting[i+1:]...)
				break
			}
		}
		g.mu.Unlock()
	})
	if group != nil {
		// The start runs on this connection's goroutine, which only
		// waits for its end after this: a goroutine of its own began
		// with a small stack and grew it, copying, on every start (50 µs
		// of a K = 5 start's CPU, before any INITIALIZE is written).
		g.wg.Add(1)
		defer g.wg.Done()
		g.startMatch(group)
	}
}

// match takes a full game's connections out of the waiting room, or nil:
// Players of one team (self-match), or one of each of Players teams
// (contest), in the order they came. The caller holds g.mu.
func (g *Gateway) match() []*conn {
	n := g.opts.Players
	var group []*conn
	if !g.opts.Contest {
		count := map[string]int{}
		for _, c := range g.waiting {
			if !c.gone() {
				count[c.team]++
			}
		}
		for team, k := range count {
			if k >= n {
				for _, c := range g.waiting {
					if c.team == team && !c.gone() && len(group) < n {
						group = append(group, c)
					}
				}
				break
			}
		}
	} else {
		seen := map[string]bool{}
		for _, c := range g.waiting {
			if !c.gone() && !seen[c.team] && len(group) < n {
				seen[c.team] = true
				group = append(group, c)
			}
		}
		if len(group) < n {
			group = nil
		}
	}
	if group == nil {
		return nil
	}
	kept := g.waiting[:0]
	for _, c := range g.waiting {
		if !contains(group, c) {
			kept = append(kept, c)
		}
	}
	g.waiting = kept
	return group
}

func contains(list []*conn, c *conn) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

// startMatch makes the matched agents' room, starts its game and seats
// them. A failure closes their connections, saying why.
func (g *Gateway) startMatch(group []*conn) {
	preset, _ := Preset(g.opts.Players)
	names := make([]string, len(group))
	for i, c := range group {
		names[i] = c.name
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	gm, err := g.host.StartAgents(ctx, preset, MatchOptions(), names, g.Timers())
	if err != nil {
		g.log.Error("aiwolf: a matched game could not start", "err", err)
		for _, c := range group {
			c.closeWith(websocket.StatusTryAgainLater, "the game could not start: "+err.Error())
		}
		return
	}
	agents := map[rules.Seat]string{}
	for i, name := range names {
		agents[rules.Seat(i+1)] = name
	}
	conns := map[rules.Seat]*conn{}
	for i, c := range group {
		conns[rules.Seat(i+1)] = c
	}
	t, err := g.conduct(gm, agents, nil, conns, true)
	if err != nil {
		g.log.Error("aiwolf: a matched game could not be conducted", "room", gm.Room, "err", err)
		for _, c := range group {
			c.closeWith(websocket.StatusInternalError, "the game could not start")
		}
		return
	}
	g.log.Info("aiwolf: game started", "room", gm.Room, "game_id", t.gameID, "agents", strings.Join(names, " "))
}

// Resume conducts a game the server restored, or a room with agent seats
// that started: agents names the agent seats. recs are the game's records
// (its request log names its AIWolf game id); nil for a new game.
func (g *Gateway) Resume(gm Game, agents map[rules.Seat]string, recs []store.Record) error {
	g.mu.Lock()
	var keys []parkKey
	for k := range g.parked {
		if k.room == gm.Room {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].seat < keys[j].seat })
	conns := map[rules.Seat]*conn{}
	for _, k := range keys {
		conns[k.seat] = g.parked[k]
		delete(g.parked, k)
	}
	g.mu.Unlock()
	_, err := g.conduct(gm, agents, recs, conns, false)
	return err
}

// conduct makes and starts a game's table.
func (g *Gateway) conduct(gm Game, agents map[rules.Seat]string, recs []store.Record, conns map[rules.Seat]*conn, matched bool) (*table, error) {
	id := gameIDOf(recs)
	if id == "" {
		id = newGameID(gm.Room)
	}
	t := newTable(g, gm, id, agents)
	// A restored game of matched agents is one too: its room says so.
	t.matched = matched || gm.Matched
	t.nameSeats(recs)
	changed := t.configuredLimits()
	if t.matched {
		changed = t.groupChat(&g.opts) || changed
	}
	if changed { // the packets' setting, encoded once for the game
		t.setting, _ = json.Marshal(t.reg.Setting)
	}
	t.restoreTalk(recs)
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil, errors.New("the gateway is closed")
	}
	g.tables[gm.Room] = t
	g.mu.Unlock()
	// The game's id is stored at once: a restart finds it (the same
	// game_id) however early it comes.
	t.note(&logNote{Request: "GAME", GameID: id, Sent: time.Now().UnixMilli(), Day: 0, Names: t.names, Profiles: t.profiles})
	t.storeNotes()
	if err := t.start(conns); err != nil {
		g.forget(t)
		return nil, err
	}
	return t, nil
}

// newGameID is a ULID of now whose random part comes from the room's id.
func newGameID(room string) string {
	h := sha256.Sum256([]byte(room))
	var e [10]byte
	copy(e[:], h[:])
	id, err := ulid.New(ulid.Timestamp(time.Now()), strings.NewReader(string(e[:])))
	if err != nil {
		return ulid.Make().String()
	}
	return id.String()
}

func (g *Gateway) forget(t *table) {
	g.mu.Lock()
	if g.tables[t.room] == t {
		delete(g.tables, t.room)
	}
	g.mu.Unlock()
}

// takeSeat gives a room's agent seat its agent: at once when its game
// runs, else when it starts.
func (g *Gateway) takeSeat(c *conn, room string, s rules.Seat) {
	g.mu.Lock()
	t := g.tables[room]
	if t == nil || t.seats[s] == nil {
		if old := g.parked[parkKey{room, s}]; old != nil {
			old.closeWith(websocket.StatusPolicyViolation, "another agent took this seat")
		}
		g.parked[parkKey{room, s}] = c
		g.mu.Unlock()
		go func() {
			<-c.done
			g.mu.Lock()
			if g.parked[parkKey{room, s}] == c {
				delete(g.parked, parkKey{room, s})
			}
			g.mu.Unlock()
		}()
		return
	}
	g.mu.Unlock()
	t.box.put(mail{seat: t.seats[s], conn: c})
}

// Live reports how many games the gateway conducts and how many
// connections wait for one.
func (g *Gateway) Live() (games, waiting int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.tables), len(g.waiting)
}
