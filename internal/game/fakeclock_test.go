package game

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a Clock a test moves by hand: a forum game's hour-long
// phases run in moments, and each step of the test waits on the actor's
// state, never on the wall clock.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c  *fakeClock
	ch chan time.Time
	at time.Time
	on bool
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 12, 5, 20, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) Timer {
	t := &fakeTimer{c: c, ch: make(chan time.Time, 1)}
	c.mu.Lock()
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	t.Reset(d)
	return t
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.on
	t.on = false
	return was
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	was := t.on
	t.at, t.on = t.c.now.Add(d), true
	t.c.fireLocked()
	t.c.mu.Unlock()
	return was
}

// fireLocked fires every timer that is due.
func (c *fakeClock) fireLocked() {
	for _, t := range c.timers {
		if t.on && !t.at.After(c.now) {
			t.on = false
			select {
			case t.ch <- c.now:
			default:
			}
		}
	}
}

// next is the earliest armed timer's instant.
func (c *fakeClock) next() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var at time.Time
	for _, t := range c.timers {
		if t.on && (at.IsZero() || t.at.Before(at)) {
			at = t.at
		}
	}
	return at, !at.IsZero()
}

// advance moves the clock to at (never back) and fires what is due.
func (c *fakeClock) advance(at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if at.After(c.now) {
		c.now = at
	}
	c.fireLocked()
}

// settled waits until the actor has taken every fired timer and done what
// each asked: all it had to do at this instant is done. An answer alone is
// no proof: a turn answers before it commits, and the commit tells the
// seats what is due (a night's tick); and the actor's select may take a
// request before a timer that fired again as it re-armed. So the actor
// commits first in the turn that answers (as any turn's end does: what is
// due is told before the answer), then says whether a timer waits; until
// none does.
func (c *fakeClock) settled(t *testing.T, a *Actor) {
	t.Helper()
	for {
		for c.fired() {
			select {
			case <-a.Done():
				return
			case <-time.After(time.Millisecond): // polling the actor's state
			}
		}
		waits, err := ask(a, func() bool { a.commit(); return c.fired() })
		if err == ErrStopped {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !waits {
			return
		}
	}
}

// fired tells whether a timer has fired that the actor has not taken.
func (c *fakeClock) fired() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, tm := range c.timers {
		if len(tm.ch) > 0 {
			return true
		}
	}
	return false
}

// step moves the clock to the actor's next timer and waits until the
// actor has done what was due then. It reports false when nothing is
// armed. The armed timer is read on the actor's own goroutine: after a
// request is answered the actor goes on to store and re-arm (Stop, then
// Reset), and read from outside in between, nothing is armed.
func (c *fakeClock) step(t *testing.T, a *Actor) bool {
	t.Helper()
	c.settled(t, a)
	type armed struct {
		at time.Time
		ok bool
	}
	n, err := ask(a, func() armed { at, ok := c.next(); return armed{at, ok} })
	if err != nil && err != ErrStopped {
		t.Fatal(err)
	}
	at, ok := n.at, n.ok
	if !ok {
		return false
	}
	c.advance(at)
	c.settled(t, a)
	return true
}
