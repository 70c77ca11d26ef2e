package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/wolfden/wolfden/internal/store"
)

var _ store.Ledger = (*Store)(nil)

type ratingKey struct{ account, season, side string }

// RecordGame implements store.Ledger.
func (m *Store) RecordGame(ctx context.Context, results []store.Result, ratings []store.Rating) error {
	if err := store.CheckResults("memory: record game", results, ratings); err != nil {
		return err
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	for _, r := range m.results {
		if len(results) > 0 && r.Room == results[0].Room && r.Game == results[0].Game {
			return fmt.Errorf("memory: room %q game %d: %w", r.Room, r.Game, store.ErrRecorded)
		}
	}
	for _, r := range ratings {
		if m.ratings[ratingKey{r.AccountID, r.Season, r.Side}].Games != r.Games-1 {
			return fmt.Errorf("memory: record game: %s's %s rating: %w", r.AccountID, r.Side, store.ErrStaleRating)
		}
	}
	for _, r := range results {
		r.At = utc(r.At)
		m.results = append(m.results, r)
	}
	for _, r := range ratings {
		m.ratings[ratingKey{r.AccountID, r.Season, r.Side}] = r
	}
	return nil
}

// Results implements store.Ledger.
func (m *Store) Results(_ context.Context, accountID string) ([]store.Result, error) {
	return m.filterResults(func(r store.Result) bool { return r.AccountID == accountID })
}

// RoomResults implements store.Ledger.
func (m *Store) RoomResults(_ context.Context, room string) ([]store.Result, error) {
	return m.filterResults(func(r store.Result) bool { return r.Room == room })
}

func (m *Store) filterResults(keep func(store.Result) bool) ([]store.Result, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	var out []store.Result
	for _, r := range m.results {
		if keep(r) {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b store.Result) int {
		return cmp.Or(b.At.Compare(a.At), cmp.Compare(b.Room, a.Room), cmp.Compare(a.AccountID, b.AccountID))
	})
	return out, nil
}

// Ratings implements store.Ledger.
func (m *Store) Ratings(_ context.Context, season string, accountIDs ...string) ([]store.Rating, error) {
	return m.filterRatings(func(r store.Rating) bool { return r.Season == season && slices.Contains(accountIDs, r.AccountID) })
}

// AccountRatings implements store.Ledger.
func (m *Store) AccountRatings(_ context.Context, accountID string) ([]store.Rating, error) {
	out, err := m.filterRatings(func(r store.Rating) bool { return r.AccountID == accountID })
	slices.SortFunc(out, func(a, b store.Rating) int {
		return cmp.Or(cmp.Compare(b.Season, a.Season), cmp.Compare(a.Side, b.Side))
	})
	return out, err
}

// Leaderboard implements store.Ledger.
func (m *Store) Leaderboard(_ context.Context, season, side string, offset, limit int) ([]store.Rating, error) {
	out, err := m.filterRatings(func(r store.Rating) bool { return r.Season == season && r.Side == side })
	slices.SortFunc(out, func(a, b store.Rating) int {
		return cmp.Or(cmp.Compare(b.Mu-3*b.Sigma, a.Mu-3*a.Sigma), cmp.Compare(a.AccountID, b.AccountID))
	})
	offset = min(max(offset, 0), len(out))
	out = out[offset:]
	return out[:min(max(limit, 0), len(out))], err
}

// Seasons implements store.Ledger.
func (m *Store) Seasons(context.Context) ([]string, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	var out []string
	for _, r := range m.results {
		if !slices.Contains(out, r.Season) {
			out = append(out, r.Season)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out, nil
}

func (m *Store) filterRatings(keep func(store.Rating) bool) ([]store.Rating, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	var out []store.Rating
	for _, r := range m.ratings {
		if keep(r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b store.Rating) int {
		return cmp.Or(cmp.Compare(a.AccountID, b.AccountID), cmp.Compare(a.Season, b.Season), cmp.Compare(a.Side, b.Side))
	})
	return out, nil
}
