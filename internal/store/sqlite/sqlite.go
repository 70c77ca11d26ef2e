// Package sqlite is the store on an SQLite file, through modernc.org/sqlite
// (pure Go, no cgo).
//
// Every write goes through one goroutine, which commits whatever has queued
// up in a single transaction (group commit): SQLite has one writer at a time
// anyway, and the cost of a commit is paid once for all the callers waiting
// on it instead of once each.
package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // the "sqlite" driver

	"github.com/wolfden/wolfden/internal/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrClosed is returned by every call made after Close.
// It wraps store.ErrClosed.
var ErrClosed = fmt.Errorf("sqlite: %w", store.ErrClosed)

// maxBatch bounds a group commit, so that under a flood of appends one
// transaction, and the wait of every caller in it, stays short.
const maxBatch = 512

// DB is a store.Store on an SQLite file. It is safe for concurrent use.
//
// It assumes it is the file's only writer: it remembers each room's last
// record number instead of reading it on every Append. (Another writer would
// not corrupt the log, since the primary key refuses a duplicate, but its
// appends would make ours fail.)
type DB struct {
	db *sql.DB

	// mu orders the callers' sends on queue against Close, which closes it.
	mu      sync.RWMutex
	closed  bool
	queue   chan *op
	stopped chan struct{} // closed once the writer has drained queue

	w     *writer
	lock  *fileLock
	reads reads // the readers' statements, prepared once
	// checkpointed is closed once the checkpointer (checkpoint.go) has
	// stopped, after the writer.
	checkpointed chan struct{}
}

var (
	_ store.Store      = (*DB)(nil)
	_ store.GameOpener = (*DB)(nil)
)

// Open opens the database file at path, creating it if needed, and brings
// its schema up to date.
//
// A file is served by one process at a time: a second Open of the same
// file, from this process or another, is refused while the first holds it
// (ErrInUse). A file that cannot be written (read-only, on a read-only
// disk) is refused with ErrReadOnly, in plain words, rather than failing
// at the first game's first write.
func Open(path string) (*DB, error) {
	return OpenWith(path, Options{})
}

// Options are Open's choices.
type Options struct {
	// CopierProcess: the checkpoints' copies are made by a process of
	// their own (copyproc.go), so that their fsyncs stop none of this
	// one's goroutines. If it cannot be started, or fails, this process
	// copies.
	CopierProcess bool
}

// OpenWith is Open with options.
func OpenWith(path string, o Options) (*DB, error) {
	lock, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		lock.release()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	ctx := context.Background()
	fail := func(err error) (*DB, error) {
		db.Close()
		lock.release()
		if readOnly(err) {
			return nil, fmt.Errorf("%w: %s (wolfden stores every game in it: check the file's and its folder's permissions, and that its disk is not mounted read-only)", ErrReadOnly, path)
		}
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if err := migrate(ctx, db); err != nil {
		return fail(err)
	}
	// A read-only file passes the migrations when its schema is current:
	// a write that changes nothing tells.
	if _, err := db.ExecContext(ctx, `PRAGMA user_version = 0`); err != nil {
		return fail(err)
	}
	w, err := newWriter(ctx, db)
	if err != nil {
		return fail(err)
	}
	w.walPath = path + "-wal"
	if w.j, err = openJournal(ctx, db, path); err != nil {
		w.close()
		return fail(err)
	}
	ckpt, err := db.Conn(ctx)
	if err != nil {
		w.close()
		return fail(err)
	}
	d := &DB{db: db, queue: make(chan *op, maxBatch), stopped: make(chan struct{}), w: w, lock: lock,
		checkpointed: make(chan struct{})}
	w.flushTimer = time.AfterFunc(time.Hour, func() { _ = d.do(context.Background(), &op{kind: opMove}) })
	w.flushTimer.Stop()
	if o.CopierProcess {
		w.cp, _ = startCopier(path) // without it, this process copies
	}
	go checkpointer(ckpt, w.cp, w.kick, &w.caughtUp, d.checkpointed)
	go d.write()
	return d, nil
}

// ErrReadOnly: the database file cannot be written.
var ErrReadOnly = errors.New("sqlite: the database is read-only")

// ErrInUse: another store (another wolfden server) holds the file.
var ErrInUse = errors.New("sqlite: the database is in use by another wolfden server")

func readOnly(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "readonly") || strings.Contains(msg, "read-only")
}

// uriEscaper keeps a path's own '?', '#' and '%' from being read as parts of
// the URI that dsn builds around it.
var uriEscaper = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// dsn gives every connection of the pool the same pragmas.
//
// WAL lets reads proceed while the writer commits. Under WAL,
// synchronous=NORMAL writes each commit to the log without an fsync, which
// is durable against the process being killed (the promise of
// store.Store.Append: the OS still has the data) but not against the machine
// losing power, where the last commits before the crash may be lost;
// synchronous=FULL would cover that at the price of an fsync per commit.
// busy_timeout lets a connection wait out another one, or another process
// (a backup, the sqlite3 shell), holding the lock. wal_autocheckpoint(0):
// no commit copies the WAL into the database; the checkpointer does
// (checkpoint.go). _txlock=immediate takes the write lock at BEGIN, so
// that a transaction that reads before it writes cannot fail to upgrade
// its lock halfway. temp_store(MEMORY): a statement that may fail halfway
// keeps the pages it changes in a statement journal, and a move's
// inserts of many records (journal.go) overflowed its 64 KiB in memory
// into a temporary file, two pwrite(2) a page: 30% of the store's writes
// at 10,000 players. A statement journal holds the pages of one
// statement.
func dsn(path string) string {
	return "file:" + uriEscaper.Replace(path) +
		"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(on)" +
		"&_pragma=wal_autocheckpoint(0)&_pragma=temp_store(MEMORY)" +
		"&_txlock=immediate"
}

