// Package postgres is the store on a PostgreSQL database, through pgx
// (github.com/jackc/pgx/v5) and its pool.
//
// Writes go through a few writer goroutines; each commits whatever has
// queued up in one transaction (group commit), so that the round trips and
// the WAL flush of a commit are paid once for all the callers waiting on it.
// Unlike the SQLite store it remembers nothing between transactions: each
// one locks the rows of the rooms it writes and reads their last record
// numbers, so that several servers may share one database (the cluster
// path), the primary key refusing whatever would still slip through.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/wolfden/wolfden/internal/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrClosed is returned by every call made after Close. It wraps
// store.ErrClosed.
var ErrClosed = fmt.Errorf("postgres: %w", store.ErrClosed)

const (
	// maxBatch bounds a group commit, so that under a flood of appends one
	// transaction, and the wait of every caller in it, stays short.
	maxBatch = 512
	// writers is how many transactions may be committing at once: while
	// one waits for its commit, the next batch is collected and sent.
	writers = 4
	// writeTimeout bounds one transaction, so that a database that has
	// gone away fails the writes waiting on it instead of holding them.
	writeTimeout = 30 * time.Second
)

// DB is a store.Store on a PostgreSQL database. It is safe for concurrent
// use, and several DBs (in several processes) may share one database.
type DB struct {
	pool *pgxpool.Pool

	// mu orders the callers' sends on queue, and their reads, against
	// Close.
	mu      sync.RWMutex
	closed  bool
	queue   chan *op
	writers sync.WaitGroup

	held *pgx.Conn // holds the server's lock (Exclusive), closed by Close
}

var _ store.Store = (*DB)(nil)

// Open connects to the database at url (postgres://user:password@host:port/db?…,
// or key=value pairs: what pgx.ParseConfig reads) and brings its schema up
// to date. Every session commits with synchronous_commit=on, so that an
// Append returns once its records are on the server's disk, unless url sets
// synchronous_commit itself.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if _, ok := cfg.ConnConfig.RuntimeParams["synchronous_commit"]; !ok {
		cfg.ConnConfig.RuntimeParams["synchronous_commit"] = "on"
	}
	// The writers each hold a connection while they commit; the reads
	// need their own.
	cfg.MaxConns = max(cfg.MaxConns, 2*writers)
	where := fmt.Sprintf("%s@%s:%d/%s", cfg.ConnConfig.User, cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %s: %w", where, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connect to %s: %w", where, err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: %s: %w", where, err)
	}
	d := &DB{pool: pool, queue: make(chan *op, maxBatch)}
	d.writers.Add(writers)
	for range writers {
		go d.write()
	}
	return d, nil
}

func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	db := stdlib.OpenDBFromPool(pool) // goose speaks database/sql
	defer db.Close()                  // which leaves the pool open
	// Servers starting together on one database migrate one at a time.
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys,
		goose.WithDisableGlobalRegistry(true), goose.WithSessionLocker(locker))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrating: %w", err)
	}
	return nil
}

// CreateRoom adds a room; a room with the same ID is an error.
func (d *DB) CreateRoom(ctx context.Context, r store.Room) error {
	return d.do(ctx, &op{kind: opCreate, roomID: r.ID, room: r})
}

// UpdateRoom replaces a room's Status, Config, Seats and Updated.
func (d *DB) UpdateRoom(ctx context.Context, r store.Room) error {
	return d.do(ctx, &op{kind: opUpdate, roomID: r.ID, room: r})
}

// Append writes recs to the room in one transaction, shared with other
// callers' writes, and returns once it is committed. A refusal (a gap, a
// duplicate, a missing room) or a cancellation means that none of recs was
// written: ctx releases the caller only while its records are still
// waiting in the queue; once a writer has taken them, Append waits for the
// outcome, which takes one transaction.
func (d *DB) Append(ctx context.Context, roomID string, recs ...store.Record) error {
	if len(recs) == 0 {
		return nil
	}
	o, err := appendOp(roomID, recs)
	if err != nil {
		return err
	}
	return d.do(ctx, o)
}

func appendOp(roomID string, recs []store.Record) (*op, error) {
	for i := 1; i < len(recs); i++ {
		if recs[i].N != recs[i-1].N+1 {
			return nil, fmt.Errorf("postgres: append to room %q: records are not consecutive: %d follows %d", roomID, recs[i].N, recs[i-1].N)
		}
	}
	events := make([][]byte, len(recs))
	for i := range recs {
		events[i] = store.AppendEvents(nil, recs[i].Events)
	}
	return &op{kind: opAppend, roomID: roomID, recs: recs, events: events}, nil
}

