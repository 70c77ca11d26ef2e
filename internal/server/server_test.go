package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// quick timers: random clients answer in well under a millisecond, so the
// clocks only matter for the fixed night schedule.
var quick = map[string]string{"setup": "60ms", "night": "80ms", "witch": "60ms", "tick": "10ms",
	"speech": "2s", "vote": "2s", "other": "2s", "bot": "0s"}

type testServer struct {
	*Server
	api  *client.API
	http *httptest.Server
	path string
}

func newTestServer(t *testing.T) *testServer { return newTestServerWith(t, Options{}) }

// newTestServerWith runs a server with opts on a fresh SQLite file.
func newTestServerWith(t *testing.T, opts Options) *testServer {
	t.Helper()
	path := filepath.Join(t.TempDir(), "w.db")
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServerOver(t, st, opts)
	ts.path = path
	return ts
}

// newTestServerOver serves st (a wrapper of a store, in a test of what the
// server does when the store answers so), closed at the test's end.
func newTestServerOver(t *testing.T, st store.Store, opts Options) *testServer {
	t.Helper()
	s := New(st, opts)
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		hs.Close()
		s.Stop()
		st.Close()
	})
	return &testServer{Server: s, api: &client.API{Base: hs.URL}, http: hs}
}

// waitOver waits until the room is marked over, which follows the game's
// last frames by a moment.
func (ts *testServer) waitOver(t *testing.T, id string) {
	t.Helper()
	for i := 0; ; i++ {
		var info roomInfo
		if err := ts.api.Do(context.Background(), "GET", "/api/rooms/"+id, "", nil, &info); err != nil {
			t.Fatal(err)
		}
		if info.Status == "over" {
			return
		}
		if i == 500 {
			t.Fatal("the room was not marked over")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type seated struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

// table creates a room of humans only: every seat joined by a test client.
func (ts *testServer) table(t *testing.T, body map[string]any) (client.Created, []seated) {
	t.Helper()
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", body, &c); err != nil {
		t.Fatal(err)
	}
	var players []seated
	for i := 0; i < c.Room.Players; i++ {
		var p seated
		if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/join", "", map[string]any{"nickname": fmt.Sprint("p", i+1)}, &p); err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	return c, players
}

// stream collects a seat's events and chat by number, refusing duplicates
// and gaps: what "loses nothing" means.
type stream struct {
	events []json.RawMessage
	chats  []json.RawMessage
}

func (s *stream) take(t *testing.T, f client.Frame) {
	switch f.Type {
	case "event":
		if f.Seq != len(s.events)+1 {
			t.Errorf("event %d arrived after %d", f.Seq, len(s.events))
		}
		s.events = append(s.events, f.Raw)
	case "chat":
		if f.Seq != len(s.chats)+1 {
			t.Errorf("chat %d arrived after %d", f.Seq, len(s.chats))
		}
		s.chats = append(s.chats, f.Raw)
	}
}

func TestTwelveClientsPlayAGameWithAReconnect(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	room, players := ts.table(t, map[string]any{"preset": "std-12", "seed": 42, "practice": true, "timers": quick})
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+room.Room.ID+"/start", room.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	winners := make([]string, len(players))
	var recon stream // seat 3 drops its connection once and resumes
	for i, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 1))
			conn, err := client.Dial(ctx, ts.http.URL, room.Room.ID, p.Token, 0, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			if p.Seat != 3 {
				st, err := conn.PlayRandom(ctx, r, nil)
				if err != nil {
					t.Errorf("seat %d: %v", p.Seat, err)
				}
				winners[i] = st.Winner
				return
			}
			frames := 0
			st, err := conn.PlayRandom(ctx, r, func(f client.Frame) bool {
				recon.take(t, f)
				frames++
				return frames == 40
			})
			if err != nil {
				t.Errorf("seat 3: %v", err)
				return
			}
			if st.Winner != "" {
				t.Error("seat 3: the game ended before the reconnect")
				return
			}
			conn.Kill()
			conn, err = client.Dial(ctx, ts.http.URL, room.Room.ID, p.Token, len(recon.events), len(recon.chats))
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			st, err = conn.PlayRandom(ctx, r, func(f client.Frame) bool { recon.take(t, f); return false })
			if err != nil {
				t.Errorf("seat 3 after reconnecting: %v", err)
			}
			winners[i] = st.Winner
		}()
	}
	wg.Wait()
	for i, w := range winners {
		if w == "" || w != winners[0] {
			t.Fatalf("seat %d saw winner %q, seat 1 saw %q", i+1, w, winners[0])
		}
	}
	// A fresh connection of seat 3 from the start receives exactly what
	// the reconnected one put together.
	conn, err := client.Dial(ctx, ts.http.URL, room.Room.ID, players[2].Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var whole stream
	for f := range conn.Frames {
		whole.take(t, f)
		if f.Type == "state" && f.Over {
			break
		}
	}
	if len(whole.events) != len(recon.events) {
		t.Fatalf("seat 3 has %d events after reconnecting, the whole stream has %d", len(recon.events), len(whole.events))
	}
	for i := range whole.events {
		if string(whole.events[i]) != string(recon.events[i]) {
			t.Fatalf("event %d differs:\n%s\n%s", i+1, recon.events[i], whole.events[i])
		}
	}
	// The replay is there once the game is over.
	var rep struct {
		Events []json.RawMessage
		Roles  map[string]string
	}
	ts.waitOver(t, room.Room.ID)
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+room.Room.ID+"/replay", "", nil, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Roles) != 12 || len(rep.Events) < len(whole.events) {
		t.Fatalf("replay: %d roles, %d events", len(rep.Roles), len(rep.Events))
	}
}

