package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// Limits of a connection.
const (
	helloWait  = 10 * time.Second // the first frame must come by then
	writeWait  = 10 * time.Second // a frame that cannot be written by then drops the connection
	queueSize  = 1024             // messages waiting for a connection; a full queue drops it
	frameRate  = 20               // frames a second a client may send, on average …
	frameBurst = 40               // … and at once
	maxStrikes = 50               // frames over the rate before the connection is closed
	hardFrame  = 64 << 10         // a frame larger than this is cut off by the library (close 1009)
	maxBatch   = 32 << 10         // frames are gathered into one message up to about this size
)

// welcome is the first frame a connection receives.
type welcome struct {
	Type    string     `json:"type"` // "welcome"
	Room    string     `json:"room"`
	Seat    rules.Seat `json:"seat"` // 0: a spectator
	Players int        `json:"players"`
	Now     int64      `json:"now"` // the server's clock (unix ms), which deadlines are read against
	// Practice: the room's deal may be known to someone (its seed was fixed
	// or is shown); every screen says so.
	Practice bool `json:"practice"`
	// Alive is the longest (ms) the connection goes without a message: the
	// day's keep-alive, the night's tick (game.Actor.Quiet). A client that
	// hears nothing for much longer has lost its line and dials again.
	Alive int64 `json:"alive"`
}

func (s *Server) websocket(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if s.cl != nil && !s.cl.owns(id) {
		if s.relay(w, r, id) {
			return
		}
		if !s.servesUnowned(r.Context(), id) {
			w.Header().Set("Retry-After", "1")
			writeErr(w, errMoving)
			return
		}
	}
	rm, err := s.roomFor(r.Context(), id)
	if err != nil {
		writeErr(w, err)
		return
	}
	// The listener's read and write timeouts are for requests: taking the
	// connection over (Accept hijacks it) lifts their deadlines, and the
	// connection lasts the game, with its own limits (hello, writes).
	// TestAWebSocketOutlivesTheHTTPTimeouts holds it to that.
	// No compression: a compressed message's size would tell its contents,
	// which the night's fixed-size messages hide (docs/server.md).
	conn, err := accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.opts.Origins,
		CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return // Accept has answered (a refused origin: 403)
	}
	// The library's own limit closes without a word; frames over MaxFrame
	// up to this one are read, answered with a clear error, then closed.
	conn.SetReadLimit(hardFrame)
	// The session goes on without the HTTP handler, which returns: the
	// server then lets go of what it kept for the request (its 4 KiB
	// writer, the request and its headers), a fifth of a connection's
	// memory at 10,000 players. The request's context ends with the
	// handler; the session's does not.
	s.sessions.Add(1)
	s.m.connections.Inc()
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	addr := s.clientAddr(r)
	go func() {
		defer s.sessions.Done()
		defer s.m.connections.Dec()
		defer cancel()
		s.session(ctx, cancel, conn, rm, addr)
	}()
}

// reply writes a frame directly; the session's own answers (bad frames,
// rate) do not go through the game.
func reply(ctx context.Context, conn wsConn, v any) {
	b, _ := json.Marshal(v)
	wctx, cancel := context.WithTimeout(ctx, writeWait)
	defer cancel()
	_ = conn.Write(wctx, websocket.MessageText, b)
}

func closeWith(conn wsConn, code, msg string) {
	reply(context.Background(), conn, wire.ErrorFrame{Type: "error", Code: code, Message: msg})
	_ = conn.Close(websocket.StatusPolicyViolation, code)
}

