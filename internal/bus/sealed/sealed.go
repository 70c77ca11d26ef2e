// Package sealed is a bus.Bus that seals every message it sends with the
// cluster's secret and opens every message it receives, refusing any it
// cannot: so that a client of the NATS server that does not hold the
// secret can neither read what the nodes tell each other (relayed
// requests and WebSocket frames, seat tokens among them) nor forge or
// replay a message to a node (docs/cluster.md, "Security").
//
// A sealed message is
//
//	version (1) | time, unix ns (8) | nonce (16) | body, AES-256-CTR | HMAC-SHA256 (32)
//
// the body encrypted under the nonce, then the MAC over the version, the
// time, the nonce, the subject and the encrypted body (encrypt then MAC;
// both keys derived from the secret by HKDF). A reply is bound to its
// request instead of a subject (its NATS inbox is the requester's): it is
// sealed for "the reply to the request of this nonce", so that no other
// reply can stand for it. A receiver refuses a message whose MAC is wrong,
// whose time is more than Window from its own clock, or whose nonce it
// has seen within the last two windows (a replay).
//
// The server's code is unaware of it: cmd/ wraps the node's bus.
package sealed

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wolfden/wolfden/internal/bus"
)

// MinSecret is the shortest cluster secret accepted, in bytes.
const MinSecret = 32

// Window is how far a message's time may be from the receiver's clock by
// default: the nodes' clocks must agree within it.
const Window = 30 * time.Second

// Overhead is how many bytes sealing adds to a message.
const Overhead = 1 + 8 + nonceSize + sha256.Size

const (
	version   = 1
	nonceSize = aes.BlockSize
	header    = 1 + 8 + nonceSize
)

// ErrRefused: a message that is not sealed with the cluster's secret, is
// out of its time window, or was seen already.
var ErrRefused = errors.New("sealed: message refused")

// Options of New; the zero value is fine.
type Options struct {
	// Window: see the constant (default Window).
	Window time.Duration
	// Now is the clock (default time.Now); for tests.
	Now func() time.Time
	// Logger is told of refused messages, at most one line a second;
	// nil: slog.Default().
	Logger *slog.Logger
}

// Bus seals what it sends on an inner bus and opens what it receives.
type Bus struct {
	inner  bus.Bus
	block  cipher.Block
	macs   sync.Pool // of HMAC-SHA256 under the MAC key, reused: a new one costs more than a short message's MAC
	window time.Duration
	now    func() time.Time
	log    *slog.Logger

	seen    replays
	refused atomic.Int64
	logged  atomic.Int64 // unix ns of the last line about a refusal
}

var _ bus.Bus = (*Bus)(nil)

// New wraps inner with the cluster's secret, at least MinSecret bytes.
func New(inner bus.Bus, secret []byte, o Options) (*Bus, error) {
	if len(secret) < MinSecret {
		return nil, fmt.Errorf("sealed: the cluster secret is %d bytes; it needs %d or more (e.g. openssl rand -hex 32)", len(secret), MinSecret)
	}
	keys, err := hkdf.Key(sha256.New, secret, nil, "wolfden bus v1", 64)
	if err != nil {
		return nil, fmt.Errorf("sealed: %w", err)
	}
	block, err := aes.NewCipher(keys[:32])
	if err != nil {
		return nil, fmt.Errorf("sealed: %w", err)
	}
	b := &Bus{inner: inner, block: block, window: o.Window, now: o.Now, log: o.Logger}
	macKey := keys[32:]
	b.macs.New = func() any { return hmac.New(sha256.New, macKey) }
	if b.window <= 0 {
		b.window = Window
	}
	if b.now == nil {
		b.now = time.Now
	}
	if b.log == nil {
		b.log = slog.Default()
	}
	return b, nil
}

// Refused counts the messages refused since New.
func (b *Bus) Refused() int64 { return b.refused.Load() }

// sealFor is body sealed for subject.
func (b *Bus) sealFor(subject string, body []byte) []byte {
	msg, _ := b.seal([]byte(subject), body)
	return msg
}

// seal returns the message and its nonce.
func (b *Bus) seal(bound, body []byte) ([]byte, []byte) {
	msg := make([]byte, header+len(body), header+len(body)+sha256.Size)
	msg[0] = version
	binary.BigEndian.PutUint64(msg[1:9], uint64(b.now().UnixNano()))
	nonce := msg[9:header]
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // crypto/rand does not fail on a supported system
	}
	cipher.NewCTR(b.block, nonce).XORKeyStream(msg[header:], body)
	return append(msg, b.sum(bound, msg)...), nonce
}

