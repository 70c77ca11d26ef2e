package server

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/game"
)

// countingConn counts the writes that reach the socket.
type countingConn struct {
	net.Conn
	mu     sync.Mutex
	writes int
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.writes++
	c.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *countingConn) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

// framePair is a frameConn served over loopback, read as a session reads
// it and its socket's writes counted, and a client of the WebSocket
// library dialled to it.
func framePair(t *testing.T) (*frameConn, *countingConn, *websocket.Conn) {
	t.Helper()
	conns := make(chan *frameConn, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
		if err != nil {
			t.Error(err)
			conns <- nil
			return
		}
		conns <- c
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cl, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	cl.SetReadLimit(1 << 20)
	t.Cleanup(func() { cl.CloseNow() })
	c := <-conns
	if c == nil {
		t.FailNow()
	}
	t.Cleanup(func() { c.CloseNow() })
	go func() { // as a session reads: the library answers pings and closes while it does
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
	cc := &countingConn{Conn: c.sock.conn}
	c.sock.conn = cc
	return c, cc, cl
}

// TestAMessageIsOneFrameInOneWrite: each text message, whatever its size
// (each of the header's three length forms), reaches the client whole and
// as sent, and takes one write to the socket: a night message too.
func TestAMessageIsOneFrameInOneWrite(t *testing.T) {
	c, cc, cl := framePair(t)
	ctx := context.Background()
	for _, n := range []int{0, 1, 125, 126, 500, game.NightMessage, 0xffff, 0x10000, 300_000} {
		msg := bytes.Repeat([]byte{byte('a' + n%26)}, n)
		before := cc.count()
		if err := c.Write(noCancel, websocket.MessageText, msg); err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if w := cc.count() - before; w != 1 {
			t.Errorf("a message of %d bytes took %d writes", n, w)
		}
		typ, got, err := cl.Read(ctx)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if typ != websocket.MessageText || !bytes.Equal(got, msg) {
			t.Errorf("a message of %d bytes arrived as %v of %d bytes", n, typ, len(got))
		}
	}
}

// TestTheLibrarysFramesAndOursStayWhole: the library answers the client's
// pings while messages are being written; every pong comes back and every
// message arrives whole and in order, so no frame was cut by another.
func TestTheLibrarysFramesAndOursStayWhole(t *testing.T) {
	c, _, cl := framePair(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const messages = 2000
	read := make(chan error, 1)
	go func() {
		for i := range messages {
			_, got, err := cl.Read(ctx)
			if err != nil {
				read <- err
				return
			}
			if want := fmt.Sprintf("%d:%s", i, strings.Repeat("x", i%700)); string(got) != want {
				read <- fmt.Errorf("message %d arrived as %.40q…", i, got)
				return
			}
		}
		read <- nil
		cl.Read(ctx) // the pings' last pongs are read here
	}()
	wrote := make(chan error, 1)
	go func() {
		for i := range messages {
			if err := c.Write(noCancel, websocket.MessageText, fmt.Appendf(nil, "%d:%s", i, strings.Repeat("x", i%700))); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}()
	for i := range 50 {
		if err := cl.Ping(ctx); err != nil {
			t.Fatalf("ping %d: %v", i, err)
		}
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if err := <-read; err != nil {
		t.Fatal(err)
	}
}

// TestNoMessageFollowsTheCloseFrame: once the library has sent the close
// frame, a message is refused rather than written after it.
func TestNoMessageFollowsTheCloseFrame(t *testing.T) {
	c, cc, cl := framePair(t)
	go c.Close(websocket.StatusNormalClosure, "bye")
	for {
		c.sock.mu.Lock()
		closing := c.sock.closing
		c.sock.mu.Unlock()
		if closing {
			break
		}
		time.Sleep(time.Millisecond)
	}
	before := cc.count()
	if err := c.Write(noCancel, websocket.MessageText, []byte("late")); err == nil {
		t.Error("a message was written after the close frame")
	}
	if cc.count() != before {
		t.Error("the socket was written to after the close frame")
	}
	_, _, err := cl.Read(context.Background())
	if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Errorf("the client read %v, not the close frame", err)
	}
}

// TestAWriteEndsWithItsContext: a write whose context has ended is not
// made.
func TestAWriteEndsWithItsContext(t *testing.T) {
	c, cc, _ := framePair(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte("x")); err == nil {
		t.Error("a write with an ended context was made")
	}
	if cc.count() != 0 {
		t.Error("the socket was written to")
	}
}

// TestAFrameCutByAFullSocketGoesOutWholeAndFirst: the actor's write that
// must not wait (tryText) writes what the socket takes; the rest of a
// frame cut short goes out before any other frame, the library's too,
// which waits for it, so the client reads every message whole and in
// order.
func TestAFrameCutByAFullSocketGoesOutWholeAndFirst(t *testing.T) {
	c, _, cl := framePair(t)
	if c.sock.raw == nil {
		t.Fatal("a TCP connection with no descriptor")
	}
	msg := func(i int) []byte { // a night message's size, numbered
		b := bytes.Repeat([]byte{' '}, game.NightMessage)
		copy(b, fmt.Sprintf(`{"n":%d}`, i))
		return b
	}
	// The client reads nothing yet: the socket fills up.
	sent, handed := 0, false
	for !handed {
		switch c.sock.tryText(msg(sent)) {
		case game.Wrote:
			sent++
		case game.Handed:
			sent++
			handed = true
		case game.NotWritten: // Linux writes what fits when anything does
			t.Fatalf("the socket took %d whole frames, then none of the next", sent)
		}
	}
	// The library's frame (a pong) waits for the rest.
	pong := make(chan error, 1)
	go func() {
		_, err := c.sock.Write([]byte{0x80 | 0xA, 0})
		pong <- err
	}()
	time.Sleep(20 * time.Millisecond) // a chance for it to cut in, were it let
	select {
	case <-pong:
		t.Fatal("a frame went out inside the cut one")
	default:
	}
	read := make(chan error, 1)
	go func() {
		for i := 0; i < sent; i++ {
			_, b, err := cl.Read(context.Background())
			if err != nil {
				read <- fmt.Errorf("message %d: %w", i, err)
				return
			}
			if want := msg(i); !bytes.Equal(b, want) {
				read <- fmt.Errorf("message %d: %.20q…, want %.20q…", i, b, want)
				return
			}
		}
		read <- nil
	}()
	<-c.sock.restReady
	if err := c.sock.finishRest(true); err != nil {
		t.Fatal(err)
	}
	if err := <-read; err != nil {
		t.Fatal(err)
	}
	if err := <-pong; err != nil {
		t.Fatal(err)
	}
	// After the rest, the actor writes directly again.
	if d := c.sock.tryText([]byte(`{"after":1}`)); d != game.Wrote {
		t.Fatalf("after the rest: %v", d)
	}
	if _, b, err := cl.Read(context.Background()); err != nil || string(b) != `{"after":1}` {
		t.Fatalf("after the rest: %q, %v", b, err)
	}
}

// TestTheActorNeverWaitsForTheSocket: while another frame holds the socket
// (the library's pong or close, which may wait on a full socket), the
// actor's write leaves the message to the connection's writer at once.
func TestTheActorNeverWaitsForTheSocket(t *testing.T) {
	c, _, cl := framePair(t)
	c.sock.mu.Lock() // a frame under way
	got := make(chan game.Direct, 1)
	go func() { got <- c.sock.tryText([]byte(`{"a":1}`)) }()
	select {
	case d := <-got:
		if d != game.NotWritten {
			t.Fatalf("with the socket taken: %v, want NotWritten", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the actor waited for the socket")
	}
	c.sock.mu.Unlock()
	if d := c.sock.tryText([]byte(`{"b":2}`)); d != game.Wrote {
		t.Fatalf("with the socket free: %v", d)
	}
	if _, b, err := cl.Read(context.Background()); err != nil || string(b) != `{"b":2}` {
		t.Fatalf("read %q, %v", b, err)
	}
}

// TestADirectWriteAllocatesNothing: the actor's write of a message to a
// socket that takes it makes no garbage (the actor writes one for each
// message and connection: at 10,000 players, a closure made for each was
// a million allocations in 8 s of play).
func TestADirectWriteAllocatesNothing(t *testing.T) {
	c, _, cl := framePair(t)
	go func() {
		for {
			if _, _, err := cl.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	msg := []byte(`{"type":"event","seq":1}`)
	allocs := testing.AllocsPerRun(200, func() {
		if d := c.sock.tryText(msg); d != game.Wrote {
			t.Fatalf("a write the socket takes: %v", d)
		}
	})
	if allocs != 0 {
		t.Errorf("a direct write made %.0f allocations, want none", allocs)
	}
}
