package aiwolf

import (
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/takeover"
)

// batcher is the socket under an agent's WebSocket. A packet that needs
// no reply and has the next packet for the same agent queued behind it
// (DAILY_FINISH before VOTE, INITIALIZE before DAILY_INITIALIZE) is held
// and goes out in one write(2) with that next one: on loopback a write
// costs the server more than building the packet, and a third of a
// game's packets are such notices. The agent reads the same frames in the
// same order, the first no later than before. Each write to the socket
// has writeWait to finish (a deadline on the socket, not a context per
// message: the WebSocket library arms a timer and a callback for every
// write given a context that can end).
type batcher struct {
	conn net.Conn
	mu   sync.Mutex
	hold bool   // the next flush of the library is kept in buf
	buf  []byte // held frames, written before the next that is not held
}

// Write is the library's flush of one frame (or of a control frame from
// its reader: a pong, a close, which go out with whatever is held).
func (b *batcher) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.hold {
		b.buf = append(b.buf, p...)
		return len(p), nil
	}
	out := p
	if len(b.buf) > 0 {
		b.buf = append(b.buf, p...)
		out = b.buf
	}
	if err := b.conn.SetWriteDeadline(time.Now().Add(writeWait)); err != nil {
		return 0, err
	}
	_, err := b.conn.Write(out)
	b.buf = b.buf[:0]
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// holdNext makes the next frame written wait for the one after it (on),
// or go out at once with what waits (off).
func (b *batcher) holdNext(on bool) {
	b.mu.Lock()
	b.hold = on
	b.mu.Unlock()
}

// batching gives the WebSocket library a writer on b when it takes the
// connection over.
func batching(w http.ResponseWriter, b *batcher) takeover.Writer {
	return takeover.Writer{ResponseWriter: w, Size: 4096, Under: func(c net.Conn) io.Writer {
		b.conn = c
		return b
	}}
}
