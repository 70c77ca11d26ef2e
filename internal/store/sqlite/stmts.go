package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// maxReadStmts bounds the reads kept prepared: each text is one of a few
// dozen (an IN list's length makes a text of its own), but a caller with
// ever new lengths must not grow the cache for ever.
const maxReadStmts = 128

// reads keeps the readers' statements prepared. The driver parses a
// statement each time it is run from its text, and parsing costs more
// than running most of ours: it was 2% of the server's CPU in a run of
// matched AIWolf games, whose standings are read after every game.
type reads struct {
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// stmt is q prepared on db, kept; nil when the cache is full (the caller
// runs q from its text).
func (r *reads) stmt(ctx context.Context, db *sql.DB, q string) (*sql.Stmt, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.stmts[q]; ok {
		return s, nil
	}
	if len(r.stmts) >= maxReadStmts {
		return nil, nil
	}
	s, err := db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if r.stmts == nil {
		r.stmts = map[string]*sql.Stmt{}
	}
	r.stmts[q] = s
	return s, nil
}

func (r *reads) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.stmts {
		s.Close()
	}
	r.stmts = nil
}

// query runs a read, prepared once.
func (d *DB) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	s, err := d.reads.stmt(ctx, d.db, q)
	if err != nil || s == nil {
		return d.db.QueryContext(ctx, q, args...)
	}
	return s.QueryContext(ctx, args...)
}

// queryRow runs a read of one row, prepared once.
func (d *DB) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	s, err := d.reads.stmt(ctx, d.db, q)
	if err != nil || s == nil {
		return d.db.QueryRowContext(ctx, q, args...)
	}
	return s.QueryRowContext(ctx, args...)
}