func migrate(ctx context.Context, db *sql.DB) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	// A Provider rather than goose's package functions, which configure a
	// global dialect, registry and logger; it logs only when asked to.
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys, goose.WithDisableGlobalRegistry(true))
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

// UpdateRoom replaces a room's Status, Config, Seats, Code and Updated.
func (d *DB) UpdateRoom(ctx context.Context, r store.Room) error {
	return d.do(ctx, &op{kind: opUpdate, roomID: r.ID, room: r})
}

// Append writes recs to the room, all or none, and returns once they are
// stored: in the journal (journal.go; by the caller itself, appendNow)
// or in a transaction shared with other callers' writes. A refusal (a
// gap, a duplicate, a missing room) or a cancellation means that none of
// recs was written, so that the caller's view of the log stays the
// stored one: ctx releases the caller only while its records are still
// waiting in the queue; once they are taken, Append waits for the
// outcome, which takes one write.
func (d *DB) Append(ctx context.Context, roomID string, recs ...store.Record) error {
	if len(recs) == 0 {
		return nil
	}
	o, err := appendOp(roomID, recs)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if done, err := d.appendNow(o); done {
		return err
	}
	return d.do(ctx, o)
}

func appendOp(roomID string, recs []store.Record) (*op, error) {
	for i := 1; i < len(recs); i++ {
		if recs[i].N != recs[i-1].N+1 {
			return nil, fmt.Errorf("sqlite: append to room %q: records are not consecutive: %d follows %d", roomID, recs[i].N, recs[i-1].N)
		}
	}
	// Encoded by the caller rather than by the writer, which would do it
	// for every caller in turn.
	events := make([][]byte, len(recs))
	for i := range recs {
		events[i] = store.AppendEvents(nil, recs[i].Events)
	}
	return &op{kind: opAppend, roomID: roomID, recs: recs, events: events}, nil
}

// StartGame updates the room and appends recs in one transaction (shared
// with other callers' writes): both or neither are stored.
func (d *DB) StartGame(ctx context.Context, r store.Room, recs ...store.Record) error {
	return d.begin(ctx, opStart, r, recs)
}

// OpenGame creates the room and appends recs, both or neither: in the
// journal (openNow), or in one transaction shared with other callers'
// writes.
func (d *DB) OpenGame(ctx context.Context, r store.Room, recs ...store.Record) error {
	return d.begin(ctx, opOpen, r, recs)
}

// openNow writes a game's opening to the journal, on the caller's
// goroutine as appendNow an append, once the database is found not to
// hold its room; and reports whether it did. A matched AIWolf game's
// opening waited for the writer's transaction, and behind whatever the
// writer was doing: a game's end with its records' move, another's
// standing, the copy before the WAL starts over (4–10 ms), all in the
// turnaround of the agents' INITIALIZE (docs/benchmarks.md). The
// database's key no longer guards the room's ID in this one step: room IDs
// are drawn at random by the process that holds the file (its lock), and
// the check before covers every room stored or journaled.
func (d *DB) openNow(ctx context.Context, o *op) (bool, error) {
	if o.recs[0].N != 1 {
		return false, nil // the writer refuses it: a gap
	}
	if !d.w.res.take(o.roomID) {
		d.w.idReads.Add(1)
		var exists bool
		if err := d.queryRow(ctx, roomExists, o.roomID).Scan(&exists); err != nil || exists {
			return false, nil // the writer fails or refuses it, as it would have
		}
	}
	o.fresh = true
	return d.appendNow(o)
}

// begin writes a game's start (opStart, opOpen): its room and its first
// records.
func (d *DB) begin(ctx context.Context, kind opKind, r store.Room, recs []store.Record) error {
	if len(recs) == 0 {
		return fmt.Errorf("sqlite: start room %q: a game starts with its first record", r.ID)
	}
	o, err := appendOp(r.ID, recs)
	if err != nil {
		return err
	}
	o.kind, o.room = kind, r
	if kind == opOpen {
		if done, err := d.openNow(ctx, o); done {
			return err
		}
	}
	return d.do(ctx, o)
}

// ResetRoom updates the room and drops its records in one transaction.
func (d *DB) ResetRoom(ctx context.Context, r store.Room) error {
	return d.do(ctx, &op{kind: opReset, roomID: r.ID, room: r})
}

// do queues o for the writer and waits for its outcome.
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

// Close waits for the queued writes to be committed, then closes the file.
func (d *DB) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return ErrClosed
	}
	d.closed = true
	close(d.queue)
	d.mu.Unlock()
	<-d.stopped
	<-d.checkpointed
	d.reads.close()
	err := d.db.Close()
	d.lock.release()
	return err
}

