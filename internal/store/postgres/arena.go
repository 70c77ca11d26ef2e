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
	return d.writeArena(ctx, "add", rows)
}

// UpdateArenaStanding updates a standing run (store.Arena).
func (d *DB) UpdateArenaStanding(ctx context.Context, rows []store.ArenaRating) error {
	if err := store.CheckArenaRun("postgres: update arena standing", rows); err != nil {
		return err
	}
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	run, games := rows[0].Run, rows[0].Games
	stale := fmt.Errorf("postgres: update arena standing %q: %w", run, store.ErrStaleRating)
	err = pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		var stored int
		if err := tx.QueryRow(ctx, standingGames, run).Scan(&stored); err != nil {
			return err
		}
		if stored != games-1 {
			return stale
		}
		// Another node's update between the read and this write leaves the
		// condition false (or, for a run's first, meets the unique key and
		// then the condition): nothing is written.
		tag, err := tx.Exec(ctx, `INSERT INTO arena_standings (run, at, games) VALUES ($1, $2, $3)
			ON CONFLICT (run) DO UPDATE SET at = excluded.at, games = excluded.games
			WHERE arena_standings.games = excluded.games - 1`, run, rows[0].At.UnixNano(), games)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return stale
		}
		for _, r := range rows {
			if _, err := tx.Exec(ctx, `INSERT INTO arena_ratings (run, at, board, seed, games, program, side, mu, sigma, played, wins, tokens, seconds)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
				ON CONFLICT (run, program, side) DO UPDATE SET at = excluded.at, board = excluded.board, seed = excluded.seed,
					games = excluded.games, mu = excluded.mu, sigma = excluded.sigma, played = excluded.played, wins = excluded.wins,
					tokens = excluded.tokens, seconds = excluded.seconds`,
				r.Run, r.At.UnixNano(), r.Board, int64(r.Seed), r.Games, r.Program, r.Side, r.Mu, r.Sigma, r.Played, r.Wins, r.Tokens, r.Seconds); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, store.ErrStaleRating) {
		return err
	}
	if err != nil {
		return fmt.Errorf("postgres: update arena standing %q: %w", run, err)
	}
	return nil
}

// standingGames reads a run's games: its arena_standings row's, or for a
// run stored before there was one, its rows'.
const standingGames = `SELECT coalesce((SELECT games FROM arena_standings WHERE run = $1), (SELECT max(games) FROM arena_ratings WHERE run = $1), 0)`

// ArenaStanding reads a standing run's games and some of its rows
// (store.Arena).
func (d *DB) ArenaStanding(ctx context.Context, run string, programs []string) (int, []store.ArenaRating, error) {
	done, err := d.reading()
	if err != nil {
		return 0, nil, err
	}
	// The games first: rows read after them are as new or newer, and an
	// update made from newer rows than games is refused as stale.
	var games int
	err = d.pool.QueryRow(ctx, standingGames, run).Scan(&games)
	done()
	if err != nil {
		return 0, nil, fmt.Errorf("postgres: arena standing: %w", err)
	}
	out := []store.ArenaRating{}
	if len(programs) == 0 {
		return games, out, nil
	}
	rows, err := d.arenaRows(ctx, `WHERE r.run = $1 AND r.program = ANY($2)`, run, programs)
	if err != nil {
		return 0, nil, err
	}
	return games, append(out, rows...), nil
}

// writeArena inserts a run's rows in one transaction.
func (d *DB) writeArena(ctx context.Context, verb string, rows []store.ArenaRating) error {
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	err = pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
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
	out, err := d.arenaRows(ctx, `WHERE r.run = $1`, run)
	if out == nil && err == nil {
		out = []store.ArenaRating{}
	}
	return out, err
}

// ArenaRatings lists the latest runs' ratings (store.Arena).
func (d *DB) ArenaRatings(ctx context.Context, limit int) ([]store.ArenaRating, error) {
	out, err := d.arenaRows(ctx, `WHERE r.run IN (SELECT a.run FROM arena_ratings a LEFT JOIN arena_standings t ON t.run = a.run
		GROUP BY a.run ORDER BY max(coalesce(t.at, a.at)) DESC, max(a.seq) DESC LIMIT $1)`, max(limit, 1))
	if err != nil {
		return nil, err
	}
	return store.LatestArenaRuns(out, limit), nil
}

// arenaRows reads the rows where says, in the order they were added.
// A standing run's time and games are its arena_standings row's.
func (d *DB) arenaRows(ctx context.Context, where string, args ...any) ([]store.ArenaRating, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT r.run, coalesce(s.at, r.at), r.board, r.seed, coalesce(s.games, r.games), r.program, r.side,
		r.mu, r.sigma, r.played, r.wins, r.tokens, r.seconds
		FROM arena_ratings r LEFT JOIN arena_standings s ON s.run = r.run `+where+` ORDER BY r.seq`, args...)
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

// UpdateArenaStanding updates a standing run (store.Arena): no room's, so
// no lease fences it.
func (f *Fenced) UpdateArenaStanding(ctx context.Context, rows []store.ArenaRating) error {
	return f.db.UpdateArenaStanding(ctx, rows)
}

// ArenaStanding reads a standing run's games and some of its rows
// (store.Arena).
func (f *Fenced) ArenaStanding(ctx context.Context, run string, programs []string) (int, []store.ArenaRating, error) {
	return f.db.ArenaStanding(ctx, run, programs)
}

// ArenaRun reads one run's rows (store.Arena).
func (f *Fenced) ArenaRun(ctx context.Context, run string) ([]store.ArenaRating, error) {
	return f.db.ArenaRun(ctx, run)
}