func TestHostControlsTheRoom(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "nickname": "host", "seed": 1, "practice": true,
		"timers": map[string]string{"speech": "1h", "vote": "1h", "other": "1h", "night": "1h", "witch": "1h", "setup": "1h"}}, &c); err != nil {
		t.Fatal(err)
	}
	id := "/api/rooms/" + c.Room.ID
	var p seated
	if err := ts.api.Do(ctx, "POST", id+"/join", "", map[string]any{"nickname": "bob"}, &p); err != nil {
		t.Fatal(err)
	}
	var info roomInfo
	if err := ts.api.Do(ctx, "POST", id+"/bots", c.HostToken, map[string]any{"count": 3}, &info); err != nil {
		t.Fatal(err)
	}
	if info.Taken != 5 || !info.Seats[2].Bot || info.Seats[5].Bot {
		t.Fatalf("after 3 bots: %+v", info.Seats)
	}
	// bob (seat 2) moves to seat 9; seat 9's emptiness moves to seat 2
	order := []int{1, 9, 3, 4, 5, 6, 7, 8, 2}
	info = roomInfo{} // decoding into a used value would keep omitted fields
	if err := ts.api.Do(ctx, "POST", id+"/order", c.HostToken, map[string]any{"order": order}, &info); err != nil {
		t.Fatal(err)
	}
	if info.Seats[8].Nick != "bob" || info.Seats[1].Nick != "" {
		t.Fatalf("after reordering: %+v", info.Seats)
	}
	if err := ts.api.Do(ctx, "DELETE", id+"/seats/3", c.HostToken, nil, &info); err != nil {
		t.Fatal(err)
	}
	if info.Taken != 4 {
		t.Fatalf("after emptying seat 3: %d taken", info.Taken)
	}
	// the rooms list shows the open room
	var list []roomInfo
	if err := ts.api.Do(ctx, "GET", "/api/rooms", "", nil, &list); err != nil || len(list) != 1 || list[0].ID != c.Room.ID {
		t.Fatalf("rooms: %v %v", list, err)
	}
	info = roomInfo{}
	if err := ts.api.Do(ctx, "POST", id+"/start", c.HostToken, nil, &info); err != nil {
		t.Fatal(err)
	}
	if info.Status != "running" || info.Taken != 9 || !info.Seats[1].Bot {
		t.Fatalf("after start: %+v", info)
	}
	// bob, now seat 9, connects with his token
	conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, p.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if conn.Seat != 9 {
		t.Fatalf("bob is seat %d", conn.Seat)
	}
	if err := ts.api.Do(ctx, "POST", id+"/pause", c.HostToken, nil, &info); err != nil || !info.Game.Paused {
		t.Fatalf("pause: %v %+v", err, info.Game)
	}
	for f := range conn.Frames {
		if f.Type == "state" && strings.Contains(string(f.Raw), `"paused":true`) {
			break
		}
	}
	if err := conn.Send(ctx, map[string]any{"type": "act", "id": 5, "cmd": "skip"}); err != nil {
		t.Fatal(err)
	}
	for f := range conn.Frames {
		if f.Type == "error" {
			if f.Code != "paused" {
				t.Fatalf("acting while paused: %s %s", f.Code, f.Message)
			}
			break
		}
	}
	var e *client.Error
	if err := ts.api.Do(ctx, "POST", id+"/pause", c.HostToken, nil, nil); !errors.As(err, &e) || e.Status != 409 {
		t.Fatalf("pausing twice: %v", err)
	}
	info = roomInfo{}
	if err := ts.api.Do(ctx, "POST", id+"/resume", c.HostToken, nil, &info); err != nil || info.Game.Paused {
		t.Fatalf("resume: %v %+v", err, info.Game)
	}
	// std-9 starts at night: no red card then.
	if err := ts.api.Do(ctx, "POST", id+"/red-card", c.HostToken, map[string]any{"seat": 4}, nil); !errors.As(err, &e) || !strings.Contains(e.Message, "by day") {
		t.Fatalf("a red card at night: %v", err)
	}
}

