package aiwolf

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// countWrites counts the writes to a socket.
type countWrites struct {
	net.Conn
	n atomic.Int32
}

func (c *countWrites) Write(p []byte) (int, error) {
	c.n.Add(1)
	return c.Conn.Write(p)
}

// TestANoticeGoesOutWithThePacketQueuedBehindIt: a packet that needs no
// reply, held for the next, reaches the socket in the same write as that
// next one; the agent reads both, in order, each a frame of its own. A
// packet not held is written at once, alone.
func TestANoticeGoesOutWithThePacketQueuedBehindIt(t *testing.T) {
	var cw *countWrites
	ctx, agent, c := connected(t, func(out *batcher) {
		cw = &countWrites{Conn: out.conn}
		out.conn = cw
	})

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

// connected is a gateway's connection and the agent's end of it, both
// closed when the test ends; under, if set, sees the socket's writer
// before the connection is made. ctx bounds the test's reads.
func connected(t *testing.T, under func(*batcher)) (context.Context, *websocket.Conn, *conn) {
	t.Helper()
	conns := make(chan *conn, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out := &batcher{}
		ws, err := websocket.Accept(batching(w, out), r, nil)
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
