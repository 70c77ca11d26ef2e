package aiwolf

import (
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

	"github.com/wolfden/wolfden/internal/takeover"
)

// batcher is the socket under an agent's WebSocket. A packet that needs
// no reply and has the next packet for the same agent queued behind it
// (DAILY_FINISH before VOTE, INITIALIZE before DAILY_INITIALIZE) is held
// and goes out in one write(2) with that next one: on loopback a write
// costs the server more than building the packet, and a third of a
// game's packets are such notices. The agent reads the same frames in the
// same order, the first no later than before.
//
// A write never waits for the agent: the table writes its seats' packets
// itself (seat.sendQueued), and an agent that does not read must not hold
// up its game. What the socket does not take at once (its buffer is
// full) is kept, and a goroutine of its own writes it as the agent reads;
// the writes after it join it, in order. That goroutine has writeWait
// for each write, and an agent that leaves more than maxLate bytes
// unread is dropped. A connection that is not a socket (TLS) has every
// write made that way.
type batcher struct {
	conn net.Conn
	raw  syscall.RawConn // conn's socket, written without waiting; nil: none
	mu   sync.Mutex
	hold bool   // the next flush of the library is kept in buf
	buf  []byte // held frames, written before the next that is not held
	late []byte // what the socket did not take: the flusher's
	busy bool   // the flusher runs
	err  error  // a write failed: so do all after it
}

var errTooSlow = errors.New("the agent left too much unread")

// on sets the connection the batcher writes to.
func (b *batcher) on(c net.Conn) {
	b.conn, b.raw = c, nil
	if sc, ok := c.(syscall.Conn); ok {
		b.raw, _ = sc.SyscallConn()
	}
}

// Write is the library's flush of one frame (or of a control frame from
// its reader: a pong, a close, which go out with whatever is held).
func (b *batcher) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return 0, b.err
	}
	if b.hold {
		b.buf = append(b.buf, p...)
		return len(p), nil
	}
	out := p
	if len(b.buf) > 0 {
		b.buf = append(b.buf, p...)
		out = b.buf
	}
	n := 0
	if !b.busy && b.raw != nil {
		var err error
		if n, err = b.now(out); err != nil {
			b.err = err
			return 0, err
		}
	}
	if n < len(out) {
		if len(b.late)+len(out)-n > maxLate {
			b.err = errTooSlow
			b.conn.Close()
			return 0, b.err
		}
		b.late = append(b.late, out[n:]...)
		if !b.busy {
			b.busy = true
			go b.flush()
		}
	}
	b.buf = b.buf[:0]
	return len(p), nil
}

// now writes what the socket takes of out without waiting.
func (b *batcher) now(out []byte) (n int, err error) {
	werr := b.raw.Write(func(fd uintptr) bool {
		for {
			n, err = syscall.Write(int(fd), out)
			if err != syscall.EINTR {
				break
			}
		}
		return true // done, whatever the socket took: the rest is the flusher's
	})
	if err == syscall.EAGAIN {
		n, err = 0, nil
	}
	if werr != nil {
		err = werr
	}
	if n < 0 {
		n = 0
	}
	return n, err
}

// flush writes what waits, as the agent reads it.
func (b *batcher) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.late) > 0 && b.err == nil {
		out := b.late
		b.late = nil
		b.mu.Unlock()
		err := b.conn.SetWriteDeadline(time.Now().Add(writeWait))
		if err == nil {
			_, err = b.conn.Write(out)
		}
		b.mu.Lock()
		if err != nil && b.err == nil { // the first error stands (errTooSlow, as the write was cut short)
			b.err = err
			b.conn.Close() // the reader ends, and the connection with it
		}
	}
	if b.err == nil {
		// A socket past its deadline refuses even a write that would not wait.
		b.err = b.conn.SetWriteDeadline(time.Time{})
	}
	b.busy = false
}

// holdNext makes the next frame written wait for the one after it (on),
// or go out at once with what waits (off).
func (b *batcher) holdNext(on bool) {
	b.mu.Lock()
	b.hold = on
	b.mu.Unlock()
}

// batching gives the WebSocket library a writer on b when it takes the
// connection over. The 101 waits for the NAME, which follows at once: one
// write for both.
func batching(w http.ResponseWriter, b *batcher) *takeover.Writer {
	return &takeover.Writer{ResponseWriter: w, Size: 4096, Hold: true, Under: func(c net.Conn) io.Writer {
		b.on(c)
		return b
	}}
}
