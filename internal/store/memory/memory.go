// Package memory is a store kept in memory: for tests, and for a server
// run with nothing to keep.
//
// It keeps the contract of store.Store (storetest runs on it) but for one
// leniency that the game's tests rely on: a room it was never given takes
// appends and has records, as if it had been created empty.
package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// Store is a store.Store in memory. The zero value is not usable; call New.
type Store struct {
	mu      sync.Mutex
	rooms   map[string]store.Room
	records map[string][]store.Record
	codes   map[string]claim
	results []store.Result             // ledger.go
	ratings map[ratingKey]store.Rating // ledger.go
	acc     accounts
	arena   []store.ArenaRating           // as added
	chat    map[chatKey]store.ChatBinding // chat.go
	closed  bool
	fail    error // every write fails with it while set (FailWrites)
}

var _ store.Store = (*Store)(nil)

// FailWrites makes every write fail with err until it is called with nil:
// a full disk, for tests.
func (m *Store) FailWrites(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fail = err
}

// New makes an empty store.
func New() *Store {
	return &Store{rooms: map[string]store.Room{}, records: map[string][]store.Record{}, codes: map[string]claim{},
		ratings: map[ratingKey]store.Rating{}, acc: newAccounts()}
}

// errClosed wraps store.ErrClosed.
var errClosed = fmt.Errorf("memory: %w", store.ErrClosed)

// write locks m for a write, or says why there can be none: a closed
// store, a cancelled ctx, FailWrites.
func (m *Store) write(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	err := errClosed
	if !m.closed {
		err = m.fail
	}
	if err != nil {
		m.mu.Unlock()
	}
	return err
}

// read locks m for a read.
func (m *Store) read() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return errClosed
	}
	return nil
}

// utc is t as a store that writes it somewhere gives it back: in UTC,
// without a monotonic clock reading.
func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

// CreateRoom implements store.Store.
func (m *Store) CreateRoom(ctx context.Context, r store.Room) error {
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if _, ok := m.rooms[r.ID]; ok {
		return fmt.Errorf("memory: create room %q: the room already exists", r.ID)
	}
	r.Created, r.Updated = utc(r.Created), utc(r.Updated)
	m.rooms[r.ID] = r
	return nil
}

// UpdateRoom implements store.Store.
func (m *Store) UpdateRoom(ctx context.Context, r store.Room) error {
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	return m.update(r)
}

func (m *Store) update(r store.Room) error {
	old, ok := m.rooms[r.ID]
	if !ok {
		return fmt.Errorf("memory: update room %q: %w", r.ID, store.ErrNotFound)
	}
	old.Status, old.Config, old.Seats, old.Updated, old.Code = r.Status, r.Config, r.Seats, utc(r.Updated), r.Code
	m.rooms[r.ID] = old
	return nil
}

// ResetRoom implements store.Store.
func (m *Store) ResetRoom(ctx context.Context, r store.Room) error {
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if err := m.update(r); err != nil {
		return err
	}
	delete(m.records, r.ID)
	return nil
}

// Room implements store.Store.
func (m *Store) Room(_ context.Context, id string) (store.Room, error) {
	if err := m.read(); err != nil {
		return store.Room{}, err
	}
	defer m.mu.Unlock()
	r, ok := m.rooms[id]
	if !ok {
		return store.Room{}, fmt.Errorf("memory: room %q: %w", id, store.ErrNotFound)
	}
	return r, nil
}

