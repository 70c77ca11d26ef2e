package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/postgres/pgtest"
	"github.com/wolfden/wolfden/internal/store/storetest"
)

// owner is the fenced store of a node that owns every game it writes: it
// takes a room's lease before its first game write, and takes over the
// lease a former store of the same node left (a reopening, in the
// contract's tests), so that every write of the contract goes through the
// fenced path with a lease that is current.
type owner struct{ *Fenced }

func (o owner) ensure(c context.Context, room string) error {
	if _, ok := o.Held(room); ok {
		return nil
	}
	_, err := o.Acquire(c, room, time.Hour)
	if errors.Is(err, ErrLeaseHeld) {
		l, lerr := o.db.Lease(c, room)
		if lerr != nil || l.Node != o.node {
			return err
		}
		o.mu.Lock()
		o.leases[room] = l
		o.mu.Unlock()
		return nil
	}
	return err
}

func (o owner) Append(c context.Context, room string, recs ...store.Record) error {
	if err := o.ensure(c, room); err != nil {
		return err
	}
	return o.Fenced.Append(c, room, recs...)
}

func (o owner) StartGame(c context.Context, r store.Room, recs ...store.Record) error {
	if err := o.ensure(c, r.ID); err != nil {
		return err
	}
	return o.Fenced.StartGame(c, r, recs...)
}

func (o owner) ResetRoom(c context.Context, r store.Room) error {
	if err := o.ensure(c, r.ID); err != nil {
		return err
	}
	return o.Fenced.ResetRoom(c, r)
}

// TestFencedContract: a node's fenced store, writing under current
// leases, keeps the whole contract of store.Store (group commits mixing
// fenced writes of many rooms, refusals, cancellations, Close).
func TestFencedContract(t *testing.T) {
	srv := pgtest.Start(t)
	storetest.Run(t, storetest.Adapter{
		NewDB: func(t testing.TB) func(t testing.TB) store.Store {
			url := srv.NewDB(t)
			return func(t testing.TB) store.Store {
				f, err := open(t, url).Fenced("node-a")
				if err != nil {
					t.Fatal(err)
				}
				return owner{f}
			}
		},
	})
}
