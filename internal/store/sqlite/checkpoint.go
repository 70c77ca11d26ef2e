package sqlite

import (
	"context"
	"database/sql"
	"os"
	"sync/atomic"
)

// Checkpoints copy the WAL's pages back into the database file. SQLite
// runs one by itself in the connection that commits once the WAL holds
// 1,000 pages: the writer, so that the game whose commit crossed the line,
// and every game queued behind it, waited for a copy of a thousand pages
// (an AIWolf agent's p99 turnaround at K = 5 was twice what it is without
// them: docs/benchmarks.md). No connection checkpoints by itself here
// (dsn: wal_autocheckpoint(0)); the checkpointer does, on a connection of
// its own.
//
// It copies PASSIVE, which never takes the write lock, so commits go on
// meanwhile, until it has caught up with them (each pass copies only what
// came during the one before). The WAL starts over only at a commit that
// begins with all of it copied, and the checkpointer's copies, made beside
// the commits, seldom end so (the WAL grew to 16 MiB in 3,000 commits in
// one test run of three): so once it has caught up, the writer, between
// two transactions, copies the few pages committed since (restart), as
// SQLite's own checkpoint would, and its next commit starts the WAL over.

// checkpointEvery is how many writes go between two checkpoints: 2,000 to
// 4,000 pages (a game's change writes 2 to 4), more than SQLite's own
// 1,000, since pages changed again and again (the records' last) are
// copied once a checkpoint. A move of the journal's records counts the
// pages they fill, not one a record: counted so, the 36 records of an
// AIWolf game (about 500 bytes each) made a checkpoint every 28 games at
// K = 5, each with a restart that held the writer 4–10 ms, the next
// game's opening waiting (docs/benchmarks.md).
const checkpointEvery = 1024

// pageSize is SQLite's page, and recordOverhead about what a record's row
// and its index entry take beside its fields.
const (
	pageSize       = 4096
	recordOverhead = 48
)

// catchUp bounds the PASSIVE passes of one checkpoint: if commits came
// faster than they are copied, the writer's restart copies the rest.
const catchUp = 4

// checkpointer copies the WAL into the database at each kick, until kick
// is closed; then it closes done. Once it has caught up, it sets
// caughtUp for the writer. With a copier process (copyproc.go), that
// process copies; if it fails, conn copies from then on.
func checkpointer(conn *sql.Conn, cp *copier, kick <-chan struct{}, caughtUp *atomic.Bool, done chan<- struct{}) {
	defer close(done)
	defer conn.Close()
	ctx := context.Background()
	defer cp.stop()
	for range kick {
		if cp.checkpoint() != nil {
			_ = passes(ctx, conn) // on failure, tried again at the next kick; meanwhile the WAL grows
		}
		caughtUp.Store(true)
	}
}

// passes copies PASSIVE until it has caught up with the commits, or
// catchUp times.
func passes(ctx context.Context, conn *sql.Conn) error {
	for range catchUp {
		var busy, pages, copied int
		if err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &pages, &copied); err != nil {
			return err
		}
		if pages == copied {
			break
		}
	}
	return nil
}

// restart copies, on the writer's connection between two transactions,
// the pages committed since the checkpointer caught up (a few), so that
// the writer's next commit finds the whole WAL copied and starts it over.
// PASSIVE: a reader still on an old page makes it wait for the next
// checkpoint, never the writer wait for the reader.
//
// With a copier process, the copier copies them, the writer waiting for it
// on a pipe: the other goroutines run meanwhile (the appends go on into
// the journal), and its fsyncs stop none of them.
func (w *writer) restart() {
	if !w.caughtUp.CompareAndSwap(true, false) {
		return
	}
	if w.cp.checkpoint() == nil {
		return
	}
	_, _ = w.conn.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
}

// writebackEvery is how many commits go between two calls of writeback.
const writebackEvery = 16

// writeback has the system start writing the WAL's new pages to the disk,
// without waiting for them, every writebackEvery commits, so that the
// checkpoint's fsync of the WAL finds them written. A goroutine waiting in
// a system call keeps its processor until the runtime's monitor hands it
// over, which on a busy server looks every 10 ms: with GOMAXPROCS=1 the
// whole process waits. The WAL's fsync at each checkpoint waited 4–5 ms for
// the pages of a thousand commits, every game in play with it; an AIWolf
// agent's p99 turnaround was 12% shorter with writeback, and a fifth to a
// third shorter with no fsync at all (docs/benchmarks.md).
func (w *writer) writeback() {
	if !canWriteback || w.commits-w.wroteBack < writebackEvery {
		return
	}
	w.wroteBack = w.commits
	if w.wal == nil {
		f, err := os.Open(w.walPath)
		if err != nil {
			return // no WAL yet
		}
		w.wal = f
	}
	_ = startWriteback(w.wal) // an optimisation: the fsync writes what it left
}
