package server

import (
	"bufio"
	"fmt"
	"net"
	"net/http"

	"github.com/wolfden/wolfden/internal/game"
)

// wsWriteBuffer holds a whole night message and its frame header (at most
// 14 bytes). The HTTP server's 4 KiB writer, which the WebSocket library
// otherwise keeps, sent each of them in two writes: 4,096 bytes, then the
// last 4; at night that is most of the server's work.
const wsWriteBuffer = game.NightMessage + 16

// wsBuffers gives the WebSocket library a writer of wsWriteBuffer bytes
// when it takes the connection over.
type wsBuffers struct{ http.ResponseWriter }

func (w wsBuffers) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w wsBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
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
	return conn, bufio.NewReadWriter(brw.Reader, bufio.NewWriterSize(conn, wsWriteBuffer)), nil
}