func (s *Server) session(ctx context.Context, cancel context.CancelFunc, conn wsConn, rm *room, addr string) {
	// A timer, not the read's context, bounds the wait for the hello: the
	// library closes a connection whose read context expires, and the
	// error frame could not be sent.
	late := make(chan struct{})
	timer := time.AfterFunc(helloWait, func() {
		defer close(late)
		closeWith(conn, "hello", "send a hello frame first")
	})
	_, data, err := conn.Read(ctx)
	if !timer.Stop() {
		<-late
		return
	}
	if err != nil {
		closeWith(conn, "hello", "send a hello frame first")
		return
	}
	hello, err := decodeFrame(data)
	if err != nil || hello.Type != "hello" {
		msg := "the first frame must be {\"type\":\"hello\", \"token\": …}"
		if err != nil {
			msg = err.Error()
		}
		closeWith(conn, "hello", msg)
		return
	}
	rm.mu.Lock()
	a, status, players, practice := rm.actor, rm.rec.Status, len(rm.seats), rm.cfg.Practice
	seat := rm.seatOf(hello.Token)
	rm.mu.Unlock()
	switch {
	case hello.Token != "" && seat == 0:
		closeWith(conn, "token", "this token holds no seat in this room")
		return
	case status == store.StatusOpen:
		closeWith(conn, "not_started", "the game has not started; poll GET /api/rooms/ID until its status is running")
		return
	case status == store.StatusLost:
		closeWith(conn, "lost", "this game could not be restored after a restart (a damaged record); it is kept for the operator")
		return
	case a == nil:
		closeWith(conn, "not_running", "the game is over; its replay is at GET /api/rooms/ID/replay")
		return
	}
	if code, msg := s.admit(rm, seat, addr); code != "" {
		closeWith(conn, code, msg)
		return
	}
	defer s.release(rm, seat, addr)
	sub := game.NewLazySub(seat, queueSize, cancel)
	if err := a.Join(sub, hello.Since, hello.ChatSince); err != nil {
		if errors.Is(err, game.ErrMoved) { // to its new owner, as any connection of a game that moves
			_ = conn.Close(websocket.StatusServiceRestart, "moved")
			return
		}
		closeWith(conn, untaken(err), err.Error())
		return
	}
	// The welcome says the join took: it goes out after it, and before the
	// catch-up the game has queued (the writer starts below).
	reply(ctx, conn, welcome{Type: "welcome", Room: rm.rec.ID, Seat: seat, Players: players, Now: time.Now().UnixMilli(),
		Practice: practice, Alive: a.Quiet().Milliseconds()})
	defer a.Leave(sub)
	if len(hello.Pending) > 0 { // what the last connection never heard the answer of
		_ = a.Answer(sub, hello.Pending)
	}
	// The session ends once its writer has: the writer's close (1012
	// "moved" when the game leaves for another node) may still be on its
	// way when the reader, seeing the connection closing, returns, and a
	// process that stops once its sessions have ended would cut it off.
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		s.writer(ctx, cancel, conn, sub, a, rm)
	}()
	defer func() {
		cancel()
		<-wrote
	}()
	// Refusals travel with the game's frames: at night they wait for
	// the next tick, so that an answer's timing tells nothing (a wolf
	// over his chat budget must not get a message a villager never
	// gets). The pong is the exception: every client pings alike.
	refuse := func(e wire.ErrorFrame) {
		if a.Refuse(sub, e) != nil {
			e.Type = "error"
			reply(ctx, conn, e)
		}
	}
	// The library arms a context.AfterFunc for each read given a context
	// that can end (2% of the server's CPU at 10,000 players); one for the
	// session does the same: it closes the connection, which ends the read.
	readCtx := ctx
	if _, ok := conn.(*frameConn); ok {
		readCtx = noCancel
		stop := context.AfterFunc(ctx, func() { _ = conn.CloseNow() })
		defer stop()
	}
	lim := rate.NewLimiter(frameRate, frameBurst)
	strikes := 0
	for {
		_, data, err := conn.Read(readCtx)
		if err != nil {
			return
		}
		if rm.lapsed() { // read on a node woken past its lease: not acted on, not answered (hung.go)
			_ = conn.Close(websocket.StatusServiceRestart, "moved")
			return
		}
		if len(data) > MaxFrame {
			closeWith(conn, "too_big", fmt.Sprintf("frames are limited to %d bytes", MaxFrame))
			return
		}
		if !lim.Allow() {
			if strikes++; strikes > maxStrikes {
				closeWith(conn, "rate", "too many frames; the connection is closed")
				return
			}
			// Said at once, unlike the other refusals: it answers how fast
			// the client sends, whatever its seat, and a flood is closed
			// before the next tick would carry it.
			reply(ctx, conn, wire.ErrorFrame{Type: "error", Code: "rate", Message: "too many frames; slow down"})
			continue
		}
		f, err := decodeFrame(data)
		if err != nil {
			code := "bad_frame"
			if te := (*textError)(nil); errors.As(err, &te) {
				code = "text"
			}
			refuse(wire.ErrorFrame{ID: f.ID, Code: code, Message: err.Error()})
			continue
		}
		switch f.Type {
		case "ping":
			reply(ctx, conn, map[string]any{"type": "pong", "id": f.ID})
			continue
		case "cover": // a client's filler at night, sent whether or not it acts
			continue
		case "hello":
			refuse(wire.ErrorFrame{ID: f.ID, Code: "bad_frame", Message: "already greeted; reconnect to resume from another point"})
			continue
		case "act":
			c, _ := f.command()
			err = a.Act(sub, f.ID, c)
		case "seen":
			err = a.Seen(sub, f.ID)
		case "decoy":
			err = a.Decoy(sub, f.ID)
		case "chat":
			if !s.chatAllowed(rm, seat, f.Channel) {
				refuse(wire.ErrorFrame{ID: f.ID, Code: "rate", Message: fmt.Sprintf(
					"chat is limited to %v message a second per seat (%d at once), whatever the connection; this one was not sent",
					float64(s.lim.chatRate), s.lim.chatBurst)})
				continue
			}
			err = a.Chat(sub, f.ID, f.Channel, f.Text)
		}
		if err != nil {
			reply(ctx, conn, wire.ErrorFrame{Type: "error", ID: f.ID, Code: untaken(err), Message: err.Error()})
		}
	}
}

