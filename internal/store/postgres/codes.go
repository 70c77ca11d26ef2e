package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wolfden/wolfden/internal/store"
)

// The code claims (store.Codes) are single statements on the pool, each
// its own transaction, outside the group commit: they are few (one a room
// created) and touch no room's row, and the primary key on the code,
// which an INSERT … ON CONFLICT takes atomically, is what keeps two nodes
// from claiming one code.

// claimSQL makes $1 room $2's, taking over the claim of $2 or $3 (the
// giver), or a lapsed one; it changes no row when another room's live
// claim holds the code.
const claimSQL = `INSERT INTO codes AS c (code, room_id, expires) VALUES ($1, $2, NULL)
	ON CONFLICT (code) DO UPDATE SET room_id = EXCLUDED.room_id, expires = NULL
		WHERE c.room_id IN ($2, $3) OR c.expires <= clock_timestamp()`

// writing is reading for a write: it refuses a cancelled ctx first, as
// the queued writes do.
func (d *DB) writing(ctx context.Context) (done func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return d.reading()
}

// ClaimCode makes code room's (store.Codes).
func (d *DB) ClaimCode(ctx context.Context, code, room string) error {
	if err := store.CheckClaim("postgres: claim code", code, room); err != nil {
		return err
	}
	return d.claim(ctx, code, room, room, func(holder string) error {
		return fmt.Errorf("postgres: claim code %s for room %q: %w (room %q)", code, room, store.ErrCodeTaken, holder)
	})
}

// GiveCode hands code from room from to room to (store.Codes).
func (d *DB) GiveCode(ctx context.Context, code, from, to string) error {
	if err := store.CheckClaim("postgres: give code", code, from, to); err != nil {
		return err
	}
	return d.claim(ctx, code, to, from, func(holder string) error {
		return fmt.Errorf("postgres: give code %s to room %q: %w (room %q, not %q)", code, to, store.ErrCodeTaken, holder, from)
	})
}

func (d *DB) claim(ctx context.Context, code, room, giver string, taken func(holder string) error) error {
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	tag, err := d.pool.Exec(ctx, claimSQL, code, room, giver)
	if err != nil {
		return fmt.Errorf("postgres: claim code %s for room %q: %w", code, room, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	// Only for the message: the holder may have changed since.
	var holder string
	if err := d.pool.QueryRow(ctx, `SELECT room_id FROM codes WHERE code = $1`, code).Scan(&holder); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("postgres: claim code %s for room %q: %w", code, room, err)
	}
	return taken(holder)
}

// ExpireCode makes room's claim on code lapse after ttl, by the database's
// clock (store.Codes).
func (d *DB) ExpireCode(ctx context.Context, code, room string, ttl time.Duration) error {
	if err := store.CheckClaim("postgres: expire code", code, room); err != nil {
		return err
	}
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	tag, err := d.pool.Exec(ctx, `UPDATE codes SET expires = clock_timestamp() + $3 * interval '1 microsecond'
		WHERE code = $1 AND room_id = $2`, code, room, max(ttl, 0).Microseconds())
	if err != nil {
		return fmt.Errorf("postgres: expire code %s of room %q: %w", code, room, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres: expire code %s of room %q: %w", code, room, store.ErrNotFound)
	}
	return nil
}

// FreeCode drops room's claim on code (store.Codes).
func (d *DB) FreeCode(ctx context.Context, code, room string) error {
	if err := store.CheckClaim("postgres: free code", code, room); err != nil {
		return err
	}
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	if _, err := d.pool.Exec(ctx, `DELETE FROM codes WHERE code = $1 AND room_id = $2`, code, room); err != nil {
		return fmt.Errorf("postgres: free code %s of room %q: %w", code, room, err)
	}
	return nil
}

// CodeRoom is the room whose live claim holds code (store.Codes).
func (d *DB) CodeRoom(ctx context.Context, code string) (string, error) {
	done, err := d.reading()
	if err != nil {
		return "", err
	}
	defer done()
	var room string
	err = d.pool.QueryRow(ctx, `SELECT room_id FROM codes WHERE code = $1 AND (expires IS NULL OR expires > clock_timestamp())`, code).Scan(&room)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("postgres: code %s: %w", code, store.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("postgres: code %s: %w", code, err)
	}
	return room, nil
}
