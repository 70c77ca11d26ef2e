package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/wolfden/wolfden/internal/bus"
)

// A hung owner (a long GC pause, a frozen VM, SIGSTOP) is not a dead one:
// its connections stay open, its subscriptions stay on the bus, and when
// it wakes its goroutines run on as if no time had passed. Three things
// keep its players from waiting on it (docs/cluster.md, "A hung owner"):
//
//   - the node that adopts one of its rooms says so on bus.Moved; every
//     node then closes the connections it relays to the room's old owner
//     (1012 "moved") and gives up the requests it is waiting on from it,
//     rather than wait busWait for an answer that will not come;
//   - the players connected to the hung node itself hear nothing, not even
//     the day's keep-alive (game/alive.go), and dial again;
//   - the hung node, once awake, reads its own clock before anything else:
//     a room whose lease ran out by that clock is written nothing more (its
//     writers check, before each message) and is let go at once, its
//     connections closed as moved, its requests answered "gone".

// monoBase is the origin of the monotonic instants the leases' ends are
// kept as (time.Since reads the monotonic clock, which a paused process
// sees jump forward when it wakes).
var monoBase = time.Now()

func mono(t time.Time) int64 { return int64(t.Sub(monoBase)) }

// extend notes the lease's end: ttl after the instant before the call
// that took or renewed it (the database's end is later still).
func (l *lease) extend(from time.Time, ttl time.Duration) { l.end.Store(mono(from.Add(ttl))) }

// lapsed tells whether the lease has run out by this node's clock.
func (l *lease) lapsed() bool {
	e := l.end.Load()
	return e != 0 && mono(time.Now()) >= e
}

// lapsed tells whether this node's lease of the room ran out by its own
// clock (false on a single server: a room there has no lease).
func (rm *room) lapsed() bool {
	l := rm.lease.Load()
	return l != nil && l.lapsed()
}

// bind gives the room in memory its lease, for its writers to check.
func (n *node) bind(id string, l *lease) {
	n.s.mu.Lock()
	rm := n.s.rooms[id]
	n.s.mu.Unlock()
	if rm != nil {
		rm.lease.Store(l)
	}
}

// watch lets go, as soon as it notices, every room whose lease ran out by
// this node's clock: the node was frozen past it, or could not renew it.
// After a freeze its ticker fires at once.
func (n *node) watch() {
	defer n.loop.Done()
	t := time.NewTicker(min(max(n.ttl/10, 20*time.Millisecond), time.Second))
	defer t.Stop()
	for {
		select {
		case <-n.quit:
			return
		case <-t.C:
		}
		var lapsed []string
		n.mu.Lock()
		for id, l := range n.owned {
			if l.lapsed() {
				lapsed = append(lapsed, id)
			}
		}
		n.mu.Unlock()
		for _, id := range lapsed {
			n.lapse(id)
		}
	}
}

// lapsed tells whether the room is this node's by a lease that ran out by
// its clock.
func (n *node) lapsed(id string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	l := n.owned[id]
	return l != nil && l.lapsed()
}

// lapse lets a room go whose lease ran out by this node's clock: its
// connections are closed as moved and its game stops, before the node
// does anything else for it. Nobody may have taken the lease yet: it is
// released (refused if another node has it) and named on bus.Free, for
// another node to adopt the room at once.
func (n *node) lapse(id string) {
	if !n.letGo(id) {
		return
	}
	n.s.log.Warn("cluster: this node's lease of a room ran out by its own clock (it was frozen, or could not renew); "+
		"its connections are closed as moved and the room left to another node", "room", id)
	n.s.dropRoom(id)
	ctx, cancel := context.WithTimeout(context.Background(), n.ttl)
	defer cancel()
	if n.c.Leases.Release(ctx, id) == nil {
		_ = n.c.Bus.Publish(ctx, bus.Free, []byte(id))
	}
}

// refuseLapsed answers a request about a room whose lease ran out by this
// node's clock, true if it did: the asker's connection is gone, its HTTP
// request told to try again (the room is moving).
func (n *node) refuseLapsed(id string, m bus.Msg, e envelope) bool {
	if !n.lapsed(id) {
		return false
	}
	go n.lapse(id)
	switch e.Op {
	case "http":
		rec := &recorder{header: http.Header{}}
		rec.header.Set("Retry-After", "1")
		writeErr(rec, errMoving)
		n.respond(m, answer{Status: rec.status, Header: rec.header, Body: rec.body.Bytes()})
	case "open":
		n.respond(m, answer{Status: http.StatusConflict})
	default:
		n.respond(m, answer{Gone: true})
	}
	return true
}

// movedNote is what bus.Moved carries.
type movedNote struct {
	Room string `json:"room"`
	Node string `json:"node"` // its new owner
}

// errOwnerMoved ends a request to a room's owner when another node has
// adopted the room meanwhile: the owner asked may be frozen.
var errOwnerMoved = errors.New("cluster: the room was adopted by another node while its owner was asked")

// announce says on bus.Moved that this node has adopted the room, and acts
// on it here as every node does.
func (n *node) announce(id string) {
	mv := movedNote{Room: id, Node: n.c.Node}
	b, _ := json.Marshal(mv)
	n.onMoved(mv)
	ctx, cancel := context.WithTimeout(context.Background(), busWait)
	defer cancel()
	if err := n.c.Bus.Publish(ctx, bus.Moved, b); err != nil {
		n.s.log.Warn("cluster: saying a room was adopted", "room", id, "err", err)
	}
}

func (n *node) heardMoved(m bus.Msg) {
	var mv movedNote
	if json.Unmarshal(m.Data, &mv) != nil || mv.Room == "" || mv.Node == n.c.Node {
		return // this node's own (acted on as it was said), or garbled
	}
	n.onMoved(mv)
}

// onMoved closes the connections this node relays to the room's old owner
// (1012 "moved": their clients dial again and reach the new one) and ends
// the requests waiting on it.
func (n *node) onMoved(mv movedNote) {
	n.mu.Lock()
	// The cancels are taken under the lock: a request's done deletes
	// itself from the same map.
	var asks []*asking
	for a := range n.asking[mv.Room] {
		asks = append(asks, a)
	}
	delete(n.asking, mv.Room)
	var held []*relaySession
	for rs := range n.held {
		if rs.room == mv.Room && rs.owner != mv.Node {
			held = append(held, rs)
		}
	}
	n.mu.Unlock()
	for _, a := range asks {
		a.cancel(errOwnerMoved)
	}
	for _, rs := range held {
		go rs.moved() // a close waits for the client's answer
	}
}

// asking is a request to a room's owner, waiting for its answer.
type asking struct{ cancel context.CancelCauseFunc }

// askCtx is ctx, ended with errOwnerMoved if another node adopts the room
// before done is called.
func (n *node) askCtx(ctx context.Context, id string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	a := &asking{cancel: cancel}
	n.mu.Lock()
	m := n.asking[id]
	if m == nil {
		m = map[*asking]struct{}{}
		n.asking[id] = m
	}
	m[a] = struct{}{}
	n.mu.Unlock()
	return ctx, func() {
		n.mu.Lock()
		delete(m, a)
		if len(n.asking[id]) == 0 {
			delete(n.asking, id)
		}
		n.mu.Unlock()
		cancel(nil)
	}
}

// movedCause is errOwnerMoved if that is what ended ctx.
func movedCause(ctx context.Context, err error) error {
	if errors.Is(context.Cause(ctx), errOwnerMoved) {
		return errOwnerMoved
	}
	return err
}
