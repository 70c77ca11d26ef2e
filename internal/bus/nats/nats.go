// Package nats is the bus on a NATS server, through nats.go
// (github.com/nats-io/nats.go).
//
// The connection reconnects for ever, but keeps nothing while it is cut
// off: a Publish or a Request then fails at once with bus.ErrDisconnected
// (a frame kept for later would reach a node whose view has moved on, and
// a command kept would be applied after its sender gave up), and a
// Request under way when the connection drops fails then instead of
// waiting out its deadline.
package nats

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"sync"
	"time"

	natsgo "github.com/nats-io/nats.go"

	"github.com/wolfden/wolfden/internal/bus"
)

// Options of Open; the zero value is fine.
type Options struct {
	// Name is the node's name, shown by the NATS server's monitoring.
	Name string
	// Logger receives the connection's changes (cut off, back, a slow
	// subscription); nil: slog.Default().
	Logger *slog.Logger
	// ReconnectWait is the pause between two attempts to reconnect
	// (default 250 ms).
	ReconnectWait time.Duration
	// Security: at most one of User (with Password), CredsFile (a .creds
	// file: a user JWT and its NKey seed) and NKeyFile (a file holding an
	// NKey user's seed); CA, a PEM file of the authorities the server's
	// certificate is checked against (TLS is then required); Cert and Key,
	// a client certificate, for a server that verifies its clients.
	User, Password, CredsFile, NKeyFile string
	CA, Cert, Key                       string
}

// security is o's options of nats.go for authentication and TLS.
func (o Options) security() ([]natsgo.Option, error) {
	var opts []natsgo.Option
	n := 0
	if o.User != "" {
		n++
		opts = append(opts, natsgo.UserInfo(o.User, o.Password))
	} else if o.Password != "" {
		return nil, errors.New("nats: a password without a user")
	}
	if o.CredsFile != "" {
		n++
		if _, err := os.Stat(o.CredsFile); err != nil {
			return nil, fmt.Errorf("nats: the credentials file: %w", err)
		}
		opts = append(opts, natsgo.UserCredentials(o.CredsFile))
	}
	if o.NKeyFile != "" {
		n++
		opt, err := natsgo.NkeyOptionFromSeed(o.NKeyFile)
		if err != nil {
			return nil, fmt.Errorf("nats: the NKey seed file %s: %w", o.NKeyFile, err)
		}
		opts = append(opts, opt)
	}
	if n > 1 {
		return nil, errors.New("nats: one way to log in, not several (a user, a credentials file or an NKey)")
	}
	if (o.Cert == "") != (o.Key == "") {
		return nil, errors.New("nats: a client certificate needs its key, and a key its certificate")
	}
	if o.CA != "" {
		if _, err := os.Stat(o.CA); err != nil {
			return nil, fmt.Errorf("nats: the CA file: %w", err)
		}
		opts = append(opts, natsgo.RootCAs(o.CA))
	}
	if o.Cert != "" {
		if _, err := tls.LoadX509KeyPair(o.Cert, o.Key); err != nil {
			return nil, fmt.Errorf("nats: the client certificate: %w", err)
		}
		opts = append(opts, natsgo.ClientCert(o.Cert, o.Key))
	}
	return opts, nil
}

// Bus is a bus.Bus on one NATS connection.
type Bus struct {
	nc  *natsgo.Conn
	log *slog.Logger

	mu sync.Mutex
	// up is cancelled when the connection drops and replaced when it is
	// back, so that the requests waiting on a lost connection fail.
	up     context.Context
	down   context.CancelCauseFunc
	closed bool
}

var _ bus.Bus = (*Bus)(nil)

// Open connects to the NATS server at rawURL (nats://host:port, or a
// comma-separated list of them). A server that cannot be reached is an
// error at once, naming the address without its password.
func Open(ctx context.Context, rawURL string, o Options) (*Bus, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	wait := o.ReconnectWait
	if wait <= 0 {
		wait = 250 * time.Millisecond
	}
	b := &Bus{log: log}
	b.up, b.down = context.WithCancelCause(context.Background())
	timeout := 5 * time.Second
	if d, ok := ctx.Deadline(); ok {
		timeout = max(time.Until(d), time.Millisecond)
	}
	sec, err := o.security()
	if err != nil {
		return nil, err
	}
	nc, err := natsgo.Connect(rawURL, append(sec,
		natsgo.Name(o.Name),
		natsgo.Timeout(timeout),
		natsgo.MaxReconnects(-1),
		natsgo.ReconnectWait(wait),
		natsgo.ReconnectBufSize(-1), // nothing kept while cut off
		natsgo.DisconnectErrHandler(b.lost),
		natsgo.ReconnectHandler(b.back),
		natsgo.ErrorHandler(b.asyncError),
	)...)
	if err != nil {
		return nil, fmt.Errorf("nats: connect to %s: %w", redact(rawURL), err)
	}
	b.nc = nc
	return b, nil
}

// redact is rawURL without the password of its user, if it parses.
func redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return "the bus URL"
	}
	return u.Redacted()
}

func (b *Bus) lost(_ *natsgo.Conn, err error) {
	b.mu.Lock()
	closed := b.closed
	if closed {
		b.down(bus.ErrClosed) // Close, not the network
	} else {
		b.down(bus.ErrDisconnected)
	}
	b.mu.Unlock()
	if !closed {
		b.log.Warn("bus: cut off from NATS; reconnecting", "err", err)
	}
}

func (b *Bus) back(nc *natsgo.Conn) {
	b.mu.Lock()
	b.up, b.down = context.WithCancelCause(context.Background())
	b.mu.Unlock()
	b.log.Info("bus: connected to NATS again", "server", nc.ConnectedUrlRedacted())
}