// sum is the MAC of msg (without its MAC) bound to a subject or request.
func (b *Bus) sum(bound, msg []byte) []byte {
	h := b.macs.Get().(hash.Hash)
	defer b.macs.Put(h)
	h.Reset()
	h.Write(msg[:header])
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(bound)))
	h.Write(n[:])
	h.Write(bound)
	h.Write(msg[header:])
	return h.Sum(nil)
}

// open checks msg for bound and returns its body and nonce.
func (b *Bus) open(bound, msg []byte) ([]byte, []byte, error) {
	if len(msg) < Overhead || msg[0] != version {
		return nil, nil, fmt.Errorf("%w: not a sealed message", ErrRefused)
	}
	sealed, mac := msg[:len(msg)-sha256.Size], msg[len(msg)-sha256.Size:]
	if !hmac.Equal(mac, b.sum(bound, sealed)) {
		return nil, nil, fmt.Errorf("%w: its MAC is not the cluster's (another secret, or changed on the way)", ErrRefused)
	}
	now := b.now()
	at := time.Unix(0, int64(binary.BigEndian.Uint64(msg[1:9])))
	if d := now.Sub(at); d > b.window || d < -b.window {
		return nil, nil, fmt.Errorf("%w: sent at %s, %v from this node's clock (the window is ±%v)", ErrRefused, at.UTC().Format(time.RFC3339Nano), d.Round(time.Millisecond), b.window)
	}
	var nonce [nonceSize]byte
	copy(nonce[:], msg[9:header])
	if !b.seen.first(nonce, now, 2*b.window) {
		return nil, nil, fmt.Errorf("%w: a replay (its nonce was seen)", ErrRefused)
	}
	body := make([]byte, len(sealed)-header)
	cipher.NewCTR(b.block, nonce[:]).XORKeyStream(body, sealed[header:])
	return body, nonce[:], nil
}

// replyTo is what a reply is bound to: its request's nonce.
func replyTo(nonce []byte) []byte { return append([]byte("reply\x00"), nonce...) }

func (b *Bus) refuse(subject string, err error) {
	b.refused.Add(1)
	now := b.now().UnixNano()
	last := b.logged.Load()
	if now-last >= int64(time.Second) && b.logged.CompareAndSwap(last, now) {
		b.log.Warn("bus: a message refused", "subject", subject, "err", err, "refused_total", b.refused.Load())
	}
}

// Publish seals data for subject.
func (b *Bus) Publish(ctx context.Context, subject string, data []byte) error {
	msg, _ := b.seal([]byte(subject), data)
	return b.inner.Publish(ctx, subject, msg)
}

// Request seals data for subject and opens the reply, which must be sealed
// for this request.
func (b *Bus) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	msg, nonce := b.seal([]byte(subject), data)
	reply, err := b.inner.Request(ctx, subject, msg)
	if err != nil {
		return nil, err
	}
	body, _, err := b.open(replyTo(nonce), reply)
	if err != nil {
		b.refuse(subject, err)
		return nil, fmt.Errorf("bus: the reply on %q: %w", subject, err)
	}
	return body, nil
}

// Subscribe hands h the opened messages of subject; a message that does
// not open is dropped, counted and logged, and a request among them gets
// no reply.
func (b *Bus) Subscribe(subject string, h bus.Handler) (bus.Subscription, error) {
	if h == nil {
		return b.inner.Subscribe(subject, nil) // the inner bus names the mistake
	}
	bound := []byte(subject)
	return b.inner.Subscribe(subject, func(m bus.Msg) {
		body, nonce, err := b.open(bound, m.Data)
		if err != nil {
			b.refuse(m.Subject, err)
			return
		}
		h(bus.NewMsg(m.Subject, body, func(data []byte) error {
			reply, _ := b.seal(replyTo(nonce), data)
			return m.Respond(reply)
		}))
	})
}

// Ready is the inner bus's.
func (b *Bus) Ready() error { return b.inner.Ready() }

// Close closes the inner bus.
func (b *Bus) Close() error { return b.inner.Close() }

// replays remembers the nonces seen, in two generations of at least the
// span each: a message is accepted within ±window of its time, so its
// nonce, if seen before, was seen less than two windows ago, and is in
// one of them.
type replays struct {
	mu        sync.Mutex
	cur, prev map[[nonceSize]byte]struct{}
	since     time.Time // when cur began
}

// first records nonce, and is false if it was there already.
func (r *replays) first(nonce [nonceSize]byte, now time.Time, span time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur == nil || now.Sub(r.since) >= span {
		r.prev, r.cur, r.since = r.cur, map[[nonceSize]byte]struct{}{}, now
	}
	if _, ok := r.cur[nonce]; ok {
		return false
	}
	if _, ok := r.prev[nonce]; ok {
		return false
	}
	r.cur[nonce] = struct{}{}
	return true
}
