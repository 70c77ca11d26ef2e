package server

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/wolfden/wolfden/internal/bus"
	"github.com/wolfden/wolfden/internal/store"
)

// Cluster makes the server one node of several that share a database
// (PostgreSQL) and a bus (NATS): docs/cluster.md. Each room, open or
// running, is owned by one node at a time, the holder of its lease; its
// requests and WebSockets may reach any node, which passes them to the
// owner over the bus. When an owner dies its leases expire and the other
// nodes adopt its rooms, restoring their games from the database.
type Cluster struct {
	// Node is this node's name, recorded in the leases it holds; two live
	// nodes must not share one.
	Node string
	Bus  bus.Bus
	// Leases are the node's leases on the shared database. The server's
	// store must be fenced by them (postgres.Fenced): a write to a room
	// whose lease the node lost is refused.
	Leases Leases
	// TTL is how long a lease lasts; the owner renews it every third of
	// that. 0 takes 10 s.
	TTL time.Duration

	// relayWait, in tests, replaces busWait and relayAlive for the
	// relayed WebSockets: the tests of a hung owner make them long, to
	// show that its players do not wait for them.
	relayWait time.Duration
}

// Leases is what a node needs of the database's leases
// (internal/store/postgres: lease.go, fenced.go).
type Leases interface {
	// Acquire takes room's lease if nobody holds it; Held(err) tells a
	// refusal because another node does.
	Acquire(ctx context.Context, room string, ttl time.Duration) error
	Renew(ctx context.Context, room string, ttl time.Duration) error
	Release(ctx context.Context, room string) error
	// Orphans lists the open and running rooms whose lease is free or
	// expired, the running ones first.
	Orphans(ctx context.Context) ([]string, error)
	// BusBeat records whether this node reaches the bus (up); while it
	// does not, it names another node that has reached it for grace since
	// this one lost it, and was on it within fresh ("" if none).
	BusBeat(ctx context.Context, up bool, fresh, grace time.Duration) (other string, err error)
	// Lost tells an error of Renew or of a write that means the lease is
	// another's now (not a passing failure of the database).
	Lost(err error) bool
	// Held tells an error of Acquire that means another node holds it.
	Held(err error) bool
}

// How often a relaying node tells the owner that a connection is still
// there, and how long the owner waits before dropping one it no longer
// hears of (the relaying node died).
const (
	relayAlive = 5 * time.Second
	relayDead  = 4 * relayAlive
	// busWait bounds a request to another node (an HTTP request's wait for
	// a room's change, changeWait, comes on top).
	busWait = 10 * time.Second
)

var errMoving = fail(http.StatusServiceUnavailable, "moving",
	"this room is moving to another server of the cluster; try again in a moment")

// node is the server's part in a cluster.
type node struct {
	s   *Server
	c   Cluster
	ttl time.Duration
	// a relayed WebSocket's wait for the owner's answer, and its keep-alive
	// (busWait and relayAlive, unless a test says)
	relayWait, relayAlive time.Duration

	mu     sync.Mutex
	owned  map[string]*lease          // the rooms this node owns
	relays map[string]*relayConn      // connections other nodes relay to this one's games, by id
	held   map[*relaySession]struct{} // connections of this node relayed to others' games
	free   bus.Subscription
	moved  bus.Subscription                // bus.Moved (hung.go)
	asking map[string]map[*asking]struct{} // requests waiting on each room's owner (hung.go)
	quit   chan struct{}
	loop   sync.WaitGroup
	m      *clusterMetrics

	bus      busState     // what the node last made of its bus (sweep.go)
	sweeping atomic.Bool  // a sweep for orphans is under way
	rounds   atomic.Int64 // the keep loop's rounds, for the tests to wait on
	sweeps   atomic.Int64 // the sweeps done
}

type lease struct {
	cmd     bus.Subscription
	renewed time.Time    // this node's clock before the call that last took or renewed it
	end     atomic.Int64 // renewed + ttl, monotonic, for the writers (hung.go)
}