func (d *DB) isClosed() bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.closed
}

const roomColumns = `id, created, updated, status, config, seats, code`

// insertRoom stores a room (roomArgs): the writer's statement, and the
// journal's recovery at Open.
const insertRoom = `INSERT INTO rooms (` + roomColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`

// roomExists reads whether the database holds a room.
const roomExists = `SELECT EXISTS (SELECT 1 FROM rooms WHERE id = ?)`

func roomArgs(r store.Room) []any {
	return []any{r.ID, nanos(r.Created), nanos(r.Updated), r.Status, r.Config, r.Seats, r.Code}
}

// insertRecord stores one record: the writer's statement, and the
// journal's recovery at Open. A record is recordColumns values.
const (
	insertRecord  = `INSERT INTO records (room_id, n, at, kind, body, events, clock) VALUES ` + recordRow
	recordRow     = `(?, ?, ?, ?, ?, ?, ?)`
	recordColumns = 7
)

// Room reads one room.
func (d *DB) Room(ctx context.Context, id string) (store.Room, error) {
	if d.isClosed() {
		return store.Room{}, ErrClosed
	}
	if r, ok := d.w.pend.openedRoom(id); ok {
		return r, nil
	}
	r, err := scanRoom(d.queryRow(ctx, `SELECT `+roomColumns+` FROM rooms WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Room{}, fmt.Errorf("sqlite: room %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Room{}, fmt.Errorf("sqlite: room %q: %w", id, err)
	}
	return r, nil
}

// Rooms lists the rooms with a status, oldest first: those the database
// holds, and those opened in the journal. A move of the journal committed
// between the two reads would list a room twice, or not at all, so the
// reads are made again if one ran meanwhile.
func (d *DB) Rooms(ctx context.Context, status string) ([]store.Room, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	for {
		gen, opened := d.w.pend.openedWith(status)
		rooms, err := d.storedRooms(ctx, status)
		if err != nil {
			return nil, fmt.Errorf("sqlite: rooms %q: %w", status, err)
		}
		if !d.w.pend.movedSince(gen) {
			rooms = append(rooms, opened...)
			slices.SortFunc(rooms, func(a, b store.Room) int {
				return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
			})
			return rooms, nil
		}
	}
}

func (d *DB) storedRooms(ctx context.Context, status string) ([]store.Room, error) {
	rows, err := d.query(ctx, `SELECT `+roomColumns+` FROM rooms WHERE status = ? ORDER BY created, id`, status)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var rooms []store.Room
	for rows.Next() {
		r, err := scanRoom(rows)
		if err != nil {
			return nil, err
		}
		rooms = append(rooms, r)
	}
	return rooms, rows.Err()
}

func scanRoom(row interface{ Scan(...any) error }) (store.Room, error) {
	var r store.Room
	var created, updated sql.NullInt64
	if err := row.Scan(&r.ID, &created, &updated, &r.Status, &r.Config, &r.Seats, &r.Code); err != nil {
		return store.Room{}, err
	}
	r.Created, r.Updated = fromNanos(created), fromNanos(updated)
	return r, nil
}

// Records reads a room's records in order; a room that does not exist is
// store.ErrNotFound.
func (d *DB) Records(ctx context.Context, roomID string) ([]store.Record, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	recs, err := d.withJournal(ctx, roomID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: records of room %q: %w", roomID, err)
	}
	if len(recs) == 0 {
		// Only now, so that reading a game costs one query.
		var exists bool
		if err := d.queryRow(ctx, roomExists, roomID).Scan(&exists); err != nil {
			return nil, fmt.Errorf("sqlite: records of room %q: %w", roomID, err)
		}
		if !exists {
			return nil, fmt.Errorf("sqlite: records of room %q: %w", roomID, store.ErrNotFound)
		}
	}
	return recs, nil
}