// Rooms implements store.Store.
func (m *Store) Rooms(_ context.Context, status string) ([]store.Room, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	var out []store.Room
	for _, r := range m.rooms {
		if r.Status == status {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b store.Room) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// Append implements store.Store.
func (m *Store) Append(ctx context.Context, roomID string, recs ...store.Record) error {
	if len(recs) == 0 {
		return nil
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if err := m.follows(roomID, recs); err != nil {
		return err
	}
	m.add(roomID, recs)
	return nil
}

// follows checks that recs follow the room's last record.
func (m *Store) follows(roomID string, recs []store.Record) error {
	for i := 1; i < len(recs); i++ {
		if recs[i].N != recs[i-1].N+1 {
			return fmt.Errorf("memory: append to room %q: records are not consecutive: %d follows %d", roomID, recs[i].N, recs[i-1].N)
		}
	}
	last := int64(len(m.records[roomID]))
	switch n := recs[0].N; {
	case n <= last:
		return fmt.Errorf("memory: append to room %q: record %d is already stored (the last is %d)", roomID, n, last)
	case n > last+1:
		return fmt.Errorf("memory: append to room %q: record %d leaves a gap after the last stored record, %d", roomID, n, last)
	}
	return nil
}

func (m *Store) add(roomID string, recs []store.Record) {
	for _, r := range recs {
		r.At = utc(r.At)
		r.Events = slices.Clone(r.Events)
		m.records[roomID] = append(m.records[roomID], r)
	}
}

// StartGame implements store.Store.
func (m *Store) StartGame(ctx context.Context, r store.Room, recs ...store.Record) error {
	if len(recs) == 0 {
		return fmt.Errorf("memory: start room %q: a game starts with its first record", r.ID)
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if _, ok := m.rooms[r.ID]; !ok {
		return fmt.Errorf("memory: start room %q: %w", r.ID, store.ErrNotFound)
	}
	if err := m.follows(r.ID, recs); err != nil {
		return err
	}
	_ = m.update(r)
	m.add(r.ID, recs)
	return nil
}

// Records implements store.Store.
func (m *Store) Records(_ context.Context, roomID string) ([]store.Record, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	return slices.Clone(m.records[roomID]), nil
}

// Close implements store.Store.
func (m *Store) Close() error {
	if err := m.read(); err != nil {
		return err
	}
	defer m.mu.Unlock()
	m.closed = true
	return nil
}

// claim is a room's claim on a code: live until ends, if set.
type claim struct {
	room string
	ends time.Time
}

func (c claim) live(now time.Time) bool { return c.ends.IsZero() || now.Before(c.ends) }

// ClaimCode implements store.Store.
func (m *Store) ClaimCode(ctx context.Context, code, room string) error {
	if err := store.CheckClaim("memory: claim code", code, room); err != nil {
		return err
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if c, ok := m.codes[code]; ok && c.room != room && c.live(time.Now()) {
		return fmt.Errorf("memory: claim code %s for room %q: %w (room %q)", code, room, store.ErrCodeTaken, c.room)
	}
	m.codes[code] = claim{room: room}
	return nil
}

// GiveCode implements store.Store.
func (m *Store) GiveCode(ctx context.Context, code, from, to string) error {
	if err := store.CheckClaim("memory: give code", code, from, to); err != nil {
		return err
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if c, ok := m.codes[code]; ok && c.room != from && c.room != to && c.live(time.Now()) {
		return fmt.Errorf("memory: give code %s to room %q: %w (room %q, not %q)", code, to, store.ErrCodeTaken, c.room, from)
	}
	m.codes[code] = claim{room: to}
	return nil
}

// ExpireCode implements store.Store.
func (m *Store) ExpireCode(ctx context.Context, code, room string, ttl time.Duration) error {
	if err := store.CheckClaim("memory: expire code", code, room); err != nil {
		return err
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	c, ok := m.codes[code]
	if !ok || c.room != room {
		return fmt.Errorf("memory: expire code %s of room %q: %w", code, room, store.ErrNotFound)
	}
	c.ends = time.Now().Add(max(ttl, 0))
	m.codes[code] = c
	return nil
}

// FreeCode implements store.Store.
func (m *Store) FreeCode(ctx context.Context, code, room string) error {
	if err := store.CheckClaim("memory: free code", code, room); err != nil {
		return err
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if c, ok := m.codes[code]; ok && c.room == room {
		delete(m.codes, code)
	}
	return nil
}

// CodeRoom implements store.Store.
func (m *Store) CodeRoom(_ context.Context, code string) (string, error) {
	if err := m.read(); err != nil {
		return "", err
	}
	defer m.mu.Unlock()
	c, ok := m.codes[code]
	if !ok || !c.live(time.Now()) {
		return "", fmt.Errorf("memory: code %s: %w", code, store.ErrNotFound)
	}
	return c.room, nil
}

var _ store.Arena = (*Store)(nil)

// AddArenaRun stores one run's ratings (store.Arena).
func (m *Store) AddArenaRun(ctx context.Context, rows []store.ArenaRating) error {
	if err := store.CheckArenaRun("memory: add arena run", rows); err != nil {
		return err
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if slices.ContainsFunc(m.arena, func(r store.ArenaRating) bool { return r.Run == rows[0].Run }) {
		return fmt.Errorf("memory: add arena run %q: the run is already stored", rows[0].Run)
	}
	for _, r := range rows {
		r.At = utc(r.At)
		m.arena = append(m.arena, r)
	}
	return nil
}

// UpdateArenaStanding updates a standing run (store.Arena). Here every
// row of the run is touched: the store is for tests.
func (m *Store) UpdateArenaStanding(ctx context.Context, rows []store.ArenaRating) error {
	if err := store.CheckArenaRun("memory: update arena standing", rows); err != nil {
		return err
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	run := rows[0].Run
	if m.standingGames(run) != rows[0].Games-1 {
		return fmt.Errorf("memory: update arena standing %q: %w", run, store.ErrStaleRating)
	}
	at := utc(rows[0].At)
	for i := range m.arena {
		if m.arena[i].Run == run {
			m.arena[i].At, m.arena[i].Games = at, rows[0].Games
		}
	}
	for _, r := range rows {
		r.At = at
		i := slices.IndexFunc(m.arena, func(o store.ArenaRating) bool {
			return o.Run == run && o.Program == r.Program && o.Side == r.Side
		})
		if i < 0 {
			m.arena = append(m.arena, r)
		} else {
			m.arena[i] = r
		}
	}
	return nil
}

// standingGames is a run's games: 0 for a run not stored.
func (m *Store) standingGames(run string) int {
	for _, r := range m.arena {
		if r.Run == run {
			return r.Games
		}
	}
	return 0
}

// ArenaStanding reads a standing run's games and some of its rows
// (store.Arena).
func (m *Store) ArenaStanding(_ context.Context, run string, programs []string) (int, []store.ArenaRating, error) {
	if err := m.read(); err != nil {
		return 0, nil, err
	}
	defer m.mu.Unlock()
	out := []store.ArenaRating{}
	for _, r := range m.arena {
		if r.Run == run && slices.Contains(programs, r.Program) {
			out = append(out, r)
		}
	}
	return m.standingGames(run), out, nil
}

// ArenaRun reads one run's rows (store.Arena).
func (m *Store) ArenaRun(_ context.Context, run string) ([]store.ArenaRating, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	out := []store.ArenaRating{}
	for _, r := range m.arena {
		if r.Run == run {
			out = append(out, r)
		}
	}
	return out, nil
}

// ArenaRatings lists the latest runs' ratings (store.Arena).
func (m *Store) ArenaRatings(_ context.Context, limit int) ([]store.ArenaRating, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	return store.LatestArenaRuns(m.arena, limit), nil
}
