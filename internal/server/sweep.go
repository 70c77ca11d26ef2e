package server

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// How a node reads the loss of its bus, and how it takes orphans
// (docs/cluster.md, "Failover").
//
// A node that loses NATS while the other nodes keep it has been cut off
// alone: they can serve its rooms' players and it cannot, so it lets its
// rooms go. When every node loses NATS at once (NATS restarts), letting go
// helps nobody: each keeps renewing its leases through PostgreSQL, which
// holds them, and no room moves. The nodes tell the two apart by a
// heartbeat in PostgreSQL (Leases.BusBeat): a node off the bus lets go
// only once another living node has been on the bus for a whole ttl since
// it lost it. A cut-off node's rooms therefore move about two ttls after
// the cut (that ttl, then its leases running out), not one.

// sweepWorkers is how many orphans a node adopts at once: a slow one (a
// long game to restore, a database that is slow to answer it) holds up
// only its own worker.
const sweepWorkers = 4

// What a node last made of its bus, so that each change is logged once.
type busState struct{ mode atomic.Int32 }

const (
	busUp int32 = iota
	busDownEverywhere
	busDownHere
	busUnknown // off the bus, and the database did not say whether the others are
)

func (b *busState) to(mode int32) (changed bool) { return b.mode.Swap(mode) != mode }

// cutOff tells whether the node must let its rooms go: it is off the bus
// while another node is on it (or it cannot tell, the database not
// answering: its renewals would fail too). Off the bus, it records its
// heartbeat to ask; on it, beat does after the renewals, which come first.
func (n *node) cutOff(ctx context.Context) bool {
	if n.c.Bus.Ready() == nil {
		if n.bus.to(busUp) {
			n.s.log.Info("cluster: back on the bus; rooms without an owner are adopted again")
		}
		return false
	}
	other, err := n.c.Leases.BusBeat(ctx, false, n.ttl, n.ttl)
	switch {
	case err != nil:
		if n.bus.to(busUnknown) {
			n.s.log.Warn("cluster: off the bus, and the database does not say whether the other nodes are on it: the leases are not renewed", "err", err)
		}
		return true
	case other != "":
		if n.bus.to(busDownHere) {
			n.s.log.Warn("cluster: cut off from the bus while another node is on it: this node's rooms are let go as their leases run out", "on_the_bus", other)
		}
		return true
	default:
		if n.bus.to(busDownEverywhere) {
			n.s.log.Warn("cluster: the bus is down for every node: the leases are renewed through PostgreSQL and no room is adopted until it is back",
				"err", n.c.Bus.Ready())
		}
		return false
	}
}

// beat records that the node is on the bus, if it is, for the nodes that
// are not to read (cutOff).
func (n *node) beat() {
	if n.c.Bus.Ready() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.ttl/3)
	defer cancel()
	_, _ = n.c.Leases.BusBeat(ctx, true, n.ttl, n.ttl) // a database that does not answer: /readyz says so
}

// stalestFirst is the rooms the node owns, the one renewed longest ago
// first: a round of renewals cut short by its deadline (a slow database)
// begins the next with the rooms it missed.
func (n *node) stalestFirst() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	ids := make([]string, 0, len(n.owned))
	for id := range n.owned {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		return cmp.Or(n.owned[a].renewed.Compare(n.owned[b].renewed), strings.Compare(a, b))
	})
	return ids
}

// startSweep adopts the orphans in the background, unless a sweep is
// under way.
func (n *node) startSweep(ctx context.Context) {
	if !n.sweeping.CompareAndSwap(false, true) {
		return
	}
	n.loop.Add(1)
	go func() {
		defer n.loop.Done()
		n.sweep(ctx)
	}()
}

// sweep adopts the orphans; the caller has set n.sweeping.
func (n *node) sweep(ctx context.Context) {
	defer n.sweeping.Store(false)
	n.adoptOrphans(ctx)
	n.sweeps.Add(1)
}

// adoptOrphans takes the rooms no node owns: the running games first, then
// the open rooms (Orphans' order, random within each, so that nodes that
// look at once share them out), sweepWorkers at a time, each adoption with
// a deadline of its own. A finished game on its end screen is not swept:
// the node a request for it reaches adopts it (servesUnowned).
func (n *node) adoptOrphans(ctx context.Context) {
	if !n.mayAdopt(ctx) {
		return
	}
	list, cancel := context.WithTimeout(ctx, n.ttl/3)
	ids, err := n.c.Leases.Orphans(list)
	cancel()
	if err != nil {
		n.s.log.Warn("cluster: listing the rooms without an owner", "err", err)
		return
	}
	todo := make(chan string)
	var wg sync.WaitGroup
	for range min(sweepWorkers, len(ids)) {
		wg.Go(func() {
			for id := range todo {
				n.adoptOrphan(ctx, id)
			}
		})
	}
	for _, id := range ids {
		todo <- id
	}
	close(todo)
	wg.Wait()
}

// adoptOrphan adopts one room within a ttl: the lease it takes lasts that
// long before the room is in memory and its renewals begin, so an
// adoption slower than that is given up (the room released for another
// node, or the next sweep).
func (n *node) adoptOrphan(ctx context.Context, id string) {
	if !n.mayAdopt(ctx) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, n.ttl)
	defer cancel()
	if _, err := n.adopt(ctx, id); err != nil && !errors.Is(err, errHeld) {
		n.s.log.Warn("cluster: adopting a room", "room", id, "err", err)
	}
}

// mayAdopt: the node takes no orphan while it drains, nor while it is off
// the bus (it could not serve the room's players on other nodes), checked
// before each one, as the bus may go during a sweep.
func (n *node) mayAdopt(ctx context.Context) bool {
	return ctx.Err() == nil && !n.s.draining.Load() && n.c.Bus.Ready() == nil
}
