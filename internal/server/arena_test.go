package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/game"
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
	note, _ := json.Marshal(game.Note{Seat: 2, Text: "<think>2 is quiet</think>{}", At: 5})
	id, err := Archive(context.Background(), ts.st, Finished{Name: "arena std-12 #1", Preset: "std-12", Board: b, Seed: 3, Names: names,
		Log: []store.Record{{N: 1, At: time.Now(), Kind: "start", Events: events}, {N: 2, At: time.Now(), Kind: game.NoteKind, Body: note}}})
	if err != nil {
		t.Fatal(err)
	}
	var replay struct {
		Room  roomInfo          `json:"room"`
		Seed  uint64            `json:"seed"`
		Roles map[int]string    `json:"roles"`
		Event []json.RawMessage `json:"events"`
		Notes []game.Note       `json:"notes"`
	}
	if err := ts.api.Do(context.Background(), "GET", "/api/rooms/"+id+"/replay", "", nil, &replay); err != nil {
		t.Fatal(err)
	}
	if replay.Seed != 3 || len(replay.Event) != len(events) || len(replay.Roles) != 12 {
		t.Errorf("replay: seed %d, %d events (want %d), %d roles", replay.Seed, len(replay.Event), len(events), len(replay.Roles))
	}
	if len(replay.Notes) != 1 || replay.Notes[0].Seat != 2 || replay.Notes[0].Text != "<think>2 is quiet</think>{}" {
		t.Errorf("replay notes: %+v", replay.Notes)
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

// GET /api/arena lists the stored runs' ratings, newest run first, with
// each rating's ordinal and interval; none stored, an empty list.
func TestArenaTableListsTheStoredRuns(t *testing.T) {
	ts := newTestServer(t)
	var runs []arenaRun
	if err := ts.api.Do(context.Background(), "GET", "/api/arena", "", nil, &runs); err != nil || runs == nil || len(runs) != 0 {
		t.Fatalf("no run stored: %+v, %v; want []", runs, err)
	}
	at := time.Date(2026, 12, 5, 14, 0, 0, 0, time.UTC)
	for i, run := range []string{"old", "new"} {
		rows := []store.ArenaRating{
			{Run: run, At: at.Add(time.Duration(i) * time.Hour), Board: "std-12", Seed: 1, Games: 2000, Program: "smart", Side: "village", Mu: 18.45, Sigma: 1.08, Played: 2000, Wins: 607},
			{Run: run, At: at.Add(time.Duration(i) * time.Hour), Board: "std-12", Seed: 1, Games: 2000, Program: "llm:m", Side: "wolf", Mu: 30, Sigma: 2, Played: 1900, Wins: 1300, Tokens: 5000, Seconds: 12.5},
		}
		if err := ts.st.(store.Arena).AddArenaRun(context.Background(), rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := ts.api.Do(context.Background(), "GET", "/api/arena", "", nil, &runs); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Run != "new" || runs[1].Run != "old" || len(runs[0].Ratings) != 2 {
		t.Fatalf("runs: %+v", runs)
	}
	s, m := runs[0].Ratings[0], runs[0].Ratings[1]
	if s.Program != "smart" || !near(s.Rating, 18.45-3*1.08) || !near(s.Low, 18.45-1.96*1.08) || s.Games != 2000 || s.Tokens != 0 {
		t.Errorf("smart: %+v", s)
	}
	if m.Program != "llm:m" || m.Tokens != 5000 || m.Seconds != 12.5 || m.Side != "wolf" {
		t.Errorf("the model: %+v", m)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
