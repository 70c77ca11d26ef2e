package server

import (
	"context"
	"sync"
)

// fairQueue shares a few slots between addresses: each address holds at
// most one place in the queue (a newer request from it takes the older's
// place, the older is refused), and a free slot goes to the waiting address
// served longest ago (one never served first, then by arrival). So a flood
// from many addresses makes an honest request wait at most one turn of each
// flooding address, and once they have each been served it is next,
// however many requests the flood sends. (A channel of slots served its
// waiters in arrival order: behind every request of the flood.)
type fairQueue struct {
	mu     sync.Mutex
	free   int
	waits  map[string]*waiter // the one waiter of each waiting address
	served map[string]uint64  // when each address was last given a slot, in grants
	grants uint64
	arrive uint64
}

type waiter struct {
	addr    string
	arrival uint64
	ready   chan struct{} // closed once the slot is the waiter's
	granted bool
	ousted  bool // a newer request of its address took its place
}

func newFairQueue(slots int) *fairQueue {
	return &fairQueue{free: slots, waits: map[string]*waiter{}, served: map[string]uint64{}}
}

// acquire waits for a slot for addr until ctx is done: nil once the slot is
// the caller's (release it), errBalanceBusy when the wait ran out,
// errBalanceOusted when a newer request of the address took its place.
func (q *fairQueue) acquire(ctx context.Context, addr string) error {
	q.mu.Lock()
	if q.free > 0 && len(q.waits) == 0 {
		q.free--
		q.take(addr)
		q.mu.Unlock()
		return nil
	}
	q.arrive++
	w := &waiter{addr: addr, arrival: q.arrive, ready: make(chan struct{})}
	if old := q.waits[addr]; old != nil {
		w.arrival = old.arrival // the address keeps its place
		old.ousted = true
		close(old.ready)
	}
	q.waits[addr] = w
	q.mu.Unlock()
	select {
	case <-w.ready:
	case <-ctx.Done():
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case w.granted:
		return nil
	case w.ousted:
		return errBalanceOusted
	}
	delete(q.waits, addr)
	return errBalanceBusy
}

// release gives the slot back: to the waiting address served longest ago.
func (q *fairQueue) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	var next *waiter
	for _, w := range q.waits {
		if next == nil || q.before(w, next) {
			next = w
		}
	}
	if next == nil {
		q.free++
		return
	}
	delete(q.waits, next.addr)
	q.take(next.addr)
	next.granted = true
	close(next.ready)
}

func (q *fairQueue) before(a, b *waiter) bool {
	sa, sb := q.served[a.addr], q.served[b.addr]
	if sa != sb {
		return sa < sb
	}
	return a.arrival < b.arrival
}

// take records that addr is given a slot. Addresses not served for the last
// 1,024 grants are forgotten (as if never served) to bound the map.
func (q *fairQueue) take(addr string) {
	q.grants++
	q.served[addr] = q.grants
	if len(q.served) > 4096 {
		for a, g := range q.served {
			if q.grants-g > 1024 {
				delete(q.served, a)
			}
		}
	}
}

// waiting counts the addresses waiting (for tests).
func (q *fairQueue) waiting() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waits)
}
