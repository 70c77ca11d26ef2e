package takeover

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// takeOver serves one request with Writer{ReadSize: readSize}, sends the
// client's bytes after it, and reports the reader handed over and what it
// read of those bytes.
func takeOver(t *testing.T, readSize int, pipelined bool) (size int, got string) {
	t.Helper()
	type result struct {
		size int
		got  string
		err  error
	}
	done := make(chan result, 1)
	hijacked := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, brw, err := Writer{ResponseWriter: w, Size: 256, ReadSize: readSize}.Hijack()
		close(hijacked)
		if err != nil {
			done <- result{err: err}
			return
		}
		defer conn.Close()
		b := make([]byte, 5)
		_, err = io.ReadFull(brw.Reader, b)
		done <- result{size: brw.Reader.Size(), got: string(b), err: err}
	}))
	defer hs.Close()
	c, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
	if pipelined { // in the request's packet: read into the server's buffer with it
		req += "hello"
	}
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	if !pipelined { // after the request has been taken over
		<-hijacked
		if _, err := c.Write([]byte("hello")); err != nil {
			t.Fatal(err)
		}
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.size, r.got
}

// TestTheReaderHandedOverHasTheSizeAsked: a connection taken over reads
// through a buffer of ReadSize bytes; bytes the HTTP server had already
// read stay in its own buffer, which is handed over instead.
func TestTheReaderHandedOverHasTheSizeAsked(t *testing.T) {
	for _, tc := range []struct {
		name      string
		readSize  int
		pipelined bool
		want      int
	}{
		{"a size asked", 64, false, 64},
		{"no size asked: the server's", 0, false, 4096},
		{"bytes already read: the server's", 64, true, 4096},
	} {
		t.Run(tc.name, func(t *testing.T) {
			size, got := takeOver(t, tc.readSize, tc.pipelined)
			if size != tc.want {
				t.Errorf("the reader handed over holds %d bytes, want %d", size, tc.want)
			}
			if got != "hello" {
				t.Errorf("read %q after the request, want %q", got, "hello")
			}
		})
	}
}