func TestSpectatorsSeePublicEventsOnly(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "seed": 9, "practice": true, "timers": quick}, &c); err != nil {
		t.Fatal(err)
	}
	// a slow bot keeps the game going while the spectator connects
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var got []string
	for f := range conn.Frames {
		if f.Type == "event" {
			got = append(got, f.Kind)
		}
		if f.Type == "state" && f.Over {
			break
		}
	}
	var rep struct {
		Events []struct {
			Kind   string
			Public bool
		}
	}
	ts.waitOver(t, c.Room.ID)
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID+"/replay", "", nil, &rep); err != nil {
		t.Fatal(err)
	}
	var public []string
	for _, e := range rep.Events {
		if e.Public {
			public = append(public, e.Kind)
		}
	}
	if strings.Join(got, " ") != strings.Join(public, " ") {
		t.Fatalf("the spectator saw %d events; the public ones are %d:\n%v\n%v", len(got), len(public), got, public)
	}
}

// TestOperatorPagesAreOnlyOnTheOperatorListener: /metrics and /readyz are
// served by the operator handler; the public one has /healthz and answers
// 404 for them (nothing a player can reach counts what happens at night).
func TestOperatorPagesAreOnlyOnTheOperatorListener(t *testing.T) {
	ts := newTestServerWith(t, Options{Web: fstest.MapFS{"index.html": {Data: []byte("<title>wolfden")}}})
	op := httptest.NewServer(ts.Operator())
	defer op.Close()
	get := func(base, path string) (int, string) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready", "/metrics": "wolfden_live_games"} {
		if status, body := get(op.URL, path); status != 200 || !strings.Contains(body, want) {
			t.Errorf("operator %s: %d %.200s", path, status, body)
		}
	}
	if status, body := get(ts.http.URL, "/healthz"); status != 200 || !strings.Contains(body, "ok") {
		t.Errorf("public /healthz: %d %.200s", status, body)
	}
	for _, path := range []string{"/metrics", "/readyz", "/readyz?x=1"} {
		if status, body := get(ts.http.URL, path); status != 404 || strings.Contains(body, "wolfden") {
			t.Errorf("public %s: %d %.200s, want 404", path, status, body)
		}
	}
	ts.Drain()
	if status, _ := get(op.URL, "/readyz"); status != 503 {
		t.Fatalf("/readyz while draining: %d", status)
	}
}

// TestWebSocketsFromOtherSitesAreRefused: a page of another site cannot
// open a game's WebSocket in its visitor's name (origin check); --origin
// lets a named host in.
func TestWebSocketsFromOtherSitesAreRefused(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &c); err != nil {
		t.Fatal(err)
	}
	url := "ws" + strings.TrimPrefix(ts.http.URL, "http") + "/ws/" + c.Room.ID
	for origin, ok := range map[string]bool{"https://evil.example": false, ts.http.URL: true} {
		h := http.Header{"Origin": {origin}}
		conn, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
		if ok != (err == nil) {
			t.Errorf("origin %s: err %v", origin, err)
		}
		if !ok && (resp == nil || resp.StatusCode != http.StatusForbidden) {
			t.Errorf("origin %s: want 403, got %v", origin, resp)
		}
		if conn != nil {
			conn.CloseNow()
		}
	}
	allowed := New(ts.st, Options{Origins: []string{"game.example"}})
	hs := httptest.NewServer(allowed)
	defer hs.Close()
	url2 := "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws/" + c.Room.ID
	conn, _, err := websocket.Dial(ctx, url2, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://game.example"}}})
	if err != nil {
		t.Fatalf("an allowed origin was refused: %v", err)
	}
	conn.CloseNow()
}

