// Package servertest holds what tests of a running server (in this
// process or another) share: a player's raw WebSocket.
package servertest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Seat is a player's connection read as it comes, with no keep-alive or
// reconnecting of its own (internal/client gives a silent line up: tests
// of who closes a connection, and what it is sent first, must not): it
// reads every message, counts them, and records when and how the
// connection ended.
type Seat struct {
	WS     *websocket.Conn
	Frames atomic.Int64 // messages read
	Ended  chan struct{}
	// At, Code and Reason are set before Ended is closed: when the
	// connection ended, its close code and reason (-1 and the error for
	// an end without a close frame).
	At     time.Time
	Code   websocket.StatusCode
	Reason string
}

// DialSeat connects the seat of token to room on the server at base
// (http://…) and waits for its welcome.
func DialSeat(ctx context.Context, t testing.TB, base, room, token string) *Seat {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws/"+room, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	hello, _ := json.Marshal(map[string]any{"type": "hello", "token": token})
	if err := ws.Write(ctx, websocket.MessageText, hello); err != nil {
		t.Fatal(err)
	}
	_, b, err := ws.Read(ctx)
	if err != nil || !strings.Contains(string(b), `"welcome"`) {
		t.Fatalf("dialing %s: %s %v", base, b, err)
	}
	s := &Seat{WS: ws, Ended: make(chan struct{})}
	go func() {
		defer close(s.Ended)
		for {
			if _, _, err := ws.Read(context.Background()); err != nil {
				s.At = time.Now()
				var ce websocket.CloseError
				if errors.As(err, &ce) {
					s.Code, s.Reason = ce.Code, ce.Reason
				} else {
					s.Code, s.Reason = -1, err.Error()
				}
				return
			}
			s.Frames.Add(1)
		}
	}()
	t.Cleanup(func() { _ = ws.CloseNow() })
	return s
}

// Wait waits for the connection to end, and fails the test if ctx ends
// first.
func (s *Seat) Wait(ctx context.Context, t testing.TB, who string) {
	t.Helper()
	select {
	case <-s.Ended:
	case <-ctx.Done():
		t.Fatalf("%s: the connection is still open", who)
	}
}