type clusterMetrics struct {
	owned     prometheus.Gauge
	remote    prometheus.Counter
	takeovers prometheus.Counter
	latency   prometheus.Histogram
	refused   prometheus.CounterFunc // nil unless the bus counts the messages it refuses
}

func newNode(s *Server, c Cluster) *node {
	if c.TTL == 0 {
		c.TTL = 10 * time.Second
	}
	n := &node{s: s, c: c, ttl: c.TTL, owned: map[string]*lease{}, relays: map[string]*relayConn{},
		held: map[*relaySession]struct{}{}, quit: make(chan struct{}),
		relayWait: cmp.Or(c.relayWait, busWait), relayAlive: cmp.Or(c.relayWait, relayAlive),
		asking: map[string]map[*asking]struct{}{}}
	n.m = &clusterMetrics{
		owned: prometheus.NewGauge(prometheus.GaugeOpts{Name: "wolfden_cluster_games_owned",
			Help: "Rooms, open or running, whose lease this node holds."}),
		remote: prometheus.NewCounter(prometheus.CounterOpts{Name: "wolfden_cluster_remote_commands_total",
			Help: "Requests and frames other nodes passed to this node's rooms."}),
		takeovers: prometheus.NewCounter(prometheus.CounterOpts{Name: "wolfden_cluster_lease_takeovers_total",
			Help: "Rooms this node adopted from a node that died, was cut off or handed them over."}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "wolfden_cluster_bus_seconds",
			Help:    "Requests to another node over the bus, from sending to the reply.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 16)}),
	}
	s.m.reg.MustRegister(n.m.owned, n.m.remote, n.m.takeovers, n.m.latency)
	if r, ok := c.Bus.(interface{ Refused() int64 }); ok { // sealed: forgeries, replays, another secret
		n.m.refused = prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "wolfden_cluster_bus_refused_total",
			Help: "Messages on the bus this node refused: not sealed with the cluster's secret, too old, or replayed."},
			func() float64 { return float64(r.Refused()) })
		s.m.reg.MustRegister(n.m.refused)
	}
	return n
}

// start adopts the rooms nobody owns, then keeps the leases and watches
// for more orphans until stop.
func (n *node) start(ctx context.Context) error {
	sub, err := n.c.Bus.Subscribe(bus.Free, func(m bus.Msg) {
		id := string(m.Data)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), busWait)
			defer cancel()
			_, _ = n.adopt(ctx, id)
		}()
	})
	if err != nil {
		return fmt.Errorf("cluster: listen for released rooms: %w", err)
	}
	n.free = sub
	if n.moved, err = n.c.Bus.Subscribe(bus.Moved, n.heardMoved); err != nil {
		return fmt.Errorf("cluster: listen for adopted rooms: %w", err)
	}
	n.loop.Add(2)
	go n.keep()
	go n.watch()
	if n.sweeping.CompareAndSwap(false, true) {
		n.sweep(ctx)
	}
	return nil
}

// keep renews the leases, drops the rooms whose lease is lost or ran out,
// adopts orphans (a sweep of its own, so that a long one never holds the
// renewals up) and forgets relayed connections whose node went silent.
func (n *node) keep() {
	defer n.loop.Done()
	t := time.NewTicker(n.ttl / 3)
	defer t.Stop()
	// Orphans are looked for more often than leases are renewed: a game
	// whose owner froze or died is adopted within about a second of its
	// lease running out, not up to a third of a ttl later (its players are
	// back within the ttl and a second or two).
	look := time.NewTicker(min(n.ttl/3, time.Second))
	defer look.Stop()
	sweeps, stop := context.WithCancel(context.Background())
	defer stop()
	for {
		select {
		case <-n.quit:
			return
		case <-look.C:
			n.startSweep(sweeps)
			continue
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), n.ttl/3)
		n.renew(ctx)
		cancel()
		n.beat()
		n.startSweep(sweeps)
		n.reap()
		n.rounds.Add(1)
	}
}