// admit counts a connection in: a seat may have lim.seatConns open, and
// open lim.seatConnsPerMinute a minute (as many at once); a
// room takes lim.spectators spectators, lim.spectatorsPerAddr from one
// address, and an address may open lim.spectatorsPerMinute a minute. A
// refusal is a code and a message; an admitted connection is released.
func (s *Server) admit(rm *room, seat rules.Seat, addr string) (code, msg string) {
	if seat == 0 && !s.specLim.allow(addr) {
		return "rate", fmt.Sprintf("too many spectator connections from this address (at most %d a minute); try again in a minute",
			s.lim.spectatorsPerMinute)
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.conns == nil {
		rm.conns, rm.watchers = map[rules.Seat]int{}, map[string]int{}
	}
	if seat > 0 {
		// Every connection costs the game a catch-up: a seat that keeps
		// reconnecting (thrown out for flooding, say) is slowed down.
		l := seatLimiter(&rm.seatDials, seat, rate.Limit(float64(s.lim.seatConnsPerMinute)/60), s.lim.seatConnsPerMinute)
		if !l.Allow() {
			return "rate", fmt.Sprintf("this seat opened more than %d connections in a minute; wait a few seconds and reconnect",
				s.lim.seatConnsPerMinute)
		}
	}
	switch {
	case seat > 0 && rm.conns[seat] >= s.lim.seatConns:
		return "connections", fmt.Sprintf("this seat has %d connections open, the most it may have; close one (another tab or device) first",
			s.lim.seatConns)
	case seat == 0 && rm.watchers[addr] >= s.lim.spectatorsPerAddr:
		return "connections", fmt.Sprintf("this address watches this room %d times, the most it may", s.lim.spectatorsPerAddr)
	case seat == 0 && rm.conns[0] >= s.lim.spectators:
		return "spectators", fmt.Sprintf("this room has %d spectators, the most it takes; try again later", s.lim.spectators)
	}
	rm.conns[seat]++
	if seat == 0 {
		rm.watchers[addr]++
	}
	return "", ""
}

func (s *Server) release(rm *room, seat rules.Seat, addr string) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	rm.conns[seat]--
	if seat == 0 {
		if rm.watchers[addr]--; rm.watchers[addr] <= 0 {
			delete(rm.watchers, addr)
		}
	}
}

