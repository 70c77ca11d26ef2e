package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wolfden/wolfden/internal/store"
)

// The accounts (store.Accounts) are single statements or short
// transactions on the pool, outside the group commit, as the code claims:
// they are few, and touch no game.

func notFound(op, id string) error {
	return fmt.Errorf("postgres: %s %q: %w", op, id, store.ErrNotFound)
}

// inTx runs fn in a transaction of its own. fn's refusal fails the call
// and rolls the transaction back, as its error does.
func (d *DB) inTx(ctx context.Context, op string, fn func(tx pgx.Tx) (refusal, err error)) error {
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	var refusal error
	err = pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		var err error
		refusal, err = fn(tx)
		if err == nil && refusal != nil {
			err = refusal
		}
		return err
	})
	if refusal != nil {
		return refusal
	}
	if err != nil {
		return fmt.Errorf("postgres: %s: %w", op, err)
	}
	return nil
}

// execOne runs query, and fails with store.ErrNotFound when it changed no
// row (op and id name the call).
func (d *DB) execOne(ctx context.Context, op, id, query string, args ...any) error {
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	tag, err := d.pool.Exec(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("postgres: %s %q: %w", op, id, err)
	}
	if tag.RowsAffected() == 0 {
		return notFound(op, id)
	}
	return nil
}

func exists(ctx context.Context, tx pgx.Tx, query string, args ...any) (bool, error) {
	var ok bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (`+query+`)`, args...).Scan(&ok)
	return ok, err
}

// CreateAccount adds an account (store.Accounts).
func (d *DB) CreateAccount(ctx context.Context, a store.Account) error {
	if err := store.CheckAccount("postgres: create account", a); err != nil {
		return err
	}
	return d.inTx(ctx, "create account "+a.Name, func(tx pgx.Tx) (error, error) {
		tag, err := tx.Exec(ctx, `INSERT INTO accounts (id, name, name_key, public, locked, created, password)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
			a.ID, a.Name, store.NameKey(a.Name), a.Public, a.Locked, nanos(a.Created), a.PasswordHash)
		if err != nil || tag.RowsAffected() > 0 {
			return nil, err
		}
		idTaken, err := exists(ctx, tx, `SELECT 1 FROM accounts WHERE id = $1`, a.ID)
		if err != nil {
			return nil, err
		}
		if idTaken {
			return fmt.Errorf("postgres: create account %q: the ID %s is taken", a.Name, a.ID), nil
		}
		return fmt.Errorf("postgres: create account %q: %w", a.Name, store.ErrNameTaken), nil
	})
}

const accountColumns = `id, name, public, locked, created, password`

func scanAccount(row pgx.Row) (store.Account, error) {
	var a store.Account
	var created *int64
	if err := row.Scan(&a.ID, &a.Name, &a.Public, &a.Locked, &created, &a.PasswordHash); err != nil {
		return store.Account{}, err
	}
	a.Created = fromNanos(created)
	return a, nil
}

