package server

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/wolfden/wolfden/internal/bus"
	natsbus "github.com/wolfden/wolfden/internal/bus/nats"
	"github.com/wolfden/wolfden/internal/bus/nats/natstest"
	"github.com/wolfden/wolfden/internal/client"
)

// nodeHooks is what a test changes in a node of its cluster.
type nodeHooks struct {
	nats   string                // the URL of a NATS server, the node's bus (else the cluster's in-memory hub)
	bus    func(bus.Bus) bus.Bus // the node's bus as its server sees it
	leases func(Leases) Leases   // its leases as its server sees them
}

// nodeWith is testCluster.node with hooks.
func (c *testCluster) nodeWith(t *testing.T, name string, h nodeHooks) *clusterNode {
	t.Helper()
	var raw bus.Bus
	if h.nats != "" {
		nb, err := natsbus.Open(context.Background(), h.nats, natsbus.Options{Name: name, ReconnectWait: 20 * time.Millisecond,
			Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		raw = nb
	} else {
		raw = c.hub.Connect()
	}
	return c.start(t, name, raw, raw, h.bus, h.leases)
}

// switchBus is a bus whose node can be told it is cut off.
type switchBus struct {
	bus.Bus
	down atomic.Bool
}

func (b *switchBus) Ready() error {
	if b.down.Load() {
		return fmt.Errorf("test: %w", bus.ErrDisconnected)
	}
	return b.Bus.Ready()
}

// gatedLeases records the rooms whose lease the node takes, in order, and
// passes each Acquire through hold first.
// holdSweeps keeps the node's own sweeps, which look for orphans every
// second whatever the ttl, from running beside the test's (a loaded
// machine saw one take the same rooms' leases again): it holds their flag,
// once a sweep under way has ended, until the test ends.
func holdSweeps(t *testing.T, n *node) {
	t.Helper()
	for !n.sweeping.CompareAndSwap(false, true) {
		time.Sleep(time.Millisecond)
	}
	t.Cleanup(func() { n.sweeping.Store(false) })
}

type gatedLeases struct {
	Leases
	hold func(room string)

	mu       sync.Mutex
	acquired []string
}

func (g *gatedLeases) Acquire(ctx context.Context, room string, ttl time.Duration) error {
	g.mu.Lock()
	g.acquired = append(g.acquired, room)
	g.mu.Unlock()
	if g.hold != nil {
		g.hold(room)
	}
	return g.Leases.Acquire(ctx, room, ttl)
}

func (g *gatedLeases) order() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.acquired)
}

// sqlExec runs a statement on the cluster's database.
func (c *testCluster) sqlExec(t *testing.T, sql string, args ...any) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), c.db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), sql, args...); err != nil {
		t.Fatal(err)
	}
}

// expireLeases ends the rooms' leases now, as their time running out
// would: the tests do not wait for it.
func (c *testCluster) expireLeases(t *testing.T, rooms []string) {
	t.Helper()
	c.sqlExec(t, `UPDATE leases SET expires = clock_timestamp() - interval '1 second' WHERE room_id = ANY($1)`, rooms)
}

type leaseRow struct {
	node    string
	epoch   int64
	expires time.Time
}

