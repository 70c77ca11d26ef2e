// Package pgtest starts a throwaway PostgreSQL server for tests: initdb
// and pg_ctl (Debian's postgresql package) on a free port of 127.0.0.1,
// its data in a temporary folder, stopped and removed when the test ends.
//
// PostgreSQL not being installed fails the test (CI installs it, so a
// skip would hide a broken setup); WOLFDEN_TEST_POSTGRES, a URL, points
// the tests at a server of one's own instead, where each test gets a
// database of its own, dropped at the end.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL names the variable that points the tests at a running server.
const EnvURL = "WOLFDEN_TEST_POSTGRES"

// Server is a PostgreSQL server for tests.
type Server struct {
	// URL reaches the server's maintenance database, postgres, as a
	// superuser.
	URL string
	dbs atomic.Int64
	// ctl runs pg_ctl on the server's cluster with its start options;
	// nil for a server the test did not start.
	ctl func(args ...string) error
}

// Stop stops the server at once, as a crash would; Restart starts it
// again on the same port and data. (Tests of what a node does while its
// database is gone.)
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if s.ctl == nil {
		t.Fatalf("pgtest: %s names a server this test did not start: it cannot stop it", EnvURL)
	}
	if err := s.ctl("-m", "immediate", "-w", "stop"); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
}

// Restart starts a server that Stop stopped.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	if s.ctl == nil {
		t.Fatalf("pgtest: %s names a server this test did not start: it cannot restart it", EnvURL)
	}
	if err := s.ctl("-w", "-t", "60", "start"); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
}

// Start starts a server that is stopped, its data removed, when t ends:
// the one WOLFDEN_TEST_POSTGRES names if it is set, else a new cluster.
func Start(t testing.TB) *Server {
	t.Helper()
	if u := os.Getenv(EnvURL); u != "" {
		return &Server{URL: u}
	}
	bin := binDir(t)
	dir, err := os.MkdirTemp("", "wolfden-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// initdb and pg_ctl refuse to run as root: they run as postgres, who
	// owns the folder (under /tmp, which every user may enter, unlike the
	// test's own temporary folders).
	var as []string
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("pgtest: running as root, PostgreSQL must run as the user postgres, whom Debian's postgresql package creates: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		as = []string{"runuser", "-u", "postgres", "--"}
	}
	run := func(name string, args ...string) error {
		cmd := append(slices.Clone(as), append([]string{filepath.Join(bin, name)}, args...)...)
		c := exec.Command(cmd[0], cmd[1:]...)
		c.Dir = dir
		out, err := c.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %v\n%s", name, err, out)
		}
		return nil
	}
	data := filepath.Join(dir, "data")
	// --no-sync: the cluster's first files need not reach the disk; the
	// commits of the tests do as on any server (fsync stays on).
	if err := run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	port := freePort(t)
	logFile := filepath.Join(dir, "server.log")
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -c unix_socket_directories=%s", port, dir)
	if err := run("pg_ctl", "-D", data, "-o", opts, "-l", logFile, "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(logFile)
		t.Fatalf("pgtest: %v\nserver log:\n%s", err, log)
	}
	ctl := func(args ...string) error {
		return run("pg_ctl", append([]string{"-D", data, "-o", opts, "-l", logFile}, args...)...)
	}
	t.Cleanup(func() {
		// Stopped already if the test stopped it and did not restart it.
		_ = ctl("-m", "immediate", "-w", "stop")
	})
	return &Server{URL: fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port), ctl: ctl}
}

// binDir finds initdb and pg_ctl: on PATH, else in Debian's
// /usr/lib/postgresql/VERSION/bin, the newest version first.
func binDir(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p)
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d
		}
	}
	t.Fatalf("pgtest: PostgreSQL is not installed (no initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin): " +
		"the PostgreSQL store's tests start a server of their own; install Debian's package: apt-get install -y postgresql " +
		"(or set " + EnvURL + " to a server's URL)")
	return ""
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// NewDB creates a new, empty database on s, dropped when t ends, and
// returns its URL.
func (s *Server) NewDB(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("wolfden_test_%d_%d", os.Getpid(), s.dbs.Add(1))
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+name); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, s.URL)
		if err != nil {
			return // the server has gone: its data with it
		}
		defer conn.Close(ctx)
		conn.Exec(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
	})
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
