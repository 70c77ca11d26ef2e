package main

// The cluster tests' kit: nodes as child processes on one PostgreSQL and
// one NATS server, players that follow their game from node to node, and
// the checks of a finished game against what PostgreSQL holds.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wolfden/wolfden/internal/bus/nats/natstest"
	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/postgres"
	"github.com/wolfden/wolfden/internal/store/postgres/pgtest"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// node is one `wolfden serve` of a cluster, a child process, which the
// test kills and starts again under the same name.
type node struct {
	i          int
	name       string
	addr, ops  string // the public listener and the operator one
	base       string
	bus        string // the NATS URL this node is given (a proxy's, to cut it off)
	db         string
	ttl        string
	extra      []string
	logs       *lockedWriter
	cmd        *exec.Cmd
	exited     chan struct{} // closed when the process has ended
	exitErr    error
	deaths     atomic.Int64 // SIGKILLs: a connection dialed before one may end without a close frame
	running    atomic.Bool
	startCount int
}

type cluster struct {
	t     *testing.T
	db    string // the database's URL
	nats  *natstest.Server
	st    *postgres.DB
	nodes []*node
}

// clusterTimers are a game's clocks in these tests: nights of fixed
// length, long enough (night 1 lasts about 1.5 s) for a kill to land inside
// one; days that wait for the players, who answer at once.
var clusterTimers = map[string]string{"setup": "1s", "night": "300ms", "witch": "200ms", "speech": "15s",
	"vote": "20s", "other": "15s", "bot": "0s"}

