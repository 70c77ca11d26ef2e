package aiwolf

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// conn is one agent's WebSocket. A reader goroutine takes its text frames
// (every "\n" deleted, as the reference does); ask sends a request and
// waits for its reply, and a seat's request has its reply handed to the
// table by the reader itself (seat.await). A reply that comes after its
// request timed out is never taken for another: the request that timed
// out is followed by a NAME probe, and every frame before the name comes
// back is thrown away (probe).
//
// A dead agent is noticed without punishing a thinking one. A closed
// connection ends the reader at once. An agent that stops reading is
// noticed by the request it owes (its action timeout, then the probe's)
// or, while it owes none, by a ping: the contest's Python client answers
// a ping only inside its read, so an agent thinking over a request, or
// over a packet that needs no reply (the LLM agent thinks over
// DAILY_INITIALIZE too), answers late. So no ping goes out while a
// request is outstanding, and a ping has as long as a request to be
// answered (pinger).
type conn struct {
	ws     *websocket.Conn
	out    *batcher // under ws: holds a notice for the packet after it
	name   string   // the agent's name, its reply to NAME (kanolab1)
	team   string   // the name without its trailing digits (kanolab)
	lines  chan string
	done   <-chan struct{} // closed when the connection is gone: ended's
	once   sync.Once
	wmu    sync.Mutex   // one write at a time
	asking atomic.Int32 // requests whose reply is awaited (ask, probe, seat.await)
	// expect takes the next frame, once, while a seat's request awaits
	// its reply (seat.await); false: the request was answered already
	// (its timeout), and the frame goes on to hear or lines.
	expect atomic.Pointer[func(string) bool]
	// hear takes the frames that expect does not while a group-chat
	// phase is open for the agent (seat.listen).
	hear atomic.Pointer[func(string)]

	ended  context.Context // done when the connection is gone (afterGone, the pings)
	end    context.CancelFunc
	pingMu sync.Mutex
	pingT  *time.Timer // the next ping (pinger)
}

// Limits of an agent's connection.
const (
	linesQueued  = 64               // frames an agent may send ahead of the requests; more closes it
	maxReplySize = 64 << 10         // a longer frame closes the connection
	writeWait    = 10 * time.Second // a packet not written by then drops the connection
	maxLate      = 1 << 20          // bytes an agent may leave unread (batcher); more drops it
)

func newConn(ws *websocket.Conn, out *batcher) *conn {
	ws.SetReadLimit(maxReplySize)
	c := &conn{ws: ws, out: out, lines: make(chan string, linesQueued)}
	c.ended, c.end = context.WithCancel(context.Background())
	c.done = c.ended.Done()
	return c
}

// afterGone runs f on a goroutine of its own once the connection is gone:
// a watcher costs nothing while the connection lives (an AIWolf game's
// five connections had three goroutines each waiting for their end).
func (c *conn) afterGone(f func()) { context.AfterFunc(c.ended, f) }

// read runs until the connection ends. An agent that sends frames
// faster than it is asked, by more than linesQueued, is closed. Its reads
// are given a context that never ends: the library arms a callback for
// every read given one that can, and close ends a read under way. A frame
// is read into one buffer that every read reuses, and copied once, into
// its line.
func (c *conn) read() {
	defer c.close("read")
	var buf bytes.Buffer
	for {
		_, r, err := c.ws.Reader(context.Background())
		if err != nil {
			return
		}
		buf.Reset()
		if _, err := buf.ReadFrom(r); err != nil {
			return
		}
		line := strings.ReplaceAll(string(buf.Bytes()), "\n", "")
		if take := c.expect.Swap(nil); take != nil && (*take)(line) {
			continue
		}
		if hear := c.hear.Load(); hear != nil {
			(*hear)(line)
			continue
		}
		select {
		case c.lines <- line:
		default:
			_ = c.ws.Close(websocket.StatusPolicyViolation, "too many frames that answer no request")
			return
		}
	}
}

