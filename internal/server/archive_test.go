package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// botGame plays a whole game of std-12 with smart bots.
func botGame(t *testing.T, seed uint64) (rules.Board, []rules.Event) {
	t.Helper()
	p, err := rules.LookupPreset("std-12")
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.New(b, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]bot.Bot, g.Players())
	for i := range bots {
		if bots[i], err = bot.New(bot.Smart, rules.Seat(i+1), g.Players(), bot.Seed(seed, rules.Seat(i+1))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := bot.Play(g, bots); err != nil {
		t.Fatal(err)
	}
	return b, g.Events()
}

// An archived game (wolfden arena --db) is a finished room whose replay the
// API serves as any game's, its seats named after their programs.
func TestArchivedGameReplaysLikeAnyGame(t *testing.T) {
	ts := newTestServer(t)
	b, events := botGame(t, 3)
	names := make([]string, 12)
	for i := range names {
		names[i] = []string{"smart", "random"}[i%2]
	}
	id, err := Archive(context.Background(), ts.st, Finished{Name: "arena std-12 #1", Preset: "std-12", Board: b, Seed: 3, Names: names,
		Log: []store.Record{{N: 1, At: time.Now(), Kind: "start", Events: events}}})
	if err != nil {
		t.Fatal(err)
	}
	var replay struct {
		Room  roomInfo          `json:"room"`
		Seed  uint64            `json:"seed"`
		Roles map[int]string    `json:"roles"`
		Event []json.RawMessage `json:"events"`
	}
	if err := ts.api.Do(context.Background(), "GET", "/api/rooms/"+id+"/replay", "", nil, &replay); err != nil {
		t.Fatal(err)
	}
	if replay.Seed != 3 || len(replay.Event) != len(events) || len(replay.Roles) != 12 {
		t.Errorf("replay: seed %d, %d events (want %d), %d roles", replay.Seed, len(replay.Event), len(events), len(replay.Roles))
	}
	if replay.Room.Status != "over" || !replay.Room.Practice || !replay.Room.Private || replay.Room.Seats[1].Nick != "random" || !replay.Room.Seats[1].Bot {
		t.Errorf("room: %+v", replay.Room)
	}
	// A server started on the store while the game is fresh (within its
	// linger) restores it as a game that has ended: still over, still
	// replayed, not set aside as lost.
	s2 := New(ts.st, Options{Linger: time.Hour})
	defer s2.Stop()
	if _, err := s2.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rec, err := ts.st.Room(context.Background(), id); err != nil || rec.Status != "over" {
		t.Errorf("after a restart the archived room is %q (%v); want over", rec.Status, err)
	}
	var open []roomInfo
	if err := ts.api.Do(context.Background(), "GET", "/api/rooms", "", nil, &open); err != nil {
		t.Fatal(err)
	}
	for _, r := range open {
		if r.ID == id {
			t.Errorf("the lobby lists the archived game %s", id)
		}
	}
}

func TestArchiveRefusesAnUnfinishedGame(t *testing.T) {
	ts := newTestServer(t)
	b, events := botGame(t, 4)
	names := make([]string, 12)
	now := time.Now()
	for _, tc := range []struct {
		log   []store.Record
		names []string
		want  string
	}{
		{[]store.Record{{N: 1, At: now, Kind: "start", Events: events[:len(events)-1]}}, names, "not over"},
		{nil, names, "not over"},
		{[]store.Record{{N: 1, At: now, Kind: "start", Events: events}}, names[:11], "one name per seat"},
		{[]store.Record{{N: 2, At: now, Kind: "start", Events: events}}, names, "record 1 is numbered 2"},
	} {
		if _, err := Archive(context.Background(), ts.st, Finished{Board: b, Names: tc.names, Log: tc.log}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v; want %q", err, tc.want)
		}
	}
}