// chatAllowed spends one of the seat's chat budget, shared by all its
// connections. Messages to a channel that does not exist cost nothing
// (they are refused as any unwritable channel is); spectators write to
// none, and are refused by the game.
func (s *Server) chatAllowed(rm *room, seat rules.Seat, channel string) bool {
	switch channel {
	case game.ChanDay, game.ChanWolves, game.ChanLovers, game.ChanDead:
	default:
		return true
	}
	if seat == 0 {
		return true
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return seatLimiter(&rm.chatLimit, seat, s.lim.chatRate, s.lim.chatBurst).Allow()
}

// seatLimiter is a seat's limiter in m, made on first use; the caller
// holds the room's lock.
func seatLimiter(m *map[rules.Seat]*rate.Limiter, seat rules.Seat, every rate.Limit, burst int) *rate.Limiter {
	if *m == nil {
		*m = map[rules.Seat]*rate.Limiter{}
	}
	l := (*m)[seat]
	if l == nil {
		l = rate.NewLimiter(every, burst)
		(*m)[seat] = l
	}
	return l
}

// untaken is the code of a request the game could not take: it is busy, or
// no longer running.
func untaken(err error) string {
	switch {
	case errors.Is(err, game.ErrBusy):
		return "busy"
	case errors.Is(err, game.ErrStalled):
		return "store"
	}
	return "not_running"
}

// writer sends the game's frames; it never blocks the game: the game drops
// a connection whose queue is full.
func (s *Server) writer(ctx context.Context, cancel context.CancelFunc, conn wsConn, sub *game.Sub, a *game.Actor, rm *room) {
	defer cancel()
	g := newWriteGuard(ctx, conn, writeWait, cancel)
	defer g.stop()
	out := game.NewOutbox(sub)
	// While the writer has nothing to write, the actor writes the next
	// message itself when the socket takes it without waiting (Sub.WriteDirect):
	// at 10,000 players, waking a writer for each message cost a tenth of the
	// server's CPU (docs/benchmarks.md). A message it cannot write whole
	// comes here: queued, or the rest of its frame (rest) handed over with
	// the socket's lock held, which goes out before anything else.
	var sk *sock
	var rest chan struct{}
	if fc, ok := conn.(*frameConn); ok && fc.sock.raw != nil {
		sk, rest = fc.sock, fc.sock.restReady
		sub.WriteDirect(func(parts [][]byte) game.Direct {
			if rm.lapsed() { // the writer closes the connection
				return game.NotWritten
			}
			d := sk.tryText(parts...)
			if d != game.NotWritten && len(parts) == 1 && game.Sealed(parts[0]) {
				game.Recycle(parts[0])
			}
			return d
		})
	}
	// finish writes (or, write false, drops) the rest of a frame handed
	// over, whose signal was taken; false: the connection failed.
	finish := func(write bool) bool {
		var err error
		if write {
			err = g.writeWith(func() error { return sk.finishRest(true) })
		}
		if sk.rest != nil { // not written: let the other frames (the close) out
			_ = sk.finishRest(false)
		}
		return err == nil
	}
	pending := func(write bool) bool {
		select {
		case <-rest:
			return finish(write)
		default:
			return true
		}
	}
	// stopDirect ends the actor's writes before the connection closes.
	stopDirect := func(write bool) bool {
		sub.Hold()
		return pending(write)
	}
	defer stopDirect(false)
	write := func(b []byte) bool {
		if rm.lapsed() { // a node woken past its lease: not a byte more (hung.go)
			stopDirect(false)
			_ = conn.Close(websocket.StatusServiceRestart, "moved")
			return false
		}
		return g.write(b) == nil
	}
	for {
		if !pending(true) { // before what the actor queued after it
			return
		}
		if msg, sealed, ok := out.Next(maxBatch); ok {
			if !write(msg) {
				return
			}
			if sealed {
				game.Recycle(msg) // written: the library holds no part of it
			}
			continue
		}
		if rest != nil && !sub.Idle() {
			continue
		}
		select {
		case <-rest:
			if !finish(true) {
				return
			}
		case b := <-sub.Out:
			out.Add(b)
		case <-ctx.Done():
			// kicked (too slow), or the reader ended
			stopDirect(false)
			_ = conn.Close(websocket.StatusGoingAway, "closed")
			return
		case <-a.Done():
			// The game's last frames (its end) are sent before closing.
			if !stopDirect(true) {
				return
			}
			for b, ok := out.Pop(); ok; b, ok = out.Pop() {
				if !write(b) {
					return
				}
			}
			rm.mu.Lock()
			moved := rm.moved
			rm.mu.Unlock()
			if moved { // to another node of the cluster: the client reconnects there
				_ = conn.Close(websocket.StatusServiceRestart, "moved")
				return
			}
			_ = conn.Close(websocket.StatusGoingAway, "the game has stopped")
			return
		}
	}
}

// writeGuard writes a connection's messages. The library is given a
// context it cannot cancel, so that it does not arm a context.AfterFunc of
// its own for every message (at 10,000 players that was 5% of the server's
// CPU: docs/benchmarks.md); the guard does what it did, once a connection:
// a write that takes longer than wait, or during which the session's
// context ends (a kick, the reader's end), closes the connection at once,
// which ends the write; once the context has ended nothing more is written.
type writeGuard struct {
	ctx     context.Context
	conn    wsConn
	wait    time.Duration
	dog     *time.Timer
	writing atomic.Bool
	unwatch func() bool
}

// noCancel is the writes' context: its Done is nil.
var noCancel = context.Background()

// newWriteGuard's watchdog calls cancel, then closes conn at once.
func newWriteGuard(ctx context.Context, conn wsConn, wait time.Duration, cancel context.CancelFunc) *writeGuard {
	g := &writeGuard{ctx: ctx, conn: conn, wait: wait}
	g.dog = time.AfterFunc(time.Hour, func() {
		cancel()
		_ = conn.CloseNow()
	})
	g.unwatch = context.AfterFunc(ctx, func() {
		if g.writing.Load() {
			_ = conn.CloseNow()
		}
	})
	return g
}

// write sends one message; after an error the connection is closed.
func (g *writeGuard) write(b []byte) error {
	return g.writeWith(func() error { return g.conn.Write(noCancel, websocket.MessageText, b) })
}

// writeWith guards f, a write.
func (g *writeGuard) writeWith(f func() error) error {
	g.writing.Store(true)
	defer g.writing.Store(false)
	// After the Store: a context ending from now on finds the write under
	// way and closes the connection, one that ended before is seen here.
	err := g.ctx.Err()
	if err == nil {
		g.dog.Reset(g.wait)
		err = f()
		g.dog.Stop()
	}
	if err != nil {
		_ = g.conn.CloseNow()
	}
	return err
}

func (g *writeGuard) stop() {
	g.dog.Stop()
	g.unwatch()
}
