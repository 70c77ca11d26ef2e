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

var _ store.Arena = (*DB)(nil)

// AddArenaRun stores one run's ratings (store.Arena).
func (d *DB) AddArenaRun(ctx context.Context, rows []store.ArenaRating) error {
	if err := store.CheckArenaRun("postgres: add arena run", rows); err != nil {
		return err
	}
	return d.writeArena(ctx, "add", rows, false)
}

// PutArenaRun stores one run's ratings in place of its stored ones
// (store.Arena).
func (d *DB) PutArenaRun(ctx context.Context, rows []store.ArenaRating) error {
	if err := store.CheckArenaRun("postgres: put arena run", rows); err != nil {
		return err
	}
	return d.writeArena(ctx, "put", rows, true)
}

// writeArena inserts a run's rows in one transaction, the run's stored
// rows deleted first when replace.
func (d *DB) writeArena(ctx context.Context, verb string, rows []store.ArenaRating, replace bool) error {
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	err = pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		if replace {
			if _, err := tx.Exec(ctx, `DELETE FROM arena_ratings WHERE run = $1`, rows[0].Run); err != nil {
				return err
			}
		}
		for _, r := range rows {
			if _, err := tx.Exec(ctx, `INSERT INTO arena_ratings (run, at, board, seed, games, program, side, mu, sigma, played, wins, tokens, seconds)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
				r.Run, r.At.UnixNano(), r.Board, int64(r.Seed), r.Games, r.Program, r.Side, r.Mu, r.Sigma, r.Played, r.Wins, r.Tokens, r.Seconds); err != nil {
				return err
			}
		}
		return nil
	})
	if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) && pe.Code == "23505" {
		return fmt.Errorf("postgres: %s arena run %q: the run is already stored", verb, rows[0].Run)
	}
	if err != nil {
		return fmt.Errorf("postgres: %s arena run %q: %w", verb, rows[0].Run, err)
	}
	return nil
}

// ArenaRun reads one run's rows (store.Arena).
func (d *DB) ArenaRun(ctx context.Context, run string) ([]store.ArenaRating, error) {
	out, err := d.arenaRows(ctx, `WHERE run = $1`, run)
	if out == nil && err == nil {
		out = []store.ArenaRating{}
	}
	return out, err
}

// ArenaRatings lists the latest runs' ratings (store.Arena).
func (d *DB) ArenaRatings(ctx context.Context, limit int) ([]store.ArenaRating, error) {
	out, err := d.arenaRows(ctx, `WHERE run IN (SELECT run FROM arena_ratings GROUP BY run ORDER BY max(at) DESC, max(seq) DESC LIMIT $1)`, max(limit, 1))
	if err != nil {
		return nil, err
	}
	return store.LatestArenaRuns(out, limit), nil
}

// arenaRows reads the rows where says, in the order they were added.
func (d *DB) arenaRows(ctx context.Context, where string, arg any) ([]store.ArenaRating, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT run, at, board, seed, games, program, side, mu, sigma, played, wins, tokens, seconds
		FROM arena_ratings `+where+` ORDER BY seq`, arg)
	if err != nil {
		return nil, fmt.Errorf("postgres: arena ratings: %w", err)
	}
	defer rows.Close()
	var out []store.ArenaRating
	for rows.Next() {
		var r store.ArenaRating
		var at, seed int64
		if err := rows.Scan(&r.Run, &at, &r.Board, &seed, &r.Games, &r.Program, &r.Side, &r.Mu, &r.Sigma, &r.Played, &r.Wins, &r.Tokens, &r.Seconds); err != nil {
			return nil, fmt.Errorf("postgres: arena ratings: %w", err)
		}
		r.At, r.Seed = time.Unix(0, at).UTC(), uint64(seed)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: arena ratings: %w", err)
	}
	return out, nil
}

var _ store.Arena = (*Fenced)(nil)

// AddArenaRun stores one run's ratings (store.Arena): no room's, so no
// lease fences it.
func (f *Fenced) AddArenaRun(ctx context.Context, rows []store.ArenaRating) error {
	return f.db.AddArenaRun(ctx, rows)
}

// ArenaRatings lists the latest runs' ratings (store.Arena).
func (f *Fenced) ArenaRatings(ctx context.Context, limit int) ([]store.ArenaRating, error) {
	return f.db.ArenaRatings(ctx, limit)
}

// PutArenaRun stores one run's ratings in place of its stored ones
// (store.Arena): no room's, so no lease fences it.
func (f *Fenced) PutArenaRun(ctx context.Context, rows []store.ArenaRating) error {
	return f.db.PutArenaRun(ctx, rows)
}

// ArenaRun reads one run's rows (store.Arena).
func (f *Fenced) ArenaRun(ctx context.Context, run string) ([]store.ArenaRating, error) {
	return f.db.ArenaRun(ctx, run)
}
