package memory

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// accounts is what the store keeps of store.Accounts.
type accounts struct {
	byID     map[string]store.Account
	passkeys []store.Passkey
	sessions map[string]store.Session
	seats    map[store.SeatLink]string // → account ID
}

func newAccounts() accounts {
	return accounts{byID: map[string]store.Account{}, sessions: map[string]store.Session{}, seats: map[store.SeatLink]string{}}
}

func (a *accounts) byName(name string) (store.Account, bool) {
	key := store.NameKey(name)
	for _, acc := range a.byID {
		if store.NameKey(acc.Name) == key {
			return acc, true
		}
	}
	return store.Account{}, false
}

func notFound(op, id string) error {
	return fmt.Errorf("memory: %s %q: %w", op, id, store.ErrNotFound)
}

// CreateAccount implements store.Accounts.
func (m *Store) CreateAccount(ctx context.Context, a store.Account) error {
	if err := store.CheckAccount("memory: create account", a); err != nil {
		return err
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if _, ok := m.acc.byName(a.Name); ok {
		return fmt.Errorf("memory: create account %q: %w", a.Name, store.ErrNameTaken)
	}
	if _, ok := m.acc.byID[a.ID]; ok {
		return fmt.Errorf("memory: create account %q: the ID %s is taken", a.Name, a.ID)
	}
	a.Created = utc(a.Created)
	m.acc.byID[a.ID] = a
	return nil
}

// AccountByID implements store.Accounts.
func (m *Store) AccountByID(_ context.Context, id string) (store.Account, error) {
	if err := m.read(); err != nil {
		return store.Account{}, err
	}
	defer m.mu.Unlock()
	a, ok := m.acc.byID[id]
	if !ok {
		return store.Account{}, notFound("account", id)
	}
	return a, nil
}

// AccountByName implements store.Accounts.
func (m *Store) AccountByName(_ context.Context, name string) (store.Account, error) {
	if err := m.read(); err != nil {
		return store.Account{}, err
	}
	defer m.mu.Unlock()
	a, ok := m.acc.byName(name)
	if !ok {
		return store.Account{}, notFound("account named", name)
	}
	return a, nil
}

// ListAccounts implements store.Accounts.
func (m *Store) ListAccounts(context.Context) ([]store.Account, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	out := slices.Collect(maps.Values(m.acc.byID))
	slices.SortFunc(out, func(a, b store.Account) int { return cmp.Compare(store.NameKey(a.Name), store.NameKey(b.Name)) })
	return out, nil
}

// change applies f to a stored account.
func (m *Store) change(ctx context.Context, op, id string, f func(*store.Account)) error {
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	a, ok := m.acc.byID[id]
	if !ok {
		return notFound(op, id)
	}
	f(&a)
	m.acc.byID[id] = a
	return nil
}

// SetPassword implements store.Accounts.
func (m *Store) SetPassword(ctx context.Context, id, hash string) error {
	return m.change(ctx, "set password of account", id, func(a *store.Account) { a.PasswordHash = hash })
}

// SetPublic implements store.Accounts.
func (m *Store) SetPublic(ctx context.Context, id string, public bool) error {
	return m.change(ctx, "set privacy of account", id, func(a *store.Account) { a.Public = public })
}

// SetLocked implements store.Accounts.
func (m *Store) SetLocked(ctx context.Context, id string, locked bool) error {
	return m.change(ctx, "lock account", id, func(a *store.Account) { a.Locked = locked })
}

// DeleteAccount implements store.Accounts.
func (m *Store) DeleteAccount(ctx context.Context, id string) error {
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if _, ok := m.acc.byID[id]; !ok {
		return notFound("delete account", id)
	}
	delete(m.acc.byID, id)
	m.acc.passkeys = slices.DeleteFunc(m.acc.passkeys, func(p store.Passkey) bool { return p.AccountID == id })
	maps.DeleteFunc(m.acc.sessions, func(_ string, s store.Session) bool { return s.AccountID == id })
	maps.DeleteFunc(m.acc.seats, func(_ store.SeatLink, a string) bool { return a == id })
	m.results = slices.DeleteFunc(m.results, func(r store.Result) bool { return r.AccountID == id }) // ledger.go
	maps.DeleteFunc(m.ratings, func(k ratingKey, _ store.Rating) bool { return k.account == id })
	return nil
}

// AddPasskey implements store.Accounts.
func (m *Store) AddPasskey(ctx context.Context, p store.Passkey) error {
	if len(p.ID) == 0 {
		return fmt.Errorf("memory: add passkey of account %q: no credential ID given", p.AccountID)
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if _, ok := m.acc.byID[p.AccountID]; !ok {
		return notFound("add passkey of account", p.AccountID)
	}
	if slices.ContainsFunc(m.acc.passkeys, func(q store.Passkey) bool { return bytes.Equal(q.ID, p.ID) }) {
		return fmt.Errorf("memory: add passkey of account %q: %w", p.AccountID, store.ErrPasskeyTaken)
	}
	p.ID, p.Data, p.Created = bytes.Clone(p.ID), bytes.Clone(p.Data), utc(p.Created)
	m.acc.passkeys = append(m.acc.passkeys, p)
	return nil
}

// UpdatePasskey implements store.Accounts.
func (m *Store) UpdatePasskey(ctx context.Context, p store.Passkey) error {
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.acc.passkeys, func(q store.Passkey) bool { return bytes.Equal(q.ID, p.ID) && q.AccountID == p.AccountID })
	if i < 0 {
		return notFound("update passkey of account", p.AccountID)
	}
	m.acc.passkeys[i].Data = bytes.Clone(p.Data)
	return nil
}

// Passkeys implements store.Accounts.
func (m *Store) Passkeys(_ context.Context, accountID string) ([]store.Passkey, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	var out []store.Passkey
	for _, p := range m.acc.passkeys {
		if p.AccountID == accountID {
			p.ID, p.Data = bytes.Clone(p.ID), bytes.Clone(p.Data)
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b store.Passkey) int {
		return cmp.Or(a.Created.Compare(b.Created), bytes.Compare(a.ID, b.ID))
	})
	return out, nil
}

// CreateSession implements store.Accounts.
func (m *Store) CreateSession(ctx context.Context, s store.Session) error {
	if s.Hash == "" {
		return fmt.Errorf("memory: create session of account %q: no hash given", s.AccountID)
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if _, ok := m.acc.byID[s.AccountID]; !ok {
		return notFound("create session of account", s.AccountID)
	}
	if _, ok := m.acc.sessions[s.Hash]; ok {
		return fmt.Errorf("memory: create session of account %q: the session exists", s.AccountID)
	}
	s.Created, s.Expires = utc(s.Created), utc(s.Expires)
	m.acc.sessions[s.Hash] = s
	return nil
}

// Session implements store.Accounts.
func (m *Store) Session(_ context.Context, hash string) (store.Session, error) {
	if err := m.read(); err != nil {
		return store.Session{}, err
	}
	defer m.mu.Unlock()
	s, ok := m.acc.sessions[hash]
	if !ok {
		return store.Session{}, fmt.Errorf("memory: session: %w", store.ErrNotFound)
	}
	return s, nil
}

// DeleteSession implements store.Accounts.
func (m *Store) DeleteSession(ctx context.Context, hash string) error {
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	delete(m.acc.sessions, hash)
	return nil
}

// DeleteExpiredSessions implements store.Accounts.
func (m *Store) DeleteExpiredSessions(ctx context.Context, t time.Time) error {
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	maps.DeleteFunc(m.acc.sessions, func(_ string, s store.Session) bool { return s.Expires.Before(t) })
	return nil
}

// LinkSeat implements store.Accounts.
func (m *Store) LinkSeat(ctx context.Context, roomID string, seat int, accountID string) error {
	if err := store.CheckSeatLink("memory: link seat", roomID, seat); err != nil {
		return err
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	k := store.SeatLink{RoomID: roomID, Seat: seat}
	if accountID == "" {
		delete(m.acc.seats, k)
		return nil
	}
	if _, ok := m.acc.byID[accountID]; !ok {
		return notFound("link seat to account", accountID)
	}
	m.acc.seats[k] = accountID
	return nil
}

// SeatAccounts implements store.Accounts.
func (m *Store) SeatAccounts(_ context.Context, roomID string) (map[int]string, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	out := map[int]string{}
	for k, a := range m.acc.seats {
		if k.RoomID == roomID {
			out[k.Seat] = a
		}
	}
	return out, nil
}

// AccountSeats implements store.Accounts.
func (m *Store) AccountSeats(_ context.Context, accountID string) ([]store.SeatLink, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	var out []store.SeatLink
	for k, a := range m.acc.seats {
		if a == accountID {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b store.SeatLink) int {
		return cmp.Or(cmp.Compare(a.RoomID, b.RoomID), cmp.Compare(a.Seat, b.Seat))
	})
	return out, nil
}
