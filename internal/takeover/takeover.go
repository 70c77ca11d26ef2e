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
)

// Writer is a ResponseWriter whose Hijack hands over a writer of Size
// bytes, on Under's writer to the connection (the connection itself when
// Under is nil), and, when ReadSize is set, a reader of ReadSize bytes
// instead of the HTTP server's 4 KiB one (unless that one holds bytes
// already read, which stay with it).
type Writer struct {
	http.ResponseWriter
	Size     int
	ReadSize int
	Under    func(net.Conn) io.Writer
}

func (w Writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w Writer) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, fmt.Errorf("the HTTP server cannot hand a connection over (%T)", w.ResponseWriter)
	}
	conn, brw, err := hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil { // the 101 answer, if still there
		conn.Close()
		return nil, nil, err
	}
	var to io.Writer = conn
	if w.Under != nil {
		to = w.Under(conn)
	}
	r := brw.Reader
	if w.ReadSize > 0 && r.Buffered() == 0 {
		r = bufio.NewReaderSize(conn, w.ReadSize)
	}
	return conn, bufio.NewReadWriter(r, bufio.NewWriterSize(to, w.Size)), nil
}
