package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

var _ store.Ledger = (*DB)(nil)

// The ledger's writes are one transaction a finished game, outside the
// records' writer: busy_timeout and _txlock=immediate (dsn) let it wait
// its turn beside the writer's commits.

// RecordGame implements store.Ledger.
func (d *DB) RecordGame(ctx context.Context, results []store.Result, ratings []store.Rating) error {
	if err := store.CheckResults("sqlite: record game", results, ratings); err != nil {
		return err
	}
	if d.isClosed() {
		return ErrClosed
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: record game: %w", err)
	}
	defer tx.Rollback()
	if len(results) > 0 {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM results WHERE room_id = ? AND game = ? LIMIT 1`, results[0].Room, results[0].Game).Scan(&one)
		if err == nil {
			return fmt.Errorf("sqlite: room %q game %d: %w", results[0].Room, results[0].Game, store.ErrRecorded)
		}
		if err != sql.ErrNoRows {
			return fmt.Errorf("sqlite: record game: %w", err)
		}
	}
	for _, r := range results {
		if _, err := tx.ExecContext(ctx, `INSERT INTO results (account_id, room_id, game, board, family, role, camp, outcome,
			counted, reason, rated, season, played_at, side, mu_before, sigma_before, mu_after, sigma_after)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.AccountID, r.Room, r.Game, r.Board, r.Family, r.Role, r.Camp, r.Outcome, r.Counted, r.Reason, r.Rated,
			r.Season, r.At.UnixNano(), r.Side, r.Before.Mu, r.Before.Sigma, r.After.Mu, r.After.Sigma); err != nil {
			return fmt.Errorf("sqlite: record game: %w", err)
		}
	}
	for _, r := range ratings {
		res, err := tx.ExecContext(ctx, `INSERT INTO ratings (account_id, season, side, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (account_id, season, side) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games
			WHERE ratings.games = excluded.games - 1`,
			r.AccountID, r.Season, r.Side, r.Mu, r.Sigma, r.Games)
		if err != nil {
			return fmt.Errorf("sqlite: record game: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("sqlite: record game: %s's %s rating: %w", r.AccountID, r.Side, store.ErrStaleRating)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: record game: %w", err)
	}
	return nil
}

const resultColumns = `account_id, room_id, game, board, family, role, camp, outcome, counted, reason, rated, season,
	played_at, side, mu_before, sigma_before, mu_after, sigma_after`

// Results implements store.Ledger.
func (d *DB) Results(ctx context.Context, accountID string) ([]store.Result, error) {
	return d.results(ctx, `WHERE account_id = ?`, accountID)
}

// RoomResults implements store.Ledger.
func (d *DB) RoomResults(ctx context.Context, room string) ([]store.Result, error) {
	return d.results(ctx, `WHERE room_id = ?`, room)
}

func (d *DB) results(ctx context.Context, where string, arg string) ([]store.Result, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	rows, err := d.query(ctx, `SELECT `+resultColumns+` FROM results `+where+
		` ORDER BY played_at DESC, room_id DESC, account_id`, arg)
	if err != nil {
		return nil, fmt.Errorf("sqlite: results: %w", err)
	}
	defer rows.Close()
	var out []store.Result
	for rows.Next() {
		var r store.Result
		var at int64
		if err := rows.Scan(&r.AccountID, &r.Room, &r.Game, &r.Board, &r.Family, &r.Role, &r.Camp, &r.Outcome, &r.Counted,
			&r.Reason, &r.Rated, &r.Season, &at, &r.Side, &r.Before.Mu, &r.Before.Sigma, &r.After.Mu, &r.After.Sigma); err != nil {
			return nil, fmt.Errorf("sqlite: results: %w", err)
		}
		r.At = time.Unix(0, at).UTC()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: results: %w", err)
	}
	return out, nil
}

// Ratings implements store.Ledger.
func (d *DB) Ratings(ctx context.Context, season string, accountIDs ...string) ([]store.Rating, error) {
	if len(accountIDs) == 0 {
		return nil, nil
	}
	args := []any{season}
	for _, id := range accountIDs {
		args = append(args, id)
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(accountIDs)), ", ")
	return d.ratings(ctx, `WHERE season = ? AND account_id IN (`+marks+`) ORDER BY account_id, side`, args...)
}

// AccountRatings implements store.Ledger.
func (d *DB) AccountRatings(ctx context.Context, accountID string) ([]store.Rating, error) {
	return d.ratings(ctx, `WHERE account_id = ? ORDER BY season DESC, side`, accountID)
}

// Leaderboard implements store.Ledger.
func (d *DB) Leaderboard(ctx context.Context, season, side string, offset, limit int) ([]store.Rating, error) {
	return d.ratings(ctx, `WHERE season = ? AND side = ? ORDER BY mu - 3 * sigma DESC, account_id LIMIT ? OFFSET ?`,
		season, side, max(limit, 0), max(offset, 0))
}

func (d *DB) ratings(ctx context.Context, rest string, args ...any) ([]store.Rating, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	rows, err := d.query(ctx, `SELECT account_id, season, side, mu, sigma, games FROM ratings `+rest, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: ratings: %w", err)
	}
	defer rows.Close()
	var out []store.Rating
	for rows.Next() {
		var r store.Rating
		if err := rows.Scan(&r.AccountID, &r.Season, &r.Side, &r.Mu, &r.Sigma, &r.Games); err != nil {
			return nil, fmt.Errorf("sqlite: ratings: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: ratings: %w", err)
	}
	return out, nil
}

// Seasons implements store.Ledger.
func (d *DB) Seasons(ctx context.Context) ([]string, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	rows, err := d.query(ctx, `SELECT DISTINCT season FROM results ORDER BY season DESC`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seasons: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("sqlite: seasons: %w", err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: seasons: %w", err)
	}
	return out, nil
}