// pinger pings the agent every so often while it owes no reply, and
// closes the connection when a ping is not answered within wait (the
// action timeout unless set: an agent may think that long over whatever
// it read before the ping). It is a timer, not a goroutine: most
// connections (an AIWolf game's lasts a few seconds) end before their
// first ping.
func (c *conn) pinger(every, wait time.Duration) {
	c.pingMu.Lock()
	defer c.pingMu.Unlock()
	c.pingT = time.AfterFunc(every, func() {
		if c.gone() {
			return
		}
		if c.asking.Load() == 0 { // else the request's own timeout watches the agent
			ctx, cancel := context.WithTimeout(c.ended, wait)
			err := c.ws.Ping(ctx)
			cancel()
			if err != nil {
				c.close("ping")
				return
			}
		}
		c.pingMu.Lock()
		c.pingT.Reset(every)
		c.pingMu.Unlock()
	})
}

// ending stops what waits for the connection; the caller closes it.
func (c *conn) ending() {
	c.end()
	c.pingMu.Lock()
	if c.pingT != nil {
		c.pingT.Stop()
	}
	c.pingMu.Unlock()
}

func (c *conn) close(why string) {
	c.once.Do(func() {
		c.ending()
		_ = c.ws.CloseNow()
	})
}

// closeWith ends the connection with a reason the agent can read.
func (c *conn) closeWith(code websocket.StatusCode, why string) {
	c.once.Do(func() {
		c.ending()
		_ = c.ws.Close(code, why)
	})
}

func (c *conn) gone() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

var (
	errTimeout = errors.New("no reply in time")
	errGone    = errors.New("the connection is gone")
)

// send writes one packet.
func (c *conn) send(b []byte) error { return c.sendHeld(b, false) }

// sendHeld writes one packet; held, it goes out with the next one written
// (batcher), which the caller writes at once.
func (c *conn) sendHeld(b []byte, held bool) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.gone() {
		return errGone
	}
	c.out.holdNext(held)
	// The batcher's deadline bounds the write: the library is given a
	// context that never ends, so it arms nothing per message.
	err := c.ws.Write(context.Background(), websocket.MessageText, b)
	c.out.holdNext(false)
	if err != nil {
		c.close("write")
		return errGone
	}
	return nil
}

// drain takes the frames read so far that answered no request: to has
// each, or, nil, they are thrown away.
func (c *conn) drain(to func(string)) {
	for {
		select {
		case l := <-c.lines:
			if to != nil {
				to(l)
			}
		default:
			return
		}
	}
}

// ask sends a request and waits up to wait for its reply.
func (c *conn) ask(b []byte, wait time.Duration) (string, error) {
	c.asking.Add(1)
	defer c.asking.Add(-1)
	c.drain(nil)
	if err := c.send(b); err != nil {
		return "", err
	}
	return c.next(wait)
}

func (c *conn) next(wait time.Duration) (string, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case l := <-c.lines:
		return l, nil
	case <-c.done:
		select { // a reply read just before the end still counts
		case l := <-c.lines:
			return l, nil
		default:
		}
		return "", errGone
	case <-t.C:
		return "", errTimeout
	}
}

var namePacket = []byte(`{"request":"NAME"}`)

// probe asks the agent's name after a request timed out: frames before
// the name are replies to earlier requests and are thrown away. It
// reports whether the agent answered within wait.
func (c *conn) probe(wait time.Duration) bool {
	c.asking.Add(1)
	defer c.asking.Add(-1)
	if c.send(namePacket) != nil {
		return false
	}
	end := time.Now().Add(wait)
	for {
		l, err := c.next(time.Until(end))
		if err != nil {
			return false
		}
		if strings.TrimSpace(l) == c.name {
			return true
		}
	}
}

// teamOf is a name without its trailing digits.
func teamOf(name string) string {
	return strings.TrimRight(name, "0123456789")
}

// TeamOf is the team of an agent's name (its name without the trailing
// digits), as matching and the ratings know it.
func TeamOf(name string) string { return teamOf(name) }
