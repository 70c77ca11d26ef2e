package server

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/wolfden/wolfden/internal/game"
)

// countingConn counts the writes that reach the socket.
type countingConn struct {
	net.Conn
	writes int
}

func (c *countingConn) Write(p []byte) (int, error) { c.writes++; return c.Conn.Write(p) }

// TestANightMessageIsOneWrite: the connection a WebSocket takes over writes
// a night message and its frame header in one write to the socket, where
// the HTTP server's own buffer took two.
func TestANightMessageIsOneWrite(t *testing.T) {
	got := make(chan int, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, brw, err := wsBuffers(w).Hijack()
		if err != nil {
			t.Error(err)
			got <- -1
			return
		}
		defer conn.Close()
		cc := &countingConn{Conn: conn}
		bw := brw.Writer
		bw.Reset(cc) // the same buffer, counted
		size := game.NightMessage
		header := []byte{0x81, 126, byte(size >> 8), byte(size)}
		bw.Write(header)
		bw.Write(make([]byte, game.NightMessage))
		bw.Flush()
		got <- cc.writes
	}))
	defer ts.Close()
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, bufio.NewReader(c))
	if n := <-got; n != 1 {
		t.Fatalf("a night message took %d writes", n)
	}
}
