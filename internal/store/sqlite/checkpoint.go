package sqlite

import (
	"context"
	"database/sql"
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
// copied once a checkpoint.
const checkpointEvery = 1024

// catchUp bounds the PASSIVE passes of one checkpoint: if commits came
// faster than they are copied, the writer's restart copies the rest.
const catchUp = 4

// checkpointer copies the WAL into the database at each kick, until kick
// is closed; then it closes done. Once it has caught up, it sets
// caughtUp for the writer.
func checkpointer(conn *sql.Conn, kick <-chan struct{}, caughtUp *atomic.Bool, done chan<- struct{}) {
	defer close(done)
	defer conn.Close()
	ctx := context.Background()
	for range kick {
		for range catchUp {
			var busy, pages, copied int
			err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &pages, &copied)
			if err != nil {
				break // tried again at the next kick; meanwhile the WAL grows
			}
			if pages == copied {
				break
			}
		}
		caughtUp.Store(true)
	}
}

// restart copies, on the writer's connection between two transactions,
// the pages committed since the checkpointer caught up (a few), so that
// the writer's next commit finds the whole WAL copied and starts it over.
// PASSIVE: a reader still on an old page makes it wait for the next
// checkpoint, never the writer wait for the reader.
func (w *writer) restart() {
	if !w.caughtUp.CompareAndSwap(true, false) {
		return
	}
	_, _ = w.conn.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
}
