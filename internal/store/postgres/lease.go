package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wolfden/wolfden/internal/store"
)

// Lease is a node's ownership of one game, for a while. Epoch counts the
// takings of the room's lease: each Acquire makes it one more than any
// before, so that the records a node appends under its lease are refused
// as soon as another has taken it (ErrFenced), whatever that node's clock
// or its pauses.
type Lease struct {
	Room  string
	Node  string
	Epoch int64
	// Expires is the database's time after which another node may take
	// the lease, unless it is renewed first.
	Expires time.Time
}

var (
	// ErrLeaseHeld: another node holds the room's lease and it has not
	// expired.
	ErrLeaseHeld = errors.New("postgres: the game's lease is held by another node")
	// ErrLeaseLost: the lease is no longer the caller's (another node took
	// it, or it was released); the caller no longer owns the game.
	ErrLeaseLost = errors.New("postgres: the game's lease is no longer this node's")
	// ErrFenced: a write made under a lease that is no longer current (or
	// with none), refused inside the transaction that would have written
	// it: nothing of it was stored.
	ErrFenced = errors.New("postgres: fenced: the write was made under a lease that is not current")
)

// Acquire takes room's lease for node for ttl, if no one holds it (never
// taken, released, or expired), making its epoch one more than the last.
// It is ErrLeaseHeld while another node's lease runs, even if that node is
// node itself: a node restarted under the same name waits for its former
// lease to expire, as another would, so that its former process, if it
// still runs, is fenced.
func (d *DB) Acquire(ctx context.Context, room, node string, ttl time.Duration) (Lease, error) {
	if err := checkLease(room, node, ttl); err != nil {
		return Lease{}, err
	}
	done, err := d.reading()
	if err != nil {
		return Lease{}, err
	}
	defer done()
	l := Lease{Room: room, Node: node}
	err = d.pool.QueryRow(ctx, `INSERT INTO leases AS l (room_id, node, epoch, expires)
		VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 microsecond')
		ON CONFLICT (room_id) DO UPDATE SET node = EXCLUDED.node, epoch = l.epoch + 1, expires = EXCLUDED.expires
			WHERE l.node = '' OR l.expires <= clock_timestamp()
		RETURNING epoch, expires`, room, node, ttl.Microseconds()).Scan(&l.Epoch, &l.Expires)
	var pgErr *pgconn.PgError
	switch {
	case err == nil:
		return l, nil
	case errors.As(err, &pgErr) && pgErr.Code == "23503": // foreign_key_violation
		return Lease{}, fmt.Errorf("postgres: lease of room %q: %w", room, store.ErrNotFound)
	case errors.Is(err, pgx.ErrNoRows):
		cur, err := d.lease(ctx, room)
		if err != nil {
			return Lease{}, fmt.Errorf("postgres: lease of room %q: %w", room, err)
		}
		return Lease{}, fmt.Errorf("%w (room %q: node %q, epoch %d, until %s)", ErrLeaseHeld, room, cur.Node, cur.Epoch, cur.Expires.UTC().Format(time.RFC3339Nano))
	default:
		return Lease{}, fmt.Errorf("postgres: lease of room %q: %w", room, err)
	}
}

func checkLease(room, node string, ttl time.Duration) error {
	switch {
	case room == "":
		return errors.New("postgres: lease: no room")
	case node == "":
		return fmt.Errorf("postgres: lease of room %q: no node name", room)
	case ttl < time.Millisecond:
		return fmt.Errorf("postgres: lease of room %q: a lease lasts at least a millisecond, not %v", room, ttl)
	}
	return nil
}

// Renew extends l by ttl from now, while l's epoch is still the room's and
// l not released, even if it has expired meanwhile (no one took it, so no
// one appended under a newer epoch); else it is ErrLeaseLost.
func (d *DB) Renew(ctx context.Context, l Lease, ttl time.Duration) (Lease, error) {
	if err := checkLease(l.Room, l.Node, ttl); err != nil {
		return Lease{}, err
	}
	done, err := d.reading()
	if err != nil {
		return Lease{}, err
	}
	defer done()
	err = d.pool.QueryRow(ctx, `UPDATE leases SET expires = clock_timestamp() + $4 * interval '1 microsecond'
		WHERE room_id = $1 AND node = $2 AND epoch = $3 RETURNING expires`,
		l.Room, l.Node, l.Epoch, ttl.Microseconds()).Scan(&l.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return Lease{}, d.lost(ctx, l)
	}
	if err != nil {
		return Lease{}, fmt.Errorf("postgres: renew the lease of room %q: %w", l.Room, err)
	}
	return l, nil
}

