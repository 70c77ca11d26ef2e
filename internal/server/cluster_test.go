package server

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/wolfden/wolfden/internal/bus"
	"github.com/wolfden/wolfden/internal/bus/inmem"
	"github.com/wolfden/wolfden/internal/bus/sealed"
	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/store/postgres"
	"github.com/wolfden/wolfden/internal/store/postgres/pgtest"
	"github.com/wolfden/wolfden/rules"
)

// A cluster of nodes in one process: one PostgreSQL database, one
// in-memory bus, each node a Server with its own connection to both.
type testCluster struct {
	db   string
	hub  *inmem.Hub
	wrap func(node string, b bus.Bus) bus.Bus // a test's look at a node's bus
	wire *busLog                              // if set, every byte the nodes put on the bus
	ttl  time.Duration                        // the leases' (leaseTTL unless set)
	// leases, if set, is a test's look at a node's leases.
	leases func(node string, l Leases) Leases
	// relayWait, if set, is the nodes' Cluster.relayWait.
	relayWait time.Duration
}

type clusterNode struct {
	*Server
	name string
	http *httptest.Server
	api  *client.API
	bus  bus.Bus // its connection to the bus (kill closes it)
	seal *sealed.Bus
	st   *postgres.Fenced
	dead bool
}

// testClusterSecret seals the messages of the tests' clusters.
const testClusterSecret = "wolfden-test-cluster-secret-0123456789abcdef"

// leaseTTL is short so that a failover is quick.
const leaseTTL = time.Second

func newTestCluster(t *testing.T) *testCluster {
	return &testCluster{db: pgtest.Start(t).NewDB(t), hub: inmem.New()}
}

func (c *testCluster) node(t *testing.T, name string) *clusterNode {
	t.Helper()
	b := c.hub.Connect()
	var raw bus.Bus = b
	if c.wire != nil {
		raw = &busTap{Bus: b, log: c.wire}
	}
	var wrap func(bus.Bus) bus.Bus
	if c.wrap != nil {
		wrap = func(bus.Bus) bus.Bus { return c.wrap(name, b) }
	}
	var leases func(Leases) Leases
	if c.leases != nil {
		leases = func(l Leases) Leases { return c.leases(name, l) }
	}
	return c.start(t, name, b, raw, wrap, leases)
}

