package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

type queueResult struct {
	addr string
	err  error
}

// waitState waits until cond holds: the queue's state, not the clock. It
// gives up after a minute's polls at least: the requests' goroutines run
// late on a machine loaded by other tests (five seconds were once too few,
// under three packages' race-detector runs on two cores).
func waitState(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i == 60000 {
			t.Fatalf("never reached: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestABalanceFloodFromTwentyAddressesLeavesAnHonestTurn: twenty addresses
// flood the one simulation slot, five requests at once each and a new one
// after each answer; an honest address arriving in the middle is served
// before any flooding address is served twice, and the queue never holds
// more than one request per address. (With a channel of slots, the honest
// request waited behind every request of the flood.)
func TestABalanceFloodFromTwentyAddressesLeavesAnHonestTurn(t *testing.T) {
	q := newFairQueue(1)
	ctx := context.Background()
	results := make(chan queueResult, 1000)
	ask := func(addr string) {
		go func() { results <- queueResult{addr, q.acquire(ctx, addr)} }()
	}
	if err := q.acquire(ctx, "holder"); err != nil {
		t.Fatal(err)
	}
	const flooders = 20
	flood := func(addr string, n int) { // n requests at once: all but one are ousted
		for range n {
			ask(addr)
		}
	}
	for i := range flooders {
		flood(fmt.Sprintf("flood-%d", i), 5)
	}
	ousted := 0
	grants := map[string]int{}
	var order []string
	// next takes results until a grant, counting the ousted.
	next := func() string {
		for r := range results {
			switch {
			case r.err == nil:
				grants[r.addr]++
				order = append(order, r.addr)
				return r.addr
			case r.err == errBalanceOusted:
				ousted++
			default:
				t.Fatalf("%s: %v", r.addr, r.err)
			}
		}
		return ""
	}
	waitState(t, "one waiter per flooding address", func() bool { return q.waiting() == flooders })
	q.release() // the holder's simulation ends
	first := next()
	ask("honest")
	waitState(t, "the honest request queued", func() bool { return q.waiting() == flooders })
	flood(first, 5)
	waitState(t, "the first flooder back in the queue", func() bool { return q.waiting() == flooders+1 })
	for served := 1; ; served++ {
		q.release()
		got := next()
		if got == "honest" {
			if served > flooders {
				t.Errorf("the honest request waited %d turns, more than one per flooding address", served)
			}
			break
		}
		if grants[got] > 1 {
			t.Fatalf("%s was served twice while the honest request waited (order %v)", got, order)
		}
		flood(got, 5) // it floods again at once
		waitState(t, "the flooder back in the queue", func() bool { return q.waiting() == flooders+1 })
		if q.waiting() > flooders+1 {
			t.Fatalf("%d waiters for %d addresses", q.waiting(), flooders+1)
		}
	}
	if ousted < 4*flooders {
		t.Errorf("%d requests ousted by a newer one of their address, want at least %d", ousted, 4*flooders)
	}
}

// TestAWaitForABalanceSlotIsBounded: past its budget a request that found no
// slot is answered 503 busy with a Retry-After, and leaves the queue.
func TestAWaitForABalanceSlotIsBounded(t *testing.T) {
	ts := newTestServerWith(t, Options{BalancePerMinute: -1, BalanceBudget: 50 * time.Millisecond})
	if err := ts.bal.slots.acquire(context.Background(), "holder"); err != nil {
		t.Fatal(err)
	}
	defer ts.bal.release()
	res, err := http.Post(ts.http.URL+"/api/balance", "application/json", strings.NewReader(`{"board":`+jsonString(nineCustom)+`}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "1" {
		t.Errorf("%s, Retry-After %q: want 503 and a Retry-After", res.Status, res.Header.Get("Retry-After"))
	}
	if n := ts.bal.slots.waiting(); n != 0 {
		t.Errorf("%d waiters left in the queue", n)
	}
}
