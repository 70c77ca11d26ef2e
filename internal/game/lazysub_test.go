package game

import (
	"fmt"
	"sync"
	"testing"
)

// TestALazyQueueKeepsOrderAndBound: a lazy queue hands its reader every
// message in order, through Out and what waits behind it, while the actor
// goes on queueing; and, like NewSub's, it is full at size messages.
func TestALazyQueueKeepsOrderAndBound(t *testing.T) {
	const size, n = 64, 5000
	sub := NewLazySub(1, size, nil)
	if cap(sub.Out) >= size {
		t.Fatalf("Out holds %d: nothing is lazy", cap(sub.Out))
	}
	var got []string
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() { // a reader as the server's writer reads
		take := func(b []byte) { got = append(got, string(b)) }
		for {
			if len(sub.Out) == 0 {
				for _, b := range sub.Spilled() {
					take(b)
				}
			}
			select {
			case b := <-sub.Out:
				take(b)
			case <-done:
				for {
					select {
					case b := <-sub.Out:
						take(b)
						continue
					default:
					}
					left := sub.Spilled()
					if len(left) == 0 {
						return
					}
					for _, b := range left {
						take(b)
					}
				}
			}
		}
	})
	for i := 0; i < n; {
		if sub.offer(fmt.Appendf(nil, "%d", i)) {
			i++
		}
	}
	close(done)
	wg.Wait()
	if len(got) != n {
		t.Fatalf("read %d messages of %d", len(got), n)
	}
	for i, m := range got {
		if m != fmt.Sprint(i) {
			t.Fatalf("message %d is %s: out of order", i, m)
		}
	}

	full := NewLazySub(1, size, nil)
	for i := range size {
		if !full.offer([]byte("x")) {
			t.Fatalf("full at %d messages, not %d", i, size)
		}
	}
	if full.offer([]byte("x")) {
		t.Fatalf("took %d messages with nobody reading: its bound is %d", size+1, size)
	}
}