// leaseRows reads the rooms' leases, and the database's clock.
func (c *testCluster) leaseRows(t *testing.T, rooms []string) (map[string]leaseRow, time.Time) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT room_id, node, epoch, expires FROM leases WHERE room_id = ANY($1)`, rooms)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]leaseRow{}
	for rows.Next() {
		var id string
		var l leaseRow
		if err := rows.Scan(&id, &l.node, &l.epoch, &l.expires); err != nil {
			t.Fatal(err)
		}
		out[id] = l
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var now time.Time
	if err := conn.QueryRow(ctx, `SELECT clock_timestamp()`).Scan(&now); err != nil {
		t.Fatal(err)
	}
	return out, now
}

// waitFor waits until ok, failing the test with what if ctx ends first.
func waitFor(ctx context.Context, t *testing.T, what string, ok func() bool) {
	t.Helper()
	for !ok() {
		if ctx.Err() != nil {
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// watchedConn is a WebSocket whose close is recorded.
type watchedConn struct {
	conn   *client.Conn
	node   string
	closed chan struct{}
	reason string
}

func watch(ctx context.Context, t *testing.T, n *clusterNode, room, token string) *watchedConn {
	t.Helper()
	conn, err := client.Dial(ctx, n.http.URL, room, token, 0, 0)
	if err != nil {
		t.Fatalf("dial room %s on %s: %v", room, n.name, err)
	}
	w := &watchedConn{conn: conn, node: n.name, closed: make(chan struct{})}
	go func() {
		for range conn.Frames {
		}
		code, reason := conn.CloseStatus()
		w.reason = fmt.Sprintf("%d %s", code, reason)
		close(w.closed)
	}()
	return w
}

// makeRoom opens a room on n; it returns the room, the maker's seat's
// token (if the body seats him) and the host's.
func makeRoom(ctx context.Context, t *testing.T, n *clusterNode, body map[string]any) (id, token, host string) {
	t.Helper()
	var made client.Created
	if err := n.api.Do(ctx, "POST", "/api/rooms", "", body, &made); err != nil {
		t.Fatal(err)
	}
	return made.Room.ID, made.Token, made.HostToken
}

// TestClusterRidesOutANATSRestart: NATS goes down under every node and
// comes back once the leases, as they stood when it went, would have run
// out (and every node has been round its loop once more): each node keeps
// its rooms through PostgreSQL, so that not one room changes hands
// (same node, same epoch) and not one connection is closed; a dead node's
// rooms, orphans during the outage, are adopted by no node while NATS is
// down, and by one once it is back.
func TestClusterRidesOutANATSRestart(t *testing.T) {
	c := newTestCluster(t)
	c.ttl = 2 * time.Second
	ns := natstest.Embedded(t)
	var nodes []*clusterNode
	for _, name := range []string{"a", "b", "c", "d"} {
		nodes = append(nodes, c.nodeWith(t, name, nodeHooks{nats: ns.URL}))
	}
	live, dead := nodes[:3], nodes[3]
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// A game on each node, its seats joined through the others and
	// connected to it; two waiting rooms on every node.
	var conns []*watchedConn
	var kept, orphans []string
	for i, n := range live {
		table := []*clusterNode{n, live[(i+1)%3], live[(i+2)%3]}
		room, players := clusterTable(ctx, t, table, map[string]any{"preset": "std-9", "seed": 21 + i, "practice": true,
			"timers": map[string]string{"setup": "1h"}})
		kept = append(kept, room.Room.ID)
		for _, p := range players {
			conns = append(conns, watch(ctx, t, n, room.Room.ID, p.token))
		}
	}
	for _, n := range nodes {
		for range 2 {
			id, _, _ := makeRoom(ctx, t, n, map[string]any{"preset": "std-9", "nickname": "Ann"})
			if n == dead {
				orphans = append(orphans, id)
			} else {
				kept = append(kept, id)
			}
		}
	}
	owners := map[string]string{}
	for _, n := range live {
		for _, id := range n.cl.ownedIDs() {
			owners[id] = n.name
		}
	}
	for _, id := range kept {
		if owners[id] == "" {
			t.Fatalf("room %s has no owner before the outage", id)
		}
	}
	// Every node has told the database it is on the bus.
	for _, n := range live {
		r := n.cl.rounds.Load()
		waitFor(ctx, t, n.name+"'s first heartbeat", func() bool { return n.cl.rounds.Load() > r })
	}

	ns.Shutdown()
	down := time.Now()
	dead.kill() // now, so that its rooms become orphans while NATS is down
	before, _ := c.leaseRows(t, append(slices.Clone(kept), orphans...))
	var last time.Time
	for _, l := range before {
		if l.expires.After(last) {
			last = l.expires
		}
	}
	for _, n := range live {
		waitFor(ctx, t, n.name+" off the bus", func() bool { return n.cl.c.Bus.Ready() != nil })
	}
	// The leases as they stood have run out, and every node has been round
	// its loop since, as it would to let them go.
	waitFor(ctx, t, "the leases of before the outage to run out", func() bool {
		_, now := c.leaseRows(t, nil)
		return now.After(last)
	})
	for _, n := range live {
		r := n.cl.rounds.Load()
		waitFor(ctx, t, n.name+"'s round after the leases' end", func() bool { return n.cl.rounds.Load() > r })
	}
	during, _ := c.leaseRows(t, kept)
	for _, id := range kept {
		if l := during[id]; l.node != owners[id] || !l.expires.After(before[id].expires) {
			t.Errorf("room %s, %s's, was not renewed while NATS was down: %+v, before %+v", id, owners[id], l, before[id])
		}
	}
	for _, n := range live {
		for _, id := range orphans {
			if n.cl.owns(id) {
				t.Errorf("%s adopted the dead node's room %s while NATS was down", n.name, id)
			}
		}
	}
	ns.Restart(t)
	outage := time.Since(down)
	for _, n := range live {
		waitFor(ctx, t, n.name+" back on the bus", func() bool { return n.cl.c.Bus.Ready() == nil })
	}
	waitFor(ctx, t, "the dead node's rooms adopted", func() bool {
		for _, id := range orphans {
			if !slices.ContainsFunc(live, func(n *clusterNode) bool { return n.cl.owns(id) }) {
				return false
			}
		}
		return true
	})
	// Two sweeps more on every node: nothing else is taken.
	for _, n := range live {
		s := n.cl.sweeps.Load()
		waitFor(ctx, t, n.name+"'s sweeps after the outage", func() bool { return n.cl.sweeps.Load() >= s+2 })
	}

	after, _ := c.leaseRows(t, kept)
	moved := 0
	for _, id := range kept {
		if l := after[id]; l.node != owners[id] || l.epoch != before[id].epoch {
			moved++
			t.Errorf("room %s moved: %s epoch %d before the outage, %s epoch %d after", id, owners[id], before[id].epoch, l.node, l.epoch)
		}
		if n := live[slices.IndexFunc(live, func(n *clusterNode) bool { return n.name == owners[id] })]; !n.cl.owns(id) {
			t.Errorf("%s no longer owns room %s", n.name, id)
		}
	}
	closes := 0
	for _, w := range conns {
		select {
		case <-w.closed:
			closes++
			t.Errorf("a connection to %s was closed (%s)", w.node, w.reason)
		default:
		}
	}
	var takeovers float64
	for _, n := range live {
		takeovers += testutil.ToFloat64(n.cl.m.takeovers)
	}
	if takeovers != float64(len(orphans)) {
		t.Errorf("%v rooms adopted, want the dead node's %d", takeovers, len(orphans))
	}
	t.Logf("NATS down %v with leases of %v: %d of %d rooms moved, %d of %d connections closed, %v adoptions (the dead node's %d rooms)",
		outage.Round(time.Millisecond), c.ttl, moved, len(kept), closes, len(conns), takeovers, len(orphans))
}

// TestClusterNodeOffTheBusBeginsNoAdoption: the bus drops under a node in
// the middle of a sweep: the adoptions under way end, and no other begins
// until the bus is back; then the rest are adopted.
func TestClusterNodeOffTheBusBeginsNoAdoption(t *testing.T) {
	c := newTestCluster(t)
	c.ttl = time.Hour // no lease runs out but those the test expires
	a := c.node(t, "a")
	sw := &switchBus{}
	entered, release := make(chan struct{}, 64), make(chan struct{})
	gl := &gatedLeases{hold: func(string) { entered <- struct{}{}; <-release }}
	b := c.nodeWith(t, "b", nodeHooks{bus: func(nb bus.Bus) bus.Bus { sw.Bus = nb; return sw },
		leases: func(l Leases) Leases { gl.Leases = l; return gl }})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var rooms []string
	for range 12 {
		id, _, _ := makeRoom(ctx, t, a, map[string]any{"preset": "std-9", "nickname": "Ann"})
		rooms = append(rooms, id)
	}
	a.kill()
	holdSweeps(t, b.cl)
	c.expireLeases(t, rooms)

	swept := make(chan struct{})
	go func() { defer close(swept); b.cl.adoptOrphans(ctx) }()
	<-entered
	sw.down.Store(true)
	close(release)
	<-swept
	owned := len(b.cl.ownedIDs())
	if owned > sweepWorkers {
		t.Fatalf("the node adopted %d of %d rooms, cut off from the bus after the first began (at most the %d under way may end)",
			owned, len(rooms), sweepWorkers)
	}
	t.Logf("cut off during a sweep of %d rooms: %d adoptions under way ended, none began", len(rooms), owned)
	sw.down.Store(false)
	b.cl.adoptOrphans(ctx)
	if got := b.cl.ownedIDs(); len(got) != len(rooms) {
		t.Fatalf("back on the bus the node owns %d rooms, want %d", len(got), len(rooms))
	}
}

// TestClusterSweepTakesRunningGamesFirst: a dead node's running games are
// adopted before its open rooms, its finished games (on their end screen)
// are left to the first request for them, and one adoption that hangs
// holds up none of the others.
func TestClusterSweepTakesRunningGamesFirst(t *testing.T) {
	c := newTestCluster(t)
	c.ttl = time.Hour // no lease runs out but those the test expires
	a := c.node(t, "a")
	var running, open, over []string
	var stuck atomic.Value // the room whose adoption hangs: the first running game taken
	unstick := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(unstick) }) }
	defer free() // a failing test lets the hung adoption go
	gl := &gatedLeases{hold: func(room string) {
		if slices.Contains(running, room) && stuck.CompareAndSwap(nil, room) {
			<-unstick
		}
	}}
	b := c.nodeWith(t, "b", nodeHooks{leases: func(l Leases) Leases { gl.Leases = l; return gl }})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	botGame := func(timers map[string]string) string {
		id, _, host := makeRoom(ctx, t, a, map[string]any{"preset": "std-9", "seed": 3, "practice": true, "timers": timers})
		if err := a.api.Do(ctx, "POST", "/api/rooms/"+id+"/bots", host, map[string]any{"count": 0}, nil); err != nil {
			t.Fatal(err)
		}
		if err := a.api.Do(ctx, "POST", "/api/rooms/"+id+"/start", host, nil, nil); err != nil {
			t.Fatal(err)
		}
		return id
	}
	for range 2 {
		over = append(over, botGame(quick)) // bots alone, quick: it ends
	}
	for range 8 {
		id, _, _ := makeRoom(ctx, t, a, map[string]any{"preset": "std-9", "nickname": "Ann"})
		open = append(open, id)
	}
	for range 3 {
		id, _, host := makeRoom(ctx, t, a, map[string]any{"preset": "std-9", "nickname": "Host", "timers": map[string]string{"setup": "1h"}})
		if err := a.api.Do(ctx, "POST", "/api/rooms/"+id+"/bots", host, map[string]any{"count": 0}, nil); err != nil {
			t.Fatal(err)
		}
		if err := a.api.Do(ctx, "POST", "/api/rooms/"+id+"/start", host, nil, nil); err != nil {
			t.Fatal(err)
		}
		running = append(running, id) // it waits an hour for its cards to be seen
	}
	for _, id := range over {
		waitFor(ctx, t, "game "+id+" over", func() bool {
			var info roomInfo
			return a.api.Do(ctx, "GET", "/api/rooms/"+id, "", nil, &info) == nil && info.Game != nil && info.Game.Over
		})
	}
	a.kill()
	holdSweeps(t, b.cl)
	all := slices.Concat(running, open, over)
	c.expireLeases(t, all)

	t0 := time.Now()
	took := map[string]time.Duration{}
	swept := make(chan struct{})
	go func() { defer close(swept); b.cl.adoptOrphans(ctx) }()
	// While the first adoption hangs, the others go on.
	others := slices.Concat(running, open)
	waitFor(ctx, t, "the other rooms adopted while one adoption hangs", func() bool {
		n := 0
		for _, id := range others {
			if b.cl.owns(id) {
				if _, ok := took[id]; !ok {
					took[id] = time.Since(t0)
				}
				n++
			}
		}
		return n == len(others)-1
	})
	free()
	<-swept
	order := gl.order()
	if len(order) != len(others) {
		t.Fatalf("the sweep took the leases of %v, want the running games' and the open rooms' (%d)", order, len(others))
	}
	// The running games are handed out first; the workers that take them
	// and the open rooms after them may reach the database in any order.
	for _, id := range running {
		if i := slices.Index(order, id); i >= len(running)+sweepWorkers-1 {
			t.Fatalf("the sweep took the leases in the order %v: the running game %s came %dth", order, id, i+1)
		}
	}
	for _, id := range others {
		if !b.cl.owns(id) {
			t.Errorf("room %s was not adopted", id)
		}
	}
	for _, id := range over {
		if b.cl.owns(id) {
			t.Errorf("the finished game %s was adopted by the sweep", id)
		}
	}
	// A finished game is adopted when someone asks for it.
	askUntilOwned(ctx, t, b, over[0])
	since := func(ids []string) (out []string) {
		for _, id := range ids {
			if d, ok := took[id]; ok {
				out = append(out, d.Round(time.Millisecond).String())
			}
		}
		return out
	}
	t.Logf("sweep of %d rooms, one running game's adoption hung: the others owned after (from the sweep's start) running %v, open %v",
		len(others), since(running), since(open))
}

// TestRenewalsBeginWithTheStalestLease: a round of renewals cut short by
// its deadline begins the next with the leases it missed: the rooms come
// in the order they were last renewed, oldest first.
func TestRenewalsBeginWithTheStalestLease(t *testing.T) {
	now := time.Now()
	n := &node{owned: map[string]*lease{
		"a": {renewed: now},
		"b": {renewed: now.Add(-3 * time.Second)},
		"c": {renewed: now.Add(-time.Second)},
		"d": {renewed: now.Add(-3 * time.Second)},
	}}
	if got, want := n.stalestFirst(), []string{"b", "d", "c", "a"}; !slices.Equal(got, want) {
		t.Fatalf("renewal order %v, want %v", got, want)
	}
}
