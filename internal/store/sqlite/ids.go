package sqlite

import (
	"context"
	"strings"
	"sync"
)

// Room IDs found free ahead of need.
//
// openNow reads whether the database holds a room before it journals the
// room's opening: the largest step of a matched AIWolf game's start
// (about 90 µs of the half millisecond from the last agent's NAME to its
// INITIALIZE), since a reader's first read after a commit loads its pages
// again. ReserveRoomIDs does that read for many IDs at once, when the
// caller has time (between games); an opening of a reserved ID is
// journaled without it. A reservation ends when its ID is opened, or when
// a room of that ID is made another way (once its transaction is over:
// commit), so that it never stands for an ID the database holds.

// reserved is the IDs ReserveRoomIDs found free and nothing has used.
type reserved struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (r *reserved) add(ids []string) {
	r.mu.Lock()
	if r.ids == nil {
		r.ids = map[string]bool{}
	}
	for _, id := range ids {
		r.ids[id] = true
	}
	r.mu.Unlock()
}

// take ends id's reservation and reports whether it had one.
func (r *reserved) take(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ids[id] {
		return false
	}
	delete(r.ids, id)
	return true
}

// ReserveRoomIDs keeps for OpenGame those of ids that no room in the
// database or the journal has, and returns them: their openings are
// journaled without reading the database first. The caller draws the IDs
// at random, as it would for a room, and keeps them for rooms it opens.
func (d *DB) ReserveRoomIDs(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	// Reserved before the read: a room made meanwhile ends its ID's
	// reservation, whichever comes first.
	d.w.res.add(ids)
	taken, err := d.roomsAmong(ctx, ids)
	var free []string
	d.w.mu.Lock()
	d.w.res.mu.Lock()
	for _, id := range ids {
		_, journaled := d.w.last[id]
		switch {
		case !d.w.res.ids[id]: // its room was made meanwhile
		case err != nil || taken[id] || journaled:
			delete(d.w.res.ids, id)
		default:
			free = append(free, id)
		}
	}
	d.w.res.mu.Unlock()
	d.w.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return free, nil
}

// roomsAmong is which of ids the database holds rooms of.
func (d *DB) roomsAmong(ctx context.Context, ids []string) (map[string]bool, error) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := d.db.QueryContext(ctx, `SELECT id FROM rooms WHERE id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	taken := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		taken[id] = true
	}
	return taken, rows.Err()
}