func (d *DB) records(ctx context.Context, roomID string) ([]store.Record, error) {
	rows, err := d.query(ctx, `SELECT n, at, kind, body, events, clock FROM records WHERE room_id = ? ORDER BY n`, roomID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var recs []store.Record
	for rows.Next() {
		var r store.Record
		var at sql.NullInt64
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
func nanos(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

func fromNanos(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64).UTC()
}

type opKind uint8

const (
	opAppend opKind = iota
	opCreate
	opUpdate
	opStart // opUpdate and opAppend together
	opOpen  // opCreate and opAppend together
	opReset // opUpdate, and the room's records dropped
	// The code claims (store.Codes): roomID is the claiming room (from,
	// for opGive).
	opClaim
	opGive
	opExpire
	opFree
	// opFunc runs fn in the transaction (the accounts' writes).
	opFunc
	opMove          // nothing but the journal's move (journal.go)
	opArena         // store.Arena's AddArenaRun
	opArenaStanding // store.Arena's UpdateArenaStanding
)

// op is one write waiting for the writer.
type op struct {
	kind   opKind
	roomID string
	room   store.Room                                                 // opCreate, opUpdate, opStart, opOpen
	recs   []store.Record                                             // opAppend, opStart, opOpen
	events [][]byte                                                   // opAppend, opStart, opOpen: recs' events, encoded
	code   string                                                     // the code claims'
	to     string                                                     // opGive: the room given the code
	ttl    time.Duration                                              // opExpire
	fn     func(ctx context.Context, tx *sql.Tx) (refusal, err error) // opFunc
	arena  []store.ArenaRating                                        // opArena, opArenaStanding
	fresh  bool                                                       // opOpen: the database was found not to hold the room (openNow)
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

// write is the writer goroutine: it takes what has queued up, commits it,
// and starts again until Close closes the queue.
func (d *DB) write() {
	defer close(d.stopped)
	defer func() {
		// No append starts now (d.closed); one under way has mu.
		d.w.mu.Lock()
		left := d.w.pend.count
		d.w.mu.Unlock()
		if left > 0 {
			d.w.run(nil) // the journal's last records, moved as the store closes
		}
		d.w.close()
	}()
	batch := make([]*op, 0, maxBatch)
	for o := range d.queue {
		batch = d.more(take(batch[:0], o))
		// Before a commit, let whatever else is ready to run go first: the
		// writes it makes meanwhile join this commit. A caller's send wakes
		// the writer ahead of everything else, so without this it commits
		// each write alone however many games are writing (21 commits a
		// game with 50 AIWolf games at once, as with one). With nothing
		// else ready, it returns at once. A batch with an append in it is
		// not held back so: the yield puts the writer behind everything
		// runnable, which on a busy core is most of the server's backlog
		// (the server's p99 at 10,000 players was 0.2–0.3 s with it),
		// while an append costs one write(2) to the journal, whoever
		// makes it (appendNow).
		if !slices.ContainsFunc(batch, appendOrMove) {
			runtime.Gosched()
			batch = d.more(batch)
		}
		if len(batch) > 0 {
			d.w.run(batch)
			d.w.restart() // its callers have their answers
			d.w.writeback()
		}
	}
}

// appendNow writes o to the journal on the caller's goroutine, and
// reports whether it did (with the outcome). A game's append then costs
// its write(2) alone, not two goroutine switches and a wait for the
// writer's turn on a busy core; and an answer from the writer wakes every
// caller of its batch at once, all but one of them behind whatever else
// is runnable. It goes on while the writer commits, even a move of the
// journal's records (swap): mu is held for a write(2) or a swap of maps,
// never for a transaction. A move that comes due is the writer's (the
// flush timer's), never made here: it takes milliseconds.
func (d *DB) appendNow(o *op) (done bool, err error) {
	w := d.w
	w.mu.Lock()
	defer w.mu.Unlock()
	d.mu.RLock()
	closed := d.closed
	d.mu.RUnlock()
	batch := []*op{o}
	if closed || !w.journalable(batch) {
		return false, nil // the writer answers ErrClosed, or commits it
	}
	o.done = make(chan error, 1)
	w.directWrites++
	if w.journal(batch) && !w.moveAsked {
		w.moveAsked = true
		w.flushTimer.Reset(0)
	}
	return true, <-o.done
}

// more adds to batch what has queued, up to maxBatch.
func (d *DB) more(batch []*op) []*op {
	for len(batch) < maxBatch {
		select {
		case o, ok := <-d.queue:
			if !ok {
				return batch
			}
			batch = take(batch, o)
		default:
			return batch
		}
	}
	return batch
}

func appendOrMove(o *op) bool { return o.kind == opAppend || o.kind == opMove }

func take(batch []*op, o *op) []*op {
	if o.state.CompareAndSwap(queued, taken) {
		return append(batch, o)
	}
	return batch
}

// writer is the state of the writer goroutine. mu guards the journal's
// state (j, pend's changes, last, moveAsked and the counts), which the
// games' appends share with it (appendNow); the rest is the writer's
// alone.
type writer struct {
	mu   sync.Mutex
	conn *sql.Conn // every write transaction runs on it, with its statements prepared once
	// last is the last stored record number of the rooms appended to since
	// Open, so that an Append is checked without a query; rooms leave it
	// when their game is over, which keeps it to the games in play.
	last                                         map[string]int64
	insertRecord, lastRecord, insertRoom, update *sql.Stmt
	insertRecords                                *sql.Stmt // moveRows records at once (the journal's move)
	// A matched game's standing (updateStanding), once a game.
	standingGames, putStanding, putRating *sql.Stmt
	commits                               int // transactions committed (tests)
	// The WAL (path-wal), opened once it exists, and commits as of its
	// last writeback (checkpoint.go).
	walPath   string
	wal       *os.File
	wroteBack int
	// The journal (journal.go), nil for a writer without one; pend is its
	// records not yet moved into the database, which flushTimer moves.
	j             *journal
	pend          *pending
	flushTimer    *time.Timer
	moveAsked     bool         // appendNow has set flushTimer off for a move due
	journalWrites int          // (tests)
	directWrites  int          // of them, by their callers (appendNow; tests)
	idReads       atomic.Int64 // openings that read whether their room's ID is taken (tests)
	res           reserved     // room IDs found free ahead of need (ids.go)
	// sinceKick counts the writes committed since the last kick of the
	// checkpointer (each changes two pages or more, however many share a
	// commit); kick is closed as the writer stops.
	sinceKick int
	kick      chan struct{}
	caughtUp  atomic.Bool // set by the checkpointer: restart may start the WAL over
	cp        *copier     // the copier process, if any (copyproc.go)
}

func newWriter(ctx context.Context, db *sql.DB) (*writer, error) {
	w := &writer{last: make(map[string]int64), kick: make(chan struct{}, 1), pend: &pending{rooms: map[string][]journaled{}, opened: map[string]store.Room{}},
		flushTimer: time.NewTimer(time.Hour)}
	w.flushTimer.Stop()
	var err error
	prepare := func(query string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var s *sql.Stmt
		s, err = db.PrepareContext(ctx, query)
		return s
	}
	w.insertRecord = prepare(insertRecord)
	w.insertRecords = prepare(insertRecord + strings.Repeat(", "+recordRow, moveRows-1))
	w.lastRecord = prepare(`SELECT EXISTS (SELECT 1 FROM rooms WHERE id = ?1), (SELECT coalesce(max(n), 0) FROM records WHERE room_id = ?1)`)
	w.insertRoom = prepare(insertRoom)
	w.update = prepare(`UPDATE rooms SET status = ?, config = ?, seats = ?, updated = ?, code = ? WHERE id = ?`)
	w.standingGames = prepare(standingGames)
	w.putStanding = prepare(`INSERT INTO arena_standings (run, at, games) VALUES (?, ?, ?)
		ON CONFLICT (run) DO UPDATE SET at = excluded.at, games = excluded.games`)
	w.putRating = prepare(`INSERT INTO arena_ratings (run, at, board, seed, games, program, side, mu, sigma, played, wins, tokens, seconds)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (run, program, side) DO UPDATE SET at = excluded.at, board = excluded.board, seed = excluded.seed,
			games = excluded.games, mu = excluded.mu, sigma = excluded.sigma, played = excluded.played, wins = excluded.wins,
			tokens = excluded.tokens, seconds = excluded.seconds`)
	if err == nil {
		w.conn, err = db.Conn(ctx)
	}
	if err != nil {
		w.close()
		return nil, err
	}
	return w, nil
}

func (w *writer) close() {
	w.flushTimer.Stop()
	w.j.close()
	close(w.kick)
	for _, s := range []*sql.Stmt{w.insertRecord, w.insertRecords, w.lastRecord, w.insertRoom, w.update, w.standingGames, w.putStanding, w.putRating} {
		if s != nil {
			s.Close()
		}
	}
	if w.conn != nil {
		w.conn.Close()
	}
	if w.wal != nil {
		w.wal.Close()
	}
}

// run commits batch and answers its callers. When the transaction fails,
// each op is retried in a transaction of its own, so that only the op at
// fault fails.
func (w *writer) run(batch []*op) {
	if len(batch) > 0 {
		w.mu.Lock()
		if w.journalable(batch) {
			due := w.journal(batch)
			w.mu.Unlock()
			if due {
				w.run(nil) // a transaction of the move alone
			}
			return
		}
		w.mu.Unlock()
	}
	refusals, err := w.commit(batch)
	switch {
	case err == nil:
		for i, o := range batch {
			o.done <- refusals[i]
		}
	case len(batch) == 1:
		batch[0].done <- fmt.Errorf("sqlite: write to room %q: %w", batch[0].roomID, err)
	default:
		for _, o := range batch {
			w.run([]*op{o})
		}
	}
}

// commit runs batch in one transaction. An op that breaks a rule (a gap, a
// duplicate room) is refused before it writes anything, so refusals[i] is
// for the op's caller alone and the others are committed; err is the
// failure of the transaction as a whole.
func (w *writer) commit(batch []*op) (refusals []error, err error) {
	ctx := context.Background()
	t := txn{w: w, last: make(map[string]int64)}
	if t.tx, err = w.conn.BeginTx(ctx, nil); err != nil {
		return nil, err
	}
	// The journal's records first, when the batch's writes come after them.
	if all, rooms := w.moveFirst(batch); all || len(rooms) > 0 {
		err = t.move(ctx, all, rooms)
	}
	refusals = make([]error, len(batch))
	for i, o := range batch {
		if err != nil {
			break
		}
		refusals[i], err = t.apply(ctx, o)
	}
	if err != nil {
		t.tx.Rollback()
	} else {
		err = t.tx.Commit()
	}
	if t.moving != nil || t.swapped {
		w.moved(&t, err == nil)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, id := range t.made { // once it is in the database (ReserveRoomIDs)
		w.res.take(id)
	}
	if err != nil {
		// The failure may come from a number the writer remembered wrong
		// (another writer of the file), and what a failed commit left is
		// unsure: read the numbers again.
		for _, o := range batch {
			delete(w.last, o.roomID)
		}
		return nil, err
	}
	w.commits++
	maps.Copy(w.last, t.last)
	for _, id := range t.over {
		delete(w.last, id)
	}
	if w.sinceKick += len(batch); w.sinceKick >= checkpointEvery {
		w.sinceKick = 0
		select {
		case w.kick <- struct{}{}:
		default: // it is copying: it goes on to what this commit wrote
		}
	}
	return refusals, nil
}

// txn is a write transaction. Its changes to the writer's memory wait in it
// until the commit.
type txn struct {
	w  *writer
	tx *sql.Tx
	// The writer's statements bound to tx, made when first used: most
	// transactions use one of them, and each costs the commit a close.
	insertRecord, lastRecord, insertRoom, update *sql.Stmt
	standingGames, putStanding, putRating        *sql.Stmt
	insertRecords                                *sql.Stmt        // moveRows records (the journal's move)
	last                                         map[string]int64 // as writer.last
	over                                         []string         // rooms whose game is over
	made                                         []string         // rooms it creates (ReserveRoomIDs)
	// The journal's records it moves (journal.go): moved of them; in a
	// move of all (swapped), from the file of epoch (both files, up to
	// epoch, after a failed move).
	moving  map[string][]journaled
	opening map[string]store.Room // the rooms opened in the journal that it stores first
	moved   int
	pages   int // about as many as the moved records fill (checkpointEvery)
	epoch   int64
	swapped bool // a move of all: epoch's file is done with once committed
}

// stmt is the writer's statement s bound to the transaction (*in, made on
// first use).
func (t *txn) stmt(ctx context.Context, in **sql.Stmt, s *sql.Stmt) *sql.Stmt {
	if *in == nil {
		*in = t.tx.StmtContext(ctx, s)
	}
	return *in
}

func (t *txn) apply(ctx context.Context, o *op) (refusal, err error) {
	switch o.kind {
	case opCreate:
		return t.createRoom(ctx, o.room)
	case opUpdate:
		return t.updateRoom(ctx, o.room)
	case opClaim, opGive, opExpire, opFree:
		return t.claim(ctx, o)
	case opFunc:
		return o.fn(ctx, t.tx)
	case opMove:
		return nil, nil
	case opArena:
		return t.addArena(ctx, o.arena)
	case opArenaStanding:
		return t.updateStanding(ctx, o.arena)
	case opReset:
		if refusal, err := t.updateRoom(ctx, o.room); refusal != nil || err != nil {
			return refusal, err
		}
		if _, err := t.tx.ExecContext(ctx, `DELETE FROM records WHERE room_id = ?`, o.roomID); err != nil {
			return nil, err
		}
		t.last[o.roomID] = 0
		return nil, nil
	}
	// An append; a start checks it before it changes the room, so that a
	// refused start writes nothing. An opening room has no records yet.
	last, ok := t.last[o.roomID]
	if o.kind == opOpen {
		last, ok = 0, true
	}
	if !ok {
		t.w.mu.Lock()
		last, ok = t.w.last[o.roomID]
		t.w.mu.Unlock()
	}
	if !ok {
		var exists bool
		if err := t.stmt(ctx, &t.lastRecord, t.w.lastRecord).QueryRowContext(ctx, o.roomID).Scan(&exists, &last); err != nil {
			return nil, err
		}
		if !exists {
			return fmt.Errorf("sqlite: append to room %q: %w", o.roomID, store.ErrNotFound), nil
		}
		t.last[o.roomID] = last
	}
	if refusal := follows(o.roomID, o.recs[0].N, last); refusal != nil {
		return refusal, nil
	}
	switch o.kind {
	case opStart:
		refusal, err = t.updateRoom(ctx, o.room)
	case opOpen:
		refusal, err = t.createRoom(ctx, o.room)
	}
	if refusal != nil || err != nil {
		return refusal, err
	}
	for i, r := range o.recs {
		if _, err := t.stmt(ctx, &t.insertRecord, t.w.insertRecord).ExecContext(ctx, o.roomID, r.N, nanos(r.At), r.Kind, r.Body, o.events[i], r.Clock); err != nil {
			return nil, err
		}
	}
	if o.kind == opStart || o.kind == opOpen {
		crashPoint()
	}
	t.last[o.roomID] = o.recs[len(o.recs)-1].N
	return nil, nil
}

// follows refuses a room's record n unless it follows last, the room's
// last stored record.
func follows(room string, n, last int64) error {
	switch {
	case n <= last:
		return fmt.Errorf("sqlite: append to room %q: record %d is already stored (the last is %d)", room, n, last)
	case n > last+1:
		return fmt.Errorf("sqlite: append to room %q: record %d leaves a gap after the last stored record, %d", room, n, last)
	}
	return nil
}

func (t *txn) createRoom(ctx context.Context, r store.Room) (refusal, err error) {
	t.made = append(t.made, r.ID)
	n, err := affected(t.stmt(ctx, &t.insertRoom, t.w.insertRoom).ExecContext(ctx, roomArgs(r)...))
	if err != nil || n > 0 {
		return nil, err
	}
	return fmt.Errorf("sqlite: create room %q: the room already exists", r.ID), nil
}

func (t *txn) updateRoom(ctx context.Context, r store.Room) (refusal, err error) {
	n, err := affected(t.stmt(ctx, &t.update, t.w.update).ExecContext(ctx, r.Status, r.Config, r.Seats, nanos(r.Updated), r.Code, r.ID))
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return fmt.Errorf("sqlite: update room %q: %w", r.ID, store.ErrNotFound), nil
	}
	if r.Status == store.StatusOver {
		t.over = append(t.over, r.ID)
	}
	return nil, nil
}

func affected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// claim applies a code claim's op. The time a claim lapses at is this
// process's clock, read in the transaction.
func (t *txn) claim(ctx context.Context, o *op) (refusal, err error) {
	now := time.Now().UnixNano()
	var n int64
	switch o.kind {
	case opClaim, opGive:
		// A claim takes over its own claim, or a lapsed one; a gift the
		// giver's claim (lapsed or not), or the receiver's.
		to := o.roomID
		if o.kind == opGive {
			to = o.to
		}
		n, err = affected(t.tx.ExecContext(ctx, `INSERT INTO codes (code, room_id, expires) VALUES (?1, ?2, NULL)
			ON CONFLICT (code) DO UPDATE SET room_id = excluded.room_id, expires = NULL
			WHERE codes.room_id IN (?2, ?3) OR codes.expires <= ?4`, o.code, to, o.roomID, now))
		if err != nil || n > 0 {
			return nil, err
		}
		var holder string
		if err := t.tx.QueryRowContext(ctx, `SELECT room_id FROM codes WHERE code = ?`, o.code).Scan(&holder); err != nil {
			return nil, err
		}
		if o.kind == opGive {
			return fmt.Errorf("sqlite: give code %s to room %q: %w (room %q, not %q)", o.code, o.to, store.ErrCodeTaken, holder, o.roomID), nil
		}
		return fmt.Errorf("sqlite: claim code %s for room %q: %w (room %q)", o.code, o.roomID, store.ErrCodeTaken, holder), nil
	case opExpire:
		n, err = affected(t.tx.ExecContext(ctx, `UPDATE codes SET expires = ? WHERE code = ? AND room_id = ?`,
			now+int64(max(o.ttl, 0)), o.code, o.roomID))
		if err != nil || n > 0 {
			return nil, err
		}
		return fmt.Errorf("sqlite: expire code %s of room %q: %w", o.code, o.roomID, store.ErrNotFound), nil
	default: // opFree
		_, err = t.tx.ExecContext(ctx, `DELETE FROM codes WHERE code = ? AND room_id = ?`, o.code, o.roomID)
		return nil, err
	}
}

// ClaimCode makes code room's (store.Codes).
func (d *DB) ClaimCode(ctx context.Context, code, room string) error {
	if err := store.CheckClaim("sqlite: claim code", code, room); err != nil {
		return err
	}
	return d.do(ctx, &op{kind: opClaim, roomID: room, code: code})
}

// GiveCode hands code from room from to room to (store.Codes).
func (d *DB) GiveCode(ctx context.Context, code, from, to string) error {
	if err := store.CheckClaim("sqlite: give code", code, from, to); err != nil {
		return err
	}
	return d.do(ctx, &op{kind: opGive, roomID: from, to: to, code: code})
}

// ExpireCode makes room's claim on code lapse after ttl (store.Codes).
func (d *DB) ExpireCode(ctx context.Context, code, room string, ttl time.Duration) error {
	if err := store.CheckClaim("sqlite: expire code", code, room); err != nil {
		return err
	}
	return d.do(ctx, &op{kind: opExpire, roomID: room, code: code, ttl: ttl})
}

// FreeCode drops room's claim on code (store.Codes).
func (d *DB) FreeCode(ctx context.Context, code, room string) error {
	if err := store.CheckClaim("sqlite: free code", code, room); err != nil {
		return err
	}
	return d.do(ctx, &op{kind: opFree, roomID: room, code: code})
}

// CodeRoom is the room whose live claim holds code (store.Codes).
func (d *DB) CodeRoom(ctx context.Context, code string) (string, error) {
	if d.isClosed() {
		return "", ErrClosed
	}
	var room string
	err := d.queryRow(ctx, `SELECT room_id FROM codes WHERE code = ? AND (expires IS NULL OR expires > ?)`, code, time.Now().UnixNano()).Scan(&room)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("sqlite: code %s: %w", code, store.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: code %s: %w", code, err)
	}
	return room, nil
}

var _ store.Arena = (*DB)(nil)

// AddArenaRun stores one run's ratings (store.Arena).
func (d *DB) AddArenaRun(ctx context.Context, rows []store.ArenaRating) error {
	if err := store.CheckArenaRun("sqlite: add arena run", rows); err != nil {
		return err
	}
	return d.do(ctx, &op{kind: opArena, arena: rows})
}

func (t *txn) addArena(ctx context.Context, rows []store.ArenaRating) (refusal, err error) {
	// Refused before anything is written: the batch's other ops commit.
	var n int
	if err := t.tx.QueryRowContext(ctx, `SELECT count(*) FROM arena_ratings WHERE run = ?`, rows[0].Run).Scan(&n); err != nil {
		return nil, err
	}
	if n > 0 {
		return fmt.Errorf("sqlite: add arena run %q: the run is already stored", rows[0].Run), nil
	}
	for _, r := range rows {
		_, err := t.tx.ExecContext(ctx, `INSERT INTO arena_ratings (run, at, board, seed, games, program, side, mu, sigma, played, wins, tokens, seconds)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.Run, nanos(r.At), r.Board, int64(r.Seed), r.Games, r.Program, r.Side, r.Mu, r.Sigma, r.Played, r.Wins, r.Tokens, r.Seconds)
		if err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// UpdateArenaStanding updates a standing run (store.Arena).
func (d *DB) UpdateArenaStanding(ctx context.Context, rows []store.ArenaRating) error {
	if err := store.CheckArenaRun("sqlite: update arena standing", rows); err != nil {
		return err
	}
	return d.do(ctx, &op{kind: opArenaStanding, arena: rows})
}

// standingGames reads a run's games: its arena_standings row's, or for a
// run stored before there was one, its rows'.
const standingGames = `SELECT coalesce((SELECT games FROM arena_standings WHERE run = ?1), (SELECT max(games) FROM arena_ratings WHERE run = ?1), 0)`

func (t *txn) updateStanding(ctx context.Context, rows []store.ArenaRating) (refusal, err error) {
	run, games := rows[0].Run, rows[0].Games
	var stored int
	if err := t.stmt(ctx, &t.standingGames, t.w.standingGames).QueryRowContext(ctx, run).Scan(&stored); err != nil {
		return nil, err
	}
	if stored != games-1 { // refused before anything is written: the batch's other ops commit
		return fmt.Errorf("sqlite: update arena standing %q: %w", run, store.ErrStaleRating), nil
	}
	if _, err := t.stmt(ctx, &t.putStanding, t.w.putStanding).ExecContext(ctx, run, nanos(rows[0].At), games); err != nil {
		return nil, err
	}
	up := t.stmt(ctx, &t.putRating, t.w.putRating)
	for _, r := range rows {
		if _, err := up.ExecContext(ctx, r.Run, nanos(r.At), r.Board, int64(r.Seed), r.Games, r.Program, r.Side,
			r.Mu, r.Sigma, r.Played, r.Wins, r.Tokens, r.Seconds); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// ArenaStanding reads a standing run's games and some of its rows
// (store.Arena).
func (d *DB) ArenaStanding(ctx context.Context, run string, programs []string) (int, []store.ArenaRating, error) {
	if d.isClosed() {
		return 0, nil, ErrClosed
	}
	// The games first: rows read after them are as new or newer, and an
	// update made from newer rows than games is refused as stale.
	var games int
	if err := d.queryRow(ctx, standingGames, run).Scan(&games); err != nil {
		return 0, nil, fmt.Errorf("sqlite: arena standing: %w", err)
	}
	out := []store.ArenaRating{}
	if len(programs) == 0 {
		return games, out, nil
	}
	args := []any{run}
	for _, p := range programs {
		args = append(args, p)
	}
	rows, err := d.arenaRows(ctx, `WHERE r.run = ? AND r.program IN (?`+strings.Repeat(", ?", len(programs)-1)+`)`, args...)
	if err != nil {
		return 0, nil, err
	}
	return games, append(out, rows...), nil
}

// ArenaRun reads one run's rows (store.Arena).
func (d *DB) ArenaRun(ctx context.Context, run string) ([]store.ArenaRating, error) {
	out, err := d.arenaRows(ctx, `WHERE r.run = ?`, run)
	if out == nil && err == nil {
		out = []store.ArenaRating{}
	}
	return out, err
}

// ArenaRatings lists the latest runs' ratings (store.Arena).
func (d *DB) ArenaRatings(ctx context.Context, limit int) ([]store.ArenaRating, error) {
	out, err := d.arenaRows(ctx, `WHERE r.run IN (SELECT a.run FROM arena_ratings a LEFT JOIN arena_standings t ON t.run = a.run
		GROUP BY a.run ORDER BY max(coalesce(t.at, a.at)) DESC, max(a.seq) DESC LIMIT ?)`, max(limit, 1))
	if err != nil {
		return nil, err
	}
	return store.LatestArenaRuns(out, limit), nil
}

// arenaRows reads the rows where says, in the order they were added.
// A standing run's time and games are its arena_standings row's.
func (d *DB) arenaRows(ctx context.Context, where string, args ...any) ([]store.ArenaRating, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	rows, err := d.query(ctx, `SELECT r.run, coalesce(s.at, r.at), r.board, r.seed, coalesce(s.games, r.games), r.program, r.side,
		r.mu, r.sigma, r.played, r.wins, r.tokens, r.seconds
		FROM arena_ratings r LEFT JOIN arena_standings s ON s.run = r.run `+where+` ORDER BY r.seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: arena ratings: %w", err)
	}
	defer rows.Close()
	var out []store.ArenaRating
	for rows.Next() {
		var r store.ArenaRating
		var at, seed int64
		if err := rows.Scan(&r.Run, &at, &r.Board, &seed, &r.Games, &r.Program, &r.Side, &r.Mu, &r.Sigma, &r.Played, &r.Wins, &r.Tokens, &r.Seconds); err != nil {
			return nil, fmt.Errorf("sqlite: arena ratings: %w", err)
		}
		r.At, r.Seed = time.Unix(0, at).UTC(), uint64(seed)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: arena ratings: %w", err)
	}
	return out, nil
}
