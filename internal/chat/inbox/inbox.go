// Package inbox is the bounded queue between a chat platform's reader and
// the chat core. A platform's reader must never block on the core: the
// core may be waiting, inside Send, for a reply that only that reader can
// read (OneBot answers actions on the connection events arrive on). So
// the reader offers what users send to an Inbox, which drops what does not
// fit, and Run forwards it to the core at the core's pace: a flood costs
// at most Cap messages of at most MaxText bytes.
package inbox

import (
	"context"
	"log/slog"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/wolfden/wolfden/internal/chat"
)

const (
	// Cap is how many messages wait for the core at most.
	Cap = 256
	// MaxText bounds one message's text, in bytes: no command is longer,
	// and a longer text is cut at a character's boundary.
	MaxText = 512
)

// An Inbox holds what users sent until the core reads it.
type Inbox struct {
	q       chan chat.Incoming
	log     *slog.Logger
	name    string
	dropped atomic.Int64
}

// New is an empty inbox; log (nil: slog.Default) hears of drops, named by
// the platform's name and never with the text.
func New(name string, log *slog.Logger) *Inbox {
	if log == nil {
		log = slog.Default()
	}
	return &Inbox{q: make(chan chat.Incoming, Cap), log: log, name: name}
}

// Offer queues m without blocking; it reports false when m was dropped
// because Cap messages already wait, or because it holds no text.
func (b *Inbox) Offer(m chat.Incoming) bool {
	m.Text = strings.TrimSpace(Cut(m.Text, MaxText))
	if m.Text == "" {
		return false
	}
	m.Name = Cut(m.Name, 64)
	select {
	case b.q <- m:
		return true
	default:
		// Logged on the first drop and then every Cap-th: a flood fills
		// no disk either.
		if n := b.dropped.Add(1); n%Cap == 1 {
			b.log.Warn("chat: inbox full, messages dropped", "platform", b.name, "dropped", n)
		}
		return false
	}
}

// Dropped is how many messages were dropped since New.
func (b *Inbox) Dropped() int64 { return b.dropped.Load() }

// Run forwards queued messages to out until ctx ends.
func (b *Inbox) Run(ctx context.Context, out chan<- chat.Incoming) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-b.q:
			select {
			case out <- m:
			case <-ctx.Done():
				return
			}
		}
	}
}

// Cut is s cut to at most n bytes at a character's boundary.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