// StartGame updates the room and appends recs in one transaction: both or
// neither are stored.
func (d *DB) StartGame(ctx context.Context, r store.Room, recs ...store.Record) error {
	if len(recs) == 0 {
		return fmt.Errorf("postgres: start room %q: a game starts with its first record", r.ID)
	}
	o, err := appendOp(r.ID, recs)
	if err != nil {
		return err
	}
	o.kind, o.room = opStart, r
	return d.do(ctx, o)
}

// ResetRoom updates the room and drops its records in one transaction.
func (d *DB) ResetRoom(ctx context.Context, r store.Room) error {
	return d.do(ctx, &op{kind: opReset, roomID: r.ID, room: r})
}

// do queues o for a writer and waits for its outcome.
func (d *DB) do(ctx context.Context, o *op) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	o.done = make(chan error, 1)
	d.mu.RLock()
	if d.closed {
		d.mu.RUnlock()
		return ErrClosed
	}
	select {
	case d.queue <- o:
	case <-ctx.Done():
		d.mu.RUnlock()
		return ctx.Err()
	}
	d.mu.RUnlock()
	select {
	case err := <-o.done:
		return err
	case <-ctx.Done():
		if o.state.CompareAndSwap(queued, withdrawn) {
			return ctx.Err()
		}
		return <-o.done
	}
}

// Close waits for the queued writes and the reads under way, then closes
// the pool.
func (d *DB) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return ErrClosed
	}
	d.closed = true
	close(d.queue)
	d.mu.Unlock()
	d.writers.Wait()
	if d.held != nil {
		// Unlocked first: a closed connection's lock lasts until its
		// server process has noticed.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		d.held.Exec(ctx, `SELECT pg_advisory_unlock($1)`, int64(serverLock))
		d.held.Close(ctx)
		cancel()
	}
	d.pool.Close()
	return nil
}

// ErrInUse: another wolfden server holds the database (Exclusive).
var ErrInUse = errors.New("postgres: the database is in use by another wolfden server")

// serverLock is the key of the advisory lock that Exclusive takes (goose
// takes another, while it migrates).
const serverLock = 0x776f6c6664656e // "wolfden"

// Exclusive makes d the only server of its database until Close: another
// store's Exclusive on the same database is refused with ErrInUse. Two
// servers sharing one database would each resume every running game; until
// the cluster shares the games out, `wolfden serve` takes this lock, as it
// locks an SQLite file. The lock is a session's advisory lock, held by a
// connection of its own: it goes with that connection, and with the
// process, however it ends.
func (d *DB) Exclusive(ctx context.Context) error {
	done, err := d.reading()
	if err != nil {
		return err
	}
	defer done()
	if d.held != nil {
		return nil
	}
	c, err := d.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: lock the database: %w", err)
	}
	conn := c.Hijack() // out of the pool, so that no one else uses it
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, int64(serverLock)).Scan(&ok); err != nil {
		conn.Close(ctx)
		return fmt.Errorf("postgres: lock the database: %w", err)
	}
	if !ok {
		conn.Close(ctx)
		return fmt.Errorf("%w (stop the other server, or give this one another --db)", ErrInUse)
	}
	d.held = conn
	return nil
}

// reading holds off Close during a read; done ends it.
func (d *DB) reading() (done func(), err error) {
	d.mu.RLock()
	if d.closed {
		d.mu.RUnlock()
		return nil, ErrClosed
	}
	return d.mu.RUnlock, nil
}

const roomColumns = `id, created, updated, status, config, seats, code`