// Release gives l up at once (a node draining hands its games over), so
// that another node's Acquire need not wait for it to expire. It is
// ErrLeaseLost if l was no longer the caller's.
func (d *DB) Release(ctx context.Context, l Lease) error {
	done, err := d.reading()
	if err != nil {
		return err
	}
	defer done()
	tag, err := d.pool.Exec(ctx, `UPDATE leases SET node = '', expires = clock_timestamp()
		WHERE room_id = $1 AND node = $2 AND epoch = $3`, l.Room, l.Node, l.Epoch)
	if err != nil {
		return fmt.Errorf("postgres: release the lease of room %q: %w", l.Room, err)
	}
	if tag.RowsAffected() == 0 {
		return d.lost(ctx, l)
	}
	return nil
}

// lost is ErrLeaseLost for l, saying who holds the lease now.
func (d *DB) lost(ctx context.Context, l Lease) error {
	cur, err := d.lease(ctx, l.Room)
	if err != nil {
		return fmt.Errorf("%w (room %q, epoch %d: %v)", ErrLeaseLost, l.Room, l.Epoch, err)
	}
	holder := fmt.Sprintf("node %q", cur.Node)
	if cur.Node == "" {
		holder = "released"
	}
	return fmt.Errorf("%w (room %q: epoch %d was node %q's; now epoch %d, %s)", ErrLeaseLost, l.Room, l.Epoch, l.Node, cur.Epoch, holder)
}

// Lease reads room's lease as it is now; store.ErrNotFound if it was never
// taken. Node is "" for a released lease.
func (d *DB) Lease(ctx context.Context, room string) (Lease, error) {
	done, err := d.reading()
	if err != nil {
		return Lease{}, err
	}
	defer done()
	l, err := d.lease(ctx, room)
	if err != nil {
		return Lease{}, fmt.Errorf("postgres: lease of room %q: %w", room, err)
	}
	return l, nil
}

func (d *DB) lease(ctx context.Context, room string) (Lease, error) {
	l := Lease{Room: room}
	err := d.pool.QueryRow(ctx, `SELECT node, epoch, expires FROM leases WHERE room_id = $1`, room).Scan(&l.Node, &l.Epoch, &l.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return Lease{}, store.ErrNotFound
	}
	return l, err
}

// unleasedGrace is how long a room may go without a lease before it is an
// orphan: a node stores a new room, then takes its lease, and another must
// not take it in between. (A room stored before its database was a
// cluster's, or whose maker died in that moment, waits this long.)
const unleasedGrace = 30 * time.Second

// Orphans lists the rooms that need an owner and have none: the open and
// running ones whose lease was released or has expired, or was never taken
// (made unleasedGrace ago or more). The running games come first, then the
// open rooms, each in a random order, so that nodes that look at once
// begin with different rooms. A node of a cluster adopts them
// (internal/server, cluster.go); Acquire decides among nodes that try the
// same one at once. A finished game whose owner died while its end was
// shown is not listed: it needs no owner until someone asks for it, and
// the node asked adopts it then.
func (d *DB) Orphans(ctx context.Context) ([]string, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT r.id FROM rooms r LEFT JOIN leases l ON l.room_id = r.id
		WHERE r.status IN ('open', 'running') AND (l.node = '' OR l.expires < clock_timestamp()
			OR (l.room_id IS NULL AND (r.created IS NULL OR r.created < $1)))
		ORDER BY r.status = 'running' DESC, random()`, time.Now().Add(-unleasedGrace).UnixNano())
	if err != nil {
		return nil, fmt.Errorf("postgres: rooms without an owner: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: rooms without an owner: %w", err)
	}
	return ids, nil
}

// Ping checks that the database answers (a node's /readyz).
func (d *DB) Ping(ctx context.Context) error {
	done, err := d.reading()
	if err != nil {
		return err
	}
	defer done()
	if err := d.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return nil
}

// Ping is DB.Ping.
func (f *Fenced) Ping(ctx context.Context) error { return f.db.Ping(ctx) }
