package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/wolfden/wolfden/internal/store"
)

var (
	_ store.Ledger = (*DB)(nil)
	_ store.Ledger = (*Fenced)(nil)
)

// RecordGame implements store.Ledger. The room's game is locked by an
// advisory lock for the transaction, so that two nodes recording one game
// (a game moved in the cluster as it ended) store it once.
func (d *DB) RecordGame(ctx context.Context, results []store.Result, ratings []store.Rating) error {
	if err := store.CheckResults("postgres: record game", results, ratings); err != nil {
		return err
	}
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	fail := func(err error) error { return fmt.Errorf("postgres: record game: %w", err) }
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback(ctx)
	if len(results) > 0 {
		room, game := results[0].Room, results[0].Game
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, $2))`, room, game); err != nil {
			return fail(err)
		}
		var one int
		err := tx.QueryRow(ctx, `SELECT 1 FROM results WHERE room_id = $1 AND game = $2 LIMIT 1`, room, game).Scan(&one)
		if err == nil {
			return fmt.Errorf("postgres: room %q game %d: %w", room, game, store.ErrRecorded)
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return fail(err)
		}
	}
	var b pgx.Batch
	for _, r := range results {
		b.Queue(`INSERT INTO results (account_id, room_id, game, board, family, role, camp, outcome,
			counted, reason, rated, season, played_at, side, mu_before, sigma_before, mu_after, sigma_after)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
			r.AccountID, r.Room, r.Game, r.Board, r.Family, r.Role, r.Camp, r.Outcome, r.Counted, r.Reason, r.Rated,
			r.Season, r.At, r.Side, r.Before.Mu, r.Before.Sigma, r.After.Mu, r.After.Sigma)
	}
	// A rating of n games replaces only the stored one of n−1: the row is
	// locked by the upsert, so a game of the same account recorded by
	// another node at once waits, then finds its rating stale.
	for _, r := range ratings {
		b.Queue(`INSERT INTO ratings (account_id, season, side, mu, sigma, games) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (account_id, season, side) DO UPDATE SET mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, games = EXCLUDED.games
			WHERE ratings.games = EXCLUDED.games - 1`,
			r.AccountID, r.Season, r.Side, r.Mu, r.Sigma, r.Games)
	}
	br := tx.SendBatch(ctx, &b)
	for range results {
		if _, err := br.Exec(); err != nil {
			br.Close()
			return fail(err)
		}
	}
	for _, r := range ratings {
		tag, err := br.Exec()
		if err != nil {
			br.Close()
			return fail(err)
		}
		if tag.RowsAffected() != 1 {
			br.Close()
			return fmt.Errorf("postgres: record game: %s's %s rating: %w", r.AccountID, r.Side, store.ErrStaleRating)
		}
	}
	if err := br.Close(); err != nil {
		return fail(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fail(err)
	}
	return nil
}

const resultColumns = `account_id, room_id, game, board, family, role, camp, outcome, counted, reason, rated, season,
	played_at, side, mu_before, sigma_before, mu_after, sigma_after`

// Results implements store.Ledger.
func (d *DB) Results(ctx context.Context, accountID string) ([]store.Result, error) {
	return d.results(ctx, `WHERE account_id = $1`, accountID)
}

// RoomResults implements store.Ledger.
func (d *DB) RoomResults(ctx context.Context, room string) ([]store.Result, error) {
	return d.results(ctx, `WHERE room_id = $1`, room)
}

func (d *DB) results(ctx context.Context, where, arg string) ([]store.Result, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT `+resultColumns+` FROM results `+where+
		` ORDER BY played_at DESC, room_id DESC, account_id`, arg)
	if err != nil {
		return nil, fmt.Errorf("postgres: results: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Result, error) {
		var r store.Result
		err := row.Scan(&r.AccountID, &r.Room, &r.Game, &r.Board, &r.Family, &r.Role, &r.Camp, &r.Outcome, &r.Counted,
			&r.Reason, &r.Rated, &r.Season, &r.At, &r.Side, &r.Before.Mu, &r.Before.Sigma, &r.After.Mu, &r.After.Sigma)
		r.At = r.At.UTC()
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: results: %w", err)
	}
	return out, nil
}

// Ratings implements store.Ledger.
func (d *DB) Ratings(ctx context.Context, season string, accountIDs ...string) ([]store.Rating, error) {
	if len(accountIDs) == 0 {
		return nil, nil
	}
	return d.ratings(ctx, `WHERE season = $1 AND account_id = ANY($2) ORDER BY account_id, side`, season, accountIDs)
}

// AccountRatings implements store.Ledger.
func (d *DB) AccountRatings(ctx context.Context, accountID string) ([]store.Rating, error) {
	return d.ratings(ctx, `WHERE account_id = $1 ORDER BY season DESC, side`, accountID)
}

// Leaderboard implements store.Ledger.
func (d *DB) Leaderboard(ctx context.Context, season, side string, offset, limit int) ([]store.Rating, error) {
	return d.ratings(ctx, `WHERE season = $1 AND side = $2 ORDER BY mu - 3 * sigma DESC, account_id LIMIT $3 OFFSET $4`,
		season, side, max(limit, 0), max(offset, 0))
}

func (d *DB) ratings(ctx context.Context, rest string, args ...any) ([]store.Rating, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT account_id, season, side, mu, sigma, games FROM ratings `+rest, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: ratings: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Rating, error) {
		var r store.Rating
		err := row.Scan(&r.AccountID, &r.Season, &r.Side, &r.Mu, &r.Sigma, &r.Games)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: ratings: %w", err)
	}
	return out, nil
}

// Seasons implements store.Ledger.
func (d *DB) Seasons(ctx context.Context) ([]string, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT DISTINCT season FROM results ORDER BY season DESC`)
	if err != nil {
		return nil, fmt.Errorf("postgres: seasons: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: seasons: %w", err)
	}
	return out, nil
}

// A fenced store's ledger is its database's: results are no room's
// records, and RecordGame stores a game once whichever node ends it.

// RecordGame implements store.Ledger.
func (f *Fenced) RecordGame(ctx context.Context, results []store.Result, ratings []store.Rating) error {
	return f.db.RecordGame(ctx, results, ratings)
}

// Results implements store.Ledger.
func (f *Fenced) Results(ctx context.Context, accountID string) ([]store.Result, error) {
	return f.db.Results(ctx, accountID)
}

// RoomResults implements store.Ledger.
func (f *Fenced) RoomResults(ctx context.Context, room string) ([]store.Result, error) {
	return f.db.RoomResults(ctx, room)
}

// Ratings implements store.Ledger.
func (f *Fenced) Ratings(ctx context.Context, season string, accountIDs ...string) ([]store.Rating, error) {
	return f.db.Ratings(ctx, season, accountIDs...)
}

// AccountRatings implements store.Ledger.
func (f *Fenced) AccountRatings(ctx context.Context, accountID string) ([]store.Rating, error) {
	return f.db.AccountRatings(ctx, accountID)
}

// Leaderboard implements store.Ledger.
func (f *Fenced) Leaderboard(ctx context.Context, season, side string, offset, limit int) ([]store.Rating, error) {
	return f.db.Leaderboard(ctx, season, side, offset, limit)
}

// Seasons implements store.Ledger.
func (f *Fenced) Seasons(ctx context.Context) ([]string, error) { return f.db.Seasons(ctx) }
