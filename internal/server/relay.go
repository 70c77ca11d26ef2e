package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/bus"
	"github.com/wolfden/wolfden/internal/store"
)

// A node of a cluster passes what reaches it about a room it does not own
// to the room's owner: an HTTP request whole, and a WebSocket message by
// message. The owner plays the relayed WebSocket as one of its own (the
// same session, writer, limits and night beat), and sends each message it
// would write to it on the connection's own subject, which only the node
// holding the connection listens to. Nothing of the game is decided or
// read on the relaying node: it carries bytes it does not look into.

// wsConn is what a session needs of its WebSocket: a real one, or one
// relayed from another node.
type wsConn interface {
	Read(ctx context.Context) (websocket.MessageType, []byte, error)
	Write(ctx context.Context, typ websocket.MessageType, p []byte) error
	Close(code websocket.StatusCode, reason string) error
	CloseNow() error
}

// What the owner sends a relayed connection: a message to write, or how
// to close it.
const (
	relayMsg   = 'm'
	relayClose = 'c' // then the close code (2 bytes) and the reason
	relayDrop  = 'x' // close at once, without a close frame
)

type forwardedKey struct{}

// forwarded tells a request another node passed to this one: it is served
// here whatever its room's owner, so that it never goes round.
func forwarded(r *http.Request) bool { return r.Context().Value(forwardedKey{}) != nil }

// routed serves a room's request on the room's owner: here if this node
// owns it, or no node does and it needs none (a finished room, served
// from the store), else on its owner over the bus.
func (s *Server) routed(h http.HandlerFunc) http.HandlerFunc {
	if s.cl == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if forwarded(r) || s.cl.owns(id) {
			h(w, r)
			return
		}
		err := s.forward(w, r, id)
		switch {
		case err == nil:
			return
		case errors.Is(err, bus.ErrNoResponders):
			if s.servesUnowned(r.Context(), id) {
				h(w, r)
				return
			}
			w.Header().Set("Retry-After", "1")
			writeErr(w, errMoving)
		default:
			s.log.Warn("cluster: passing a request to a room's owner", "room", id, "err", err)
			w.Header().Set("Retry-After", "1")
			writeErr(w, errMoving)
		}
	}
}

// servesUnowned decides about a room no node answers for: it is adopted
// here if it needs an owner and its lease is free (its owner died long
// enough ago), and served here; an unknown room, and a finished one whose
// linger is over, are served here from the store; while another node's
// lease runs (its owner just died, or is handing it over) it is false:
// the client tries again.
func (s *Server) servesUnowned(ctx context.Context, id string) bool {
	rec, err := s.st.Room(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return true
	case err != nil:
		return false
	case rec.Status != store.StatusOpen && rec.Status != store.StatusRunning && rec.Status != store.StatusOver:
		return true // lost: kept for the operator, answered as such
	case rec.Status == store.StatusOver && time.Since(rec.Updated) >= s.opts.Linger:
		return true // a replay: nothing to own
	}
	_, err = s.cl.adopt(ctx, id)
	switch {
	case errors.Is(err, errHeld):
		return false
	case err != nil:
		s.log.Warn("cluster: adopting a room on request", "room", id, "err", err)
		return false
	}
	return true // adopted, or only a replay now
}

// forward passes an HTTP request to the room's owner and writes its answer.
func (s *Server) forward(w http.ResponseWriter, r *http.Request, id string) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		writeErr(w, fail(http.StatusRequestEntityTooLarge, "too_big", "a request body is limited to 1 MiB"))
		return nil
	}
	h := r.Header.Clone()
	h.Del("X-Forwarded-For") // read here already: Addr is the client
	wait := busWait
	if r.URL.Query().Has("after") {
		wait += changeWait
	}
	a, err := s.cl.ask(r.Context(), id, envelope{Op: "http", Method: r.Method, URL: r.URL.RequestURI(), Host: r.Host,
		Header: h, Addr: s.clientAddr(r), Data: body}, wait)
	if err != nil {
		return err
	}
	for k, v := range a.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(a.Status)
	_, _ = w.Write(a.Body)
	return nil
}

// serveHTTP serves a request another node passed on, as if it had come
// here from the client's address. A room that left this node since it was
// sent is not served from a copy of the store's (its changes would undo
// its new owner's): the client tries again.
func (n *node) serveHTTP(id string, m bus.Msg, e envelope) {
	if !n.owns(id) {
		rec := &recorder{header: http.Header{}}
		rec.header.Set("Retry-After", "1")
		writeErr(rec, errMoving)
		n.respond(m, answer{Status: rec.status, Header: rec.header, Body: rec.body.Bytes()})
		return
	}
	wait := busWait
	if strings.Contains(e.URL, "after=") {
		wait += changeWait
	}
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), forwardedKey{}, true), wait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, e.Method, e.URL, bytes.NewReader(e.Data))
	if err != nil {
		n.respond(m, answer{Status: http.StatusBadRequest})
		return
	}
	req.Header, req.Host = e.Header, e.Host
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.RemoteAddr = net.JoinHostPort(e.Addr, "0")
	rec := &recorder{header: http.Header{}}
	n.s.ServeHTTP(rec, req)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	n.respond(m, answer{Status: rec.status, Header: rec.header, Body: rec.body.Bytes()})
}

