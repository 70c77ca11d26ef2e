package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// The accounts' writes go through the writer as any other (opFunc): the
// file has one writer.

// inTx runs fn in the writer's next transaction. fn's refusal fails its
// caller alone; its error, the transaction.
func (d *DB) inTx(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) (refusal, err error)) error {
	return d.do(ctx, &op{kind: opFunc, fn: fn})
}

// execOne runs query, and refuses with notFound when it changed no row.
func (d *DB) execOne(ctx context.Context, notFound error, query string, args ...any) error {
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (error, error) {
		n, err := affected(tx.ExecContext(ctx, query, args...))
		if err != nil || n > 0 {
			return nil, err
		}
		return notFound, nil
	})
}

func notFound(op, id string) error {
	return fmt.Errorf("sqlite: %s %q: %w", op, id, store.ErrNotFound)
}

// CreateAccount adds an account (store.Accounts).
func (d *DB) CreateAccount(ctx context.Context, a store.Account) error {
	if err := store.CheckAccount("sqlite: create account", a); err != nil {
		return err
	}
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (error, error) {
		n, err := affected(tx.ExecContext(ctx, `INSERT INTO accounts (id, name, name_key, public, locked, created, password)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			a.ID, a.Name, store.NameKey(a.Name), a.Public, a.Locked, nanos(a.Created), a.PasswordHash))
		if err != nil || n > 0 {
			return nil, err
		}
		var idTaken bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = ?)`, a.ID).Scan(&idTaken); err != nil {
			return nil, err
		}
		if idTaken {
			return fmt.Errorf("sqlite: create account %q: the ID %s is taken", a.Name, a.ID), nil
		}
		return fmt.Errorf("sqlite: create account %q: %w", a.Name, store.ErrNameTaken), nil
	})
}

const accountColumns = `id, name, public, locked, created, password`

func scanAccount(row interface{ Scan(...any) error }) (store.Account, error) {
	var a store.Account
	var created sql.NullInt64
	if err := row.Scan(&a.ID, &a.Name, &a.Public, &a.Locked, &created, &a.PasswordHash); err != nil {
		return store.Account{}, err
	}
	a.Created = fromNanos(created)
	return a, nil
}

func (d *DB) account(ctx context.Context, op, key, where string) (store.Account, error) {
	if d.isClosed() {
		return store.Account{}, ErrClosed
	}
	a, err := scanAccount(d.queryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE `+where+` = ?`, key))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Account{}, notFound(op, key)
	}
	if err != nil {
		return store.Account{}, fmt.Errorf("sqlite: %s %q: %w", op, key, err)
	}
	return a, nil
}

// AccountByID reads an account (store.Accounts).
func (d *DB) AccountByID(ctx context.Context, id string) (store.Account, error) {
	return d.account(ctx, "account", id, "id")
}

// AccountByName reads an account by its name (store.Accounts).
func (d *DB) AccountByName(ctx context.Context, name string) (store.Account, error) {
	a, err := d.account(ctx, "account named", store.NameKey(name), "name_key")
	if errors.Is(err, store.ErrNotFound) {
		return a, notFound("account named", name)
	}
	return a, err
}

// ListAccounts lists every account by name (store.Accounts).
func (d *DB) ListAccounts(ctx context.Context) ([]store.Account, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	rows, err := d.query(ctx, `SELECT `+accountColumns+` FROM accounts ORDER BY name_key`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: accounts: %w", err)
	}
	defer rows.Close()
	var out []store.Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: accounts: %w", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: accounts: %w", err)
	}
	return out, nil
}

// SetPassword replaces an account's password hash (store.Accounts).
func (d *DB) SetPassword(ctx context.Context, id, hash string) error {
	return d.execOne(ctx, notFound("set password of account", id), `UPDATE accounts SET password = ? WHERE id = ?`, hash, id)
}

// SetPublic makes a profile public or private (store.Accounts).
func (d *DB) SetPublic(ctx context.Context, id string, public bool) error {
	return d.execOne(ctx, notFound("set privacy of account", id), `UPDATE accounts SET public = ? WHERE id = ?`, public, id)
}

// SetLocked locks or unlocks an account (store.Accounts).
func (d *DB) SetLocked(ctx context.Context, id string, locked bool) error {
	return d.execOne(ctx, notFound("lock account", id), `UPDATE accounts SET locked = ? WHERE id = ?`, locked, id)
}

// accountTables are the tables that hold an account's rows, by
// account_id, deleted with it (the accounts table last).
var accountTables = []string{"passkeys", "sessions", "seat_links", "results", "ratings"}

// DeleteAccount removes an account and all of it (store.Accounts).
func (d *DB) DeleteAccount(ctx context.Context, id string) error {
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (error, error) {
		for _, t := range accountTables {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+t+` WHERE account_id = ?`, id); err != nil {
				return nil, err
			}
		}
		n, err := affected(tx.ExecContext(ctx, `DELETE FROM accounts WHERE id = ?`, id))
		if err != nil || n > 0 {
			return nil, err
		}
		return notFound("delete account", id), nil
	})
}

// AddPasskey adds a passkey to its account (store.Accounts).
func (d *DB) AddPasskey(ctx context.Context, p store.Passkey) error {
	if len(p.ID) == 0 {
		return fmt.Errorf("sqlite: add passkey of account %q: no credential ID given", p.AccountID)
	}
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (error, error) {
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = ?)`, p.AccountID).Scan(&exists); err != nil {
			return nil, err
		}
		if !exists {
			return notFound("add passkey of account", p.AccountID), nil
		}
		n, err := affected(tx.ExecContext(ctx, `INSERT INTO passkeys (id, account_id, data, created) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			p.ID, p.AccountID, p.Data, nanos(p.Created)))
		if err != nil || n > 0 {
			return nil, err
		}
		return fmt.Errorf("sqlite: add passkey of account %q: %w", p.AccountID, store.ErrPasskeyTaken), nil
	})
}

// UpdatePasskey replaces a passkey's data (store.Accounts).
func (d *DB) UpdatePasskey(ctx context.Context, p store.Passkey) error {
	return d.execOne(ctx, notFound("update passkey of account", p.AccountID),
		`UPDATE passkeys SET data = ? WHERE id = ? AND account_id = ?`, p.Data, p.ID, p.AccountID)
}

// Passkeys lists an account's passkeys (store.Accounts).
func (d *DB) Passkeys(ctx context.Context, accountID string) ([]store.Passkey, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	rows, err := d.query(ctx, `SELECT id, account_id, data, created FROM passkeys WHERE account_id = ? ORDER BY created, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: passkeys of account %q: %w", accountID, err)
	}
	defer rows.Close()
	var out []store.Passkey
	for rows.Next() {
		var p store.Passkey
		var created sql.NullInt64
		if err := rows.Scan(&p.ID, &p.AccountID, &p.Data, &created); err != nil {
			return nil, fmt.Errorf("sqlite: passkeys of account %q: %w", accountID, err)
		}
		p.Created = fromNanos(created)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: passkeys of account %q: %w", accountID, err)
	}
	return out, nil
}

// CreateSession adds a session (store.Accounts).
func (d *DB) CreateSession(ctx context.Context, s store.Session) error {
	if s.Hash == "" {
		return fmt.Errorf("sqlite: create session of account %q: no hash given", s.AccountID)
	}
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (error, error) {
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = ?)`, s.AccountID).Scan(&exists); err != nil {
			return nil, err
		}
		if !exists {
			return notFound("create session of account", s.AccountID), nil
		}
		n, err := affected(tx.ExecContext(ctx, `INSERT INTO sessions (hash, account_id, created, expires) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			s.Hash, s.AccountID, nanos(s.Created), s.Expires.UnixNano()))
		if err != nil || n > 0 {
			return nil, err
		}
		return fmt.Errorf("sqlite: create session of account %q: the session exists", s.AccountID), nil
	})
}

