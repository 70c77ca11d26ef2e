package server

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// hangConn is a connection whose writes hang until it is closed, as a
// client that stops reading makes them once the buffers are full.
type hangConn struct {
	hang     bool
	mu       sync.Mutex
	writes   int
	doneCtxs int           // writes given a context the library would arm a timer for
	started  chan struct{} // closed at the first write
	closed   chan struct{}
	once     sync.Once
}

func newHangConn(hang bool) *hangConn {
	return &hangConn{hang: hang, started: make(chan struct{}), closed: make(chan struct{})}
}

func (c *hangConn) Read(ctx context.Context) (websocket.MessageType, []byte, error) {
	<-c.closed
	return 0, nil, errors.New("closed")
}

func (c *hangConn) Write(ctx context.Context, _ websocket.MessageType, _ []byte) error {
	c.mu.Lock()
	if c.writes++; c.writes == 1 {
		close(c.started)
	}
	if ctx.Done() != nil {
		c.doneCtxs++
	}
	c.mu.Unlock()
	if !c.hang {
		return nil
	}
	<-c.closed
	return errors.New("closed")
}

func (c *hangConn) Close(websocket.StatusCode, string) error { return c.CloseNow() }

func (c *hangConn) CloseNow() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *hangConn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

func TestWriteGuardBoundsEveryWrite(t *testing.T) {
	for _, tc := range []struct {
		name      string
		hang      bool
		wait      time.Duration
		endBefore bool // the session's context ends before the write
		endDuring bool // … while it hangs
		wantErr   bool
		wantWrite int // writes that reach the connection
	}{
		{name: "a write that goes through leaves the connection open", wait: time.Hour, wantWrite: 1},
		{name: "a write that hangs past the wait closes the connection", hang: true, wait: time.Millisecond, wantErr: true, wantWrite: 1},
		{name: "a kick during a hung write closes the connection at once", hang: true, wait: time.Hour, endDuring: true, wantErr: true, wantWrite: 1},
		{name: "nothing is written once the session has ended", wait: time.Hour, endBefore: true, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn := newHangConn(tc.hang)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			g := newWriteGuard(ctx, conn, tc.wait, cancel)
			defer g.stop()
			if tc.endBefore {
				cancel()
			}
			if tc.endDuring {
				go func() {
					<-conn.started
					cancel()
				}()
			}
			err := g.write([]byte(`{"type":"x"}`))
			if (err != nil) != tc.wantErr {
				t.Fatalf("write: %v, want an error: %v", err, tc.wantErr)
			}
			if conn.isClosed() != tc.wantErr {
				t.Errorf("connection closed: %v, want %v", conn.isClosed(), tc.wantErr)
			}
			if tc.wantErr && ctx.Err() == nil {
				t.Error("the session's context still runs after the connection was cut off")
			}
			conn.mu.Lock()
			defer conn.mu.Unlock()
			if conn.writes != tc.wantWrite {
				t.Errorf("%d writes reached the connection, want %d", conn.writes, tc.wantWrite)
			}
			// The session's context would make the library arm a
			// context.AfterFunc for every message, 5% of the server's CPU
			// at 10,000 players; the writer before the guard passed it.
			if conn.doneCtxs != 0 {
				t.Errorf("%d writes were given a context that can end", conn.doneCtxs)
			}
		})
	}
}
