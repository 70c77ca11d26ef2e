package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
)

// The crash tests run the real server in a child process: the test binary
// itself, re-executed with WOLFDEN_TEST_SERVE set, runs `wolfden serve`.
func TestMain(m *testing.M) {
	if args := os.Getenv("WOLFDEN_TEST_SERVE"); args != "" {
		ctx, stop := signalContext()
		err := run(ctx, strings.Fields(args), os.Stdin, os.Stdout, os.Stderr)
		stop()
		if err != nil {
			fmt.Fprintln(os.Stderr, "wolfden:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	removePebble()
	os.Exit(code)
}

// child is a server process.
type child struct {
	cmd  *exec.Cmd
	base string
	logs *strings.Builder
}

// handedOut are the addresses freeAddr gave: a port closed again may be
// the kernel's next pick too, and two nodes of a cluster started together
// were once given the same (one's --addr, another's --metrics-addr).
var handedOut = struct {
	sync.Mutex
	addrs map[string]bool
}{addrs: map[string]bool{}}

// freeAddr is a loopback address free now and not given before.
func freeAddr(t *testing.T) string {
	t.Helper()
	handedOut.Lock()
	defer handedOut.Unlock()
	for {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		if !handedOut.addrs[addr] {
			handedOut.addrs[addr] = true
			return addr
		}
	}
}

// startServer runs `wolfden serve` on addr and db and waits until it serves.
func startServer(t *testing.T, addr, db string, extra ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "WOLFDEN_TEST_SERVE="+strings.Join(append([]string{"serve", "--addr", addr, "--db", db, "--join-rate", "0"}, extra...), " "))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs := &strings.Builder{}
	cmd.Stderr = &lockedWriter{w: logs}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(line, "serving on") {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the server did not start: %q %v\n%s", line, err, logs.String())
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return &child{cmd: cmd, base: "http://" + addr, logs: logs}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (c *child) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.cmd.Wait()
}

type seatToken struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

// humanTable makes a room whose every seat is a test client, and starts it.
func humanTable(t *testing.T, api *client.API, body map[string]any) (string, []seatToken) {
	t.Helper()
	ctx := context.Background()
	var c client.Created
	if err := api.Do(ctx, "POST", "/api/rooms", "", body, &c); err != nil {
		t.Fatal(err)
	}
	var seats []seatToken
	for i := 0; i < c.Room.Players; i++ {
		var s seatToken
		if err := api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/join", "", map[string]any{"nickname": fmt.Sprint("p", i+1)}, &s); err != nil {
			t.Fatal(err)
		}
		seats = append(seats, s)
	}
	if err := api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	return c.Room.ID, seats
}

// player plays a seat with random choices through server crashes: when
// its connection dies it dials again with the numbers it holds. It checks
// that its event and chat numbers never skip or repeat.
type player struct {
	seat   seatToken
	events []string
	chats  int
	winner string
}

func (p *player) play(ctx context.Context, base, room string, progress chan<- int) error {
	r := rand.New(rand.NewPCG(uint64(p.seat.Seat), 9))
	for ctx.Err() == nil {
		conn, err := client.Dial(ctx, base, room, p.seat.Token, len(p.events), p.chats)
		if err != nil {
			time.Sleep(20 * time.Millisecond) // the server is restarting
			continue
		}
		var bad error
		st, err := conn.PlayRandom(ctx, r, func(f client.Frame) bool {
			switch f.Type {
			case "event":
				if f.Seq != len(p.events)+1 {
					bad = fmt.Errorf("seat %d: event %d after %d", p.seat.Seat, f.Seq, len(p.events))
					return true
				}
				p.events = append(p.events, string(f.Raw))
				if progress != nil {
					select {
					case progress <- len(p.events):
					default:
					}
				}
			case "chat":
				p.chats++
			}
			return false
		})
		conn.Kill()
		if bad != nil {
			return bad
		}
		if err == nil {
			p.winner = st.Winner
			return nil
		}
		if !errors.Is(err, client.ErrClosed) {
			return err
		}
	}
	return ctx.Err()
}

// startPlayers has every seat played by a random client; seat 1 reports
// its event count on progress, and each player its end on errs.
func startPlayers(ctx context.Context, base, room string, seats []seatToken) ([]*player, <-chan int, <-chan error) {
	players := make([]*player, len(seats))
	progress := make(chan int, 1)
	errs := make(chan error, len(seats))
	for i, s := range seats {
		players[i] = &player{seat: s}
		var pr chan<- int
		if i == 0 {
			pr = progress
		}
		go func() { errs <- players[i].play(ctx, base, room, pr) }()
	}
	return players, progress, errs
}

// TestKilledServerResumesEveryGame kills the server with SIGKILL twice in
// the middle of a game played by twelve clients. After each restart every
// client resumes from the numbers it holds; at the end, each seat's stream
// put together across the crashes is exactly the stream the server gives
// a fresh connection: nothing acknowledged was lost, nothing repeated.
func TestKilledServerResumesEveryGame(t *testing.T) {
	addr, db := freeAddr(t), filepath.Join(t.TempDir(), "crash.db")
	srv := startServer(t, addr, db)
	defer func() { srv.kill(t) }()
	api := &client.API{Base: srv.base}
	room, seats := humanTable(t, api, map[string]any{"preset": "std-12", "seed": 5, "practice": true,
		"timers": map[string]string{"setup": "150ms", "night": "250ms", "witch": "150ms", "speech": "10s", "vote": "10s", "other": "10s", "bot": "0s"}})

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	players, progress, errs := startPlayers(ctx, srv.base, room, seats)
	kills := 0
	for _, at := range []int{15, 40} { // seat 1's event counts at which the server dies
		for n := 0; n < at; {
			select {
			case n = <-progress:
			case <-ctx.Done():
				t.Fatal("no progress")
			}
		}
		srv.kill(t)
		kills++
		srv = startServer(t, addr, db)
	}
	for range seats {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range players {
		if p.winner == "" || p.winner != players[0].winner {
			t.Fatalf("seat %d saw winner %q, seat 1 %q", p.seat.Seat, p.winner, players[0].winner)
		}
		fresh := &player{seat: p.seat}
		conn, err := client.Dial(ctx, srv.base, room, p.seat.Token, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for f := range conn.Frames {
			if f.Type == "event" {
				fresh.events = append(fresh.events, string(f.Raw))
			}
			if f.Type == "state" && f.Over {
				break
			}
		}
		conn.Kill()
		if len(fresh.events) != len(p.events) {
			t.Fatalf("seat %d put together %d events across %d crashes; the server holds %d", p.seat.Seat, len(p.events), kills, len(fresh.events))
		}
		for i := range p.events {
			if p.events[i] != fresh.events[i] {
				t.Fatalf("seat %d event %d: got %s, the server holds %s", p.seat.Seat, i+1, p.events[i], fresh.events[i])
			}
		}
	}
}

// TestTimersResumeWithTheTimeTheyHad kills the server while a seat is
// awaited on a long timer: after the restart the deadline is about what
// was left, not a fresh one and not expired.
func TestTimersResumeWithTheTimeTheyHad(t *testing.T) {
	addr, db := freeAddr(t), filepath.Join(t.TempDir(), "timer.db")
	srv := startServer(t, addr, db)
	defer func() { srv.kill(t) }()
	api := &client.API{Base: srv.base}
	// first_phase=day: the game opens with speeches, the first one on a 20 s clock.
	// The standard pace: the forum preset takes the forum pace (hours) unless told.
	room, seats := humanTable(t, api, map[string]any{"preset": "forum", "pace": "standard", "players": 9, "seed": 3, "practice": true,
		"timers": map[string]string{"speech": "20s", "vote": "20s", "other": "20s", "bot": "0s"}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	deadline := func() (int64, time.Time) {
		conn, err := client.Dial(ctx, srv.base, room, seats[0].Token, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Kill()
		for f := range conn.Frames {
			if f.Type == "state" {
				var st struct{ Deadline int64 }
				if err := json.Unmarshal(f.Raw, &st); err != nil {
					t.Fatal(err)
				}
				return st.Deadline, time.Now()
			}
		}
		t.Fatal("no state frame")
		return 0, time.Time{}
	}
	d1, at1 := deadline()
	left1 := time.UnixMilli(d1).Sub(at1)
	if left1 < 15*time.Second || left1 > 21*time.Second {
		t.Fatalf("the first deadline is %v away; expected about 20 s", left1)
	}
	time.Sleep(1500 * time.Millisecond)
	srv.kill(t)
	time.Sleep(2 * time.Second) // the server is down: that time is not counted
	srv = startServer(t, addr, db)
	d2, at2 := deadline()
	left2 := time.UnixMilli(d2).Sub(at2)
	// The clock was stored when the step began (about left1 ago): the
	// restart gives back that time, minus the moment it took to restart.
	if left2 < left1-3*time.Second || left2 > left1+time.Second {
		t.Fatalf("after the restart the deadline is %v away; %v were left when the clock was stored", left2, left1)
	}
}

// TestSigtermDrains: on SIGTERM /readyz (on the operator listener) says 503, no room is created, the
// running game goes on to its end, and the process exits cleanly.
func TestSigtermDrains(t *testing.T) {
	addr, db, ops := freeAddr(t), filepath.Join(t.TempDir(), "drain.db"), freeAddr(t)
	srv := startServer(t, addr, db, "--drain", "60s", "--metrics-addr", ops)
	api := &client.API{Base: srv.base}
	room, seats := humanTable(t, api, map[string]any{"preset": "std-12", "seed": 8, "practice": true,
		"timers": map[string]string{"setup": "50ms", "night": "80ms", "witch": "50ms", "speech": "5s", "vote": "5s", "other": "5s", "bot": "0s"}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	players, progress, errs := startPlayers(ctx, srv.base, room, seats)
	for n := 0; n < 5; n = <-progress { // the game is under way
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ { // the signal is handled asynchronously
		resp, err := http.Get("http://" + ops + "/readyz") // on the operator listener
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable {
			break
		}
		if i == 100 {
			t.Fatalf("/readyz still answers %d after SIGTERM", resp.StatusCode)
		}
		time.Sleep(10 * time.Millisecond)
	}
	var e *client.Error
	if err := api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, nil); !errors.As(err, &e) || e.Code != "draining" {
		t.Fatalf("creating a room while draining: %v", err)
	}
	for range seats {
		if err := <-errs; err != nil {
			for _, p := range players {
				t.Logf("seat %d: %d events, winner %q", p.seat.Seat, len(p.events), p.winner)
			}
			t.Fatalf("%v\n%s", err, srv.logs.String())
		}
	}
	if players[0].winner == "" {
		t.Fatal("the game did not end")
	}
	done := make(chan error, 1)
	go func() { done <- srv.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the server exited with %v\n%s", err, srv.logs.String())
		}
	case <-ctx.Done():
		_ = srv.cmd.Process.Kill()
		t.Fatal("the server did not exit once its game ended")
	}
}
