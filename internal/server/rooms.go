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
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/llm"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/voice"
	"github.com/wolfden/wolfden/rules"
)

// room is one room: its stored record, settings and seats, and its game's
// actor once it has started. Its lock guards all of it.
type room struct {
	mu    sync.Mutex
	rec   store.Room
	cfg   roomConfig
	seats []seatRec
	actor *game.Actor
	// lease is this node's lease of the room, on a node of a cluster
	// (hung.go): a writer that finds it run out writes nothing more.
	lease atomic.Pointer[lease]

	// Held in memory only: the connections open to the game, and each
	// seat's chat budget, shared by all its connections.
	conns     map[rules.Seat]int // by seat (0: spectators)
	watchers  map[string]int     // spectators by address
	chatLimit map[rules.Seat]*rate.Limiter
	seatDials map[rules.Seat]*rate.Limiter // connections each seat opens

	// version counts the room's changes; changed is closed (and made anew)
	// at each, for the requests that wait for one (GET …?after=N).
	version int64
	changed chan struct{}
	// unstored: the store has not made the room yet; its game's start
	// makes it (store.GameOpener, agents.go).
	unstored bool
	// moved: the room went to another node of the cluster (cluster.go);
	// its connections here are closed as moved, not as ended.
	moved bool
	// stalled: its game is paused on a failed write (faults.go), counted
	// in the server's stalled games until it goes on or leaves.
	stalled atomic.Bool
	// recorded: its game's results were stored (or found stored) since
	// this server has had it (ledger.go).
	recorded bool
	// linked: the store may hold seat links of the room (linkSeats).
	linked bool
	// voice is the game's forwarding unit once someone joined its voice,
	// and voices the game's last word on who hears whom (voice.go).
	voice  atomic.Pointer[voice.Room]
	voices atomic.Pointer[game.Voices]
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

// holds tells whether the room is in memory.
func (s *Server) holds(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rooms[id] != nil
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
	// Versions go on from above any the room had in another process (a
	// restart, or its former node in a cluster), so that a client waiting
	// for a change past the version it has is answered at the next one,
	// not when its wait runs out.
	rm := &room{rec: rec, version: rec.Updated.UnixMilli()}
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
	rm.encode()
	err := s.st.UpdateRoom(ctx, rm.rec)
	s.wrote(err)
	return err
}

// encode brings the room's record up to date with its settings and seats.
func (rm *room) encode() {
	rm.encodeSettings()
	rm.rec.Updated = time.Now().UTC()
	rm.touch()
}

// encodeSettings puts the room's settings and seats in its record.
func (rm *room) encodeSettings() {
	rm.rec.Config = rm.cfg.appendJSON(make([]byte, 0, 2048))
	rm.rec.Seats, _ = json.Marshal(rm.seats)
}

// touch counts a change of the room and wakes whoever waits for one.
func (rm *room) touch() {
	rm.version++
	if rm.changed != nil {
		close(rm.changed)
	}
	rm.changed = make(chan struct{})
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
	if !s.roomLim.allow(s.clientAddr(r)) {
		writeErr(w, errRoomRate)
		return
	}
	var req createRequest
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	cfg, err := req.config()
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			err = fail(http.StatusBadRequest, "bad_room", "%v", err)
		}
		writeErr(w, err)
		return
	}
	if cfg.Bots == llm.Level && s.opts.LLM == nil {
		writeErr(w, errNoLLM)
		return
	}
	if err := checkName("nickname", req.Nickname, true); err != nil {
		writeErr(w, fail(http.StatusBadRequest, "bad_name", "%v", err))
		return
	}
	acc, _ := s.signedIn(r)
	host, hostHash := newToken()
	cfg.HostHash = hostHash
	b, _ := cfg.board()
	rm := &room{cfg: cfg, seats: make([]seatRec, b.Players())}
	out := map[string]any{"host_token": host}
	if req.Nickname != "" {
		tok, h := newToken()
		rm.seats[0] = seatRec{Nick: req.Nickname, Hash: h, Account: acc.ID}
		out["seat"], out["token"] = 1, tok
	}
	if err := s.addRoom(r.Context(), rm); err != nil {
		writeErr(w, err)
		return
	}
	s.log.Info("room created", "room", rm.rec.ID, "cards", len(cfg.Cards))
	rm.mu.Lock()
	s.linkSeats(r.Context(), rm)
	out["room"] = s.describe(rm)
	rm.mu.Unlock()
	writeJSON(w, http.StatusCreated, out)
}

