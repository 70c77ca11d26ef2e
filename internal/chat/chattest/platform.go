// Package chattest is an in-memory chat.Platform for tests: it records
// every message the judge sends and delivers the lines a test makes its
// users type, so a test plays a group's game without a chat service.
package chattest

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/chat"
)

// Sent is one message the judge sent, numbered in the order sent.
type Sent struct {
	N   int
	To  chat.Target
	Msg chat.Message
	At  time.Time
}

// Platform is the fake. Its zero value is not usable; call New.
type Platform struct {
	name string
	in   chan chat.Incoming

	mu      sync.Mutex
	sent    []Sent
	changed chan struct{} // closed and made anew at each message
	running int           // Run calls not returned
	fail    error         // Send fails with it while set
}

// New makes a platform named name.
func New(name string) *Platform {
	return &Platform{name: name, in: make(chan chat.Incoming, 4096), changed: make(chan struct{})}
}

func (p *Platform) Name() string { return p.name }

// Send records the message.
func (p *Platform) Send(ctx context.Context, to chat.Target, m chat.Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail != nil {
		return p.fail
	}
	p.sent = append(p.sent, Sent{N: len(p.sent) + 1, To: to, Msg: m, At: time.Now()})
	close(p.changed)
	p.changed = make(chan struct{})
	return nil
}

// FailSends makes Send fail with err until called with nil.
func (p *Platform) FailSends(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fail = err
}

// Run delivers what the test's users type until ctx ends.
func (p *Platform) Run(ctx context.Context, in chan<- chat.Incoming) error {
	p.mu.Lock()
	p.running++
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.running--
		p.mu.Unlock()
	}()
	for {
		select {
		case m := <-p.in:
			select {
			case in <- m:
			case <-ctx.Done():
				return ctx.Err()
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Running reports how many Run calls are connected.
func (p *Platform) Running() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.running
}

// Say makes a user type a line, in a group (group set) or privately.
func (p *Platform) Say(group, user, text string) {
	p.in <- chat.Incoming{Group: group, User: user, Name: "u" + user, Text: text}
}

// Sent is every message sent so far.
func (p *Platform) Sent() []Sent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Sent(nil), p.sent...)
}

// To is what was sent to one target, in order.
func (p *Platform) To(to chat.Target) []Sent {
	var out []Sent
	for _, s := range p.Sent() {
		if s.To == to {
			out = append(out, s)
		}
	}
	return out
}

// Wait waits until cond holds of the messages sent, or ctx ends (false).
func (p *Platform) Wait(ctx context.Context, cond func([]Sent) bool) bool {
	for {
		p.mu.Lock()
		ok, ch := cond(p.sent), p.changed
		p.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// Has reports whether some message to to holds text.
func Has(sent []Sent, to chat.Target, text string) bool {
	for _, s := range sent {
		if s.To == to && strings.Contains(s.Msg.Text, text) {
			return true
		}
	}
	return false
}