func (b *Bus) asyncError(_ *natsgo.Conn, s *natsgo.Subscription, err error) {
	if s != nil {
		b.log.Warn("bus: subscription", "subject", s.Subject, "err", err)
		return
	}
	b.log.Warn("bus", "err", err)
}

// usable says why b cannot carry a message now, and gives the context
// that ends when the connection drops.
func (b *Bus) usable(op, subject string) (context.Context, error) {
	b.mu.Lock()
	closed, up := b.closed, b.up
	b.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("nats: %s %q: %w", op, subject, bus.ErrClosed)
	}
	if err := bus.CheckSubject(subject); err != nil {
		return nil, fmt.Errorf("nats: %s: %w", op, err)
	}
	if up.Err() != nil || !b.nc.IsConnected() {
		return nil, fmt.Errorf("nats: %s %q: %w", op, subject, bus.ErrDisconnected)
	}
	return up, nil
}

// wrap names err as the bus's own errors, so that callers need not know
// nats.go's.
func wrap(op, subject string, err error) error {
	var named error
	switch {
	case errors.Is(err, natsgo.ErrConnectionClosed), errors.Is(err, natsgo.ErrBadSubscription),
		errors.Is(err, natsgo.ErrConnectionDraining):
		named = bus.ErrClosed
	case errors.Is(err, natsgo.ErrNoResponders):
		named = bus.ErrNoResponders
	case errors.Is(err, natsgo.ErrReconnectBufExceeded), errors.Is(err, natsgo.ErrConnectionReconnecting),
		errors.Is(err, bus.ErrDisconnected):
		named = bus.ErrDisconnected
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, natsgo.ErrTimeout):
		named = bus.ErrTimeout
	default:
		return fmt.Errorf("nats: %s %q: %w", op, subject, err)
	}
	if errors.Is(err, named) {
		return fmt.Errorf("nats: %s %q: %w", op, subject, err)
	}
	return fmt.Errorf("nats: %s %q: %w (%w)", op, subject, named, err)
}

// Publish sends data to subject's subscribers.
func (b *Bus) Publish(ctx context.Context, subject string, data []byte) error {
	if _, err := b.usable("publish", subject); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := b.nc.Publish(subject, data); err != nil {
		return wrap("publish", subject, err)
	}
	return nil
}

// Request sends data to subject and waits for the first reply, until ctx
// ends or the connection drops.
func (b *Bus) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	up, err := b.usable("request", subject)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(up, func() { cancel(context.Cause(up)) })
	defer stop()
	m, err := b.nc.RequestWithContext(rctx, subject, data)
	if err != nil {
		if cause := context.Cause(rctx); errors.Is(cause, bus.ErrDisconnected) || errors.Is(cause, bus.ErrClosed) {
			err = cause
		}
		return nil, wrap("request", subject, err)
	}
	return m.Data, nil
}

// Subscribe delivers subject's messages to h, in order, from a goroutine
// of the subscription's.
func (b *Bus) Subscribe(subject string, h bus.Handler) (bus.Subscription, error) {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("nats: subscribe %q: %w", subject, bus.ErrClosed)
	}
	if err := bus.CheckSubject(subject); err != nil {
		return nil, fmt.Errorf("nats: subscribe: %w", err)
	}
	if h == nil {
		return nil, errors.New("nats: subscribe: no handler")
	}
	s, err := b.nc.Subscribe(subject, func(m *natsgo.Msg) {
		var respond func([]byte) error
		if m.Reply != "" {
			respond = func(data []byte) error {
				if err := m.Respond(data); err != nil {
					return wrap("respond", m.Subject, err)
				}
				return nil
			}
		}
		h(bus.NewMsg(m.Subject, m.Data, respond))
	})
	if err != nil {
		return nil, wrap("subscribe", subject, err)
	}
	if err := s.SetPendingLimits(bus.PendingLimit, 64<<20); err != nil {
		s.Unsubscribe()
		return nil, wrap("subscribe", subject, err)
	}
	// Once Subscribe returns, the server knows of the subscription, so
	// that what another node publishes next reaches it.
	if err := b.flush(); err != nil {
		s.Unsubscribe()
		return nil, wrap("subscribe", subject, err)
	}
	return sub{b, s}, nil
}

// flushTimeout bounds the wait for the server to confirm a change of
// subscriptions.
const flushTimeout = 5 * time.Second

func (b *Bus) flush() error {
	if !b.nc.IsConnected() {
		return bus.ErrDisconnected
	}
	return b.nc.FlushTimeout(flushTimeout)
}

type sub struct {
	b *Bus
	s *natsgo.Subscription
}

// Unsubscribe returns once the server has dropped the subscription (or the
// connection is cut off, when the server drops it anyway).
func (s sub) Unsubscribe() error {
	if err := s.s.Unsubscribe(); err != nil {
		return wrap("unsubscribe", s.s.Subject, err)
	}
	if err := s.b.flush(); err != nil && !errors.Is(err, bus.ErrDisconnected) {
		return wrap("unsubscribe", s.s.Subject, err)
	}
	return nil
}

func (s sub) Dropped() int {
	n, _ := s.s.Dropped() // an error: unsubscribed, when the count is moot
	return n
}

// Ready is nil while the connection is up.
func (b *Bus) Ready() error {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return fmt.Errorf("nats: %w", bus.ErrClosed)
	}
	if !b.nc.IsConnected() {
		return fmt.Errorf("nats: %w (%s)", bus.ErrDisconnected, b.nc.Status())
	}
	return nil
}

// Close closes the connection; the subscriptions end with it.
func (b *Bus) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return fmt.Errorf("nats: %w", bus.ErrClosed)
	}
	b.closed = true
	b.mu.Unlock()
	b.nc.Close()
	return nil
}