// Room reads one room.
func (d *DB) Room(ctx context.Context, id string) (store.Room, error) {
	done, err := d.reading()
	if err != nil {
		return store.Room{}, err
	}
	defer done()
	r, err := scanRoom(d.pool.QueryRow(ctx, `SELECT `+roomColumns+` FROM rooms WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Room{}, fmt.Errorf("postgres: room %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Room{}, fmt.Errorf("postgres: room %q: %w", id, err)
	}
	return r, nil
}

// Rooms lists the rooms with a status, oldest first (the zero time first,
// as the oldest), rooms of the same age by ID.
func (d *DB) Rooms(ctx context.Context, status string) ([]store.Room, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT `+roomColumns+` FROM rooms WHERE status = $1 ORDER BY created NULLS FIRST, id`, status)
	if err != nil {
		return nil, fmt.Errorf("postgres: rooms %q: %w", status, err)
	}
	defer rows.Close()
	var rooms []store.Room
	for rows.Next() {
		r, err := scanRoom(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: rooms %q: %w", status, err)
		}
		rooms = append(rooms, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: rooms %q: %w", status, err)
	}
	return rooms, nil
}

func scanRoom(row pgx.Row) (store.Room, error) {
	var r store.Room
	var created, updated *int64
	if err := row.Scan(&r.ID, &created, &updated, &r.Status, &r.Config, &r.Seats, &r.Code); err != nil {
		return store.Room{}, err
	}
	r.Created, r.Updated = fromNanos(created), fromNanos(updated)
	return r, nil
}

// Records reads a room's records in order; a room that does not exist is
// store.ErrNotFound.
func (d *DB) Records(ctx context.Context, roomID string) ([]store.Record, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	recs, err := d.records(ctx, roomID)
	if err != nil {
		return nil, fmt.Errorf("postgres: records of room %q: %w", roomID, err)
	}
	if len(recs) == 0 {
		// Only now, so that reading a game costs one query.
		var exists bool
		if err := d.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM rooms WHERE id = $1)`, roomID).Scan(&exists); err != nil {
			return nil, fmt.Errorf("postgres: records of room %q: %w", roomID, err)
		}
		if !exists {
			return nil, fmt.Errorf("postgres: records of room %q: %w", roomID, store.ErrNotFound)
		}
	}
	return recs, nil
}

func (d *DB) records(ctx context.Context, roomID string) ([]store.Record, error) {
	rows, err := d.pool.Query(ctx, `SELECT n, at, kind, body, events, clock FROM records WHERE room_id = $1 ORDER BY n`, roomID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var recs []store.Record
	for rows.Next() {
		var r store.Record
		var at *int64
		var events []byte
		if err := rows.Scan(&r.N, &at, &r.Kind, &r.Body, &events, &r.Clock); err != nil {
			return nil, err
		}
		r.At = fromNanos(at)
		if r.Events, err = store.DecodeEvents(events); err != nil {
			return nil, fmt.Errorf("record %d: %w", r.N, err)
		}
		recs = append(recs, r)
	}
	return recs, rows.Err()
}

// nanos is t as stored: unix nanoseconds (which cover the years 1678 to
// 2262), or NULL for the zero time, which has none.
func nanos(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	n := t.UnixNano()
	return &n
}

func fromNanos(n *int64) time.Time {
	if n == nil {
		return time.Time{}
	}
	return time.Unix(0, *n).UTC()
}

type opKind uint8

const (
	opAppend opKind = iota
	opCreate
	opUpdate
	opStart // opUpdate and opAppend together
	opReset // opUpdate, and the room's records dropped
)

// op is one write waiting for a writer.
type op struct {
	kind   opKind
	roomID string
	room   store.Room     // opCreate, opUpdate, opStart, opReset
	recs   []store.Record // opAppend, opStart
	events [][]byte       // opAppend, opStart: recs' events, encoded
	// fence, if set, is the lease the write is made under: it is refused
	// (ErrFenced) unless that lease is the room's current one when the
	// transaction reads it (lease.go).
	fence *Lease
	// state lets the caller withdraw the op on cancellation only while it
	// is queued, so that a cancelled write is never committed.
	state atomic.Int32
	done  chan error
}

// op states.
const (
	queued int32 = iota
	taken
	withdrawn
)

// write is a writer goroutine: it takes what has queued up, commits it,
// and starts again until Close closes the queue.
func (d *DB) write() {
	defer d.writers.Done()
	batch := make([]*op, 0, maxBatch)
	for o := range d.queue {
		batch = take(batch[:0], o)
	more:
		for len(batch) < maxBatch {
			select {
			case o, ok := <-d.queue:
				if !ok {
					break more
				}
				batch = take(batch, o)
			default:
				break more
			}
		}
		if len(batch) > 0 {
			d.run(batch)
		}
	}
}

func take(batch []*op, o *op) []*op {
	if o.state.CompareAndSwap(queued, taken) {
		return append(batch, o)
	}
	return batch
}

// run commits batch and answers its callers. When the transaction fails,
// each op is retried in a transaction of its own, so that only the op at
// fault fails.
func (d *DB) run(batch []*op) {
	refusals, err := d.commit(batch)
	switch {
	case err == nil:
		for i, o := range batch {
			o.done <- refusals[i]
		}
	case len(batch) == 1:
		batch[0].done <- fmt.Errorf("postgres: write to room %q: %w", batch[0].roomID, err)
	default:
		for _, o := range batch {
			d.run([]*op{o})
		}
	}
}

// errRaced: another store changed a room between this transaction's reads
// and its writes.
var errRaced = errors.New("another store changed the room at the same time")

// roomState is what a transaction knows of a room: read at its start, and
// changed by its ops in turn.
type roomState struct {
	exists bool
	last   int64
}

// check is what a queued statement must have done: how many rows it must
// have changed (-1: any), and for which op.
type check struct {
	op   int
	rows int64
	kind opKind
}

// newRecords gathers consecutive ops' records into one INSERT, as arrays.
type newRecords struct {
	op                    int // the first op of them
	rooms, kinds          []string
	ns                    []int64
	ats                   []*int64
	bodies, events, clock [][]byte
}

// commit runs batch in one transaction of three round trips and a commit:
// it locks the rooms' rows and reads their last record numbers; it decides
// each op in turn against them, refusing an op that breaks a rule (a gap, a
// duplicate room) before it writes anything, so refusals[i] is for the op's
// caller alone; and it sends the writes of the others together, in their
// order, the records of consecutive appends as one INSERT. err is the
// failure of the transaction as a whole.
func (d *DB) commit(batch []*op) (refusals []error, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx) // after a commit, nothing
	rooms, leases, err := lockRooms(ctx, tx, batch)
	if err != nil {
		return nil, err
	}

	refusals = make([]error, len(batch))
	writes := &pgx.Batch{}
	var checks []check
	var recs newRecords
	// flush queues the records gathered so far, before a statement that
	// must follow them.
	flush := func() {
		if len(recs.ns) == 0 {
			return
		}
		writes.Queue(`INSERT INTO records (room_id, n, at, kind, body, events, clock)
			SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::bytea[], $6::bytea[], $7::bytea[])`,
			recs.rooms, recs.ns, recs.ats, recs.kinds, recs.bodies, recs.events, recs.clock)
		checks = append(checks, check{op: recs.op, rows: int64(len(recs.ns)), kind: opAppend})
		recs = newRecords{}
	}
	queue := func(i int, one bool, sql string, args ...any) {
		flush()
		writes.Queue(sql, args...)
		c := check{op: i, rows: -1, kind: batch[i].kind}
		if one {
			c.rows = 1
		}
		checks = append(checks, c)
	}
	for i, o := range batch {
		s := rooms[o.roomID]
		r := o.room
		if o.fence != nil {
			if cur, ok := leases[o.roomID]; !ok || cur.Node != o.fence.Node || cur.Epoch != o.fence.Epoch {
				refusals[i] = fenced(o, cur, ok)
				continue
			}
		}
		switch o.kind {
		case opCreate:
			if s.exists {
				refusals[i] = fmt.Errorf("postgres: create room %q: the room already exists", r.ID)
				continue
			}
			*s = roomState{exists: true}
			queue(i, true, `INSERT INTO rooms (`+roomColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
				r.ID, nanos(r.Created), nanos(r.Updated), r.Status, r.Config, r.Seats, r.Code)
			continue
		case opUpdate, opReset:
			if !s.exists {
				refusals[i] = fmt.Errorf("postgres: update room %q: %w", r.ID, store.ErrNotFound)
				continue
			}
			queue(i, true, updateRoom, r.Status, r.Config, r.Seats, nanos(r.Updated), r.Code, r.ID)
			if o.kind == opReset {
				queue(i, false, `DELETE FROM records WHERE room_id = $1`, r.ID)
				s.last = 0
			}
			continue
		}
		// An append; a start checks it before it changes the room, so that
		// a refused start writes nothing.
		if !s.exists {
			refusals[i] = fmt.Errorf("postgres: append to room %q: %w", o.roomID, store.ErrNotFound)
			continue
		}
		switch n := o.recs[0].N; {
		case n <= s.last:
			refusals[i] = fmt.Errorf("postgres: append to room %q: record %d is already stored (the last is %d)", o.roomID, n, s.last)
			continue
		case n > s.last+1:
			refusals[i] = fmt.Errorf("postgres: append to room %q: record %d leaves a gap after the last stored record, %d", o.roomID, n, s.last)
			continue
		}
		if o.kind == opStart {
			queue(i, true, updateRoom, r.Status, r.Config, r.Seats, nanos(r.Updated), r.Code, r.ID)
		}
		if len(recs.ns) == 0 {
			recs.op = i
		}
		for j, rec := range o.recs {
			recs.rooms, recs.ns, recs.ats = append(recs.rooms, o.roomID), append(recs.ns, rec.N), append(recs.ats, nanos(rec.At))
			recs.kinds, recs.bodies = append(recs.kinds, rec.Kind), append(recs.bodies, rec.Body)
			recs.events, recs.clock = append(recs.events, o.events[j]), append(recs.clock, rec.Clock)
		}
		s.last = o.recs[len(o.recs)-1].N
	}

	flush()
	if writes.Len() > 0 {
		results := tx.SendBatch(ctx, writes)
		for _, c := range checks {
			tag, err := results.Exec()
			if err == nil && c.rows >= 0 && tag.RowsAffected() != c.rows {
				err = errRaced
				if c.kind == opCreate && len(batch) == 1 {
					// Created by another store since this one looked.
					results.Close()
					return []error{fmt.Errorf("postgres: create room %q: the room already exists", batch[0].roomID)}, nil
				}
			}
			if err != nil {
				results.Close()
				return nil, err
			}
		}
		if err := results.Close(); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, err
	}
	return refusals, nil
}

const updateRoom = `UPDATE rooms SET status = $1, config = $2, seats = $3, updated = $4, code = $5 WHERE id = $6`

// lockRooms locks the rows of the rooms batch writes, in the order of
// their IDs so that two stores' transactions cannot deadlock, and reads
// their last record numbers; for the rooms of fenced writes it reads their
// leases too, FOR SHARE, so that no Acquire can commit a newer epoch
// between this read and the commit (it waits for this transaction, and the
// records it committed are there for the new owner to read). The
// statements are sent together: each starts once the one before has its
// locks, so it sees what the transactions that held them committed.
func lockRooms(ctx context.Context, tx pgx.Tx, batch []*op) (map[string]*roomState, map[string]Lease, error) {
	rooms := make(map[string]*roomState, len(batch))
	ids := make([]string, 0, len(batch))
	var fencedIDs []string
	for _, o := range batch {
		if rooms[o.roomID] == nil {
			rooms[o.roomID] = &roomState{}
			ids = append(ids, o.roomID)
		}
		if o.fence != nil && !slices.Contains(fencedIDs, o.roomID) {
			fencedIDs = append(fencedIDs, o.roomID)
		}
	}
	slices.Sort(ids)
	slices.Sort(fencedIDs)
	reads := &pgx.Batch{}
	reads.Queue(`SELECT id FROM rooms WHERE id = ANY ($1) ORDER BY id FOR UPDATE`, ids)
	if len(fencedIDs) > 0 {
		reads.Queue(`SELECT room_id, node, epoch, expires FROM leases WHERE room_id = ANY ($1) ORDER BY room_id FOR SHARE`, fencedIDs)
	}
	reads.Queue(`SELECT r.id, (SELECT max(n) FROM records WHERE room_id = r.id) FROM unnest($1::text[]) AS r (id)`, ids)
	results := tx.SendBatch(ctx, reads)
	defer results.Close()
	rows, err := results.Query()
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, nil, err
		}
		rooms[id].exists = true
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	var leases map[string]Lease
	if len(fencedIDs) > 0 {
		leases = make(map[string]Lease, len(fencedIDs))
		rows, err = results.Query()
		if err != nil {
			return nil, nil, err
		}
		for rows.Next() {
			var l Lease
			if err := rows.Scan(&l.Room, &l.Node, &l.Epoch, &l.Expires); err != nil {
				return nil, nil, err
			}
			leases[l.Room] = l
		}
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
	}
	rows, err = results.Query()
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var id string
		var last *int64
		if err := rows.Scan(&id, &last); err != nil {
			return nil, nil, err
		}
		if last != nil {
			rooms[id].last = *last
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	return rooms, leases, results.Close()
}