// start runs a node of the cluster on raw, its connection to the bus
// (conn: what kill closes), sealed with the cluster's secret; wrap, if set,
// gives the bus its server sees in place of the sealed one, leases its
// leases.
func (c *testCluster) start(t *testing.T, name string, conn, raw bus.Bus, wrap func(bus.Bus) bus.Bus, leases func(Leases) Leases) *clusterNode {
	t.Helper()
	ctx := context.Background()
	db, err := postgres.Open(ctx, c.db)
	if err != nil {
		t.Fatal(err)
	}
	f, err := db.Fenced(name)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := sealed.New(raw, []byte(testClusterSecret), sealed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var nb bus.Bus = sb
	if wrap != nil {
		nb = wrap(nb)
	}
	var l Leases = f.Keeper()
	if leases != nil {
		l = leases(l)
	}
	s := New(f, Options{Cluster: &Cluster{Node: name, Bus: nb, Leases: l, TTL: cmp.Or(c.ttl, leaseTTL), relayWait: c.relayWait}, Linger: time.Minute})
	if _, err := s.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	n := &clusterNode{Server: s, name: name, http: hs, api: &client.API{Base: hs.URL}, bus: conn, seal: sb, st: f}
	t.Cleanup(n.kill)
	return n
}

// kill stops a node as a SIGKILL would: its connections drop, it stops
// answering the bus and renewing its leases, which it does not release.
// (Its actors stop too; what they acknowledged is stored, as in a real
// kill.)
func (n *clusterNode) kill() {
	if n.dead {
		return
	}
	n.dead = true
	_ = n.bus.Close()
	n.http.CloseClientConnections()
	n.http.Close()
	n.Stop()
	n.st.Close()
}

// owner is the node that owns the room now, waiting for one to.
func owner(t *testing.T, id string, nodes ...*clusterNode) *clusterNode {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, n := range nodes {
			if !n.dead && n.cl.owns(id) {
				return n
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no node owns room %s", id)
	return nil
}

// seatPlayer plays one seat through whichever node it is told, redialling
// (from the last frame it has) whenever its connection closes, until the
// game is over; its stream refuses gaps and duplicates.
type seatPlayer struct {
	seat   int
	token  string
	stream stream
	winner string
	dials  int
	seen   atomic.Int32 // events received, for the test to watch
}

func (p *seatPlayer) play(ctx context.Context, t *testing.T, room string, node func(dial int) *clusterNode) error {
	r := rand.New(rand.NewPCG(uint64(p.seat), 7))
	for ctx.Err() == nil {
		n := node(p.dials)
		p.dials++
		conn, err := client.Dial(ctx, n.http.URL, room, p.token, len(p.stream.events), len(p.stream.chats))
		if err != nil {
			time.Sleep(50 * time.Millisecond) // the room is moving: its next owner is not there yet
			continue
		}
		st, err := conn.PlayRandom(ctx, r, func(f client.Frame) bool {
			p.stream.take(t, f)
			p.seen.Store(int32(len(p.stream.events)))
			return false
		})
		conn.Close()
		if err == nil {
			p.winner = st.Winner
			return nil
		}
		// The connection closed, as it does when its game moves: read
		// (client.ErrClosed), or while a command was being sent. Either
		// way the client dials again, as the web client does.
		if !errors.Is(err, client.ErrClosed) && !errors.Is(err, net.ErrClosed) {
			return err
		}
	}
	return ctx.Err()
}

// checkStreams: each seat's stream, put together over its reconnections
// through several nodes, equals what one fresh connection of the seat gets
// from the room's owner at the end, byte for byte.
func checkStreams(ctx context.Context, t *testing.T, own *clusterNode, room string, players []*seatPlayer) {
	t.Helper()
	for _, p := range players {
		if p.winner == "" || p.winner != players[0].winner {
			t.Fatalf("seat %d saw winner %q, seat %d %q", p.seat, p.winner, players[0].seat, players[0].winner)
		}
		conn, err := client.Dial(ctx, own.http.URL, room, p.token, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var whole stream
		for f := range conn.Frames {
			whole.take(t, f)
			if f.Type == "state" && f.Over {
				break
			}
		}
		conn.Close()
		if len(whole.events) != len(p.stream.events) {
			t.Fatalf("seat %d put together %d events; the owner sends %d", p.seat, len(p.stream.events), len(whole.events))
		}
		for i := range whole.events {
			if string(whole.events[i]) != string(p.stream.events[i]) {
				t.Fatalf("seat %d, event %d differs:\n%s\n%s", p.seat, i+1, p.stream.events[i], whole.events[i])
			}
		}
	}
}

// clusterTable opens a room on one node, seats every player through the
// others (their requests go to the owner) and starts it from a third.
func clusterTable(ctx context.Context, t *testing.T, nodes []*clusterNode, body map[string]any) (client.Created, []*seatPlayer) {
	t.Helper()
	var c client.Created
	if err := nodes[0].api.Do(ctx, "POST", "/api/rooms", "", body, &c); err != nil {
		t.Fatal(err)
	}
	var players []*seatPlayer
	for i := 0; i < c.Room.Players; i++ {
		var p seated
		n := nodes[(i+1)%len(nodes)]
		if err := n.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/join", "", map[string]any{"nickname": fmt.Sprint("p", i+1)}, &p); err != nil {
			t.Fatalf("join through %s: %v", n.name, err)
		}
		players = append(players, &seatPlayer{seat: p.Seat, token: p.Token})
	}
	if err := nodes[len(nodes)-1].api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	return c, players
}

// TestClusterNodesShareOneGame: a room made on one node, its seats taken
// and its game started through the others, its players connected to three
// different nodes: the game is played to its end as on one server, and
// every seat's stream is the owner's.
func TestClusterNodesShareOneGame(t *testing.T) {
	c := newTestCluster(t)
	nodes := []*clusterNode{c.node(t, "a"), c.node(t, "b"), c.node(t, "c")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	room, players := clusterTable(ctx, t, nodes, map[string]any{"preset": "std-9", "seed": 5, "practice": true, "timers": quick})
	own := owner(t, room.Room.ID, nodes...)
	if own != nodes[0] {
		t.Fatalf("the room was made on node a but %s owns it", own.name)
	}
	playSeats(ctx, t, room.Room.ID, players, func(i, _ int) *clusterNode { return nodes[i%3] })()
	if t.Failed() {
		return
	}
	checkStreams(ctx, t, own, room.Room.ID, players)
	if got := testutil.ToFloat64(nodes[0].cl.m.remote); got == 0 {
		t.Error("the owner counted no request from the other nodes")
	}
}

// TestClusterAdoptsTheGameOfADeadNode: the owner dies mid-game; once its
// lease has expired another node restores the game from the database and
// play goes on: the players, who were on the other nodes, reconnect and
// resume, and lose nothing.
func TestClusterAdoptsTheGameOfADeadNode(t *testing.T) {
	c := newTestCluster(t)
	nodes := []*clusterNode{c.node(t, "a"), c.node(t, "b"), c.node(t, "c")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	room, players := clusterTable(ctx, t, nodes, map[string]any{"preset": "std-9", "seed": 6, "practice": true, "timers": quick})
	first := owner(t, room.Room.ID, nodes...)
	if first != nodes[0] {
		t.Fatalf("the room was made on node a but %s owns it", first.name)
	}
	playAll(ctx, t, room.Room.ID, players, func(i, dial int) *clusterNode {
		return nodes[1+(i+dial)%2] // b and c: never the owner
	}, first.kill)
	if t.Failed() {
		return
	}
	next := owner(t, room.Room.ID, nodes[1], nodes[2])
	checkStreams(ctx, t, next, room.Room.ID, players)
	if got := testutil.ToFloat64(next.cl.m.takeovers); got == 0 {
		t.Error("the new owner counted no takeover")
	}
	for _, p := range players {
		if p.dials < 2 {
			t.Errorf("seat %d never reconnected: was its node the dead owner?", p.seat)
		}
	}
}

// tap is a node's bus that records what it is delivered on the subjects of
// relayed connections: all that reaches the node of the games it does not
// own.
type tap struct {
	bus.Bus
	mu    sync.Mutex
	subs  []string            // every subject the node subscribed to
	lines map[string][][]byte // by connection subject: the frames delivered, line by line
}

func (b *tap) Subscribe(subject string, h bus.Handler) (bus.Subscription, error) {
	b.mu.Lock()
	b.subs = append(b.subs, subject)
	b.mu.Unlock()
	return b.Bus.Subscribe(subject, func(m bus.Msg) {
		if strings.Contains(m.Subject, ".conn.") && len(m.Data) > 0 && m.Data[0] == relayMsg {
			b.mu.Lock()
			for line := range bytes.SplitSeq(m.Data[1:], []byte{'\n'}) {
				b.lines[m.Subject] = append(b.lines[m.Subject], slices.Clone(line))
			}
			b.mu.Unlock()
		}
		h(m)
	})
}

// TestClusterSendsANodeOnlyItsOwnSeatsFrames: a wolf plays through node b,
// a villager through node c, everyone else on the owner. What each node is
// delivered over the bus is its one connection's frames, exactly as its
// client reads them, on that connection's subject alone: node c never
// receives a byte of the wolf's (their streams differ: the wolves' chat
// and picks), and it subscribed to nothing but its own connections and the
// cluster's releases.
func TestClusterSendsANodeOnlyItsOwnSeatsFrames(t *testing.T) {
	c := newTestCluster(t)
	taps := map[string]*tap{}
	c.wrap = func(name string, b bus.Bus) bus.Bus {
		tp := &tap{Bus: b, lines: map[string][][]byte{}}
		taps[name] = tp
		return tp
	}
	nodes := []*clusterNode{c.node(t, "a"), c.node(t, "b"), c.node(t, "c")}
	p, _ := rules.LookupPreset("std-9")
	board, _ := p.Board(9)
	deal, rest := []string{}, slices.Clone(board.Cards)
	for _, first := range []rules.Role{rules.Werewolf, rules.Villager} { // seats 1 and 2
		i := slices.Index(rest, first)
		deal, rest = append(deal, first.String()), slices.Delete(rest, i, i+1)
	}
	for _, r := range rest {
		deal = append(deal, r.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	room, players := clusterTable(ctx, t, nodes, map[string]any{"preset": "std-9", "seed": 8, "practice": true,
		"timers": quick, "deal": deal})
	got := make([][][]byte, len(players)) // what the clients of seats 1 and 2 read
	var wg sync.WaitGroup
	for i, pl := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := nodes[0]
			if i < 2 {
				n = nodes[1+i]
			}
			conn, err := client.Dial(ctx, n.http.URL, room.Room.ID, pl.token, 0, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			r := rand.New(rand.NewPCG(uint64(i), 9))
			if _, err := conn.PlayRandom(ctx, r, func(f client.Frame) bool {
				got[i] = append(got[i], f.Raw)
				return false
			}); err != nil {
				t.Errorf("seat %d: %v", pl.seat, err)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	nodes[1].kill() // its deliveries are over
	nodes[2].kill()
	for i, name := range []string{"b", "c"} {
		tp := taps[name]
		tp.mu.Lock()
		if len(tp.lines) != 1 {
			t.Fatalf("node %s was delivered frames on %d connection subjects; it holds one connection", name, len(tp.lines))
		}
		var lines [][]byte
		for _, l := range tp.lines {
			lines = l
		}
		if len(lines) > 0 && bytes.HasPrefix(lines[0], []byte(`{"type":"welcome"`)) {
			lines = lines[1:] // read by Dial, not by the game's loop
		}
		for _, s := range tp.subs {
			if !strings.Contains(s, ".conn.") && s != bus.Free && s != bus.Moved {
				t.Errorf("node %s subscribed to %q", name, s)
			}
		}
		tp.mu.Unlock()
		// The client stops reading at the end screen; the bus may have
		// carried its last frames after that.
		if len(lines) < len(got[i]) {
			t.Fatalf("node %s was delivered %d frames, its client read %d", name, len(lines), len(got[i]))
		}
		for k := range got[i] {
			if !bytes.Equal(lines[k], got[i][k]) {
				t.Fatalf("node %s, frame %d: the bus carried\n%s\nthe client read\n%s", name, k+1, lines[k], got[i][k])
			}
		}
	}
	if slices.EqualFunc(got[0], got[1], bytes.Equal) {
		t.Fatal("the wolf and the villager read the same frames: the test shows nothing")
	}
}

// playSeats sets every seat playing, each through the node node chooses
// for its dial'th connection; the function it returns waits for them.
func playSeats(ctx context.Context, t *testing.T, room string, players []*seatPlayer, node func(i, dial int) *clusterNode) func() {
	var wg sync.WaitGroup
	for i, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.play(ctx, t, room, func(dial int) *clusterNode { return node(i, dial) }); err != nil {
				t.Errorf("seat %d: %v", p.seat, err)
			}
		}()
	}
	return wg.Wait
}

// playAll plays every seat, each through the node node chooses for its
// dial'th connection, while during runs once the first seat has had a few
// events; it fails the test if the game ended before that.
func playAll(ctx context.Context, t *testing.T, room string, players []*seatPlayer, node func(i, dial int) *clusterNode, during func()) {
	t.Helper()
	wait := playSeats(ctx, t, room, players, node)
	did := make(chan struct{})
	go func() {
		defer close(did)
		for ctx.Err() == nil && players[0].seen.Load() <= 3 {
			time.Sleep(10 * time.Millisecond)
		}
		during()
	}()
	wait()
	<-did
	if players[0].dials < 2 && !t.Failed() {
		t.Fatal("the game ended before anything happened to its owner")
	}
}

// TestClusterDrainHandsTheGamesOver: a node told to stop (SIGTERM's
// Drain) gives its games to the others at once: with leases of an hour,
// the game can only go on because it was handed over, not because a lease
// ran out.
func TestClusterDrainHandsTheGamesOver(t *testing.T) {
	c := newTestCluster(t)
	c.ttl = time.Hour
	nodes := []*clusterNode{c.node(t, "a"), c.node(t, "b"), c.node(t, "c")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	room, players := clusterTable(ctx, t, nodes, map[string]any{"preset": "std-9", "seed": 11, "practice": true, "timers": quick})
	playAll(ctx, t, room.Room.ID, players, func(i, dial int) *clusterNode {
		if dial == 0 {
			return nodes[i%3] // the owner's own connections too
		}
		return nodes[1+(i+dial)%2]
	}, nodes[0].Drain)
	if t.Failed() {
		return
	}
	if nodes[0].cl.owns(room.Room.ID) {
		t.Fatal("the drained node still owns the room")
	}
	next := owner(t, room.Room.ID, nodes[1], nodes[2])
	checkStreams(ctx, t, next, room.Room.ID, players)
}

// TestClusterNodeCutOffFromTheBusLetsItsGamesGo: the owner loses the bus
// (its process, database and own connections fine): it stops renewing,
// and once its leases run out it stops its game and closes its
// connections as moved; another node adopts the game and it goes on.
func TestClusterNodeCutOffFromTheBusLetsItsGamesGo(t *testing.T) {
	c := newTestCluster(t)
	nodes := []*clusterNode{c.node(t, "a"), c.node(t, "b"), c.node(t, "c")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	room, players := clusterTable(ctx, t, nodes, map[string]any{"preset": "std-9", "seed": 12, "practice": true, "timers": quick})
	playAll(ctx, t, room.Room.ID, players, func(i, dial int) *clusterNode {
		if dial == 0 {
			return nodes[i%3]
		}
		return nodes[1+(i+dial)%2]
	}, func() { _ = nodes[0].bus.Close() })
	if t.Failed() {
		return
	}
	nodes[0].mu.Lock()
	_, kept := nodes[0].rooms[room.Room.ID]
	nodes[0].mu.Unlock()
	if kept || nodes[0].cl.owns(room.Room.ID) {
		t.Fatal("the cut-off node kept the room")
	}
	next := owner(t, room.Room.ID, nodes[1], nodes[2])
	checkStreams(ctx, t, next, room.Room.ID, players)
}

// TestAWaitForARoomsChangeOutlivesItsMove: a waiting room's client polls
// for the next change past the version it has; after its room moved to
// another node (its owner died), the new owner's versions go on above it,
// so the poll is answered at once, not when a wait of an hour runs out.
func TestAWaitForARoomsChangeOutlivesItsMove(t *testing.T) {
	defer func(w time.Duration) { changeWait = w }(changeWait)
	changeWait = time.Hour
	c := newTestCluster(t)
	a, b := c.node(t, "a"), c.node(t, "b")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var made client.Created
	if err := a.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "nickname": "Ann"}, &made); err != nil {
		t.Fatal(err)
	}
	var info roomInfo
	for range 3 { // a few changes, so that the version is past its first
		if err := b.api.Do(ctx, "POST", "/api/rooms/"+made.Room.ID+"/join", "", map[string]any{"nickname": "Bob"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.api.Do(ctx, "GET", "/api/rooms/"+made.Room.ID, "", nil, &info); err != nil {
		t.Fatal(err)
	}
	a.kill()
	owner(t, made.Room.ID, b)
	var after roomInfo
	if err := b.api.Do(ctx, "GET", "/api/rooms/"+made.Room.ID+"?after="+fmt.Sprint(info.Version), "", nil, &after); err != nil {
		t.Fatal(err)
	}
	if after.Version <= info.Version {
		t.Fatalf("after the move the room is at version %d, below the %d its client had", after.Version, info.Version)
	}
}

// TestClusterFencesAnOwnerThatMissedItsLeasesEnd: an owner that stops
// renewing without noticing (paused, its clock or loop stuck) while its
// game goes on: once another node has adopted the game, the old owner's
// next write is refused inside its transaction (fenced), it drops the game
// at once, unpaused, and its players move to the new owner losing nothing.
func TestClusterFencesAnOwnerThatMissedItsLeasesEnd(t *testing.T) {
	c := newTestCluster(t)
	nodes := []*clusterNode{c.node(t, "a"), c.node(t, "b")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Nights long enough for the lease to run out within the game.
	slow := maps.Clone(quick)
	slow["night"] = "1s"
	room, players := clusterTable(ctx, t, nodes, map[string]any{"preset": "std-9", "seed": 6, "practice": true, "timers": slow})
	playAll(ctx, t, room.Room.ID, players, func(i, dial int) *clusterNode {
		if dial == 0 {
			return nodes[i%2]
		}
		return nodes[1]
	}, func() { nodes[0].cl.stop() }) // no more renewals, nor the checks that would drop the game
	if t.Failed() {
		return
	}
	if nodes[0].cl.owns(room.Room.ID) {
		t.Fatal("the fenced node still owns the room")
	}
	if n := nodes[0].stalled.Load(); n != 0 {
		t.Fatalf("the fenced node counts %d paused games", n)
	}
	checkStreams(ctx, t, owner(t, room.Room.ID, nodes[1]), room.Room.ID, players)
}

// TestClusterShowsAFinishedGameAfterItsOwnerDied: a game ended on its
// owner, which died while its end was shown: the node a request for it
// reaches adopts it on its end screen for the rest of its linger (no sweep
// does: nobody may ask), and every seat connecting then gets its whole
// stream, to the end, as the owner sent it.
func TestClusterShowsAFinishedGameAfterItsOwnerDied(t *testing.T) {
	c := newTestCluster(t)
	nodes := []*clusterNode{c.node(t, "a"), c.node(t, "b")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	room, players := clusterTable(ctx, t, nodes, map[string]any{"preset": "std-9", "seed": 14, "practice": true, "timers": quick})
	playSeats(ctx, t, room.Room.ID, players, func(i, _ int) *clusterNode { return nodes[i%2] })()
	if t.Failed() {
		return
	}
	owner(t, room.Room.ID, nodes[0]).kill()
	askUntilOwned(ctx, t, nodes[1], room.Room.ID)
	checkStreams(ctx, t, nodes[1], room.Room.ID, players)
}

// askUntilOwned asks n for a room whose owner died until n has adopted it
// (until then its lease runs, and n answers 503 moving).
func askUntilOwned(ctx context.Context, t *testing.T, n *clusterNode, id string) {
	t.Helper()
	for !n.cl.owns(id) {
		err := n.api.Do(ctx, "GET", "/api/rooms/"+id, "", nil, nil)
		if ctx.Err() != nil {
			t.Fatalf("%s never adopted room %s on request: %v", n.name, id, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