// TestRoomsCallEveryRoleUnlessTold: the night's calls are said aloud, so a
// room calls absent roles too unless its creator chose otherwise.
func TestRoomsCallEveryRoleUnlessTold(t *testing.T) {
	for _, tc := range []struct {
		name string
		body map[string]any
		want string
	}{
		{"default", map[string]any{"preset": "std-12"}, "on"},
		{"chosen off", map[string]any{"preset": "std-12", "options": map[string]string{"narrate_absent_roles": "off"}}, "off"},
	} {
		req := createRequest{}
		b, _ := json.Marshal(tc.body)
		if err := json.Unmarshal(b, &req); err != nil {
			t.Fatal(err)
		}
		c, err := req.config()
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Options["narrate_absent_roles"]; got != tc.want {
			t.Errorf("%s: narrate_absent_roles=%s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestRoomCreationIsRateLimitedPerAddress: one address cannot flood the
// server with rooms.
func TestRoomCreationIsRateLimitedPerAddress(t *testing.T) {
	api := newTestServerWith(t, Options{RoomsPerMinute: 3}).api
	for i := 1; i <= 4; i++ {
		err := api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, nil)
		var e *client.Error
		switch {
		case i <= 3 && err != nil:
			t.Fatalf("room %d: %v", i, err)
		case i == 4 && (!errors.As(err, &e) || e.Status != 429 || e.Code != "rate"):
			t.Fatalf("room 4: %v, want 429 rate", err)
		}
	}
}

// TestRematchKeepsTheTableAndDealsAgain: once a game is over the host opens
// a rematch with the same board and seats; every token holds its seat there.
func TestRematchKeepsTheTableAndDealsAgain(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "nickname": "Ann", "timers": quick}, &c); err != nil {
		t.Fatal(err)
	}
	id := "/api/rooms/" + c.Room.ID
	var e *client.Error
	if err := ts.api.Do(ctx, "POST", id+"/again", c.HostToken, nil, nil); !errors.As(err, &e) || e.Code != "not_over" {
		t.Fatalf("a rematch before the end: %v", err)
	}
	if err := ts.api.Do(ctx, "POST", id+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.PlayRandom(ctx, rand.New(rand.NewPCG(1, 1)), nil); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	ts.waitOver(t, c.Room.ID)
	if err := ts.api.Do(ctx, "POST", id+"/again", c.Token+"x", nil, nil); !errors.As(err, &e) || e.Code != "not_host" {
		t.Fatalf("a rematch by a stranger: %v", err)
	}
	var next, again roomInfo
	if err := ts.api.Do(ctx, "POST", id+"/again", c.HostToken, nil, &next); err != nil {
		t.Fatal(err)
	}
	if err := ts.api.Do(ctx, "POST", id+"/again", c.HostToken, nil, &again); err != nil || again.ID != next.ID {
		t.Fatalf("asked twice: %v, %s and %s", err, next.ID, again.ID)
	}
	if next.Status != "open" || next.Players != 9 || next.Seats[0].Nick != "Ann" || !next.Seats[1].Bot {
		t.Fatalf("the rematch: %+v", next)
	}
	var old, mine roomInfo
	if err := ts.api.Do(ctx, "GET", id, "", nil, &old); err != nil || old.Next != next.ID {
		t.Fatalf("the old room does not point at the rematch: %v %q", err, old.Next)
	}
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+next.ID, c.Token, nil, &mine); err != nil || mine.You != 1 {
		t.Fatalf("Ann's token in the rematch: %v, seat %d", err, mine.You)
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+next.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatalf("the host starts the rematch: %v", err)
	}
}

// TestTheLobbyForgetsAbandonedRooms: an open room untouched for a day is no
// longer listed, though its link still works.
func TestTheLobbyForgetsAbandonedRooms(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var a, b client.Created
	for _, c := range []*client.Created{&a, &b} {
		if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, c); err != nil {
			t.Fatal(err)
		}
	}
	rm, err := ts.roomFor(ctx, a.Room.ID)
	if err != nil {
		t.Fatal(err)
	}
	rm.mu.Lock()
	rm.rec.Updated = time.Now().Add(-StaleRoom - time.Minute)
	rm.mu.Unlock()
	var list []roomInfo
	if err := ts.api.Do(ctx, "GET", "/api/rooms", "", nil, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != b.Room.ID {
		t.Fatalf("the lobby lists %v", list)
	}
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+a.Room.ID, "", nil, nil); err != nil {
		t.Fatalf("the abandoned room's link: %v", err)
	}
}

