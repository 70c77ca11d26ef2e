package server

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"unsafe"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/takeover"
)

// A session's text messages are framed here and written to the socket in
// one call each, past the WebSocket library. The library's write path
// around that call (its channel lock, its message writer's reset, the
// frame header written byte by byte into its buffer, a timeout context
// swapped in and out) was a fifth of the writers' time at 10,000 players
// (docs/benchmarks.md); the frame on the wire is the same. The library
// still reads, answers pings, and writes the close handshake: its frames
// pass through sock, whose lock keeps them and ours whole.

// sock is the connection under one WebSocket.
type sock struct {
	conn net.Conn
	raw  syscall.RawConn // conn's descriptor, for writes that must not wait; nil if it has none
	mu   sync.Mutex
	// closing: a close frame has gone out, and no message may follow it
	// (RFC 6455, 5.5.1).
	closing bool
	// rest is a frame's end that a write that must not wait left: mu stays
	// locked until the writer has written it (restReady).
	rest      []byte
	restBuf   *[]byte
	restReady chan struct{}
	// try is tryText's call into raw, made once: a closure made for each
	// write escaped to the heap, a million allocations in 8 s of play at
	// 10,000 players. Its frame and outcome (under mu) are tb, tn, terr.
	try  func(fd uintptr) bool
	tb   []byte
	tn   int
	terr error
}

// Write takes the library's frames. Its buffer (wsControlBuffer) holds a
// whole control frame, and it flushes after each, so every call is one
// frame from its first byte.
func (s *sock) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(p) > 0 && p[0]&0x0f == opClose {
		s.closing = true
	}
	return s.conn.Write(p)
}

const (
	opText  = 0x1
	opClose = 0x8
	fin     = 0x80
	// maxHeader is a server frame's longest header: no mask, a 64-bit length.
	maxHeader = 10
)

// wsControlBuffer is the library's write buffer: its own frames are
// control frames, at most 125 bytes of payload and a 2-byte header.
const wsControlBuffer = 256

// wsReadBuffer is the library's read buffer. A client's frames are a few
// hundred bytes (at most MaxFrame, which it reads past the buffer), one
// at a time: the HTTP server's 4 KiB buffer was an eighth of a
// connection's memory at 10,000 players.
const wsReadBuffer = 1024

// frames are the buffers messages are framed in, held only during a write:
// a connection waiting for its next message holds none.
var frames = sync.Pool{New: func() any { b := make([]byte, 0, game.NightMessage+maxHeader); return &b }}

// errClosing: the close frame has gone out; the library ends the connection.
var errClosing = fmt.Errorf("websocket: the connection is closing: %w", net.ErrClosed)

// frame makes the text frame of parts joined by newlines, n bytes in all,
// in a pooled buffer (buf, for putFrame) unless it is longer than a night
// message.
func frame(n int, parts ...[]byte) (buf *[]byte, b []byte) {
	if n <= game.NightMessage {
		buf = frames.Get().(*[]byte)
		b = (*buf)[:0]
	} else {
		b = make([]byte, 0, n+maxHeader)
	}
	return buf, game.AppendJoined(appendHeader(b, opText, n), parts)
}

// putFrame hands a frame's buffer back, once written.
func putFrame(buf *[]byte) {
	if buf != nil {
		*buf = (*buf)[:0]
		frames.Put(buf)
	}
}

// text writes p as one text frame.
func (s *sock) text(p []byte) error {
	buf, b := frame(len(p), p)
	s.mu.Lock()
	var err error
	if s.closing {
		err = errClosing
	} else {
		_, err = s.conn.Write(b)
	}
	s.mu.Unlock()
	putFrame(buf)
	return err
}

