package sealed

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/bus"
	"github.com/wolfden/wolfden/internal/bus/bustest"
	"github.com/wolfden/wolfden/internal/bus/inmem"
)

var secret = []byte("0123456789abcdef0123456789abcdef")

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func adapter() bustest.Adapter {
	return bustest.Adapter{NewNetwork: func(testing.TB) func(testing.TB) bus.Bus {
		h := inmem.New()
		return func(t testing.TB) bus.Bus {
			c := h.Connect()
			b, err := New(c, secret, Options{Logger: quiet()})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { b.Close() })
			return b
		}
	}}
}

// TestContract: a sealed bus keeps the bus's contract.
func TestContract(t *testing.T) { bustest.Run(t, adapter()) }

func BenchmarkRequestReply(b *testing.B) { bustest.BenchmarkRequestReply(b, adapter()) }

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestAMessageOpensOnlyAsItWasSealed: the receiver accepts a message sealed
// with the cluster's secret for its subject, within the window, once; it
// refuses one changed anywhere, sealed for another subject or with another
// secret, too old or from too far ahead, or seen already.
func TestAMessageOpensOnlyAsItWasSealed(t *testing.T) {
	const subj = "wolfden.room.r1.cmd"
	body := []byte(`{"op":"http","method":"POST","url":"/api/rooms/r1/pause"}`)
	other, _ := New(inmem.New().Connect(), []byte(strings.Repeat("x", MinSecret)), Options{})
	flip := func(at int) func(b *Bus, c *clock) []byte {
		return func(b *Bus, c *clock) []byte {
			i := at
			m := b.sealFor(subj, body)
			if i < 0 {
				i += len(m)
			}
			m[i] ^= 1
			return m
		}
	}
	for _, tc := range []struct {
		name string
		msg  func(b *Bus, c *clock) []byte
		ok   bool
	}{
		{"sealed for its subject", func(b *Bus, c *clock) []byte { return b.sealFor(subj, body) }, true},
		{"a bit of the body changed", flip(-1 - sealedMAC), false},
		{"a bit of the time changed", flip(3), false},
		{"a bit of the nonce changed", flip(12), false},
		{"a bit of the MAC changed", flip(-1), false},
		{"the version changed", flip(0), false},
		{"sealed for another subject", func(b *Bus, c *clock) []byte { return b.sealFor("wolfden.room.r2.cmd", body) }, false},
		{"sealed with another secret", func(b *Bus, c *clock) []byte { return other.sealFor(subj, body) }, false},
		{"plain", func(b *Bus, c *clock) []byte { return body }, false},
		{"empty", func(b *Bus, c *clock) []byte { return nil }, false},
		{"older than the window", func(b *Bus, c *clock) []byte {
			m := b.sealFor(subj, body)
			c.add(Window + time.Second)
			return m
		}, false},
		{"from past the window ahead", func(b *Bus, c *clock) []byte {
			c.add(Window + time.Second)
			m := b.sealFor(subj, body)
			c.add(-Window - time.Second)
			return m
		}, false},
		{"just inside the window", func(b *Bus, c *clock) []byte {
			m := b.sealFor(subj, body)
			c.add(Window - time.Second)
			return m
		}, true},
		{"a replay", func(b *Bus, c *clock) []byte {
			m := b.sealFor(subj, body)
			if _, _, err := b.open([]byte(subj), m); err != nil {
				t.Fatalf("first delivery: %v", err)
			}
			return m
		}, false},
		{"a replay a window later", func(b *Bus, c *clock) []byte {
			m := b.sealFor(subj, body)
			if _, _, err := b.open([]byte(subj), m); err != nil {
				t.Fatalf("first delivery: %v", err)
			}
			for range 4 { // the generations turn over meanwhile
				c.add(Window / 2)
				b.sealFor(subj, body)
				b.open([]byte(subj), b.sealFor(subj, body))
			}
			c.add(-Window / 2)
			return m
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &clock{t: time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)}
			b, err := New(inmem.New().Connect(), secret, Options{Now: c.now, Logger: quiet()})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := b.open([]byte(subj), tc.msg(b, c))
			switch {
			case tc.ok && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.ok && !bytes.Equal(got, body):
				t.Fatalf("opened %q, want %q", got, body)
			case !tc.ok && !errors.Is(err, ErrRefused):
				t.Fatalf("accepted (%q, %v)", got, err)
			}
		})
	}
}

const sealedMAC = 32

// TestTheBusCarriesNoPlainText: what a sealed node sends holds nothing of
// its body in clear, and what it is sent in clear it drops.
func TestTheBusCarriesNoPlainText(t *testing.T) {
	h := inmem.New()
	spy, raw := h.Connect(), h.Connect()
	defer spy.Close()
	defer raw.Close()
	sender, _ := New(h.Connect(), secret, Options{Logger: quiet()})
	receiver, _ := New(h.Connect(), secret, Options{Logger: quiet()})
	defer sender.Close()
	defer receiver.Close()
	const subj = "wolfden.room.r1.conn.c1"
	seen := make(chan []byte, 4)
	if _, err := spy.Subscribe(subj, func(m bus.Msg) { seen <- m.Data }); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 4)
	if _, err := receiver.Subscribe(subj, func(m bus.Msg) { got <- m.Data }); err != nil {
		t.Fatal(err)
	}
	token := []byte(`{"type":"hello","token":"s3cr3t-seat-token"}`)
	ctx := context.Background()
	if err := raw.Publish(ctx, subj, token); err != nil { // a forger without the secret
		t.Fatal(err)
	}
	if err := sender.Publish(ctx, subj, token); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if m := <-seen; bytes.Contains(m, []byte("s3cr3t")) && !bytes.Equal(m, token) {
			t.Fatalf("the bus carried the token in clear: %q", m)
		}
	}
	if m := <-got; !bytes.Equal(m, token) {
		t.Fatalf("delivered %q, want %q", m, token)
	}
	if n := receiver.Refused(); n != 1 {
		t.Fatalf("refused %d, want the forger's 1", n)
	}
	select {
	case m := <-got:
		t.Fatalf("delivered a second message %q", m)
	default:
	}
}

// TestAReplyIsBoundToItsRequest: a request's reply must be sealed for that
// request; a captured reply to another request is refused.
func TestAReplyIsBoundToItsRequest(t *testing.T) {
	h := inmem.New()
	asker, _ := New(h.Connect(), secret, Options{Logger: quiet()})
	raw := h.Connect()
	owner, _ := New(h.Connect(), secret, Options{Logger: quiet()})
	defer asker.Close()
	defer raw.Close()
	defer owner.Close()
	const subj = "wolfden.room.r1.cmd"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// An impostor answers with a reply the owner sealed for another request.
	captured := owner.sealFor("reply\x00"+strings.Repeat("\x00", nonceSize), []byte("ok"))
	if _, err := raw.Subscribe(subj, func(m bus.Msg) { m.Respond(captured) }); err != nil {
		t.Fatal(err)
	}
	if _, err := asker.Request(ctx, subj, []byte("pause")); !errors.Is(err, ErrRefused) {
		t.Fatalf("a reply sealed for another request: %v", err)
	}
}

// TestAShortSecretIsRefused: a secret under MinSecret bytes is an error
// naming its length.
func TestAShortSecretIsRefused(t *testing.T) {
	_, err := New(inmem.New().Connect(), secret[:MinSecret-1], Options{})
	if err == nil || !strings.Contains(err.Error(), "31 bytes") {
		t.Fatalf("a 31-byte secret: %v", err)
	}
}