// addRoom stores a new open room under a new ID and holds it in memory.
func (s *Server) addRoom(ctx context.Context, rm *room) error {
	now := time.Now().UTC()
	// A rematch comes with its room's code (again); any other room draws one.
	var id string
	if rm.unstored {
		id = s.matchedRoomID()
	} else {
		id = newRoomID()
	}
	rm.rec = store.Room{ID: id, Created: now, Updated: now, Status: store.StatusOpen, Code: rm.rec.Code}
	if !rm.unstored { // else its game's start encodes it, storing it (startGame)
		rm.encodeSettings()
	}
	// A matched AIWolf game has nobody to join it across a table: no code
	// (three writes of the store a game, its claim, lapse and release).
	if !rm.cfg.AIWolf {
		if err := s.giveCode(ctx, rm); err != nil {
			return err
		}
	}
	var err error
	if !rm.unstored {
		err = s.st.CreateRoom(ctx, rm.rec)
		s.wrote(err)
	}
	if err != nil {
		s.codes.free(rm.rec.Code, rm.rec.ID)
		return s.storeFailed(rm.rec.ID, err)
	}
	hold := func() {
		s.mu.Lock()
		s.rooms[rm.rec.ID] = rm
		s.mu.Unlock()
		s.m.rooms.WithLabelValues(store.StatusOpen).Inc()
	}
	if s.cl == nil {
		hold()
		return nil
	}
	if err := s.cl.own(ctx, rm.rec.ID, hold); err != nil {
		// Left without an owner: a node adopts it shortly.
		s.log.Warn("cluster: a new room's lease", "room", rm.rec.ID, "err", err)
	}
	return nil
}

// roomInfo is a room as anyone may see it.
type roomInfo struct {
	ID      string            `json:"id"`
	Code    string            `json:"code,omitempty"` // the short code that leads here (codes.go), while the room holds it
	Name    string            `json:"name"`
	Status  string            `json:"status"`
	Preset  string            `json:"preset,omitempty"`
	Cards   []string          `json:"cards"`
	Options map[string]string `json:"options"`
	Timers  map[string]string `json:"timers"`
	Pace    string            `json:"pace,omitempty"`   // the pace the timers started from (quick, standard, relaxed, forum)
	Remind  string            `json:"remind,omitempty"` // the reminders before each deadline, if not the default
	Bots    string            `json:"bots"`
	// Practice: the deal may be known (its seed was fixed, or is shown
	// here); every seat is told so. Seed is shown for practice rooms only.
	Practice bool `json:"practice"`
	// Rated: its games change the ratings of the accounts that play them
	// (the rated badge; docs/accounts.md): not a practice, a board within
	// the rated band of village rates.
	Rated    bool       `json:"rated"`
	CardSeen bool       `json:"card_seen"`         // a table's room: the first night waits for every card to be seen
	Voice    bool       `json:"voice,omitempty"`   // the server has voice (docs/voice.md)
	Private  bool       `json:"private,omitempty"` // never listed
	Seed     *uint64    `json:"seed,omitempty"`
	Deal     []string   `json:"deal,omitempty"` // a practice room's fixed cards
	Players  int        `json:"players"`
	Taken    int        `json:"taken"`
	Seats    []seatInfo `json:"seats"`
	Game     *gameInfo  `json:"game,omitempty"`
	Version  int64      `json:"version"`        // counts the room's changes: GET …?after=VERSION waits for the next
	You      rules.Seat `json:"you,omitempty"`  // the seat of the token the request carried
	Next     string     `json:"next,omitempty"` // the rematch's room, once the host opened it
}

type seatInfo struct {
	Seat   rules.Seat `json:"seat"`
	Nick   string     `json:"nick,omitempty"`
	Bot    bool       `json:"bot,omitempty"`
	LLM    bool       `json:"llm,omitempty"`    // a bot seat played by a language model
	Closed bool       `json:"closed,omitempty"` // emptied by the host: nobody may join it until he reopens it
	Agent  bool       `json:"agent,omitempty"`  // an AIWolf agent's seat (docs/aiwolf.md)
	// Deleted: its player deleted his account; the client shows "deleted player".
	Deleted bool `json:"deleted,omitempty"`
}

type gameInfo struct {
	Day    int    `json:"day"`
	Night  bool   `json:"night"`
	Alive  int    `json:"alive"`
	Paused bool   `json:"paused,omitempty"`
	Over   bool   `json:"over,omitempty"`
	Winner string `json:"winner,omitempty"`
	// CardsSeen: while the table waits for the cards to be seen, how many
	// people of how many have confirmed (seen.go).
	CardsSeen *cardsInfo `json:"cards_seen,omitempty"`
}