// tryText writes parts joined by newlines as one text frame if the socket
// takes it, whole or in part, without waiting. The rest of a part is
// handed to the writer (game.Handed) with mu held, so that no other frame
// comes between; it must call finishRest once restReady says so.
func (s *sock) tryText(parts ...[]byte) game.Direct {
	n := len(parts) - 1
	for _, p := range parts {
		n += len(p)
	}
	if s.raw == nil || n > game.NightMessage { // a catch-up's long history: the writer's
		return game.NotWritten
	}
	// Another frame under way (the library's pong or close, which may wait
	// on a full socket): the writer's, rather than the game's actor waiting.
	if !s.mu.TryLock() {
		return game.NotWritten
	}
	if s.closing {
		s.mu.Unlock()
		return game.Wrote
	}
	buf, b := frame(n, parts...)
	s.tb, s.tn, s.terr = b, 0, nil
	if err := s.raw.Write(s.try); err != nil {
		s.terr = err
	}
	n, werr := s.tn, s.terr
	s.tb, s.terr = nil, nil
	if werr == nil && n > 0 && n < len(b) { // a part: the writer writes the rest, mu still held
		s.rest, s.restBuf = b[n:], buf
		s.restReady <- struct{}{}
		return game.Handed
	}
	s.mu.Unlock()
	putFrame(buf)
	if werr == nil && n == len(b) {
		return game.Wrote
	}
	return game.NotWritten // nothing: a full socket, or an error the writer will meet
}

// tryWrite is try: it writes tb, never waiting (what is left goes to
// the writer).
func (s *sock) tryWrite(fd uintptr) bool {
	s.tn, s.terr = rawWrite(fd, s.tb)
	return true
}

// rawWrite writes b to the socket fd, which never blocks (the runtime
// made it non-blocking), without the runtime's system-call bookkeeping:
// under that bookkeeping a write that took over 20 µs could hand the
// goroutine's P to another thread, and the actor came back from the call
// to wait at the back of the global run queue, behind the whole backlog
// of a busy core.
func rawWrite(fd uintptr, b []byte) (int, error) {
	n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}

// finishRest writes what tryText left (unless write is false: the
// connection is closing), then lets other frames go out.
func (s *sock) finishRest(write bool) error {
	var err error
	if write {
		_, err = s.conn.Write(s.rest)
	}
	putFrame(s.restBuf)
	s.rest, s.restBuf = nil, nil
	s.mu.Unlock()
	return err
}

// appendHeader appends an unmasked final frame's header (RFC 6455, 5.2).
func appendHeader(b []byte, op byte, n int) []byte {
	switch {
	case n < 126:
		return append(b, fin|op, byte(n))
	case n <= 0xffff:
		return append(b, fin|op, 126, byte(n>>8), byte(n))
	default:
		return append(b, fin|op, 127, byte(n>>56), byte(n>>48), byte(n>>40), byte(n>>32), byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
}

// frameConn is a WebSocket whose text messages go out through its sock.
type frameConn struct {
	*websocket.Conn
	sock *sock
}

// accept takes the request's connection over as a frameConn.
func accept(w http.ResponseWriter, r *http.Request, opts *websocket.AcceptOptions) (*frameConn, error) {
	s := new(sock)
	tw := takeover.Writer{ResponseWriter: w, Size: wsControlBuffer, ReadSize: wsReadBuffer, Under: func(c net.Conn) io.Writer {
		s.conn = c
		if sc, ok := c.(syscall.Conn); ok {
			s.raw, _ = sc.SyscallConn()
			s.restReady = make(chan struct{}, 1)
			s.try = s.tryWrite
		}
		return s
	}}
	conn, err := websocket.Accept(&tw, r, opts)
	if err != nil {
		return nil, err
	}
	return &frameConn{Conn: conn, sock: s}, nil
}

// Write writes a text message in one frame; ctx bounds it as the library
// bounds its own writes: when ctx ends mid-write, the connection is closed.
// After a failed write the connection is closed: a frame may be cut.
func (c *frameConn) Write(ctx context.Context, typ websocket.MessageType, p []byte) error {
	if typ != websocket.MessageText {
		return c.Conn.Write(ctx, typ, p)
	}
	if ctx.Done() != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		stop := context.AfterFunc(ctx, func() { _ = c.Conn.CloseNow() })
		defer stop()
	}
	err := c.sock.text(p)
	if err != nil && err != errClosing {
		_ = c.Conn.CloseNow()
	}
	return err
}