// TestTheClientIsServedWithItsPolicy: page paths get index.html, assets
// their files, unknown assets and API paths a 404; pages carry a content
// security policy and may not be framed.
func TestTheClientIsServedWithItsPolicy(t *testing.T) {
	files := fstest.MapFS{
		"index.html":     {Data: []byte("<!doctype html><title>wolfden</title>")},
		"assets/app.js":  {Data: []byte("console.log(1)")},
		"assets/app.css": {Data: []byte("body{}")},
	}
	hs := newTestServerWith(t, Options{Web: files}).http
	for _, tc := range []struct {
		path   string
		status int
		body   string
	}{
		{"/", 200, "<title>wolfden"}, {"/room/abc", 200, "<title>wolfden"}, {"/new", 200, "<title>wolfden"},
		{"/assets/app.js", 200, "console.log"}, {"/assets/gone.js", 404, ""}, {"/api/nothing", 404, ""},
	} {
		resp, err := hs.Client().Get(hs.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.body) {
			t.Errorf("%s: %d %.60s", tc.path, resp.StatusCode, body)
		}
		if tc.status == 200 && (!strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") ||
			resp.Header.Get("X-Frame-Options") != "DENY") {
			t.Errorf("%s: headers %v", tc.path, resp.Header)
		}
	}
}

