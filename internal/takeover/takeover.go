// Package takeover gives a WebSocket library the writer of our choosing
// when it takes an HTTP connection over: the HTTP server's own is 4 KiB
// and writes to the socket directly.
package takeover

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
)

// Writer is a ResponseWriter whose Hijack hands over a writer of Size
// bytes, on Under's writer to the connection (the connection itself when
// Under is nil), and, when ReadSize is set, a reader of ReadSize bytes
// instead of the HTTP server's 4 KiB one (unless that one holds bytes
// already read, which stay with it).
//
// A 101 (Switching Protocols) is held until Hijack, which writes it
// itself: the HTTP server's writer sorts and formats the header for any
// answer, a fifth of a WebSocket handshake's CPU, and an AIWolf agent
// makes one a game.
//
// Hold keeps the 101 in the writer handed over, to go out with the
// caller's first message in one write: for a caller that writes one at
// once (the AIWolf gateway's NAME), never for one that waits for its
// client to speak first, whose client would wait for the 101.
type Writer struct {
	http.ResponseWriter
	Size     int
	ReadSize int
	Under    func(net.Conn) io.Writer
	Hold     bool

	switching bool // a 101 waits for Hijack
}

func (w *Writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *Writer) WriteHeader(code int) {
	if code == http.StatusSwitchingProtocols {
		w.switching = true
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *Writer) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, fmt.Errorf("the HTTP server cannot hand a connection over (%T)", w.ResponseWriter)
	}
	conn, brw, err := hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil { // the answer, if still there
		conn.Close()
		return nil, nil, err
	}
	if w.switching && !w.Hold {
		if _, err := conn.Write(switching(w.Header())); err != nil {
			conn.Close()
			return nil, nil, err
		}
	}
	var to io.Writer = conn
	if w.Under != nil {
		to = w.Under(conn)
	}
	r := brw.Reader
	if w.ReadSize > 0 && r.Buffered() == 0 {
		r = bufio.NewReaderSize(conn, w.ReadSize)
	}
	bw := bufio.NewWriterSize(to, w.Size)
	if w.switching && w.Hold {
		bw.Write(switching(w.Header())) // into its buffer: no error but the writer's
	}
	return conn, bufio.NewReadWriter(r, bw), nil
}

// switching is a 101 answer with h's fields, in the order of their names
// (as the HTTP server writes them). As the HTTP server, it leaves out a
// field whose name is no token, and a line break in a value, which would
// end the field, becomes a space.
func switching(h http.Header) []byte {
	keys := make([]string, 0, len(h))
	for k := range h {
		if token(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	b := make([]byte, 0, 256)
	b = append(b, "HTTP/1.1 101 Switching Protocols\r\n"...)
	for _, k := range keys {
		for _, v := range h[k] {
			b = append(b, k...)
			b = append(b, ": "...)
			for i := range len(v) {
				if c := v[i]; c == '\r' || c == '\n' {
					b = append(b, ' ')
				} else {
					b = append(b, c)
				}
			}
			b = append(b, "\r\n"...)
		}
	}
	return append(b, "\r\n"...)
}

// token: s is an HTTP token (RFC 9110, 5.6.2), as a field's name must be.
func token(s string) bool {
	for i := range len(s) {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return s != ""
}
