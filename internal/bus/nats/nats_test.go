package nats

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/bus"
	"github.com/wolfden/wolfden/internal/bus/bustest"
	"github.com/wolfden/wolfden/internal/bus/nats/natstest"
)

func connect(t testing.TB, url string) *Bus {
	t.Helper()
	b, err := Open(context.Background(), url, Options{Name: t.Name(), ReconnectWait: 20 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func adapter() bustest.Adapter {
	return bustest.Adapter{NewNetwork: func(t testing.TB) func(testing.TB) bus.Bus {
		srv := natstest.Start(t)
		return func(t testing.TB) bus.Bus { return connect(t, srv.URL) }
	}}
}

func TestContract(t *testing.T) { bustest.Run(t, adapter()) }

func BenchmarkRequestReply(b *testing.B) { bustest.BenchmarkRequestReply(b, adapter()) }

// waitReady waits until b's readiness is want (nil or not).
func waitReady(t *testing.T, b *Bus, up bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for (b.Ready() == nil) != up {
		if time.Now().After(deadline) {
			t.Fatalf("Ready is still %v", b.Ready())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestCutOffClientGetsErrorsNotHangs: with the NATS server shut down under
// them, a node's publish, request and subscribe fail with
// bus.ErrDisconnected (nothing is kept to be sent later), a request
// already waiting fails without waiting out its deadline, Ready says so;
// and once the server is back the node reconnects and carries messages
// again.
func TestCutOffClientGetsErrorsNotHangs(t *testing.T) {
	srv := natstest.Embedded(t)
	owner, node := connect(t, srv.URL), connect(t, srv.URL)
	cmd, _ := bus.Commands("r1")
	all, _ := bus.Conn("r1", "c1")
	heard := make(chan struct{}, 1)
	if _, err := owner.Subscribe(cmd, func(bus.Msg) { heard <- struct{}{} }); err != nil { // never answers
		t.Fatal(err)
	}
	// A request in flight when the server goes: it is failed by the drop,
	// not by its deadline, which is far.
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	inFlight := make(chan error, 1)
	go func() {
		_, err := node.Request(ctx, cmd, []byte("x"))
		inFlight <- err
	}()
	<-heard
	srv.Shutdown()
	if err := <-inFlight; !errors.Is(err, bus.ErrDisconnected) {
		t.Fatalf("a request in flight when the server went: %v, want bus.ErrDisconnected", err)
	}
	waitReady(t, node, false)
	if err := node.Ready(); !errors.Is(err, bus.ErrDisconnected) {
		t.Fatalf("Ready: %v", err)
	}
	if err := node.Publish(ctx, all, []byte("x")); !errors.Is(err, bus.ErrDisconnected) {
		t.Errorf("publish while cut off: %v", err)
	}
	if _, err := node.Request(ctx, cmd, []byte("x")); !errors.Is(err, bus.ErrDisconnected) {
		t.Errorf("request while cut off: %v", err)
	}
	if _, err := node.Subscribe(all, func(bus.Msg) {}); !errors.Is(err, bus.ErrDisconnected) {
		t.Errorf("subscribe while cut off: %v", err)
	}

	srv.Restart(t)
	waitReady(t, node, true)
	waitReady(t, owner, true)
	// The owner's subscription came back with its connection.
	echo := make(chan bus.Msg, 1)
	if _, err := owner.Subscribe(all, func(m bus.Msg) { echo <- m }); err != nil {
		t.Fatal(err)
	}
	if err := node.Publish(ctx, all, []byte("again")); err != nil {
		t.Fatal(err)
	}
	if m := <-echo; string(m.Data) != "again" {
		t.Fatalf("after the reconnection: %q", m.Data)
	}
}

// TestAnUnreachableServerIsSaidSoAtOpen: a URL that reaches no server is
// refused at once, naming it without its password.
func TestAnUnreachableServerIsSaidSoAtOpen(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := Open(ctx, "nats://wolfden:secret@127.0.0.1:1", Options{})
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("got %v", err)
	}
}

// TestASecuredServerTakesOnlyItsClients: a NATS server that requires TLS
// with a client certificate and a login is reached with the CA, the
// certificate and a user's password or an NKey, and the messages go
// through; without the CA, the certificate or the login, or with a wrong
// password, Open fails at once, saying why.
func TestASecuredServerTakesOnlyItsClients(t *testing.T) {
	srv, sec := natstest.Secured(t)
	tlsOK := Options{CA: sec.CA, Cert: sec.Cert, Key: sec.Key}
	with := func(o Options, f func(*Options)) Options { f(&o); return o }
	for _, tc := range []struct {
		name string
		o    Options
		err  string // "" if it connects
	}{
		{"user and password", with(tlsOK, func(o *Options) { o.User, o.Password = sec.User, sec.Password }), ""},
		{"NKey", with(tlsOK, func(o *Options) { o.NKeyFile = sec.NKeySeed }), ""},
		{"a wrong password", with(tlsOK, func(o *Options) { o.User, o.Password = sec.User, "wrong" }), "authorization violation"},
		{"no login", tlsOK, "authorization violation"},
		{"no CA", Options{User: sec.User, Password: sec.Password, Cert: sec.Cert, Key: sec.Key}, "certificate"},
		{"no client certificate", Options{User: sec.User, Password: sec.Password, CA: sec.CA}, "connect to"},
		{"a certificate without its key", with(tlsOK, func(o *Options) { o.Key = "" }), "needs its key"},
		{"a CA file that is not there", with(tlsOK, func(o *Options) { o.CA = sec.CA + ".gone" }), "the ca file"},
		{"two logins", with(tlsOK, func(o *Options) { o.User, o.Password, o.NKeyFile = sec.User, sec.Password, sec.NKeySeed }), "not several"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Logger = slog.New(slog.DiscardHandler)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			b, err := Open(ctx, srv.URL, tc.o)
			if tc.err != "" {
				if err == nil {
					b.Close()
					t.Fatalf("connected; want %q", tc.err)
				}
				if !strings.Contains(strings.ToLower(err.Error()), tc.err) {
					t.Fatalf("error %q, want it to say %q", err, tc.err)
				}
				if strings.Contains(err.Error(), sec.Password) {
					t.Fatalf("the error shows the password: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			got := make(chan string, 1)
			if _, err := b.Subscribe("wolfden.room.r1.cmd", func(m bus.Msg) { got <- string(m.Data) }); err != nil {
				t.Fatal(err)
			}
			if err := b.Publish(ctx, "wolfden.room.r1.cmd", []byte("hi")); err != nil {
				t.Fatal(err)
			}
			if m := <-got; m != "hi" {
				t.Fatalf("got %q", m)
			}
		})
	}
}
