package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// Fenced is one node's store on a shared database: a store.Store whose
// writes to a game are made under the node's lease of it, and refused
// (ErrFenced) once another node has taken the lease, checked in the
// transaction that would write them. What it fences:
//
//   - Append, StartGame and ResetRoom need the node's lease of the room:
//     without one they are ErrFenced, as with an outdated one;
//   - UpdateRoom is fenced while the node holds the room's lease (the
//     owner's changes of a game), and plain otherwise (an open room's
//     seats, changed by whichever node the request came to);
//   - CreateRoom, the code claims (a code is no game's: the node that
//     creates a room, or opens its rematch, need not own it) and the
//     reads are plain.
//
// The leases it holds are those its Acquire took, until Release, or until
// Renew or a write finds them lost.
type Fenced struct {
	// The accounts are no game's: plain, as the code claims.
	store.Accounts

	db   *DB
	node string

	mu     sync.Mutex
	leases map[string]Lease
}

var _ store.Store = (*Fenced)(nil)

// Fenced makes node's store on d. Close closes d.
func (d *DB) Fenced(node string) (*Fenced, error) {
	if node == "" {
		return nil, errors.New("postgres: a fenced store needs its node's name")
	}
	return &Fenced{Accounts: d, db: d, node: node, leases: map[string]Lease{}}, nil
}

// Node is the node's name.
func (f *Fenced) Node() string { return f.node }

// Acquire takes room's lease (DB.Acquire) and makes the node's writes to
// room go under it.
func (f *Fenced) Acquire(ctx context.Context, room string, ttl time.Duration) (Lease, error) {
	l, err := f.db.Acquire(ctx, room, f.node, ttl)
	if err != nil {
		return Lease{}, err
	}
	f.mu.Lock()
	f.leases[room] = l
	f.mu.Unlock()
	return l, nil
}

// Renew extends the node's lease of room (DB.Renew); ErrLeaseLost if it
// holds none or has lost it, which it then forgets.
func (f *Fenced) Renew(ctx context.Context, room string, ttl time.Duration) (Lease, error) {
	l, ok := f.Held(room)
	if !ok {
		return Lease{}, fmt.Errorf("%w (room %q: node %q holds no lease of it)", ErrLeaseLost, room, f.node)
	}
	renewed, err := f.db.Renew(ctx, l, ttl)
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case err == nil:
		if cur, ok := f.leases[room]; ok && cur.Epoch == l.Epoch {
			f.leases[room] = renewed
		}
	case errors.Is(err, ErrLeaseLost):
		f.forget(room, l.Epoch)
	}
	return renewed, err
}

// Release gives up the node's lease of room (DB.Release).
func (f *Fenced) Release(ctx context.Context, room string) error {
	l, ok := f.Held(room)
	if !ok {
		return fmt.Errorf("%w (room %q: node %q holds no lease of it)", ErrLeaseLost, room, f.node)
	}
	err := f.db.Release(ctx, l)
	if err == nil || errors.Is(err, ErrLeaseLost) {
		f.mu.Lock()
		f.forget(room, l.Epoch)
		f.mu.Unlock()
	}
	return err
}

// forget drops room's lease if it is still the one of epoch; f.mu is held.
func (f *Fenced) forget(room string, epoch int64) {
	if cur, ok := f.leases[room]; ok && cur.Epoch == epoch {
		delete(f.leases, room)
	}
}

// Held is the node's lease of room, as it was last taken or renewed (it
// may have been lost since: only a write or a Renew finds out).
func (f *Fenced) Held(room string) (Lease, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	l, ok := f.leases[room]
	return l, ok
}

// under runs o under the node's lease of its room; without one it is
// refused (need) or run plain.
func (f *Fenced) under(ctx context.Context, o *op, need bool) error {
	l, ok := f.Held(o.roomID)
	if !ok && need {
		return fmt.Errorf("%w (room %q: node %q holds no lease of it)", ErrFenced, o.roomID, f.node)
	}
	if ok {
		o.fence = &l
	}
	err := f.db.do(ctx, o)
	if ok && errors.Is(err, ErrFenced) {
		f.mu.Lock()
		f.forget(o.roomID, l.Epoch)
		f.mu.Unlock()
	}
	return err
}

// fenced is the refusal of o, made under o.fence, when the room's lease is
// cur (none: !ok).
func fenced(o *op, cur Lease, ok bool) error {
	now := "no lease"
	switch {
	case ok && cur.Node == "":
		now = fmt.Sprintf("epoch %d, released", cur.Epoch)
	case ok:
		now = fmt.Sprintf("epoch %d, node %q", cur.Epoch, cur.Node)
	}
	return fmt.Errorf("%w (room %q: written under epoch %d of node %q; the lease is now %s)", ErrFenced, o.roomID, o.fence.Epoch, o.fence.Node, now)
}

