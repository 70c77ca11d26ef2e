package aiwolf

import (
	"testing"
	"time"
)

// TestACodeServesOnceWithinItsTime: a code is spent by its first use, and
// is worth nothing once its time is out; each code is new.
func TestACodeServesOnceWithinItsTime(t *testing.T) {
	c := newURLCodes()
	now := time.Unix(1000, 0)
	c.now = func() time.Time { return now }
	a, err := c.mint(grant{room: "r", token: "t"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.mint(grant{room: "r", token: "t"}, time.Minute)
	if a == b || len(a) < 20 {
		t.Fatalf("codes %q and %q", a, b)
	}
	if g, ok := c.take(a); !ok || g.room != "r" || g.token != "t" {
		t.Errorf("a fresh code: %+v %v", g, ok)
	}
	if _, ok := c.take(a); ok {
		t.Error("a code served twice")
	}
	now = now.Add(time.Minute)
	if _, ok := c.take(b); ok {
		t.Error("a code served after its minute")
	}
	if len(c.m) != 0 {
		t.Errorf("%d codes kept", len(c.m))
	}
}
