// Package memory is a store kept in memory: for tests, and for a server
// run with nothing to keep.
package memory

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/wolfden/wolfden/internal/store"
)

// Store is a store.Store in memory. The zero value is not usable; call New.
type Store struct {
	mu      sync.Mutex
	rooms   map[string]store.Room
	order   []string
	records map[string][]store.Record
	closed  bool
	fail    error // every write fails with it while set (FailWrites)
}

// FailWrites makes every write fail with err until it is called with nil:
// a full disk, for tests.
func (m *Store) FailWrites(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fail = err
}

// New makes an empty store.
func New() *Store {
	return &Store{rooms: map[string]store.Room{}, records: map[string][]store.Record{}}
}

func (m *Store) check() error {
	if m.closed {
		return fmt.Errorf("memory store: closed")
	}
	return m.fail
}

// CreateRoom implements store.Store.
func (m *Store) CreateRoom(_ context.Context, r store.Room) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(); err != nil {
		return err
	}
	if _, ok := m.rooms[r.ID]; ok {
		return fmt.Errorf("memory store: room %s exists", r.ID)
	}
	m.rooms[r.ID] = r
	m.order = append(m.order, r.ID)
	return nil
}

// UpdateRoom implements store.Store.
func (m *Store) UpdateRoom(_ context.Context, r store.Room) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(); err != nil {
		return err
	}
	return m.update(r)
}

func (m *Store) update(r store.Room) error {
	old, ok := m.rooms[r.ID]
	if !ok {
		return store.ErrNotFound
	}
	old.Status, old.Config, old.Seats, old.Updated = r.Status, r.Config, r.Seats, r.Updated
	m.rooms[r.ID] = old
	return nil
}

// ResetRoom implements store.Store.
func (m *Store) ResetRoom(ctx context.Context, r store.Room) error {
	if err := m.UpdateRoom(ctx, r); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.records, r.ID)
	return nil
}

// Room implements store.Store.
func (m *Store) Room(_ context.Context, id string) (store.Room, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.rooms[id]
	if !ok {
		return store.Room{}, store.ErrNotFound
	}
	return r, nil
}

// Rooms implements store.Store.
func (m *Store) Rooms(_ context.Context, status string) ([]store.Room, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []store.Room
	for _, id := range m.order {
		if r := m.rooms[id]; r.Status == status {
			out = append(out, r)
		}
	}
	return out, nil
}

// Append implements store.Store.
func (m *Store) Append(_ context.Context, roomID string, recs ...store.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(); err != nil {
		return err
	}
	if err := m.follows(roomID, recs); err != nil {
		return err
	}
	m.records[roomID] = append(m.records[roomID], slices.Clone(recs)...)
	return nil
}

func (m *Store) follows(roomID string, recs []store.Record) error {
	have := m.records[roomID]
	for i, r := range recs {
		if want := int64(len(have) + i + 1); r.N != want {
			return fmt.Errorf("memory store: room %s: record %d where %d was due", roomID, r.N, want)
		}
	}
	return nil
}

// StartGame implements store.Store.
func (m *Store) StartGame(_ context.Context, r store.Room, recs ...store.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(); err != nil {
		return err
	}
	if _, ok := m.rooms[r.ID]; !ok {
		return store.ErrNotFound
	}
	if err := m.follows(r.ID, recs); err != nil {
		return err
	}
	_ = m.update(r)
	m.records[r.ID] = append(m.records[r.ID], slices.Clone(recs)...)
	return nil
}

// Records implements store.Store.
func (m *Store) Records(_ context.Context, roomID string) ([]store.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.records[roomID]), nil
}

// Close implements store.Store.
func (m *Store) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}
