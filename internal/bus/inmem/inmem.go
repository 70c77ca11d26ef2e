// Package inmem is the bus inside one process: a Hub stands for the NATS
// server, and each Connect for one node's connection to it, so that tests
// of several nodes run in one process with the semantics of the NATS
// adapter (exact subjects, ordered deliveries per subscription, a pending
// limit past which messages are dropped and counted, no responders known
// at once).
package inmem

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/wolfden/wolfden/internal/bus"
)

// Hub is the shared medium; its zero value is not usable: New.
type Hub struct {
	mu   sync.Mutex
	subs map[string][]*sub
}

// New makes an empty hub.
func New() *Hub { return &Hub{subs: map[string][]*sub{}} }

// Connect returns a new connection to h, a bus.Bus of its own.
func (h *Hub) Connect() *Conn {
	return &Conn{hub: h, subs: map[*sub]bool{}, done: make(chan struct{})}
}

// Conn is one node's connection to a Hub.
type Conn struct {
	hub    *Hub
	mu     sync.Mutex
	closed bool
	subs   map[*sub]bool
	done   chan struct{} // closed by Close, failing the requests waiting
}

var _ bus.Bus = (*Conn)(nil)

func (c *Conn) check(op, subject string) error {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return fmt.Errorf("inmem: %s %q: %w", op, subject, bus.ErrClosed)
	}
	if err := bus.CheckSubject(subject); err != nil {
		return fmt.Errorf("inmem: %s: %w", op, err)
	}
	return nil
}

// Publish hands a copy of data to every subscription of subject.
func (c *Conn) Publish(ctx context.Context, subject string, data []byte) error {
	if err := c.check("publish", subject); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.hub.deliver(subject, data, nil)
	return nil
}

// deliver queues a message on each subscription of subject and says how
// many there were.
func (h *Hub) deliver(subject string, data []byte, respond func([]byte) error) int {
	data = slices.Clone(data) // the sender may reuse its buffer
	h.mu.Lock()
	subs := h.subs[subject]
	for _, s := range subs {
		s.push(bus.NewMsg(subject, data, respond))
	}
	h.mu.Unlock()
	return len(subs)
}

// Request delivers data to the subscriptions of subject and waits for the
// first reply.
func (c *Conn) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	if err := c.check("request", subject); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	reply := make(chan []byte, 1)
	respond := func(b []byte) error {
		select {
		case reply <- slices.Clone(b):
		default: // answered already: the requester took the first
		}
		return nil
	}
	if c.hub.deliver(subject, data, respond) == 0 {
		return nil, fmt.Errorf("inmem: request %q: %w", subject, bus.ErrNoResponders)
	}
	select {
	case b := <-reply:
		return b, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("inmem: request %q: %w (%w)", subject, bus.ErrTimeout, ctx.Err())
	case <-c.done:
		return nil, fmt.Errorf("inmem: request %q: %w", subject, bus.ErrClosed)
	}
}

// Subscribe starts delivering subject's messages to h.
func (c *Conn) Subscribe(subject string, h bus.Handler) (bus.Subscription, error) {
	if err := bus.CheckSubject(subject); err != nil {
		return nil, fmt.Errorf("inmem: subscribe: %w", err)
	}
	if h == nil {
		return nil, errors.New("inmem: subscribe: no handler")
	}
	s := &sub{conn: c, subject: subject, h: h, wake: make(chan struct{}, 1), done: make(chan struct{})}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, fmt.Errorf("inmem: subscribe %q: %w", subject, bus.ErrClosed)
	}
	c.subs[s] = true
	// On the hub before c's lock is let go, so that a Close under way
	// finds it there to take off.
	c.hub.mu.Lock()
	c.hub.subs[subject] = append(c.hub.subs[subject], s)
	c.hub.mu.Unlock()
	c.mu.Unlock()
	go s.run()
	return s, nil
}

// Ready is nil until Close.
func (c *Conn) Ready() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("inmem: %w", bus.ErrClosed)
	}
	return nil
}

// Close ends c's subscriptions.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return fmt.Errorf("inmem: %w", bus.ErrClosed)
	}
	c.closed = true
	close(c.done)
	subs := c.subs
	c.subs = nil
	c.mu.Unlock()
	for s := range subs {
		s.stop()
	}
	return nil
}

// sub is one subscription: a queue and the goroutine that drains it into
// the handler, so that a publisher never waits for a handler.
type sub struct {
	conn    *Conn
	subject string
	h       bus.Handler

	mu      sync.Mutex
	queue   []bus.Msg
	dropped int
	stopped bool
	wake    chan struct{}
	done    chan struct{}
}

// push queues m; the hub's lock is held, which orders the messages of
// every publisher.
func (s *sub) push(m bus.Msg) {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	if len(s.queue) >= bus.PendingLimit {
		s.dropped++
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, m)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *sub) run() {
	for {
		select {
		case <-s.done:
			return
		case <-s.wake:
		}
		for {
			s.mu.Lock()
			if s.stopped || len(s.queue) == 0 {
				s.mu.Unlock()
				break
			}
			m := s.queue[0]
			s.queue[0] = bus.Msg{}
			s.queue = s.queue[1:]
			s.mu.Unlock()
			s.h(m)
		}
	}
}

// stop takes s off the hub and ends its goroutine; it says whether s was
// still running.
func (s *sub) stop() bool {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return false
	}
	s.stopped = true
	s.queue = nil
	s.mu.Unlock()
	close(s.done)
	h := s.conn.hub
	h.mu.Lock()
	subs := slices.DeleteFunc(slices.Clone(h.subs[s.subject]), func(o *sub) bool { return o == s })
	if len(subs) == 0 {
		delete(h.subs, s.subject)
	} else {
		h.subs[s.subject] = subs
	}
	h.mu.Unlock()
	return true
}

func (s *sub) Unsubscribe() error {
	if !s.stop() {
		return fmt.Errorf("inmem: unsubscribe %q: %w", s.subject, bus.ErrClosed)
	}
	s.conn.mu.Lock()
	delete(s.conn.subs, s)
	s.conn.mu.Unlock()
	return nil
}

func (s *sub) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}
