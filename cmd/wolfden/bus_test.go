package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/bus/nats/natstest"
	"github.com/wolfden/wolfden/internal/store/postgres/pgtest"
)

// readyz is the operator listener's /readyz: its status and body.
func readyz(t *testing.T, ops string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + ops + "/readyz")
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// waitReadyz waits until /readyz answers status, and returns its body.
func waitReadyz(t *testing.T, ops string, status int) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, body := readyz(t, ops)
		if got == status {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz: %d %q, want %d", got, body, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeReportsTheBusOnReadyz: a cluster's node (`serve --db
// postgres://… --bus nats://…`) connects to NATS and /readyz follows the
// connection and the database: ready, 503 naming the bus while the NATS
// server is down, 503 naming PostgreSQL while it is down, ready again once
// each is back.
func TestServeReportsTheBusOnReadyz(t *testing.T) {
	ns := natstest.Embedded(t)
	pg := pgtest.Start(t)
	db := pg.NewDB(t)
	addr, ops := freeAddr(t), freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", addr, "--metrics-addr", ops, "--db", db, "--drain", "0s", "--bus", ns.URL, "--node", "n1",
			"--cluster-secret-file", clusterSecretFile(t)},
			strings.NewReader(""), io.Discard, io.Discard)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	if body := waitReadyz(t, ops, http.StatusOK); body != "ready\n" {
		t.Fatalf("/readyz: %q", body)
	}
	ns.Shutdown()
	if body := waitReadyz(t, ops, http.StatusServiceUnavailable); !strings.Contains(body, "bus: not connected") {
		t.Fatalf("/readyz with NATS down: %q", body)
	}
	ns.Restart(t)
	waitReadyz(t, ops, http.StatusOK)
	pg.Stop(t)
	if body := waitReadyz(t, ops, http.StatusServiceUnavailable); !strings.Contains(body, "postgres") {
		t.Fatalf("/readyz with PostgreSQL down: %q", body)
	}
	pg.Restart(t)
	waitReadyz(t, ops, http.StatusOK)
}

// clusterSecretFile is a file holding a cluster secret, for the nodes of
// a test.
func clusterSecretFile(t testing.TB) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "cluster-secret")
	if err := os.WriteFile(f, []byte(testClusterSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// testClusterSecret is the secret of the tests' clusters.
const testClusterSecret = "wolfden-test-cluster-secret-0123456789abcdef"

// TestServeRefusesABadBus: a --bus that is not a NATS URL, or reaches no
// server, or comes without the PostgreSQL database the nodes share, and
// cluster flags without --bus, stop serve at start-up, naming the flag and
// not the password.
func TestServeRefusesABadBus(t *testing.T) {
	pg := "postgres://wolfden@127.0.0.1:1/wolfden" // never reached: the flags are refused first
	dir := t.TempDir()
	secret, short := clusterSecretFile(t), dir+"/short"
	if err := os.WriteFile(short, []byte("0123456789abcdef0123456789abcde\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WOLFDEN_BUS_PASSWORD", "") // restored after the test
	type tc struct {
		args     []string
		want     string
		password string
	}
	for _, c := range []tc{
		{[]string{"--db", pg, "--bus", "http://user:hunter2@127.0.0.1:4222"}, "--bus takes a NATS URL", ""},
		{[]string{"--db", pg, "--bus", "nats://user:hunter2@127.0.0.1:1", "--cluster-secret-file", secret}, "--bus: nats: connect to nats://user:xxxxx@127.0.0.1:1", ""},
		{[]string{"--db", pg, "--bus", "nats://127.0.0.1:1"}, "a cluster node needs the cluster's secret", ""},
		{[]string{"--db", pg, "--bus", "nats://127.0.0.1:1", "--cluster-secret-file", short}, "the cluster's secret is 31 bytes; it needs 32 or more", ""},
		{[]string{"--db", pg, "--bus", "nats://127.0.0.1:1", "--cluster-secret-file", dir + "/none"}, "--cluster-secret-file: open", ""},
		{[]string{"--db", pg, "--bus", "nats://127.0.0.1:1", "--cluster-secret-file", secret, "--bus-tls-cert", secret}, "--bus-tls-cert and --bus-tls-key go together", ""},
		{[]string{"--db", pg, "--bus", "nats://127.0.0.1:1", "--cluster-secret-file", secret, "--bus-tls-ca", dir + "/none"}, "--bus-tls-ca: stat", ""},
		{[]string{"--db", pg, "--bus", "nats://127.0.0.1:1", "--cluster-secret-file", secret, "--bus-creds", dir + "/none"}, "--bus-creds: stat", ""},
		{[]string{"--db", pg, "--bus", "nats://127.0.0.1:1", "--cluster-secret-file", secret}, "WOLFDEN_BUS_PASSWORD without a user", "hunter2"},
		{[]string{"--db", pg, "--bus-creds", secret}, "--bus-creds is a cluster node's: give --bus", ""},
		{[]string{"--db", t.TempDir() + "/bus.db", "--cluster-secret-file", secret}, "--bus needs --db postgres://", ""},
		{[]string{"--db", t.TempDir() + "/bus.db", "--bus", "nats://127.0.0.1:1"}, "--bus needs --db postgres://", ""},
		{[]string{"--db", pg, "--node", "n1"}, "give --bus nats://… too", ""},
		{[]string{"--db", pg, "--bus", "nats://127.0.0.1:1", "--lease-ttl", "10ms"}, "--lease-ttl must be 1s or more", ""},
		{[]string{"--db", pg, "--bus", "nats://127.0.0.1:1", "--node", "a b"}, "has no spaces", ""},
	} {
		os.Setenv("WOLFDEN_BUS_PASSWORD", c.password)
		err := run(context.Background(), append([]string{"serve", "--addr", freeAddr(t)}, c.args...),
			strings.NewReader(""), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("serve %v: %v, want %q", c.args, err, c.want)
		}
	}
}

// TestServeLogsIntoASecuredBus: a node reaches a NATS server that requires
// TLS with a client certificate and a login, given the CA, the certificate
// and its key, the user and (from the environment only) the password, and
// is ready; with a wrong password it stops at start-up, saying so without
// showing the password.
func TestServeLogsIntoASecuredBus(t *testing.T) {
	ns, sec := natstest.Secured(t)
	db := pgtest.Start(t).NewDB(t)
	secret := clusterSecretFile(t)
	args := func(addr, ops string) []string {
		return []string{"serve", "--addr", addr, "--metrics-addr", ops, "--db", db, "--drain", "0s", "--bus", ns.URL, "--node", "n1",
			"--cluster-secret-file", secret, "--bus-user", sec.User,
			"--bus-tls-ca", sec.CA, "--bus-tls-cert", sec.Cert, "--bus-tls-key", sec.Key}
	}
	t.Setenv("WOLFDEN_BUS_PASSWORD", "not-the-password")
	err := run(context.Background(), args(freeAddr(t), freeAddr(t)), strings.NewReader(""), io.Discard, io.Discard)
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "authorization violation") || strings.Contains(err.Error(), "not-the-password") {
		t.Fatalf("serve with a wrong password: %v", err)
	}
	t.Setenv("WOLFDEN_BUS_PASSWORD", sec.Password)
	addr, ops := freeAddr(t), freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, args(addr, ops), strings.NewReader(""), io.Discard, io.Discard) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	if body := waitReadyz(t, ops, http.StatusOK); body != "ready\n" {
		t.Fatalf("/readyz: %q", body)
	}
}