// Session reads a session (store.Accounts).
func (d *DB) Session(ctx context.Context, hash string) (store.Session, error) {
	if d.isClosed() {
		return store.Session{}, ErrClosed
	}
	s := store.Session{Hash: hash}
	var created sql.NullInt64
	var expires int64
	err := d.queryRow(ctx, `SELECT account_id, created, expires FROM sessions WHERE hash = ?`, hash).Scan(&s.AccountID, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Session{}, fmt.Errorf("sqlite: session: %w", store.ErrNotFound)
	}
	if err != nil {
		return store.Session{}, fmt.Errorf("sqlite: session: %w", err)
	}
	s.Created, s.Expires = fromNanos(created), time.Unix(0, expires).UTC()
	return s, nil
}

// DeleteSession drops a session (store.Accounts).
func (d *DB) DeleteSession(ctx context.Context, hash string) error {
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (error, error) {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE hash = ?`, hash)
		return nil, err
	})
}

// DeleteExpiredSessions drops the sessions expired before t (store.Accounts).
func (d *DB) DeleteExpiredSessions(ctx context.Context, t time.Time) error {
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (error, error) {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE expires < ?`, t.UnixNano())
		return nil, err
	})
}

// LinkSeat links a room's seat to an account, or unlinks it (store.Accounts).
func (d *DB) LinkSeat(ctx context.Context, roomID string, seat int, accountID string) error {
	if err := store.CheckSeatLink("sqlite: link seat", roomID, seat); err != nil {
		return err
	}
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) (error, error) {
		if accountID == "" {
			_, err := tx.ExecContext(ctx, `DELETE FROM seat_links WHERE room_id = ? AND seat = ?`, roomID, seat)
			return nil, err
		}
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = ?)`, accountID).Scan(&exists); err != nil {
			return nil, err
		}
		if !exists {
			return notFound("link seat to account", accountID), nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO seat_links (room_id, seat, account_id) VALUES (?, ?, ?)
			ON CONFLICT (room_id, seat) DO UPDATE SET account_id = excluded.account_id`, roomID, seat, accountID)
		return nil, err
	})
}

// SeatAccounts maps a room's linked seats to their accounts (store.Accounts).
func (d *DB) SeatAccounts(ctx context.Context, roomID string) (map[int]string, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	rows, err := d.query(ctx, `SELECT seat, account_id FROM seat_links WHERE room_id = ?`, roomID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seat links of room %q: %w", roomID, err)
	}
	defer rows.Close()
	out := map[int]string{}
	for rows.Next() {
		var seat int
		var id string
		if err := rows.Scan(&seat, &id); err != nil {
			return nil, fmt.Errorf("sqlite: seat links of room %q: %w", roomID, err)
		}
		out[seat] = id
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: seat links of room %q: %w", roomID, err)
	}
	return out, nil
}

// AccountSeats lists an account's seats (store.Accounts).
func (d *DB) AccountSeats(ctx context.Context, accountID string) ([]store.SeatLink, error) {
	if d.isClosed() {
		return nil, ErrClosed
	}
	rows, err := d.query(ctx, `SELECT room_id, seat FROM seat_links WHERE account_id = ? ORDER BY room_id, seat`, accountID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seats of account %q: %w", accountID, err)
	}
	defer rows.Close()
	var out []store.SeatLink
	for rows.Next() {
		var l store.SeatLink
		if err := rows.Scan(&l.RoomID, &l.Seat); err != nil {
			return nil, fmt.Errorf("sqlite: seats of account %q: %w", accountID, err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: seats of account %q: %w", accountID, err)
	}
	return out, nil
}