func (n *node) stop() {
	select {
	case <-n.quit:
	default:
		close(n.quit)
	}
	n.loop.Wait()
	if n.free != nil {
		_ = n.free.Unsubscribe()
	}
	if n.moved != nil {
		_ = n.moved.Unsubscribe()
	}
}

// renew extends every lease the node holds, through the database, with
// the bus or without it. A node cut off from the bus while other nodes are
// on it does not (cutOff): it cannot serve the rooms' other nodes, so it
// lets them go to a node that can, and stops acting for them once their
// leases run out.
func (n *node) renew(ctx context.Context) {
	cut := n.cutOff(ctx)
	for _, id := range n.stalestFirst() {
		n.mu.Lock()
		l := n.owned[id]
		n.mu.Unlock()
		if l == nil {
			continue
		}
		at := time.Now()
		var err error
		if !cut {
			err = n.c.Leases.Renew(ctx, id, n.ttl)
		}
		switch {
		case !cut && err == nil:
			n.mu.Lock()
			l.renewed = at
			n.mu.Unlock()
			l.extend(at, n.ttl)
		case err != nil && n.c.Leases.Lost(err):
			n.s.log.Warn("cluster: the lease of a room was lost; another node has it", "room", id, "err", err)
			n.abandon(id, false)
		case l.lapsed():
			n.s.log.Warn("cluster: a room's lease ran out unrenewed; it is left to another node", "room", id,
				"cut_off", cut, "err", err)
			n.abandon(id, false)
		}
	}
}

func (n *node) ownedIDs() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	ids := make([]string, 0, len(n.owned))
	for id := range n.owned {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// own takes a new room's lease: the node that creates a room owns it.
// hold puts the room in memory before its requests are answered.
func (n *node) own(ctx context.Context, id string, hold func()) error {
	at := time.Now()
	if err := n.c.Leases.Acquire(ctx, id, n.ttl); err != nil {
		return err
	}
	hold()
	return n.listen(id, at)
}

// listen answers the room's requests from other nodes, once its room is in
// memory (so that none is served from a copy of the store's).
func (n *node) listen(id string, renewed time.Time) error {
	subj, err := bus.Commands(id)
	if err != nil {
		return err
	}
	sub, err := n.c.Bus.Subscribe(subj, func(m bus.Msg) { n.serve(id, m) })
	if err != nil {
		return err
	}
	l := &lease{cmd: sub, renewed: renewed}
	l.extend(renewed, n.ttl)
	n.mu.Lock()
	n.owned[id] = l
	n.mu.Unlock()
	n.bind(id, l)
	n.m.owned.Inc()
	return nil
}

// errHeld: another node holds the room's lease.
var errHeld = errors.New("cluster: another node holds the room")

// adopt takes a room nobody owns and brings it into memory: an open room
// as it is, a game restored from its records, timers included, and a
// finished one on its end screen for what is left of its linger. It is
// false if there is nothing to own (the room is a replay now), errHeld
// if another node holds its lease.
func (n *node) adopt(ctx context.Context, id string) (bool, error) {
	if n.s.draining.Load() {
		return false, errHeld // soon another node's
	}
	n.mu.Lock()
	_, mine := n.owned[id]
	n.mu.Unlock()
	if mine {
		return true, nil
	}
	at := time.Now()
	if err := n.c.Leases.Acquire(ctx, id, n.ttl); err != nil {
		if n.c.Leases.Held(err) {
			return false, errHeld
		}
		return false, err
	}
	rec, err := n.s.st.Room(ctx, id)
	if err == nil {
		switch {
		case rec.Status == store.StatusOpen:
			var rm *room
			if rm, err = loadRoom(rec); err == nil {
				n.s.hold(rm)
			}
		case rec.Status == store.StatusRunning,
			rec.Status == store.StatusOver && time.Since(rec.Updated) < n.s.opts.Linger:
			if _, err = n.s.restoreGame(ctx, rec); err == nil && !n.s.holds(id) {
				n.release(id) // set aside as lost: nothing to own
				return false, nil
			}
		default: // only a replay now: nothing to own
			n.release(id)
			return false, nil
		}
	}
	if err == nil {
		err = n.listen(id, at)
	}
	if err != nil {
		n.s.dropRoom(id)
		n.release(id)
		return false, err
	}
	n.m.takeovers.Inc()
	n.s.log.Info("cluster: adopted a room", "room", id, "status", rec.Status, "took", time.Since(at).Round(time.Millisecond).String())
	n.announce(id)
	return true, nil
}

func (n *node) release(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), busWait)
	defer cancel()
	if err := n.c.Leases.Release(ctx, id); err != nil && !n.c.Leases.Lost(err) {
		n.s.log.Warn("cluster: releasing a room's lease", "room", id, "err", err)
	}
}

