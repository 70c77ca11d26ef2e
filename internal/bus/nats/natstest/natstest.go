// Package natstest runs a NATS server inside a test process
// (github.com/nats-io/nats-server/v2, which DESIGN.md keeps out of the
// binary: only tests import this package), on a free port of 127.0.0.1,
// shut down when the test ends. WOLFDEN_TEST_NATS, a URL, points Start at
// a server of one's own instead (a nats-server binary, docs/cluster.md);
// Embedded always runs one in the process, for the tests that shut it
// down under their clients.
package natstest

import (
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is a NATS server for a test.
type Server struct {
	URL  string
	port int
	srv  *server.Server
	sec  *Security
}

// Security is what a Secured server requires of its clients, and the
// files they need.
type Security struct {
	// User and Password: a user's login.
	User, Password string
	// NKeySeed is a file holding the seed of a second user, who logs in
	// by NKey.
	NKeySeed string
	// CA is the PEM file of the authority that signed the server's
	// certificate (for 127.0.0.1) and the client's; Cert and Key, a
	// client certificate, which the server requires.
	CA, Cert, Key string
}

// EnvURL names the variable that points Start at a running server.
const EnvURL = "WOLFDEN_TEST_NATS"

// Start is the server WOLFDEN_TEST_NATS names if it is set (Shutdown and
// Restart must not be called on it), else Embedded.
func Start(t testing.TB) *Server {
	t.Helper()
	if u := os.Getenv(EnvURL); u != "" {
		return &Server{URL: u}
	}
	return Embedded(t)
}

// Embedded starts a server in the process on a free port, shut down when
// t ends.
func Embedded(t testing.TB) *Server {
	t.Helper()
	s := &Server{port: server.RANDOM_PORT}
	s.start(t)
	t.Cleanup(s.Shutdown)
	return s
}

// Secured starts a server in the process that requires TLS, a client
// certificate signed by its CA, and a login (a user with a password, or an
// NKey), with the files of all of them in a temporary folder.
func Secured(t testing.TB) (*Server, *Security) {
	t.Helper()
	s := &Server{port: server.RANDOM_PORT, sec: newSecurity(t)}
	s.start(t)
	t.Cleanup(s.Shutdown)
	return s, s.sec
}

func (s *Server) start(t testing.TB) {
	t.Helper()
	o := &server.Options{
		Host:   "127.0.0.1",
		Port:   s.port,
		NoLog:  true,
		NoSigs: true,
	}
	if s.sec != nil {
		s.sec.configure(t, o)
	}
	srv, err := server.NewServer(o)
	if err != nil {
		t.Fatalf("natstest: %v", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		srv.Shutdown()
		t.Fatalf("natstest: the server on port %d is not accepting connections", s.port)
	}
	s.srv = srv
	s.port = srv.Addr().(*net.TCPAddr).Port
	s.URL = fmt.Sprintf("nats://127.0.0.1:%d", s.port)
}

// Shutdown stops the server (the clients are cut off); a second call does
// nothing.
func (s *Server) Shutdown() {
	if s.srv != nil {
		s.srv.Shutdown()
		s.srv.WaitForShutdown()
		s.srv = nil
	}
}

// Restart starts the server again on the same port, after Shutdown, so
// that its clients reconnect.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	if s.port == 0 {
		t.Fatalf("natstest: %s's server cannot be restarted by the test", EnvURL)
	}
	s.Shutdown()
	s.start(t)
}