func (d *DB) account(ctx context.Context, op, shown, where, key string) (store.Account, error) {
	done, err := d.reading()
	if err != nil {
		return store.Account{}, err
	}
	defer done()
	a, err := scanAccount(d.pool.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE `+where+` = $1`, key))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Account{}, notFound(op, shown)
	}
	if err != nil {
		return store.Account{}, fmt.Errorf("postgres: %s %q: %w", op, shown, err)
	}
	return a, nil
}

// AccountByID reads an account (store.Accounts).
func (d *DB) AccountByID(ctx context.Context, id string) (store.Account, error) {
	return d.account(ctx, "account", id, "id", id)
}

// AccountByName reads an account by its name (store.Accounts).
func (d *DB) AccountByName(ctx context.Context, name string) (store.Account, error) {
	return d.account(ctx, "account named", name, "name_key", store.NameKey(name))
}

// ListAccounts lists every account by name (store.Accounts).
func (d *DB) ListAccounts(ctx context.Context) ([]store.Account, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT `+accountColumns+` FROM accounts ORDER BY name_key`)
	if err != nil {
		return nil, fmt.Errorf("postgres: accounts: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Account, error) { return scanAccount(row) })
	if err != nil {
		return nil, fmt.Errorf("postgres: accounts: %w", err)
	}
	return out, nil
}

// SetPassword replaces an account's password hash (store.Accounts).
func (d *DB) SetPassword(ctx context.Context, id, hash string) error {
	return d.execOne(ctx, "set password of account", id, `UPDATE accounts SET password = $1 WHERE id = $2`, hash, id)
}

// SetPublic makes a profile public or private (store.Accounts).
func (d *DB) SetPublic(ctx context.Context, id string, public bool) error {
	return d.execOne(ctx, "set privacy of account", id, `UPDATE accounts SET public = $1 WHERE id = $2`, public, id)
}

// SetLocked locks or unlocks an account (store.Accounts).
func (d *DB) SetLocked(ctx context.Context, id string, locked bool) error {
	return d.execOne(ctx, "lock account", id, `UPDATE accounts SET locked = $1 WHERE id = $2`, locked, id)
}

// accountTables are the tables that hold an account's rows, by
// account_id, deleted with it (the accounts table last).
var accountTables = []string{"passkeys", "sessions", "seat_links", "results", "ratings"}

// DeleteAccount removes an account and all of it (store.Accounts).
func (d *DB) DeleteAccount(ctx context.Context, id string) error {
	return d.inTx(ctx, "delete account "+id, func(tx pgx.Tx) (error, error) {
		for _, t := range accountTables {
			if _, err := tx.Exec(ctx, `DELETE FROM `+t+` WHERE account_id = $1`, id); err != nil {
				return nil, err
			}
		}
		tag, err := tx.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, id)
		if err != nil || tag.RowsAffected() > 0 {
			return nil, err
		}
		return notFound("delete account", id), nil
	})
}

// AddPasskey adds a passkey to its account (store.Accounts).
func (d *DB) AddPasskey(ctx context.Context, p store.Passkey) error {
	if len(p.ID) == 0 {
		return fmt.Errorf("postgres: add passkey of account %q: no credential ID given", p.AccountID)
	}
	return d.inTx(ctx, "add passkey of account "+p.AccountID, func(tx pgx.Tx) (error, error) {
		ok, err := exists(ctx, tx, `SELECT 1 FROM accounts WHERE id = $1 FOR KEY SHARE`, p.AccountID)
		if err != nil {
			return nil, err
		}
		if !ok {
			return notFound("add passkey of account", p.AccountID), nil
		}
		tag, err := tx.Exec(ctx, `INSERT INTO passkeys (id, account_id, data, created) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
			p.ID, p.AccountID, p.Data, nanos(p.Created))
		if err != nil || tag.RowsAffected() > 0 {
			return nil, err
		}
		return fmt.Errorf("postgres: add passkey of account %q: %w", p.AccountID, store.ErrPasskeyTaken), nil
	})
}

// UpdatePasskey replaces a passkey's data (store.Accounts).
func (d *DB) UpdatePasskey(ctx context.Context, p store.Passkey) error {
	return d.execOne(ctx, "update passkey of account", p.AccountID,
		`UPDATE passkeys SET data = $1 WHERE id = $2 AND account_id = $3`, p.Data, p.ID, p.AccountID)
}

// Passkeys lists an account's passkeys (store.Accounts).
func (d *DB) Passkeys(ctx context.Context, accountID string) ([]store.Passkey, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT id, account_id, data, created FROM passkeys WHERE account_id = $1 ORDER BY created, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("postgres: passkeys of account %q: %w", accountID, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Passkey, error) {
		var p store.Passkey
		var created *int64
		err := row.Scan(&p.ID, &p.AccountID, &p.Data, &created)
		p.Created = fromNanos(created)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: passkeys of account %q: %w", accountID, err)
	}
	return out, nil
}

// CreateSession adds a session (store.Accounts).
func (d *DB) CreateSession(ctx context.Context, s store.Session) error {
	if s.Hash == "" {
		return fmt.Errorf("postgres: create session of account %q: no hash given", s.AccountID)
	}
	return d.inTx(ctx, "create session of account "+s.AccountID, func(tx pgx.Tx) (error, error) {
		ok, err := exists(ctx, tx, `SELECT 1 FROM accounts WHERE id = $1 FOR KEY SHARE`, s.AccountID)
		if err != nil {
			return nil, err
		}
		if !ok {
			return notFound("create session of account", s.AccountID), nil
		}
		tag, err := tx.Exec(ctx, `INSERT INTO sessions (hash, account_id, created, expires) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
			s.Hash, s.AccountID, nanos(s.Created), s.Expires.UnixNano())
		if err != nil || tag.RowsAffected() > 0 {
			return nil, err
		}
		return fmt.Errorf("postgres: create session of account %q: the session exists", s.AccountID), nil
	})
}

// Session reads a session (store.Accounts).
func (d *DB) Session(ctx context.Context, hash string) (store.Session, error) {
	done, err := d.reading()
	if err != nil {
		return store.Session{}, err
	}
	defer done()
	s := store.Session{Hash: hash}
	var created *int64
	var expires int64
	err = d.pool.QueryRow(ctx, `SELECT account_id, created, expires FROM sessions WHERE hash = $1`, hash).Scan(&s.AccountID, &created, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Session{}, fmt.Errorf("postgres: session: %w", store.ErrNotFound)
	}
	if err != nil {
		return store.Session{}, fmt.Errorf("postgres: session: %w", err)
	}
	s.Created, s.Expires = fromNanos(created), time.Unix(0, expires).UTC()
	return s, nil
}

// DeleteSession drops a session (store.Accounts).
func (d *DB) DeleteSession(ctx context.Context, hash string) error {
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	if _, err := d.pool.Exec(ctx, `DELETE FROM sessions WHERE hash = $1`, hash); err != nil {
		return fmt.Errorf("postgres: delete session: %w", err)
	}
	return nil
}

// DeleteExpiredSessions drops the sessions expired before t (store.Accounts).
func (d *DB) DeleteExpiredSessions(ctx context.Context, t time.Time) error {
	done, err := d.writing(ctx)
	if err != nil {
		return err
	}
	defer done()
	if _, err := d.pool.Exec(ctx, `DELETE FROM sessions WHERE expires < $1`, t.UnixNano()); err != nil {
		return fmt.Errorf("postgres: delete expired sessions: %w", err)
	}
	return nil
}

// LinkSeat links a room's seat to an account, or unlinks it (store.Accounts).
func (d *DB) LinkSeat(ctx context.Context, roomID string, seat int, accountID string) error {
	if err := store.CheckSeatLink("postgres: link seat", roomID, seat); err != nil {
		return err
	}
	return d.inTx(ctx, fmt.Sprintf("link seat %d of room %q", seat, roomID), func(tx pgx.Tx) (error, error) {
		if accountID == "" {
			_, err := tx.Exec(ctx, `DELETE FROM seat_links WHERE room_id = $1 AND seat = $2`, roomID, seat)
			return nil, err
		}
		ok, err := exists(ctx, tx, `SELECT 1 FROM accounts WHERE id = $1 FOR KEY SHARE`, accountID)
		if err != nil {
			return nil, err
		}
		if !ok {
			return notFound("link seat to account", accountID), nil
		}
		_, err = tx.Exec(ctx, `INSERT INTO seat_links (room_id, seat, account_id) VALUES ($1, $2, $3)
			ON CONFLICT (room_id, seat) DO UPDATE SET account_id = EXCLUDED.account_id`, roomID, seat, accountID)
		return nil, err
	})
}

// SeatAccounts maps a room's linked seats to their accounts (store.Accounts).
func (d *DB) SeatAccounts(ctx context.Context, roomID string) (map[int]string, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT seat, account_id FROM seat_links WHERE room_id = $1`, roomID)
	if err != nil {
		return nil, fmt.Errorf("postgres: seat links of room %q: %w", roomID, err)
	}
	out := map[int]string{}
	var seat int
	var id string
	_, err = pgx.ForEachRow(rows, []any{&seat, &id}, func() error {
		out[seat] = id
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: seat links of room %q: %w", roomID, err)
	}
	return out, nil
}

// AccountSeats lists an account's seats (store.Accounts).
func (d *DB) AccountSeats(ctx context.Context, accountID string) ([]store.SeatLink, error) {
	done, err := d.reading()
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := d.pool.Query(ctx, `SELECT room_id, seat FROM seat_links WHERE account_id = $1 ORDER BY room_id, seat`, accountID)
	if err != nil {
		return nil, fmt.Errorf("postgres: seats of account %q: %w", accountID, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[store.SeatLink])
	if err != nil {
		return nil, fmt.Errorf("postgres: seats of account %q: %w", accountID, err)
	}
	return out, nil
}
