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

// TestANotifyQueueTellsOfWhatItTakes: a notifying queue calls its notify
// for each message it takes and never for one it refuses (full); a reader
// woken by it takes everything, in order, through an Outbox, with no
// goroutine waiting on Out.
func TestANotifyQueueTellsOfWhatItTakes(t *testing.T) {
	const size, n = 64, 5000
	var told int
	var sub *Sub
	var got []string
	out := NewOutbox(nil)
	sub = NewNotifySub(1, size, nil, func() {
		told++
		if told%7 == 0 { // the reader takes what waits now and then, as the conductor does
			for m, ok := out.Pop(); ok; m, ok = out.Pop() {
				got = append(got, string(m))
			}
		}
	})
	out.sub = sub
	for i := range n {
		if !sub.offer(fmt.Appendf(nil, "%d", i)) {
			t.Fatalf("message %d refused with at most 7 waiting", i)
		}
	}
	for m, ok := out.Pop(); ok; m, ok = out.Pop() {
		got = append(got, string(m))
	}
	if told != n || len(got) != n {
		t.Fatalf("%d messages: told %d times, read %d", n, told, len(got))
	}
	for i, m := range got {
		if m != fmt.Sprint(i) {
			t.Fatalf("message %d is %s: out of order", i, m)
		}
	}
	full := NewNotifySub(1, size, nil, func() { told++ })
	told = 0
	for range size + 3 {
		full.offer([]byte("x"))
	}
	if told != size {
		t.Fatalf("a full queue told of %d messages; it took %d", told, size)
	}
}
