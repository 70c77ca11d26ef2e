package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
)

// TestASessionLeavesTheHTTPHandler: once a WebSocket is taken over, its
// session goes on without the HTTP server's handler, which returns and
// lets the server drop what it kept for the request (its 4 KiB writer,
// the request and its headers: a fifth of a connection's memory at
// 10,000 players, docs/benchmarks.md).
func TestASessionLeavesTheHTTPHandler(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, _ := ts.createStarted(t, map[string]any{"preset": "std-12", "nickname": "a", "timers": slow})
	returned := make(chan struct{}, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.Server.ServeHTTP(w, r)
		if strings.HasPrefix(r.URL.Path, "/ws/") {
			returned <- struct{}{}
		}
	}))
	defer hs.Close()
	conn, err := client.Dial(ctx, hs.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	select {
	case <-returned:
	case <-ctx.Done():
		t.Fatal("the WebSocket's HTTP handler has not returned while its session is open")
	}
	if err := conn.Send(ctx, map[string]any{"type": "ping", "id": 7}); err != nil {
		t.Fatal(err)
	}
	for {
		f, ok := next(conn, frameWait)
		if !ok {
			t.Fatal("the session ended with its HTTP handler")
		}
		if f.Type == "pong" && f.ID == 7 {
			return
		}
	}
}
