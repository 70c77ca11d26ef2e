package takeover

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
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
		conn, brw, err := (&Writer{ResponseWriter: w, Size: 256, ReadSize: readSize}).Hijack()
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

// switchOver serves one request whose handler sets the header fields,
// writes a 101 through tw and writes "after" once it has taken the
// connection over; it returns what the client read.
func switchOver(t *testing.T, tw func(http.ResponseWriter) *Writer, fields http.Header) string {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w := tw(rw)
		for k, vs := range fields {
			for _, v := range vs {
				w.Header().Add(k, v)
			}
		}
		w.WriteHeader(http.StatusSwitchingProtocols)
		conn, brw, err := w.Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		brw.WriteString("after")
		brw.Flush()
	}))
	defer hs.Close()
	c, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(got)
}

// TestASwitchingAnswerIsWrittenWholeAtTheTakeover: a 101 the handler
// writes goes out once, from Hijack, with every field of the header and
// nothing after it that the connection's new owner did not write; a line
// break in a value cannot start a field of its own, and a field whose
// name is no token is left out.
func TestASwitchingAnswerIsWrittenWholeAtTheTakeover(t *testing.T) {
	got := switchOver(t, func(rw http.ResponseWriter) *Writer { return &Writer{ResponseWriter: rw, Size: 256} },
		http.Header{"Upgrade": {"websocket"}, "Connection": {"Upgrade"}, "X-Two": {"a", "b\r\nX-Forged: yes"},
			"Bad Name": {"x"}, "X-Forged:\r\nA": {"y"}, "": {"z"}})
	want := "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" +
		"X-Two: a\r\nX-Two: b  X-Forged: yes\r\n\r\nafter"
	if got != want {
		t.Errorf("the client read\n%q\nwant\n%q", got, want)
	}
}

// TestOtherAnswersAreTheHTTPServers: a status other than 101 goes to the
// HTTP server as ever.
func TestOtherAnswersAreTheHTTPServers(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &Writer{ResponseWriter: w}
		tw.WriteHeader(http.StatusUpgradeRequired)
	}))
	defer hs.Close()
	res, err := http.Get(hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUpgradeRequired {
		t.Errorf("status %d, want %d", res.StatusCode, http.StatusUpgradeRequired)
	}
}

// writes records each write it is given.
type writes struct {
	mu   sync.Mutex
	got  []string
	conn net.Conn
}

func (w *writes) Write(b []byte) (int, error) {
	w.mu.Lock()
	w.got = append(w.got, string(b))
	w.mu.Unlock()
	return w.conn.Write(b)
}

// TestAHeldSwitchingAnswerGoesOutWithTheFirstMessage: with Hold, the 101
// is in the writer handed over, and goes to the connection in the same
// write as the first message; without it, in a write of its own first.
func TestAHeldSwitchingAnswerGoesOutWithTheFirstMessage(t *testing.T) {
	const answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"
	for _, tc := range []struct {
		hold bool
		want []string // the writes Under's writer is given
	}{
		{true, []string{answer + "after"}},
		{false, []string{"after"}}, // the 101 went to the connection itself
	} {
		t.Run(fmt.Sprint("hold=", tc.hold), func(t *testing.T) {
			w := &writes{}
			got := switchOver(t, func(rw http.ResponseWriter) *Writer {
				return &Writer{ResponseWriter: rw, Size: 256, Hold: tc.hold, Under: func(c net.Conn) io.Writer {
					w.conn = c
					return w
				}}
			}, http.Header{"Upgrade": {"websocket"}})
			if got != answer+"after" {
				t.Errorf("the client read %q, want %q", got, answer+"after")
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			if !slices.Equal(w.got, tc.want) {
				t.Errorf("the writes were %q, want %q", w.got, tc.want)
			}
		})
	}
}
