package aiwolf

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// countWrites counts the writes to a socket, made with or without
// waiting.
type countWrites struct {
	net.Conn
	raw syscall.RawConn
	n   atomic.Int32
}

func (c *countWrites) Write(p []byte) (int, error) {
	c.n.Add(1)
	return c.Conn.Write(p)
}

func (c *countWrites) SyscallConn() (syscall.RawConn, error) { return countRaw{c}, nil }

type countRaw struct{ c *countWrites }

func (r countRaw) Control(f func(uintptr)) error       { return r.c.raw.Control(f) }
func (r countRaw) Read(f func(uintptr) bool) error     { return r.c.raw.Read(f) }
func (r countRaw) Write(f func(fd uintptr) bool) error { r.c.n.Add(1); return r.c.raw.Write(f) }

// TestANoticeGoesOutWithThePacketQueuedBehindIt: a packet that needs no
// reply, held for the next, reaches the socket in the same write as that
// next one; the agent reads both, in order, each a frame of its own. A
// packet not held is written at once, alone.
func TestANoticeGoesOutWithThePacketQueuedBehindIt(t *testing.T) {
	ctx, agent, c, cw := countedConn(t)

	notice, request := `{"request":"DAILY_FINISH"}`, `{"request":"VOTE"}`
	if err := c.sendHeld([]byte(notice), true); err != nil {
		t.Fatal(err)
	}
	if n := cw.n.Load(); n != 0 {
		t.Fatalf("the held notice was written at once (%d writes)", n)
	}
	if err := c.send([]byte(request)); err != nil {
		t.Fatal(err)
	}
	if n := cw.n.Load(); n != 1 {
		t.Fatalf("the notice and the packet behind it took %d writes, want 1", n)
	}
	if err := c.send([]byte(notice)); err != nil {
		t.Fatal(err)
	}
	if n := cw.n.Load(); n != 2 {
		t.Fatalf("a packet not held took %d writes in all, want 2", n-1)
	}
	for i, want := range []string{notice, request, notice} {
		_, got, err := agent.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("frame %d is %s, want %s", i+1, got, want)
		}
	}
}

// TestFinishGoesOutWithTheCloseFrame: FINISH, held for the close behind
// it, reaches the socket in one write with the close frame; the agent
// reads FINISH, then the close with its reason.
func TestFinishGoesOutWithTheCloseFrame(t *testing.T) {
	ctx, agent, c, cw := countedConn(t)
	tb, s := awaitTable(c, Options{})
	finish := `{"request":"FINISH"}`
	s.enqueue(&outgoing{req: ReqFinish, body: []byte(finish)})
	s.enqueue(&outgoing{close: true})
	tb.flushSeats()
	_, got, err := agent.Read(ctx)
	if err != nil || string(got) != finish {
		t.Fatalf("the agent read %q (%v), want FINISH", got, err)
	}
	_, _, err = agent.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Fatalf("the agent's next read: %v, want the close 1000", err)
	}
	if n := cw.n.Load(); n != 1 {
		t.Errorf("FINISH and the close frame took %d writes, want 1", n)
	}
}

// countedConn is connected, with the writes to the gateway's socket
// counted.
func countedConn(t *testing.T) (context.Context, *websocket.Conn, *conn, *countWrites) {
	t.Helper()
	var cw *countWrites
	ctx, agent, c := connected(t, func(out *batcher) {
		cw = &countWrites{Conn: out.conn, raw: out.raw}
		out.on(cw)
	})
	return ctx, agent, c, cw
}

// connected is a gateway's connection and the agent's end of it, both
// closed when the test ends; under, if set, sees the socket's writer
// before the connection is made. ctx bounds the test's reads.
func connected(t *testing.T, under func(*batcher)) (context.Context, *websocket.Conn, *conn) {
	t.Helper()
	conns := make(chan *conn, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out := &batcher{}
		// The gateway writes NAME at once, and its 101 waits for it; a
		// test writes when it likes, and its agent waits for the 101.
		tw := batching(w, out)
		tw.Hold = false
		ws, err := websocket.Accept(tw, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		if under != nil {
			under(out)
		}
		c := newConn(ws, out)
		conns <- c
		c.read()
	}))
	t.Cleanup(hs.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	agent, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.CloseNow() })
	c := <-conns
	t.Cleanup(func() { c.close("test") })
	return ctx, agent, c
}

// tcpPair is both ends of a TCP connection on loopback, with small
// buffers: an agent that does not read fills them at once.
func tcpPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := l.Accept()
		accepted <- c
	}()
	client, err = net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("no connection accepted")
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	if err := server.(*net.TCPConn).SetWriteBuffer(16 << 10); err != nil {
		t.Fatal(err)
	}
	if err := client.(*net.TCPConn).SetReadBuffer(16 << 10); err != nil {
		t.Fatal(err)
	}
	return server, client
}

// TestAWriteNeverWaitsForAnAgentThatDoesNotRead: the table writes its
// seats' packets itself, so a write returns at once even when the agent
// reads nothing; what the socket could not take reaches the agent, in
// order, once it reads. An agent that leaves more than maxLate unread is
// dropped.
func TestAWriteNeverWaitsForAnAgentThatDoesNotRead(t *testing.T) {
	chunk := func(i int) []byte { return bytes.Repeat([]byte{byte(i)}, 64<<10) }

	// An agent that reads late gets everything.
	server, client := tcpPair(t)
	b := &batcher{}
	b.on(server)
	var sent []byte
	for i := range maxLate / (64 << 10) {
		if _, err := b.Write(chunk(i)); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
		sent = append(sent, chunk(i)...)
	}
	got := make([]byte, len(sent))
	if _, err := io.ReadFull(client, got); err != nil || !bytes.Equal(got, sent) {
		t.Fatalf("the agent read %d bytes (%v), not what was written", len(got), err)
	}

	// One that reads nothing is dropped once it has left maxLate unread.
	server, client = tcpPair(t)
	b = &batcher{}
	b.on(server)
	sent = sent[:0]
	var err error
	for i := 0; err == nil && i < 64; i++ {
		if _, err = b.Write(chunk(i)); err == nil {
			sent = append(sent, chunk(i)...)
		}
	}
	if !errors.Is(err, errTooSlow) || len(sent) < maxLate {
		t.Fatalf("after %d bytes left unread, the write's error is %v, want %v past %d", len(sent), err, errTooSlow, maxLate)
	}
	if _, err := b.Write([]byte("more")); !errors.Is(err, errTooSlow) {
		t.Errorf("a write after the drop: %v, want %v", err, errTooSlow)
	}
	got, _ = io.ReadAll(client) // what reached the socket before it closed
	if !bytes.Equal(got, sent[:len(got)]) {
		t.Fatalf("the agent read %d bytes that are not what was written", len(got))
	}
}