// Append is DB.Append under the node's lease of roomID.
func (f *Fenced) Append(ctx context.Context, roomID string, recs ...store.Record) error {
	if len(recs) == 0 {
		return nil
	}
	o, err := appendOp(roomID, recs)
	if err != nil {
		return err
	}
	return f.under(ctx, o, true)
}

// StartGame is DB.StartGame under the node's lease of the room.
func (f *Fenced) StartGame(ctx context.Context, r store.Room, recs ...store.Record) error {
	if len(recs) == 0 {
		return fmt.Errorf("postgres: start room %q: a game starts with its first record", r.ID)
	}
	o, err := appendOp(r.ID, recs)
	if err != nil {
		return err
	}
	o.kind, o.room = opStart, r
	return f.under(ctx, o, true)
}

// ResetRoom is DB.ResetRoom under the node's lease of the room.
func (f *Fenced) ResetRoom(ctx context.Context, r store.Room) error {
	return f.under(ctx, &op{kind: opReset, roomID: r.ID, room: r}, true)
}

// UpdateRoom is DB.UpdateRoom, under the node's lease of the room if it
// holds one.
func (f *Fenced) UpdateRoom(ctx context.Context, r store.Room) error {
	return f.under(ctx, &op{kind: opUpdate, roomID: r.ID, room: r}, false)
}

// CreateRoom is DB.CreateRoom.
func (f *Fenced) CreateRoom(ctx context.Context, r store.Room) error {
	return f.db.CreateRoom(ctx, r)
}

// Room is DB.Room.
func (f *Fenced) Room(ctx context.Context, id string) (store.Room, error) {
	return f.db.Room(ctx, id)
}

// Rooms is DB.Rooms.
func (f *Fenced) Rooms(ctx context.Context, status string) ([]store.Room, error) {
	return f.db.Rooms(ctx, status)
}

// Records is DB.Records.
func (f *Fenced) Records(ctx context.Context, roomID string) ([]store.Record, error) {
	return f.db.Records(ctx, roomID)
}

// Close closes the database's store; the leases are left to expire (a
// drain releases them first).
func (f *Fenced) Close() error { return f.db.Close() }

// Orphans is DB.Orphans.
func (f *Fenced) Orphans(ctx context.Context) ([]string, error) { return f.db.Orphans(ctx) }

// Keeper is a node's leases as the server's cluster asks for them
// (internal/server: Leases): errors only, and which errors mean what.
type Keeper struct{ f *Fenced }

// Keeper is f's leases for the server.
func (f *Fenced) Keeper() Keeper { return Keeper{f} }

func (k Keeper) Acquire(ctx context.Context, room string, ttl time.Duration) error {
	_, err := k.f.Acquire(ctx, room, ttl)
	return err
}

func (k Keeper) Renew(ctx context.Context, room string, ttl time.Duration) error {
	_, err := k.f.Renew(ctx, room, ttl)
	return err
}

func (k Keeper) Release(ctx context.Context, room string) error { return k.f.Release(ctx, room) }

func (k Keeper) Orphans(ctx context.Context) ([]string, error) { return k.f.Orphans(ctx) }

// Lost: the lease is another's now, found by a renewal or a write.
func (k Keeper) Lost(err error) bool {
	return errors.Is(err, ErrLeaseLost) || errors.Is(err, ErrFenced)
}

// Held: another node holds the lease.
func (k Keeper) Held(err error) bool { return errors.Is(err, ErrLeaseHeld) }

// ClaimCode is DB.ClaimCode.
func (f *Fenced) ClaimCode(ctx context.Context, code, room string) error {
	return f.db.ClaimCode(ctx, code, room)
}

// GiveCode is DB.GiveCode.
func (f *Fenced) GiveCode(ctx context.Context, code, from, to string) error {
	return f.db.GiveCode(ctx, code, from, to)
}

// ExpireCode is DB.ExpireCode.
func (f *Fenced) ExpireCode(ctx context.Context, code, room string, ttl time.Duration) error {
	return f.db.ExpireCode(ctx, code, room, ttl)
}

// FreeCode is DB.FreeCode.
func (f *Fenced) FreeCode(ctx context.Context, code, room string) error {
	return f.db.FreeCode(ctx, code, room)
}

// CodeRoom is DB.CodeRoom.
func (f *Fenced) CodeRoom(ctx context.Context, code string) (string, error) {
	return f.db.CodeRoom(ctx, code)
}