// abandon lets a room go: its requests are no longer answered here, its
// game stops (its records are stored) and its connections, here and
// relayed, are closed as moved, so that their clients reconnect to the
// room's next owner. With handOver it releases the lease and says so on
// the bus, for another node to take the room at once.
func (n *node) abandon(id string, handOver bool) {
	if !n.letGo(id) {
		return
	}
	n.s.dropRoom(id)
	if handOver {
		n.release(id)
		ctx, cancel := context.WithTimeout(context.Background(), busWait)
		_ = n.c.Bus.Publish(ctx, bus.Free, []byte(id))
		cancel()
	}
}

// disown lets a finished room go once it leaves memory.
func (n *node) disown(id string) {
	if n.letGo(id) {
		n.release(id)
	}
}

// letGo stops answering for a room; false if the node did not own it.
func (n *node) letGo(id string) bool {
	n.mu.Lock()
	l := n.owned[id]
	delete(n.owned, id)
	n.mu.Unlock()
	if l == nil {
		return false
	}
	n.m.owned.Dec()
	_ = l.cmd.Unsubscribe()
	return true
}

// handOver gives every room to the other nodes (a drain), and closes the
// connections this node relays to theirs.
func (n *node) handOver() {
	for _, id := range n.ownedIDs() {
		n.abandon(id, true)
	}
	n.mu.Lock()
	held := make([]*relaySession, 0, len(n.held))
	for rs := range n.held {
		held = append(held, rs)
	}
	n.mu.Unlock()
	for _, rs := range held {
		rs.moved()
	}
}

// owns tells whether the room is this node's.
func (n *node) owns(id string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	_, ok := n.owned[id]
	return ok
}

// dropRoom takes a room out of memory as it moves to another node: its
// game's actor stops (what it acknowledged is stored) and its connections
// are closed as moved.
func (s *Server) dropRoom(id string) {
	s.mu.Lock()
	rm := s.rooms[id]
	delete(s.rooms, id)
	s.mu.Unlock()
	if rm == nil {
		return
	}
	rm.mu.Lock()
	rm.moved = true
	a, status, code := rm.actor, rm.rec.Status, rm.rec.Code
	rm.mu.Unlock()
	s.codes.forget(code, id)
	s.m.rooms.WithLabelValues(status).Dec()
	if a != nil {
		a.Stop()
		<-a.Done()
	}
	if rm.stalled.Swap(false) { // its new owner counts it, if it is still paused there
		s.stall(false)
	}
}

// The requests a node sends a room's owner (op), on the room's Commands
// subject.
type envelope struct {
	Op   string `json:"op"` // http, open, in, alive, close
	Conn string `json:"conn,omitempty"`
	Node string `json:"node,omitempty"`
	// Addr is the client's address as the node it reached saw it
	// (clientAddr), for the owner's limits per address.
	Addr string `json:"addr,omitempty"`
	Data []byte `json:"data,omitempty"` // in: a WebSocket message

	Method string      `json:"method,omitempty"`
	URL    string      `json:"url,omitempty"`
	Host   string      `json:"host,omitempty"`
	Header http.Header `json:"header,omitempty"`
}