// startCluster starts PostgreSQL, NATS and n nodes with leases of ttl.
// busFor, if not nil, gives node i the NATS URL to use (a proxy's).
func startCluster(t *testing.T, n int, ttl string, busFor func(i int, url string) string, extra ...string) *cluster {
	t.Helper()
	cl := &cluster{t: t, db: pgtest.Start(t).NewDB(t), nats: natstest.Embedded(t)}
	st, err := postgres.Open(context.Background(), cl.db)
	if err != nil {
		t.Fatalf("opening the cluster's database: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	cl.st = st
	for i := range n {
		addr := freeAddr(t)
		nd := &node{i: i, name: fmt.Sprintf("node%d", i+1), addr: addr, ops: freeAddr(t), base: "http://" + addr,
			bus: cl.nats.URL, db: cl.db, ttl: ttl, extra: extra, logs: &lockedWriter{w: &strings.Builder{}}}
		if busFor != nil {
			nd.bus = busFor(i, cl.nats.URL)
		}
		cl.nodes = append(cl.nodes, nd)
	}
	t.Cleanup(func() {
		for _, nd := range cl.nodes {
			nd.stop()
		}
		for _, nd := range cl.nodes { // under -race the nodes are built with it too
			if log := nd.log(); strings.Contains(log, "WARNING: DATA RACE") {
				i := strings.Index(log, "WARNING: DATA RACE")
				t.Errorf("%s found a data race:\n%s", nd.name, log[i:min(len(log), i+6000)])
			}
		}
		if t.Failed() {
			for _, nd := range cl.nodes {
				t.Logf("--- %s's log:\n%s", nd.name, nd.tail(150))
			}
		}
	})
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, nd := range cl.nodes {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = nd.start() }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return cl
}

func (nd *node) log() string {
	nd.logs.mu.Lock()
	defer nd.logs.mu.Unlock()
	return nd.logs.w.(*strings.Builder).String()
}

// tail is the last n lines of the node's log.
func (nd *node) tail(n int) string {
	lines := strings.Split(strings.TrimRight(nd.log(), "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[%d lines before]", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// start runs the node and waits until its /readyz says ready (PostgreSQL
// and NATS reached).
func (nd *node) start() error {
	nd.startCount++
	fmt.Fprintf(nd.logs, "=== start %d of %s at %s\n", nd.startCount, nd.name, time.Now().Format("15:04:05.000"))
	args := append([]string{"serve", "--addr", nd.addr, "--metrics-addr", nd.ops, "--db", nd.db, "--bus", nd.bus,
		"--node", nd.name, "--lease-ttl", nd.ttl, "--join-rate", "0", "--room-rate", "0"}, nd.extra...)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "WOLFDEN_TEST_SERVE="+strings.Join(args, " "), "WOLFDEN_CLUSTER_SECRET="+testClusterSecret)
	cmd.Stdout, cmd.Stderr = nd.logs, nd.logs
	if err := cmd.Start(); err != nil {
		return err
	}
	nd.cmd, nd.exited, nd.exitErr = cmd, make(chan struct{}), nil
	go func() {
		nd.exitErr = cmd.Wait()
		close(nd.exited)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-nd.exited:
			return fmt.Errorf("%s (serve %s) exited at start-up: %v\n%s", nd.name, strings.Join(args[1:], " "), nd.exitErr, nd.tail(10))
		default:
		}
		resp, err := http.Get("http://" + nd.ops + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				nd.running.Store(true)
				return nil
			}
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-nd.exited
			return fmt.Errorf("%s's /readyz did not say ready within 30 s of its start (last: %v)\n%s", nd.name, err, nd.tail(10))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill ends the node with SIGKILL: no hand-over, its leases run out.
func (nd *node) kill(t *testing.T) {
	t.Helper()
	nd.deaths.Add(1)
	nd.running.Store(false)
	if err := nd.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("SIGKILL %s: %v", nd.name, err)
	}
	<-nd.exited
	fmt.Fprintf(nd.logs, "=== %s killed (SIGKILL) at %s\n", nd.name, time.Now().Format("15:04:05.000"))
}

// stop ends the node at the end of a test, if it still runs.
func (nd *node) stop() {
	if nd.cmd == nil {
		return
	}
	select {
	case <-nd.exited:
	default:
		_ = nd.cmd.Process.Signal(syscall.SIGKILL)
		<-nd.exited
	}
	nd.running.Store(false)
}

// clusterView is the operator listener's GET /cluster.
type clusterView struct {
	Node  string   `json:"node"`
	Owned []string `json:"owned"`
}

func (nd *node) cluster() (clusterView, error) {
	var v clusterView
	resp, err := http.Get("http://" + nd.ops + "/cluster")
	if err != nil {
		return v, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return v, fmt.Errorf("%s: GET /cluster: %d %s", nd.name, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return v, fmt.Errorf("%s: GET /cluster: %v in %q", nd.name, err, b)
	}
	return v, nil
}

// metric sums the samples of a metric on the node's /metrics (name_count
// for a histogram's observations).
func (nd *node) metric(name string) (float64, error) {
	resp, err := http.Get("http://" + nd.ops + "/metrics")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sum, found := 0.0, false
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, name) || (len(line) > len(name) && line[len(name)] != ' ' && line[len(name)] != '{') {
			continue
		}
		f := strings.Fields(line)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			return 0, fmt.Errorf("%s: /metrics: %q: %v", nd.name, line, err)
		}
		sum, found = sum+v, true
	}
	if !found {
		return 0, fmt.Errorf("%s: /metrics has no %s", nd.name, name)
	}
	return sum, sc.Err()
}

// owners says which running nodes' /cluster list each room.
func (cl *cluster) owners(rooms []string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, nd := range cl.nodes {
		if !nd.running.Load() {
			continue
		}
		v, err := nd.cluster()
		if err != nil {
			return nil, err
		}
		for _, r := range v.Owned {
			if slices.Contains(rooms, r) {
				out[r] = append(out[r], nd.name)
			}
		}
	}
	return out, nil
}

// waitOwned waits until every room still running in the database is
// owned by exactly one running node, none of them in not; it returns the
// owners.
func (cl *cluster) waitOwned(rooms []string, not string, why string) map[string][]string {
	cl.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		own, err := cl.owners(rooms)
		ok := err == nil
		var missing []string
		for _, r := range rooms {
			if !ok {
				break
			}
			rec, err := cl.st.Room(context.Background(), r)
			if err != nil {
				cl.t.Fatalf("reading room %s: %v", r, err)
			}
			if rec.Status != store.StatusRunning {
				continue
			}
			if o := own[r]; len(o) != 1 || o[0] == not {
				ok = false
				missing = append(missing, fmt.Sprintf("%s owned by %v", r, o))
			}
		}
		if ok {
			return own
		}
		if time.Now().After(deadline) {
			cl.t.Fatalf("%s: after 30 s the rooms are not each owned by one running node (other than %q): %v %v", why, not, missing, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// gate holds a table's players before their next command while it is
// shut: the test kills a node while a vote waits for them. Once opened it
// stays open, so that a test's hold is for one moment of the game.
type gate struct {
	mu     sync.Mutex
	shut   chan struct{}
	opened bool
}

func (g *gate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut == nil && !g.opened {
		g.shut = make(chan struct{})
	}
}

func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.opened = true
	if g.shut != nil {
		close(g.shut)
		g.shut = nil
	}
}

func (g *gate) wait(ctx context.Context) error {
	g.mu.Lock()
	ch := g.shut
	g.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stateInfo is what the tests read of a state frame beyond client.Frame.
type stateInfo struct {
	Step     string `json:"step"`
	Night    bool   `json:"night"`
	NightEnd int64  `json:"night_end"`
}

func isVote(st stateInfo) bool {
	switch st.Step {
	case "vote", "pk_vote", "sheriff_vote", "sheriff_pk_vote":
		return !st.Night
	}
	return false
}

// cgame is one game of a cluster test and its players.
type cgame struct {
	room    string
	owner   *node // where it was created
	seats   []seatToken
	players []*cplayer // seats 1…n, then a spectator
	gate    gate
	// holdAtVote: the first player offered a day's vote shuts the gate and
	// closes atVote; the players wait there until the test opens it.
	holdAtVote bool
	atVote     chan struct{}
	voteOnce   sync.Once
	// atNight is closed at the first state of a night with time left in
	// it; nightState then holds that state.
	atNight   chan struct{}
	nightOnce sync.Once
	lastNight atomic.Bool // the latest state any player saw was a night's
	over      atomic.Bool
	done      chan struct{} // closed when a player saw the game over
	doneOnce  sync.Once
}

// await waits for ch (the game's atVote or atNight), failing at once if
// the game ends first.
func (g *cgame) await(t *testing.T, ctx context.Context, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
		return
	default:
	}
	select {
	case <-ch:
	case <-g.done:
		t.Fatalf("room %s (made on %s) ended before it came to %s", g.room, g.owner.name, what)
	case <-ctx.Done():
		t.Fatalf("room %s (made on %s) never came to %s", g.room, g.owner.name, what)
	}
}

// newGame creates a practice std-12 room on owner, seats its twelve
// players through every node in turn and starts it through the next node.
func (cl *cluster) newGame(owner *node, seed int) *cgame {
	cl.t.Helper()
	ctx := context.Background()
	var c client.Created
	if err := (&client.API{Base: owner.base}).Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12",
		"seed": seed, "practice": true, "timers": clusterTimers}, &c); err != nil {
		cl.t.Fatalf("creating a room on %s: %v", owner.name, err)
	}
	g := &cgame{room: c.Room.ID, owner: owner, atVote: make(chan struct{}), atNight: make(chan struct{}), done: make(chan struct{})}
	live := cl.live()
	for i := range c.Room.Players {
		nd := live[i%len(live)]
		var s seatToken
		if err := (&client.API{Base: nd.base}).Do(ctx, "POST", "/api/rooms/"+g.room+"/join", "", map[string]any{"nickname": fmt.Sprint("p", i+1)}, &s); err != nil {
			cl.t.Fatalf("joining room %s (owned by %s) through %s: %v", g.room, owner.name, nd.name, err)
		}
		g.seats = append(g.seats, s)
	}
	starter := live[(owner.i+1)%len(live)]
	if err := (&client.API{Base: starter.base}).Do(ctx, "POST", "/api/rooms/"+g.room+"/start", c.HostToken, nil, nil); err != nil {
		cl.t.Fatalf("starting room %s (owned by %s) through %s: %v", g.room, owner.name, starter.name, err)
	}
	return g
}

func (cl *cluster) live() []*node {
	var out []*node
	for _, nd := range cl.nodes {
		if nd.running.Load() {
			out = append(out, nd)
		}
	}
	return out
}

// cplayer plays one seat (0: a spectator) of a cluster's game with random
// choices, through every kill and hand-over: when its connection ends it
// dials the next node with the numbers it holds. It keeps what it got.
type cplayer struct {
	seat     int
	token    string
	first    int // the node it dials first
	events   []json.RawMessage
	chats    int
	sent     []string // the commands it sent, acked those acknowledged (rules.Command.String)
	acked    []string
	pending  []client.Unanswered // sent on a connection that ended before their answer: named in the next hello
	winner   string
	ends     []string // how each connection ended, for the failure messages
	refusals []string // the dials refused, each new answer of a node once
	bad      []string // what was wrong: a close other than 1012 "moved" from a live node
}

// play runs the player until its game is over.
func (p *cplayer) play(ctx context.Context, cl *cluster, g *cgame) error {
	h := fnv.New64a()
	h.Write([]byte(g.room))
	r := rand.New(rand.NewPCG(uint64(p.seat), h.Sum64()))
	var lastErr error
	var refused time.Time // since when every node refuses the finished game
	lastDial := make([]string, len(cl.nodes))
	for attempt := 0; ctx.Err() == nil; attempt++ {
		nd := cl.nodes[(p.first+attempt)%len(cl.nodes)]
		deaths := nd.deaths.Load()
		from, at := len(p.events), time.Now()
		conn, err := client.DialResume(ctx, nil, nd.base, g.room, p.token,
			client.Resume{Since: len(p.events), ChatSince: p.chats, Pending: client.Pending(p.pending)})
		if err != nil {
			if e := fmt.Sprintf("%s: %v", nd.name, err); e != lastDial[nd.i] && len(p.refusals) < 60 {
				lastDial[nd.i] = e
				p.refusals = append(p.refusals, at.Format("15:04:05.000")+" "+e)
			}
			lastErr = fmt.Errorf("dialing %s: %v", nd.name, err)
			// A finished game lingers (--linger) on its owner, which serves
			// the end of its stream; another node may send the connection
			// there. If no node will, for a good while, the seat cannot
			// resume.
			if g.over.Load() && strings.Contains(err.Error(), "not_running") {
				if refused.IsZero() {
					refused = time.Now()
				} else if time.Since(refused) > 10*time.Second {
					return fmt.Errorf("seat %d of room %s: the game is over, and for 10 s every node has refused the connection (%s: %v) while the seat misses the end of its stream (%d events; connections %v; dials refused %v)",
						p.seat, g.room, nd.name, err, len(p.events), p.ends, p.refusals)
				}
			}
			time.Sleep(25 * time.Millisecond) // the node is down, or its game between owners
			continue
		}
		refused = time.Time{}
		clear(lastDial)
		var bad error
		st, err := conn.PlayHooked(ctx, r, client.Hooks{
			Frame: func(f client.Frame) bool {
				switch f.Type {
				case "event":
					if f.Seq != len(p.events)+1 {
						bad = fmt.Errorf("seat %d on %s: event %d after %d", p.seat, nd.name, f.Seq, len(p.events))
						return true
					}
					p.events = append(p.events, f.Raw)
				case "chat":
					p.chats++
				case "state":
					var si stateInfo
					_ = json.Unmarshal(f.Raw, &si)
					g.lastNight.Store(si.Night)
					if si.Night && si.NightEnd-time.Now().UnixMilli() > 400 {
						g.nightOnce.Do(func() { close(g.atNight) })
					}
					if f.Over {
						g.over.Store(true)
						g.doneOnce.Do(func() { close(g.done) })
					}
				}
				return false
			},
			Before: func(ctx context.Context, f client.Frame) error {
				var si stateInfo
				_ = json.Unmarshal(f.Raw, &si)
				if g.holdAtVote && isVote(si) {
					g.voteOnce.Do(func() { g.gate.close(); close(g.atVote) })
				}
				return g.gate.wait(ctx)
			},
			Avoid:   []rules.CmdKind{rules.CmdExplode}, // every game comes to a vote
			Sent:    func(c rules.Command) { p.sent = append(p.sent, c.String()) },
			Acked:   func(c rules.Command) { p.acked = append(p.acked, c.String()) },
			Resumed: p.pending,
		})
		p.pending = st.Unanswered
		if bad != nil {
			conn.Kill()
			return bad
		}
		if err == nil {
			conn.Close()
			p.winner = st.Winner
			return nil
		}
		if !errors.Is(err, client.ErrClosed) {
			conn.Kill()
			return fmt.Errorf("seat %d on %s: %v", p.seat, nd.name, err)
		}
		code, reason := conn.CloseStatus()
		p.ends = append(p.ends, fmt.Sprintf("%s: %d %q (%s–%s, events %d→%d)", nd.name, code, reason,
			at.Format("15:04:05.000"), time.Now().Format("15:04:05.000"), from, len(p.events)))
		// A live node ends a connection only as moved; but a line that
		// stayed silent past the server's quiet period is given up by the
		// client itself (docs/server.md, "alive"), as when the game's owner
		// is cut from the bus and its relayed frames stop before another
		// node has adopted the game: that end is the client's, not the node's.
		if !(code == 1012 && reason == "moved") && !conn.Silent() && nd.deaths.Load() == deaths {
			p.bad = append(p.bad, fmt.Sprintf("seat %d: its connection on %s, which was not killed meanwhile, ended with %d %q, not 1012 \"moved\" (%v)",
				p.seat, nd.name, code, reason, err))
		}
		conn.Kill()
		lastErr = err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("seat %d of room %s: the game did not end (%d events, connections ended %v; dials refused %v; last error: %v)", p.seat, g.room, len(p.events), p.ends, p.refusals, lastErr)
	}
	return nil
}

// play starts every seat's player and a spectator, seat s dialing node
// (first+s) first; the channel gets each player's end.
func (g *cgame) play(ctx context.Context, cl *cluster, first int) <-chan error {
	errs := make(chan error, len(g.seats)+1)
	for i, s := range g.seats {
		g.players = append(g.players, &cplayer{seat: s.Seat, token: s.Token, first: first + i})
	}
	// The spectator watches through a node that does not own the game.
	g.players = append(g.players, &cplayer{seat: 0, first: g.owner.i + 2})
	for _, p := range g.players {
		go func() { errs <- p.play(ctx, cl, g) }()
	}
	return errs
}

// finish waits for every player of the games, then checks each game
// whose players all ended well, and fails naming every problem.
func (cl *cluster) finish(games []*cgame, errs []<-chan error) {
	t := cl.t
	t.Helper()
	var failed []error
	for i, g := range games {
		var bad []error
		for range g.players {
			if err := <-errs[i]; err != nil {
				bad = append(bad, err)
			}
		}
		if len(bad) == 0 {
			if err := cl.check(g); err != nil {
				bad = append(bad, err)
			}
		}
		if len(bad) > 0 {
			failed = append(failed, fmt.Errorf("room %s (made on %s):\n%w", g.room, g.owner.name, errors.Join(bad...)))
		}
	}
	if len(failed) > 0 {
		t.Fatalf("%d of %d games went wrong:\n%v", len(failed), len(games), errors.Join(failed...))
	}
}

// replayJSON is GET /api/rooms/{id}/replay.
type replayJSON struct {
	Seed   uint64            `json:"seed"`
	Events []json.RawMessage `json:"events"`
}

// check compares the finished game with PostgreSQL and the replay: its
// records follow one another, its events are a game of the rules on its
// board and seed that is over, every seat's stream (put together across
// its connections) is exactly the replay's events that seat may see, every
// acknowledged command is stored, none twice.
func (cl *cluster) check(g *cgame) error {
	var errs []error
	ctx := context.Background()
	recs, err := cl.st.Records(ctx, g.room)
	if err != nil {
		return fmt.Errorf("room %s: records: %v", g.room, err)
	}
	events, _, err := game.Log(recs) // refuses records that skip or repeat a number
	if err != nil {
		return fmt.Errorf("room %s: the stored game is broken: %v", g.room, err)
	}
	for i := range events {
		if events[i].Seq != int32(i+1) {
			return fmt.Errorf("room %s: stored event %d is numbered %d", g.room, i+1, events[i].Seq)
		}
	}
	// The replay, asked of a node that did not create the room.
	via := cl.live()[0]
	for _, nd := range cl.live() {
		if nd != g.owner {
			via = nd
			break
		}
	}
	var rep replayJSON
	if err := (&client.API{Base: via.base}).Do(ctx, "GET", "/api/rooms/"+g.room+"/replay", "", nil, &rep); err != nil {
		return fmt.Errorf("room %s: GET replay through %s: %v", g.room, via.name, err)
	}
	if len(rep.Events) != len(events) {
		return fmt.Errorf("room %s: the replay through %s has %d events, PostgreSQL %d", g.room, via.name, len(rep.Events), len(events))
	}
	for i := range events {
		b, _ := json.Marshal(events[i])
		if !sameJSON(b, rep.Events[i]) {
			return fmt.Errorf("room %s: replay event %d is %s; PostgreSQL holds %s", g.room, i+1, rep.Events[i], b)
		}
	}
	// A game of the rules: its board and seed deal it, and it is over.
	rec, err := cl.st.Room(ctx, g.room)
	if err != nil {
		return err
	}
	var cfg struct {
		Cards   []string          `json:"cards"`
		Options map[string]string `json:"options"`
		Seed    uint64            `json:"seed"`
	}
	if err := json.Unmarshal(rec.Config, &cfg); err != nil {
		return fmt.Errorf("room %s: config: %v", g.room, err)
	}
	var board rules.Board
	for _, c := range cfg.Cards {
		r, err := rules.ParseRole(c)
		if err != nil {
			return err
		}
		board.Cards = append(board.Cards, r)
	}
	for k, v := range cfg.Options {
		if err := board.Options.Set(k, v); err != nil {
			return err
		}
	}
	if rep.Seed != cfg.Seed {
		return fmt.Errorf("room %s: the replay's seed %d, the room's %d", g.room, rep.Seed, cfg.Seed)
	}
	dealt, err := rules.New(board, cfg.Seed, nil)
	if err != nil {
		return err
	}
	if d := dealt.Events(); len(events) < len(d) || !reflect.DeepEqual(events[:len(d)], d) {
		return fmt.Errorf("room %s: the stored game does not begin with its seed's deal", g.room)
	}
	replayed, err := rules.Replay(board, cfg.Seed, events)
	if err != nil {
		return fmt.Errorf("room %s: the stored events are not a game: %v", g.room, err)
	}
	over, winner := replayed.Over()
	if !over {
		return fmt.Errorf("room %s: the stored game is not over", g.room)
	}
	// Each seat's stream.
	stored := map[int][]string{}
	for _, r := range recs {
		if r.Kind != "cmd" {
			continue
		}
		var c struct {
			Seat int    `json:"seat"`
			Cmd  string `json:"cmd"`
			Bot  bool   `json:"bot"`
		}
		if err := json.Unmarshal(r.Body, &c); err != nil {
			return fmt.Errorf("room %s: record %d: %v", g.room, r.N, err)
		}
		if !c.Bot {
			stored[c.Seat] = append(stored[c.Seat], c.Cmd)
		}
	}
players:
	for _, p := range g.players {
		who := fmt.Sprintf("room %s seat %d", g.room, p.seat)
		if p.seat == 0 {
			who = fmt.Sprintf("room %s's spectator", g.room)
		}
		if len(p.bad) > 0 {
			errs = append(errs, fmt.Errorf("%s:\n%s", who, strings.Join(p.bad, "\n")))
		}
		if p.winner != winner.String() {
			errs = append(errs, fmt.Errorf("%s saw the winner %q; the stored game's is %q", who, p.winner, winner))
		}
		want := seatStream(events, rules.Seat(p.seat))
		if len(p.events) != len(want) {
			errs = append(errs, fmt.Errorf("%s put together %d events across its connections (ended %v); the replay has %d for it", who, len(p.events), p.ends, len(want)))
			continue
		}
		for i := range want {
			if !sameJSON(p.events[i], want[i]) {
				errs = append(errs, fmt.Errorf("%s: event %d was %s; the replay's is %s", who, i+1, p.events[i], want[i]))
				continue players
			}
		}
		if i, ok := subsequence(p.acked, stored[p.seat]); !ok {
			errs = append(errs, fmt.Errorf("%s: acknowledged command %d %q is not in the stored game (acknowledged %q, stored %q)", who, i+1, p.acked[i], p.acked, stored[p.seat]))
			continue
		}
		if i, ok := subsequence(stored[p.seat], p.sent); !ok {
			errs = append(errs, fmt.Errorf("%s: stored command %d %q was not sent, or stored twice (sent %q, stored %q)", who, i+1, stored[p.seat][i], p.sent, stored[p.seat]))
		}
		// A command stored while its owner died or handed the game over is
		// acked on the seat's next connection (its hello names it): only
		// the last may go unanswered, its ack coming after the end.
		if n := len(stored[p.seat]) - len(p.acked); n > 1 {
			errs = append(errs, fmt.Errorf("%s: %d stored commands were never acknowledged (acknowledged %q, stored %q)", who, n, p.acked, stored[p.seat]))
		}
	}
	return errors.Join(errs...)
}

// seatStream is the events seat receives, as frames, numbered in its own
// stream: the frames a single server sends it.
func seatStream(events []rules.Event, seat rules.Seat) [][]byte {
	var out [][]byte
	for i := range events {
		e := &events[i]
		if !e.Visible(seat) {
			continue
		}
		f := wire.EventFrame{Type: "event", Seq: len(out) + 1, Kind: e.Kind.String(), Seat: e.Seat, Target: e.Target, Value: e.Value}
		if e.Role != rules.NoRole {
			f.Role = e.Role.String()
		}
		if e.Mask != 0 {
			f.Mask = rules.Seats(e.Mask)
		}
		if e.Kind == rules.EvStep || e.Kind == rules.EvVoteResult {
			f.Step = rules.Step(e.Value).String()
		}
		if e.Kind == rules.EvAttack || e.Kind == rules.EvVoteResult {
			f.Drawn = e.Draws > 0
		}
		b, _ := json.Marshal(f)
		out = append(out, b)
	}
	return out
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// subsequence reports whether a's items are found in b in order; if not,
// the index in a of the first that is not.
func subsequence(a, b []string) (int, bool) {
	j := 0
	for i, x := range a {
		for j < len(b) && b[j] != x {
			j++
		}
		if j == len(b) {
			return i, false
		}
		j++
	}
	return 0, true
}

// lease reads a room's lease row as PostgreSQL holds it.
func (cl *cluster) lease(room string) (node string, epoch int64) {
	cl.t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, cl.db)
	if err != nil {
		cl.t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, `SELECT node, epoch FROM leases WHERE room_id = $1`, room).Scan(&node, &epoch); err != nil {
		cl.t.Fatalf("room %s: its lease: %v", room, err)
	}
	return node, epoch
}

// cutProxy passes TCP between a node and NATS until it is cut: then it
// drops every connection and every new one, as a network partition would.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]struct{}
}

func startProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	t.Cleanup(func() { ln.Close(); p.Cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.pass(c)
		}
	}()
	return p
}

func (p *cutProxy) URL() string { return "nats://" + p.ln.Addr().String() }

func (p *cutProxy) pass(c net.Conn) {
	p.mu.Lock()
	if p.cut {
		p.mu.Unlock()
		c.Close()
		return
	}
	p.conns[c] = struct{}{}
	p.mu.Unlock()
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.cut {
		p.mu.Unlock()
		c.Close()
		up.Close()
		return
	}
	p.conns[up] = struct{}{}
	p.mu.Unlock()
	go func() { _, _ = io.Copy(up, c); up.Close(); c.Close() }()
	_, _ = io.Copy(c, up)
	up.Close()
	c.Close()
}

// Cut drops every connection through the proxy and refuses new ones.
func (p *cutProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Mend lets connections through again.
func (p *cutProxy) Mend() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = false
}
