package server

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// slow timers: a game started with them stays in its first night for the
// length of a test.
var slow = map[string]string{"setup": "1h", "night": "1h", "witch": "1h", "speech": "1h", "vote": "1h", "other": "1h", "bot": "0s"}

// deal is the roles the stored log of a started room dealt, seat by seat.
func (ts *testServer) deal(t *testing.T, id string) []rules.Role {
	t.Helper()
	recs, err := ts.st.Records(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	events, _, err := game.Log(recs)
	if err != nil {
		t.Fatal(err)
	}
	var roles []rules.Role
	for _, e := range events {
		if e.Kind == rules.EvRole {
			roles = append(roles, e.Role)
		}
	}
	if len(roles) == 0 {
		t.Fatalf("room %s: no role dealt", id)
	}
	return roles
}

// createStarted creates a room of bots and starts it; it returns the raw
// room info after the start.
func (ts *testServer) createStarted(t *testing.T, body map[string]any) (client.Created, map[string]any) {
	t.Helper()
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", body, &c); err != nil {
		t.Fatal(err)
	}
	var info map[string]any
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, &info); err != nil {
		t.Fatal(err)
	}
	return c, info
}

// TestRoomsThatAreNotPracticeGetUnpredictableDeals: two rooms created
// with the same board are dealt differently (their seeds are drawn at the
// start from crypto/rand and the server's secret), no seed is shown while
// they are played, and the seed is stored: a restarted server resumes the
// same deal.
func TestRoomsThatAreNotPracticeGetUnpredictableDeals(t *testing.T) {
	ts := newTestServer(t)
	body := map[string]any{"preset": "std-12", "timers": slow}
	a, infoA := ts.createStarted(t, body)
	b, infoB := ts.createStarted(t, body)
	dealA, dealB := ts.deal(t, a.Room.ID), ts.deal(t, b.Room.ID)
	if slices.Equal(dealA, dealB) {
		t.Fatalf("two rooms of the same board got the same deal: %v", dealA)
	}
	for _, info := range []map[string]any{infoA, infoB} {
		if _, shown := info["seed"]; shown || info["practice"] != false {
			t.Errorf("a room that is not a practice shows seed %v, practice %v", info["seed"], info["practice"])
		}
	}
	var list []map[string]any
	if err := ts.api.Do(context.Background(), "GET", "/api/rooms?status=running", "", nil, &list); err != nil {
		t.Fatal(err)
	}
	for _, r := range list {
		if _, shown := r["seed"]; shown {
			t.Errorf("the lobby shows a running room's seed: %v", r)
		}
	}
	// A server started again on the same store resumes the same deal.
	again := New(ts.st, Options{})
	if n, err := again.Restore(context.Background()); err != nil || n != 2 {
		t.Fatalf("restore: %d games, %v", n, err)
	}
	defer again.Stop()
	for id, want := range map[string]uint64{a.Room.ID: ts.seedOf(t, a.Room.ID), b.Room.ID: ts.seedOf(t, b.Room.ID)} {
		rm, err := again.roomFor(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if rm.cfg.Seed != want || want == 0 {
			t.Errorf("room %s resumed with seed %d, was dealt with %d", id, rm.cfg.Seed, want)
		}
	}
}

func (ts *testServer) seedOf(t *testing.T, id string) uint64 {
	t.Helper()
	rm, err := ts.roomFor(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.cfg.Seed
}

// TestASeedIsRefusedOutsideAPracticeRoom: whoever fixes the seed knows the
// deal, so only a practice room may have one.
func TestASeedIsRefusedOutsideAPracticeRoom(t *testing.T) {
	ts := newTestServer(t)
	for _, body := range []map[string]any{{"preset": "std-12", "seed": 42}, {"seed": 0}, {"seed": 7, "practice": false}} {
		var e *client.Error
		err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", body, nil)
		if !errors.As(err, &e) || e.Status != 400 || e.Code != "seed" || !strings.Contains(e.Message, "practice") {
			t.Errorf("%v: %v, want 400 seed naming practice rooms", body, err)
		}
	}
	var list []roomInfo
	if err := ts.api.Do(context.Background(), "GET", "/api/rooms", "", nil, &list); err != nil || len(list) != 0 {
		t.Fatalf("a refused room was created: %v %v", list, err)
	}
}

// TestPracticeRoomsSaySoEverywhere: a practice room keeps its seed (and
// deals from it), shows it with "practice": true in its info and the lobby,
// and every seat's welcome says "practice": true; any other room's welcome
// says false.
func TestPracticeRoomsSaySoEverywhere(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	p1, info := ts.createStarted(t, map[string]any{"preset": "std-12", "seed": 42, "practice": true, "nickname": "a", "timers": slow})
	if info["practice"] != true || info["seed"] != float64(42) {
		t.Errorf("practice room info: practice %v, seed %v", info["practice"], info["seed"])
	}
	p2, _ := ts.createStarted(t, map[string]any{"preset": "std-12", "seed": 42, "practice": true, "timers": slow})
	if d1, d2 := ts.deal(t, p1.Room.ID), ts.deal(t, p2.Room.ID); !slices.Equal(d1, d2) {
		t.Errorf("two practice rooms with seed 42 were dealt differently: %v, %v", d1, d2)
	}
	// A practice room without a seed gets a random one, shown.
	var open map[string]any
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "practice": true}, &open); err != nil {
		t.Fatal(err)
	}
	room := open["room"].(map[string]any)
	if room["practice"] != true || room["seed"] == nil {
		t.Errorf("practice room without a seed: practice %v, seed %v", room["practice"], room["seed"])
	}
	var lobby []map[string]any
	if err := ts.api.Do(ctx, "GET", "/api/rooms", "", nil, &lobby); err != nil || len(lobby) != 1 || lobby[0]["practice"] != true {
		t.Errorf("the lobby: %v %v", lobby, err)
	}
	conn, err := client.Dial(ctx, ts.http.URL, p1.Room.ID, p1.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	spec, err := client.Dial(ctx, ts.http.URL, p1.Room.ID, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer spec.Close()
	if !conn.Practice || !spec.Practice {
		t.Errorf("welcome of a practice room: seat says practice %v, spectator %v", conn.Practice, spec.Practice)
	}
	other, _ := ts.createStarted(t, map[string]any{"preset": "std-12", "nickname": "b", "timers": slow})
	oc, err := client.Dial(ctx, ts.http.URL, other.Room.ID, other.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()
	if oc.Practice {
		t.Error("the welcome of a room that is not a practice says practice")
	}
	var raw json.RawMessage
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+other.Room.ID, "", nil, &raw); err != nil || !strings.Contains(string(raw), `"practice":false`) ||
		strings.Contains(string(raw), `"seed"`) {
		t.Errorf("room info of a room that is not a practice: %s %v", raw, err)
	}
}
