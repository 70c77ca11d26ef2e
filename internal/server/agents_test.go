package server

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

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

// TestAMatchedGameTakesARoomIDReservedBetweenGames: on SQLite, a matched
// game's room takes an ID the store reserved when the server started or a
// matched game ended (roomids.go), so its start reads nothing to check it;
// the pool is filled again at a game's end once half of it is used.
func TestAMatchedGameTakesARoomIDReservedBetweenGames(t *testing.T) {
	ctx := context.Background()
	ts := newTestServerWith(t, Options{AIWolf: &aiwolf.Options{Players: 5, ActionTimeout: 5 * time.Second, ResponseTimeout: 5 * time.Second}})
	pool := func() []string {
		ts.ids.mu.Lock()
		defer ts.ids.mu.Unlock()
		return slices.Clone(ts.ids.ids)
	}
	if n := len(pool()); n != 0 {
		t.Fatalf("the pool holds %d IDs before the server is restored", n)
	}
	if _, err := ts.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	reserved := pool()
	if len(reserved) != idPoolSize {
		t.Fatalf("the pool holds %d IDs once the server is restored, want %d", len(reserved), idPoolSize)
	}
	g, err := agentHost{ts.Server}.StartAgents(ctx, "aiwolf-5", nil, []string{"a1", "a2", "a3", "a4", "a5"}, (&aiwolf.Gateway{}).Timers())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(reserved, g.Room) || slices.Contains(pool(), g.Room) {
		t.Errorf("the matched game's room %s: reserved %v, in the pool still %v; want it taken from the pool", g.Room, slices.Contains(reserved, g.Room), slices.Contains(pool(), g.Room))
	}
	if rec, err := ts.st.Room(ctx, g.Room); err != nil || rec.Status != store.StatusRunning {
		t.Errorf("the matched game's room: %+v, %v; want it running", rec, err)
	}

	for range idPoolSize / 2 {
		ts.matchedRoomID()
	}
	if n := len(pool()); n != idPoolSize/2-1 {
		t.Fatalf("the pool holds %d IDs, want %d", n, idPoolSize/2-1)
	}
	playTeam(t, ts, "alpha", 1, 3)
	for i := 0; len(pool()) != idPoolSize; i++ {
		if i == 1000 {
			t.Fatalf("the pool holds %d IDs after a matched game's end, want %d", len(pool()), idPoolSize)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A matched game's room config is what the settings make, each game's
// its own: a change to one game's (its seed, its options) is not the
// next game's, and other settings make another config.
func TestAMatchedGamesConfigIsItsOwn(t *testing.T) {
	var m matchedConfig
	opts := aiwolf.MatchOptions()
	timers := (&aiwolf.Gateway{}).Timers()
	fresh := func(preset string, o map[string]string) roomConfig {
		t.Helper()
		req := createRequest{Name: "AIWolf " + preset, Preset: preset, Options: o, Timers: timers.Map()}
		c, err := req.config()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	first, err := m.get("aiwolf-5", opts, timers)
	if err != nil {
		t.Fatal(err)
	}
	if want := fresh("aiwolf-5", opts); !reflect.DeepEqual(first, want) {
		t.Fatalf("the first config is\n%+v\nwant\n%+v", first, want)
	}
	first.Seed = 7
	first.Cards[0] = "changed"
	for k := range first.Options {
		first.Options[k] = "changed"
	}
	first.Timers["speech"] = "changed"
	second, err := m.get("aiwolf-5", opts, timers)
	if err != nil {
		t.Fatal(err)
	}
	if want := fresh("aiwolf-5", opts); !reflect.DeepEqual(second, want) {
		t.Fatalf("after a change to the first game's, the second config is\n%+v\nwant\n%+v", second, want)
	}
	other := maps.Clone(opts)
	other["vote_tie"] = "nobody"
	for _, tc := range []struct {
		preset string
		opts   map[string]string
	}{{"aiwolf-13", opts}, {"aiwolf-5", other}} {
		got, err := m.get(tc.preset, tc.opts, timers)
		if err != nil {
			t.Fatal(err)
		}
		if want := fresh(tc.preset, tc.opts); !reflect.DeepEqual(got, want) {
			t.Errorf("%s %v: the config is\n%+v\nwant\n%+v", tc.preset, tc.opts, got, want)
		}
	}
	if _, err := m.get("no-such-preset", opts, timers); err == nil {
		t.Error("an unknown preset made a config")
	}
}