// recorder is the answer of a passed-on request, sent back whole.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// relayConn is, on the owner, a WebSocket another node holds.
type relayConn struct {
	n          *node
	room, id   string
	subj       string
	in         chan []byte
	done       chan struct{}
	once       sync.Once
	heard      atomic.Int64 // unix ns
	cancelFunc context.CancelFunc
}

// openRelay starts a session for a connection another node holds.
func (n *node) openRelay(id string, e envelope) answer {
	subj, err := bus.Conn(id, e.Conn)
	if err != nil {
		return answer{Status: http.StatusBadRequest}
	}
	rm, err := n.s.roomFor(context.Background(), id)
	if err != nil {
		return answer{Status: http.StatusNotFound}
	}
	rc := &relayConn{n: n, room: id, id: e.Conn, subj: subj, in: make(chan []byte, 64), done: make(chan struct{})}
	rc.touch()
	n.mu.Lock()
	if _, dup := n.relays[e.Conn]; dup {
		n.mu.Unlock()
		return answer{Status: http.StatusConflict}
	}
	n.relays[e.Conn] = rc
	n.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	rc.cancelFunc = cancel
	n.s.sessions.Add(1)
	n.s.m.connections.Inc()
	go func() {
		defer n.s.sessions.Done()
		defer n.s.m.connections.Dec()
		defer cancel()
		n.s.session(ctx, cancel, rc, rm, e.Addr)
		rc.send(relayDrop, nil) // whatever ended it, the client goes
		rc.shut()
	}()
	return answer{Status: http.StatusOK, Node: n.c.Node}
}

func (rc *relayConn) touch()               { rc.heard.Store(time.Now().UnixNano()) }
func (rc *relayConn) lastHeard() time.Time { return time.Unix(0, rc.heard.Load()) }

// take is a request of the relaying node about the connection; false if
// the connection is gone.
func (rc *relayConn) take(e envelope) bool {
	rc.touch()
	select {
	case <-rc.done:
		return false
	default:
	}
	switch e.Op {
	case "in":
		select {
		case rc.in <- e.Data:
		default: // a client this far ahead of its session is flooding
			rc.shut()
			return false
		}
	case "close":
		rc.shut()
	}
	return true
}

func (rc *relayConn) shut() {
	rc.once.Do(func() {
		close(rc.done)
		if rc.cancelFunc != nil {
			rc.cancelFunc()
		}
		rc.n.mu.Lock()
		if rc.n.relays[rc.id] == rc {
			delete(rc.n.relays, rc.id)
		}
		rc.n.mu.Unlock()
	})
}

var errRelayClosed = errors.New("cluster: the relayed connection is closed")

func (rc *relayConn) Read(ctx context.Context) (websocket.MessageType, []byte, error) {
	select {
	case b := <-rc.in:
		return websocket.MessageText, b, nil
	case <-rc.done:
		return 0, nil, errRelayClosed
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	}
}

func (rc *relayConn) Write(ctx context.Context, _ websocket.MessageType, p []byte) error {
	select {
	case <-rc.done:
		return errRelayClosed
	default:
	}
	if err := rc.send(relayMsg, p); err != nil {
		rc.shut()
		return err
	}
	return nil
}

func (rc *relayConn) Close(code websocket.StatusCode, reason string) error {
	b := binary.BigEndian.AppendUint16(nil, uint16(code))
	err := rc.send(relayClose, append(b, reason...))
	rc.shut()
	return err
}

func (rc *relayConn) CloseNow() error {
	err := rc.send(relayDrop, nil)
	rc.shut()
	return err
}

func (rc *relayConn) send(kind byte, p []byte) error {
	msg := make([]byte, 0, 1+len(p))
	msg = append(append(msg, kind), p...)
	ctx, cancel := context.WithTimeout(context.Background(), writeWait)
	defer cancel()
	return rc.n.c.Bus.Publish(ctx, rc.subj, msg)
}

// relaySession is, on the node a client reached, its WebSocket to a game
// another node owns.
type relaySession struct {
	room  string
	owner string // the node that opened it: closed as moved when another adopts the room (hung.go)
	conn  *frameConn
	out   chan relayed
	gone  chan struct{}
	once  sync.Once
}