// TestTableAndPrivateRoomsAreNeverListed: the lobby offers neither a table's
// room nor one its host made private, open or running, and no listed room
// shows its code; their links and codes still lead to them.
func TestTableAndPrivateRoomsAreNeverListed(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	create := func(body map[string]any) client.Created {
		t.Helper()
		body["preset"], body["nickname"] = "std-9", "Ann"
		var c client.Created
		if err := ts.api.Do(ctx, "POST", "/api/rooms", "", body, &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	public, table, private := create(map[string]any{}), create(map[string]any{"card_seen": true}), create(map[string]any{"private": true})
	publicRun, tableRun, privateRun := create(map[string]any{}), create(map[string]any{"card_seen": true}), create(map[string]any{"private": true})
	for _, c := range []client.Created{publicRun, tableRun, privateRun} {
		if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	for status, want := range map[string]string{"open": public.Room.ID, "running": publicRun.Room.ID} {
		var list []map[string]any
		if err := ts.api.Do(ctx, "GET", "/api/rooms?status="+status, "", nil, &list); err != nil {
			t.Fatal(err)
		}
		if len(list) != 1 || list[0]["id"] != want {
			t.Errorf("%s rooms listed: %v, want only %s", status, list, want)
		}
		for _, r := range list {
			if _, ok := r["code"]; ok {
				t.Errorf("a listed room shows its code: %v", r)
			}
		}
	}
	for _, c := range []client.Created{table, private, tableRun, privateRun} {
		var info roomInfo
		if err := ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info); err != nil {
			t.Fatal(err)
		}
		var byCode struct{ ID string }
		if err := ts.api.Do(ctx, "GET", "/api/codes/"+info.Code, "", nil, &byCode); err != nil || byCode.ID != c.Room.ID {
			t.Errorf("room %s's code %q leads to %q: %v", c.Room.ID, info.Code, byCode.ID, err)
		}
		if info.Private != (c.Room.ID == private.Room.ID || c.Room.ID == privateRun.Room.ID) {
			t.Errorf("room %s says private %v", c.Room.ID, info.Private)
		}
	}
}

// TestADeeplyNestedBoardIsRefusedUnparsed: the board of issue 29 (31,000
// nested lists in a 62 KB body, which took the server to 1.5 GB) is refused
// by room creation and balance alike, naming the limit, before any parse.
func TestADeeplyNestedBoardIsRefusedUnparsed(t *testing.T) {
	ts := newTestServerWith(t, Options{BalancePerMinute: -1})
	board := "players: " + strings.Repeat("[", 31000) + strings.Repeat("]", 31000)
	for _, path := range []string{"/api/rooms", "/api/balance"} {
		err := ts.api.Do(context.Background(), "POST", path, "", map[string]any{"board": board}, nil)
		var e *client.Error
		if !errors.As(err, &e) || e.Status != 400 || !strings.Contains(e.Message, "board: more than 2048 words and symbols") {
			t.Errorf("POST %s: %v, want 400 naming the limit", path, err)
		}
	}
}

// TestPace: a room's pace sets its timers: a room at one table (card_seen)
// is quick unless it says, any other standard; explicit timers override
// the pace (the checkers' slot, unnamed, is the witch's); an unknown pace
// is refused, named, with a 400.
func TestPace(t *testing.T) {
	for _, tc := range []struct {
		name string
		body map[string]any
		pace string
		want map[string]string
	}{
		{"online", map[string]any{"preset": "std-12"}, "standard", map[string]string{"night": "40s", "witch": "20s", "check": "", "speech": "1m30s"}},
		{"table", map[string]any{"preset": "std-12", "card_seen": true}, "quick", map[string]string{"night": "25s", "witch": "15s", "check": "", "speech": "1m0s", "vote": "15s"}},
		{"relaxed table", map[string]any{"preset": "std-12", "card_seen": true, "pace": "relaxed"}, "relaxed", map[string]string{"night": "1m0s", "speech": "2m0s"}},
		{"quick, a longer speech", map[string]any{"preset": "std-9", "pace": "quick", "timers": map[string]string{"speech": "100s"}}, "quick", map[string]string{"night": "25s", "speech": "1m40s"}},
	} {
		req := createRequest{}
		b, _ := json.Marshal(tc.body)
		if err := json.Unmarshal(b, &req); err != nil {
			t.Fatal(err)
		}
		c, err := req.config()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if c.Pace != tc.pace {
			t.Errorf("%s: pace %q, want %q", tc.name, c.Pace, tc.pace)
		}
		for k, v := range tc.want {
			if c.Timers[k] != v {
				t.Errorf("%s: timer %s=%s, want %s", tc.name, k, c.Timers[k], v)
			}
		}
	}
	api := newTestServer(t).api
	err := api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "pace": "brisk"}, nil)
	var e *client.Error
	if !errors.As(err, &e) || e.Status != 400 || e.Code != "bad_pace" || !strings.Contains(e.Message, `"brisk"`) {
		t.Fatalf("pace brisk: %v, want a 400 bad_pace naming it", err)
	}
	var room struct {
		Room struct {
			Pace string `json:"pace"`
		} `json:"room"`
	}
	if err := api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "pace": "relaxed"}, &room); err != nil || room.Room.Pace != "relaxed" {
		t.Fatalf("a relaxed room: %v, pace %q", err, room.Room.Pace)
	}
}

// TestOptionsListThePaces: the create page shows each pace's timers from
// GET /api/options, the server's own table, so the page and the rooms it
// makes cannot disagree.
func TestOptionsListThePaces(t *testing.T) {
	var got struct {
		Paces map[string]map[string]float64 `json:"paces"`
	}
	if err := newTestServer(t).api.Do(context.Background(), "GET", "/api/options", "", nil, &got); err != nil {
		t.Fatal(err)
	}
	for _, name := range game.PaceNames {
		want, err := game.Pace(name)
		if err != nil {
			t.Fatal(err)
		}
		if p := got.Paces[name]; p["night"] != want.Night.Seconds() || p["speech"] != want.Speech.Seconds() || p["witch"] != want.Witch.Seconds() {
			t.Errorf("pace %s listed as %v, the rooms' %+v", name, p, want)
		}
	}
	if got.Paces["quick"]["night"] >= got.Paces["standard"]["night"] {
		t.Errorf("quick is not quicker than standard: %v", got.Paces)
	}
}