// describe is the public view of a room; the caller holds rm.mu.
func (s *Server) describe(rm *room) roomInfo {
	in := roomInfo{ID: rm.rec.ID, Name: rm.cfg.Name, Status: rm.rec.Status, Preset: rm.cfg.Preset, Next: rm.cfg.Next,
		Cards: rm.cfg.Cards, Options: rm.cfg.Options, Timers: rm.cfg.Timers, Pace: rm.cfg.Pace, Remind: rm.cfg.Remind, Bots: rm.cfg.Bots, Players: len(rm.seats),
		Practice: rm.cfg.Practice, Rated: rm.cfg.rated(), CardSeen: rm.cfg.CardSeen, Private: rm.cfg.Private, Version: rm.version,
		Voice: s.opts.Voice != nil}
	if s.codes.holds(rm.rec.Code, rm.rec.ID) {
		in.Code = rm.rec.Code
	}
	if rm.cfg.Practice { // any other room's seed is told only by its replay, once the game is over
		seed := rm.cfg.Seed
		in.Seed, in.Deal = &seed, rm.cfg.Deal
	}
	for i, st := range rm.seats {
		if !st.empty() {
			in.Taken++
		}
		in.Seats = append(in.Seats, seatInfo{Seat: rules.Seat(i + 1), Nick: st.Nick, Bot: st.Bot, LLM: rm.llmSeat(i), Closed: st.Closed, Agent: st.Agent, Deleted: st.Deleted})
	}
	if rm.actor != nil {
		if g, err := rm.actor.Status(); err == nil {
			in.Game = &gameInfo{Day: g.Day, Night: g.Night, Alive: g.Alive, Paused: g.Paused, Over: g.Over}
			if g.Over {
				in.Game.Winner = g.Winner.String()
			}
			in.Game.CardsSeen = cardsSeen(rm)
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
	if s.cl != nil {
		var err error
		if rooms, err = s.clusterRooms(r.Context(), status); err != nil {
			writeErr(w, s.storeFailed("", err))
			return
		}
	}
	slices.SortFunc(rooms, func(a, b *room) int { return a.rec.Created.Compare(b.rec.Created) })
	out := []roomInfo{}
	stale := time.Now().Add(-StaleRoom)
	for _, rm := range rooms {
		rm.mu.Lock()
		// A room nobody has touched for a day is not offered any more; its
		// link still works. A table's room and a private one are never
		// offered, and no listed room shows its code: a code is for the
		// people at the table, who have it from the room's screen.
		if rm.rec.Status == status && rm.cfg.listed() && (status != store.StatusOpen || rm.rec.Updated.After(stale)) {
			in := s.describe(rm)
			in.Code = ""
			out = append(out, in)
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
	if q := r.URL.Query().Get("after"); q != "" {
		after, err := strconv.ParseInt(q, 10, 64)
		if err != nil || after < 0 {
			writeErr(w, fail(http.StatusBadRequest, "bad_after", "after must be a room version: a number from the room's info"))
			return
		}
		rm.waitChange(r.Context(), after, changeWait)
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	info := s.describe(rm)
	info.You = rm.seatOf(bearer(r)) // the host may have moved him
	writeJSON(w, http.StatusOK, info)
}

// changeWait bounds how long a request waits for a room to change: under
// the usual proxies' idle timeouts.
var changeWait = 25 * time.Second

// waitChange waits until the room's version is above after, ctx is done
// or d has passed: a client learns of a change (the start) as it happens,
// without polling.
func (rm *room) waitChange(ctx context.Context, after int64, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		rm.mu.Lock()
		if rm.version > after {
			rm.mu.Unlock()
			return
		}
		if rm.changed == nil {
			rm.changed = make(chan struct{})
		}
		ch := rm.changed
		rm.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return
		case <-t.C:
			return
		}
	}
}

// holdOpen finds the request's room, locks it and checks that it is open
// (and that the request is its host's): nil, with the error answered,
// when not. The caller unlocks it.
func (s *Server) holdOpen(w http.ResponseWriter, r *http.Request, host bool) *room {
	rm, err := s.roomFor(r.Context(), r.PathValue("id"))
	if err != nil {
		writeErr(w, err)
		return nil
	}
	rm.mu.Lock()
	if host && !rm.isHost(bearer(r)) {
		rm.mu.Unlock()
		writeErr(w, errNotHost)
		return nil
	}
	if rm.rec.Status != store.StatusOpen {
		rm.mu.Unlock()
		writeErr(w, fail(http.StatusConflict, "started", "the game has already started"))
		return nil
	}
	return rm
}

// openRoom runs f on an open room, then stores the room.
func (s *Server) openRoom(w http.ResponseWriter, r *http.Request, host bool, f func(rm *room) (any, error)) {
	rm := s.holdOpen(w, r, host)
	if rm == nil {
		return
	}
	defer rm.mu.Unlock()
	out, err := f(rm)
	if err != nil {
		writeErr(w, err)
		return
	}
	if err := s.save(r.Context(), rm); err != nil {
		writeErr(w, s.storeFailed(rm.rec.ID, err))
		return
	}
	s.linkSeats(r.Context(), rm)
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
	// The host seating his own table on one device (pass-and-play) takes
	// every seat from one address: his joins are bounded by the room's seats
	// and the room rate, so they do not count against the join rate.
	if !s.hostOf(r) && !s.joinLim.allow(s.clientAddr(r)) {
		writeErr(w, fail(http.StatusTooManyRequests, "rate",
			"too many seats taken from this address (at most %d a minute); try again in a minute", s.opts.JoinsPerMinute))
		return
	}
	acc, _ := s.signedIn(r)
	s.openRoom(w, r, false, func(rm *room) (any, error) {
		closed := 0
		for i := range rm.seats {
			if rm.seats[i].Closed {
				closed++
			} else if rm.seats[i].empty() {
				tok, h := newToken()
				rm.seats[i] = seatRec{Nick: req.Nickname, Hash: h, Account: acc.ID}
				return map[string]any{"seat": i + 1, "token": tok, "room": s.describe(rm)}, nil
			}
		}
		if closed > 0 {
			return nil, fail(http.StatusConflict, "full", "the room is full (%d seats are closed until the host reopens them)", closed)
		}
		return nil, fail(http.StatusConflict, "full", "the room is full")
	})
}

// hostOf: the request carries the host token of the room it names.
func (s *Server) hostOf(r *http.Request) bool {
	tok := bearer(r)
	if tok == "" {
		return false
	}
	rm, err := s.roomFor(r.Context(), r.PathValue("id"))
	if err != nil {
		return false
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.isHost(tok)
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
		Count int    `json:"count"` // fill this many empty seats (0: all)
		Seat  int    `json:"seat"`  // or this one
		Level string `json:"level"` // "llm": played by the model (llm.go); "": the room's level
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	switch {
	case req.Level != "" && req.Level != llm.Level:
		writeErr(w, fail(http.StatusBadRequest, "bad_level", "level %q: a seat's level is llm, or left out for the room's level", req.Level))
		return
	case req.Level == llm.Level && s.opts.LLM == nil:
		writeErr(w, errNoLLM)
		return
	}
	model := req.Level == llm.Level
	s.openRoom(w, r, true, func(rm *room) (any, error) {
		if req.Seat != 0 {
			if req.Seat < 1 || req.Seat > len(rm.seats) {
				return nil, fail(http.StatusBadRequest, "bad_seat", "seat %d is not in this room (1 to %d)", req.Seat, len(rm.seats))
			}
			if !rm.seats[req.Seat-1].empty() {
				return nil, fail(http.StatusConflict, "taken", "seat %d is taken", req.Seat)
			}
			rm.seats[req.Seat-1] = seatRec{Bot: true, LLM: model}
			return nil, nil
		}
		if req.Count < 0 {
			return nil, fail(http.StatusBadRequest, "bad_count", "count cannot be negative")
		}
		added := 0
		for i := range rm.seats {
			if rm.seats[i].empty() && (req.Count == 0 || added < req.Count) {
				rm.seats[i] = seatRec{Bot: true, LLM: model}
				added++
			}
		}
		if added == 0 {
			return nil, fail(http.StatusConflict, "full", "no empty seat")
		}
		return nil, nil
	})
}

// clearSeat empties a seat and closes it: whoever sat there cannot take it
// back by joining again, nor can anyone else, until the host reopens it.
func (s *Server) clearSeat(w http.ResponseWriter, r *http.Request) {
	s.openRoom(w, r, true, func(rm *room) (any, error) {
		n, err := pathSeat(r, rm)
		if err != nil {
			return nil, err
		}
		rm.seats[n-1] = seatRec{Closed: true}
		return nil, nil
	})
}

// openSeat reopens a seat the host closed: anyone may join it again.
func (s *Server) openSeat(w http.ResponseWriter, r *http.Request) {
	s.openRoom(w, r, true, func(rm *room) (any, error) {
		n, err := pathSeat(r, rm)
		if err != nil {
			return nil, err
		}
		if !rm.seats[n-1].Closed {
			return nil, fail(http.StatusConflict, "not_closed", "seat %d is not closed", n)
		}
		rm.seats[n-1].Closed = false
		return nil, nil
	})
}

// pathSeat is the seat named in the path, checked against the room.
func pathSeat(r *http.Request, rm *room) (int, error) {
	n, err := strconv.Atoi(r.PathValue("seat"))
	if err != nil || n < 1 || n > len(rm.seats) {
		return 0, fail(http.StatusBadRequest, "bad_seat", "seat %q is not in this room (1 to %d)", r.PathValue("seat"), len(rm.seats))
	}
	return n, nil
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