type relayed struct {
	kind byte
	data []byte
}

func newConnID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// relay serves a WebSocket of a room another node owns; false, having
// written nothing, if no node answers for the room.
func (s *Server) relay(w http.ResponseWriter, r *http.Request, id string) bool {
	n := s.cl
	var (
		connID string
		rs     *relaySession
		sub    bus.Subscription
		a      answer
		err    error
	)
	// An owner that another node adopted the room from while it was asked
	// (it is frozen, say) is not waited for: the new owner is asked, under
	// a new connection id (the old one may answer once it wakes).
	for try := 0; ; try++ {
		connID = newConnID()
		var subj string
		if subj, err = bus.Conn(id, connID); err != nil {
			writeErr(w, errNoRoom)
			return true
		}
		rs = &relaySession{room: id, out: make(chan relayed, queueSize), gone: make(chan struct{})}
		// Listening before the owner is asked, so that nothing it sends is missed.
		sub, err = n.c.Bus.Subscribe(subj, rs.take)
		if err != nil {
			w.Header().Set("Retry-After", "1")
			writeErr(w, errMoving)
			return true
		}
		a, err = n.ask(r.Context(), id, envelope{Op: "open", Conn: connID, Addr: s.clientAddr(r)}, n.relayWait)
		if !errors.Is(err, errOwnerMoved) || try == 2 {
			break
		}
		_ = sub.Unsubscribe()
		if n.owns(id) {
			return false // adopted here: served as this node's own
		}
	}
	defer func() { _ = sub.Unsubscribe() }()
	rs.owner = a.Node
	switch {
	case errors.Is(err, bus.ErrNoResponders):
		return false
	case err != nil || a.Status == http.StatusConflict:
		w.Header().Set("Retry-After", "1")
		writeErr(w, errMoving)
		return true
	case a.Status == http.StatusNotFound:
		writeErr(w, errNoRoom)
		return true
	}
	ask := func(e envelope) bool {
		e.Conn = connID
		ctx, cancel := context.WithTimeout(context.Background(), n.relayWait)
		defer cancel()
		a, err := n.ask(ctx, id, e, n.relayWait)
		return err == nil && !a.Gone
	}
	defer ask(envelope{Op: "close"})
	conn, err := accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.opts.Origins,
		CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return true
	}
	conn.SetReadLimit(hardFrame)
	defer conn.CloseNow()
	rs.conn = conn
	s.sessions.Add(1)
	defer s.sessions.Done()
	n.mu.Lock()
	n.held[rs] = struct{}{}
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		delete(n.held, rs)
		n.mu.Unlock()
	}()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go rs.write(ctx, cancel)
	go func() { // the owner hears of the connection even when its client is quiet
		t := time.NewTicker(n.relayAlive)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if !ask(envelope{Op: "alive"}) {
					rs.moved()
					return
				}
			}
		}
	}()
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return true
		}
		if !ask(envelope{Op: "in", Data: data}) {
			rs.moved()
			return true
		}
	}
}

// take is what the owner sent the connection, on its subject.
func (rs *relaySession) take(m bus.Msg) {
	if len(m.Data) == 0 {
		return
	}
	select {
	case rs.out <- relayed{m.Data[0], m.Data[1:]}:
	default: // the client does not read: drop it, as the owner drops its own
		rs.drop()
	}
}

// write sends the client what the owner sent it, in order.
func (rs *relaySession) write(ctx context.Context, cancel context.CancelFunc) {
	defer cancel()
	for {
		select {
		case <-ctx.Done():
			return
		case <-rs.gone:
			_ = rs.conn.CloseNow()
			return
		case m := <-rs.out:
			switch m.kind {
			case relayMsg:
				wctx, wcancel := context.WithTimeout(ctx, writeWait)
				err := rs.conn.Write(wctx, websocket.MessageText, m.data)
				wcancel()
				if err != nil {
					_ = rs.conn.CloseNow()
					return
				}
			case relayClose:
				code, reason := websocket.StatusNormalClosure, ""
				if len(m.data) >= 2 {
					code, reason = websocket.StatusCode(binary.BigEndian.Uint16(m.data)), string(m.data[2:])
				}
				_ = rs.conn.Close(code, reason)
				return
			default:
				_ = rs.conn.CloseNow()
				return
			}
		}
	}
}

// moved closes the client's connection as its game moves (its owner is
// gone, or this node drains): it reconnects, to whichever node, and
// resumes.
func (rs *relaySession) moved() { _ = rs.conn.Close(websocket.StatusServiceRestart, "moved") }

func (rs *relaySession) drop() { rs.once.Do(func() { close(rs.gone) }) }
