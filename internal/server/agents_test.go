package server

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// refusingOpener is the SQLite store refusing every game opened with its
// room (store.GameOpener).
type refusingOpener struct{ *sqlite.DB }

var errOpenRefused = errors.New("the disk is full")

func (refusingOpener) OpenGame(context.Context, store.Room, ...store.Record) error {
	return errOpenRefused
}

// TestAMatchedGamesRoomIsMadeByItsStart: a matched AIWolf game's room is
// stored with its game's start (one transaction: store.GameOpener), as a
// room made then started would be; a start the store refuses leaves no
// room behind, in the store or in the server.
func TestAMatchedGamesRoomIsMadeByItsStart(t *testing.T) {
	ctx := context.Background()
	names := []string{"a1", "a2", "a3", "a4", "a5"}
	timers := (&aiwolf.Gateway{}).Timers()

	ts := newTestServer(t)
	g, err := agentHost{ts.Server}.StartAgents(ctx, "aiwolf-5", nil, names, timers)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ts.st.Room(ctx, g.Room)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != store.StatusRunning {
		t.Errorf("the matched game's room is %q, want %q", rec.Status, store.StatusRunning)
	}
	if recs, err := ts.st.Records(ctx, g.Room); err != nil || len(recs) == 0 || recs[0].N != 1 {
		t.Errorf("the matched game's records: %d, %v; want its first", len(recs), err)
	}

	db, err := sqlite.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	refused := newTestServerOver(t, refusingOpener{db}, Options{})
	if _, err := (agentHost{refused.Server}).StartAgents(ctx, "aiwolf-5", nil, names, timers); err == nil {
		t.Fatal("a start the store refused was taken")
	}
	refused.mu.Lock()
	left := len(refused.rooms)
	refused.mu.Unlock()
	if left != 0 {
		t.Errorf("a refused start left %d rooms in the server", left)
	}
	for _, status := range []string{store.StatusOpen, store.StatusRunning} {
		if rooms, err := db.Rooms(ctx, status); err != nil || len(rooms) != 0 {
			t.Errorf("a refused start left %s rooms in the store: %v, %v", status, rooms, err)
		}
	}
}