type answer struct {
	// Gone: the relayed connection is no longer known to the owner.
	Gone   bool        `json:"gone,omitempty"`
	Node   string      `json:"node,omitempty"` // open: the owner that opened it
	Status int         `json:"status,omitempty"`
	Header http.Header `json:"header,omitempty"`
	Body   []byte      `json:"body,omitempty"`
}

// ask sends a room's owner a request and waits for its answer.
func (n *node) ask(ctx context.Context, id string, e envelope, wait time.Duration) (answer, error) {
	subj, err := bus.Commands(id)
	if err != nil {
		return answer{}, err
	}
	e.Node = n.c.Node
	b, _ := json.Marshal(e)
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	ctx, done := n.askCtx(ctx, id) // ended early if another node adopts the room
	defer done()
	t0 := time.Now()
	reply, err := n.c.Bus.Request(ctx, subj, b)
	if err != nil {
		return answer{}, movedCause(ctx, err)
	}
	n.m.latency.Observe(time.Since(t0).Seconds())
	var a answer
	if err := json.Unmarshal(reply, &a); err != nil {
		return answer{}, fmt.Errorf("cluster: the owner of room %s answered %q: %v", id, trim(reply), err)
	}
	return a, nil
}

func trim(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

// serve answers a request of another node about a room this node owns.
// Messages of one subscription come in order: what keeps a connection's
// frames in order is done here, the rest (HTTP) off the bus's goroutine.
func (n *node) serve(id string, m bus.Msg) {
	var e envelope
	if err := json.Unmarshal(m.Data, &e); err != nil {
		n.respond(m, answer{Status: http.StatusBadRequest})
		return
	}
	n.m.remote.Inc()
	if n.refuseLapsed(id, m, e) {
		return
	}
	switch e.Op {
	case "http":
		go n.serveHTTP(id, m, e)
	case "open":
		n.respond(m, n.openRelay(id, e))
	case "in", "alive", "close":
		n.mu.Lock()
		rc := n.relays[e.Conn]
		n.mu.Unlock()
		if rc == nil || rc.room != id {
			n.respond(m, answer{Gone: true})
			return
		}
		n.respond(m, answer{Gone: !rc.take(e)})
	default:
		n.respond(m, answer{Status: http.StatusBadRequest})
	}
}

func (n *node) respond(m bus.Msg, a answer) {
	b, _ := json.Marshal(a)
	_ = m.Respond(b)
}

// reap forgets the relayed connections whose node has gone silent.
func (n *node) reap() {
	n.mu.Lock()
	var dead []*relayConn
	for _, rc := range n.relays {
		if time.Since(rc.lastHeard()) > relayDead {
			dead = append(dead, rc)
		}
	}
	n.mu.Unlock()
	for _, rc := range dead {
		rc.shut()
	}
}

// clusterInfo is the operator's view of the node: its name and the rooms
// it owns (GET /cluster on the operator listener).
func (s *Server) clusterInfo(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"node": s.cl.c.Node, "owned": s.cl.ownedIDs()})
}

// clusterRooms is the lobby's list on a node: every node's rooms, read
// from the database, this node's as it holds them.
func (s *Server) clusterRooms(ctx context.Context, status string) ([]*room, error) {
	recs, err := s.st.Rooms(ctx, status)
	if err != nil {
		return nil, err
	}
	rooms := make([]*room, 0, len(recs))
	for _, rec := range recs {
		s.mu.Lock()
		rm := s.rooms[rec.ID]
		s.mu.Unlock()
		if rm == nil {
			if rm, err = loadRoom(rec); err != nil {
				continue // a damaged room is not offered
			}
		}
		rooms = append(rooms, rm)
	}
	return rooms, nil
}
