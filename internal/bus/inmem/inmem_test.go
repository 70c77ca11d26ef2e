package inmem

import (
	"testing"

	"github.com/wolfden/wolfden/internal/bus"
	"github.com/wolfden/wolfden/internal/bus/bustest"
)

func adapter() bustest.Adapter {
	return bustest.Adapter{NewNetwork: func(testing.TB) func(testing.TB) bus.Bus {
		h := New()
		return func(t testing.TB) bus.Bus {
			c := h.Connect()
			t.Cleanup(func() { c.Close() })
			return c
		}
	}}
}

func TestContract(t *testing.T) { bustest.Run(t, adapter()) }

func BenchmarkRequestReply(b *testing.B) { bustest.BenchmarkRequestReply(b, adapter()) }

// TestASlowHandlerDropsPastTheLimit: a handler that does not keep up loses
// what is past bus.PendingLimit, counted, and the publisher never waits.
func TestASlowHandlerDropsPastTheLimit(t *testing.T) {
	h := New()
	pub, recv := h.Connect(), h.Connect()
	defer pub.Close()
	defer recv.Close()
	release := make(chan struct{})
	s, err := recv.Subscribe("wolfden.room.r1.all", func(bus.Msg) { <-release })
	if err != nil {
		t.Fatal(err)
	}
	defer close(release)
	const extra = 10
	// One is taken by the blocked handler, PendingLimit wait, extra drop.
	for range 1 + bus.PendingLimit + extra {
		if err := pub.Publish(t.Context(), "wolfden.room.r1.all", nil); err != nil {
			t.Fatal(err)
		}
	}
	// The handler may not have taken the first yet: one more may drop.
	if d := s.Dropped(); d != extra && d != extra+1 {
		t.Fatalf("dropped %d, want %d", d, extra)
	}
}
