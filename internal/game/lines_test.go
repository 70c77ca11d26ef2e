package game

import (
	"bytes"
	"sync"
	"time"
)

// A message may hold several frames, one per line: tests read them one by
// one through a reader kept per connection.
type lines struct {
	sub  *Sub
	pend [][]byte
}

var (
	readersMu sync.Mutex
	readers   = map[*Sub]*lines{}
)

func linesOf(sub *Sub) *lines {
	readersMu.Lock()
	defer readersMu.Unlock()
	l := readers[sub]
	if l == nil {
		l = &lines{sub: sub}
		readers[sub] = l
	}
	return l
}

func (l *lines) take() []byte {
	b := l.pend[0]
	l.pend = l.pend[1:]
	return b
}

// fill splits a message into its frames; the night's tick and padding
// frames carry nothing and are left out.
func (l *lines) fill(m []byte) {
	for _, f := range bytes.Split(m, []byte{'\n'}) {
		if !bytes.HasPrefix(f, []byte(`{"type":"tick"`)) && !bytes.HasPrefix(f, []byte(`{"type":"pad"`)) {
			l.pend = append(l.pend, f)
		}
	}
}

// recv waits for the next frame, or gives up when timeout fires.
func (l *lines) recv(timeout <-chan time.Time) ([]byte, bool) {
	for len(l.pend) == 0 {
		select {
		case m := <-l.sub.Out:
			l.fill(m)
		case <-timeout:
			return nil, false
		}
	}
	return l.take(), true
}

// try takes a frame already queued, without waiting.
func (l *lines) try() ([]byte, bool) {
	for len(l.pend) == 0 {
		select {
		case m := <-l.sub.Out:
			l.fill(m)
		default:
			return nil, false
		}
	}
	return l.take(), true
}
