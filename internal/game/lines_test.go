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

// recv waits for the next frame, or gives up when timeout fires.
func (l *lines) recv(timeout <-chan time.Time) ([]byte, bool) {
	for len(l.pend) == 0 {
		select {
		case m := <-l.sub.Out:
			l.pend = bytes.Split(m, []byte{'\n'})
		case <-timeout:
			return nil, false
		}
	}
	return l.take(), true
}

// try takes a frame already queued, without waiting.
func (l *lines) try() ([]byte, bool) {
	if len(l.pend) == 0 {
		select {
		case m := <-l.sub.Out:
			l.pend = bytes.Split(m, []byte{'\n'})
		default:
			return nil, false
		}
	}
	return l.take(), true
}
