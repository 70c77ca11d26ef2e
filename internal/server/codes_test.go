package server

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/internal/store/postgres"
	"github.com/wolfden/wolfden/internal/store/postgres/pgtest"
)

func wantCodeShape(t *testing.T, code string) {
	t.Helper()
	if len(code) < MinCode || len(code) > MaxCode {
		t.Errorf("code %q: %d characters, want %d to %d", code, len(code), MinCode, MaxCode)
	}
	for _, r := range code {
		if !strings.ContainsRune(CodeAlphabet, r) {
			t.Errorf("code %q holds %q, not of the alphabet", code, r)
		}
	}
}

func TestTheCodeAlphabetHasNoLookAlikes(t *testing.T) {
	for _, r := range "0O1IL" {
		if strings.ContainsRune(CodeAlphabet, r) {
			t.Errorf("the alphabet holds %q", r)
		}
	}
	for _, r := range CodeAlphabet {
		if !(r >= '2' && r <= '9' || r >= 'A' && r <= 'Z') || strings.Count(CodeAlphabet, string(r)) != 1 {
			t.Errorf("the alphabet holds %q: want each digit 2-9 and capital once", r)
		}
	}
}

// Every room gets a code unlike every other live room's, shown in its info
// but not in the lobby, and the code leads back to it however it is typed.
func TestEveryRoomHasAUniqueCodeThatLeadsToIt(t *testing.T) {
	ts := newTestServerWith(t, Options{CodesPerMinute: -1})
	ctx := context.Background()
	seen := map[string]string{}
	for range 40 {
		var c client.Created
		if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &c); err != nil {
			t.Fatal(err)
		}
		var info roomInfo
		if err := ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info); err != nil {
			t.Fatal(err)
		}
		wantCodeShape(t, info.Code)
		if other, dup := seen[info.Code]; dup {
			t.Fatalf("rooms %s and %s share code %s", other, info.ID, info.Code)
		}
		seen[info.Code] = info.ID
	}
	var list []roomInfo
	if err := ts.api.Do(ctx, "GET", "/api/rooms", "", nil, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != len(seen) {
		t.Errorf("the lobby lists %d rooms of %d", len(list), len(seen))
	}
	for _, in := range list { // a code is for the people at the table (issue 29)
		if in.Code != "" {
			t.Errorf("the lobby lists room %s with its code %q", in.ID, in.Code)
		}
	}
	for code, id := range seen {
		typed := strings.ToLower(code[:2]) + "-" + code[2:] // as read aloud in groups
		var got struct{ Code, ID string }
		if err := ts.api.Do(ctx, "GET", "/api/codes/"+typed, "", nil, &got); err != nil {
			t.Fatal(err)
		}
		if got.ID != id || got.Code != code {
			t.Errorf("code %s (typed %s) leads to %+v, want room %s", code, typed, got, id)
		}
	}
}

// The book draws codes no live room holds, however many there are.
func TestFreshCodesAreUniqueAmongLiveRooms(t *testing.T) {
	b := newCodeBook(memory.New(), slog.New(slog.DiscardHandler), time.Minute)
	seen := map[string]bool{}
	for i := range 20000 {
		c, err := b.fresh(context.Background(), string(rune(i)))
		if err != nil {
			t.Fatal(err)
		}
		if seen[c] {
			t.Fatalf("code %s drawn twice", c)
		}
		seen[c] = true
	}
	for c := range seen {
		wantCodeShape(t, c)
	}
}

func TestCodeLookupsSayWhatIsWrong(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	for _, tc := range []struct{ code, status, errCode, says string }{
		{"ABC", "400", "bad_code", "4 to 6 characters"},
		{"ABCDEFG", "400", "bad_code", "4 to 6 characters"},
		{"AB0D", "400", "bad_code", `'0' is not in a room code`},
		{"ABLD", "400", "bad_code", `'L' is not in a room code`},
		{"ZZZZ", "404", "no_code", "no room has the code ZZZZ"},
	} {
		var e *client.Error
		err := ts.api.Do(ctx, "GET", "/api/codes/"+tc.code, "", nil, nil)
		if !errors.As(err, &e) || e.Code != tc.errCode || !strings.Contains(e.Message, tc.says) {
			t.Errorf("code %q: %v, want %s %s saying %q", tc.code, err, tc.status, tc.errCode, tc.says)
		}
	}
}

// /j/CODE, the QR code's link, opens the room's page in the web client;
// a code no room holds opens the lobby with the code in its box.
func TestTheJoinLinkRedirectsToTheRoom(t *testing.T) {
	ts := newTestServer(t)
	var c client.Created
	if err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &c); err != nil {
		t.Fatal(err)
	}
	code := roomCode(t, ts, c.Room.ID)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for path, want := range map[string]string{
		"/j/" + code:                  "/room/" + c.Room.ID,
		"/j/" + strings.ToLower(code): "/room/" + c.Room.ID,
		"/j/ZZZZZZ":                   "/?code=ZZZZZZ",
	} {
		if path == "/j/ZZZZZZ" && code == "ZZZZZZ" {
			continue
		}
		resp, err := noFollow.Get(ts.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != want {
			t.Errorf("GET %s: %d to %q, want 303 to %q", path, resp.StatusCode, resp.Header.Get("Location"), want)
		}
	}
	resp, err := noFollow.Get(ts.http.URL + "/j/O0O0")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("GET /j/O0O0: %d, want 400", resp.StatusCode)
	}
}

func roomCode(t *testing.T, ts *testServer, id string) string {
	t.Helper()
	var info roomInfo
	if err := ts.api.Do(context.Background(), "GET", "/api/rooms/"+id, "", nil, &info); err != nil {
		t.Fatal(err)
	}
	return info.Code
}

// Look-ups are counted per address, the API's and the link's together:
// past the budget, 429 rate, so that the codes cannot be walked.
func TestCodeLookupsAreRateLimitedPerAddress(t *testing.T) {
	ts := newTestServerWith(t, Options{CodesPerMinute: 4})
	ctx := context.Background()
	for i := range 3 {
		if err := ts.api.Do(ctx, "GET", "/api/codes/ZZZZ", "", nil, nil); err == nil || strings.Contains(err.Error(), "rate") {
			t.Fatalf("look-up %d: %v, want 404", i+1, err)
		}
	}
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(ts.http.URL + "/j/ZZZZ")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the fourth look-up, by link: %d", resp.StatusCode)
	}
	var e *client.Error
	err = ts.api.Do(ctx, "GET", "/api/codes/ZZZZ", "", nil, nil)
	if !errors.As(err, &e) || e.Status != http.StatusTooManyRequests || e.Code != "rate" || !strings.Contains(e.Message, "at most 4 a minute") {
		t.Fatalf("the fifth look-up: %v, want 429 rate", err)
	}
	resp, err = http.Get(ts.http.URL + "/j/ZZZZ")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the sixth look-up, by link: %d, want 429", resp.StatusCode)
	}
}

// A room's code is stored: after a restart it leads to the same room, and
// a room stored before codes existed is given one.
func TestACodeSurvivesARestart(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var c, old client.Created
	for _, x := range []*client.Created{&c, &old} {
		if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, x); err != nil {
			t.Fatal(err)
		}
	}
	code := roomCode(t, ts, c.Room.ID)
	rm, err := ts.roomFor(ctx, old.Room.ID)
	if err != nil {
		t.Fatal(err)
	}
	rm.mu.Lock()
	rec := rm.rec
	rm.mu.Unlock()
	rec.Code = "" // as stored before codes
	if err := ts.st.UpdateRoom(ctx, rec); err != nil {
		t.Fatal(err)
	}
	ts = ts.restart(t, Options{})
	if got := roomCode(t, ts, c.Room.ID); got != code {
		t.Fatalf("after a restart the room's code is %q, want %q", got, code)
	}
	var got struct{ ID string }
	if err := ts.api.Do(ctx, "GET", "/api/codes/"+code, "", nil, &got); err != nil || got.ID != c.Room.ID {
		t.Fatalf("after a restart code %s leads to %q (%v)", code, got.ID, err)
	}
	fresh := roomCode(t, ts, old.Room.ID)
	wantCodeShape(t, fresh)
	if stored, err := ts.st.Room(ctx, old.Room.ID); err != nil || stored.Code != fresh {
		t.Fatalf("the code given at the restart is not stored: %q, %v", stored.Code, err)
	}
}

// playToTheEnd starts a room of one human and bots and plays it out.
func playToTheEnd(t *testing.T, ts *testServer, c client.Created) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.PlayRandom(ctx, rand.New(rand.NewPCG(1, 1)), nil); err != nil {
		t.Fatal(err)
	}
	ts.waitOver(t, c.Room.ID)
}

// A finished game keeps its code while it lingers; then the code is freed:
// it leads nowhere and the room's info no longer shows it.
func TestAnEndedRoomsCodeIsFreed(t *testing.T) {
	ts := newTestServerWith(t, Options{Linger: 300 * time.Millisecond})
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "nickname": "Ann", "timers": quick}, &c); err != nil {
		t.Fatal(err)
	}
	code := roomCode(t, ts, c.Room.ID)
	playToTheEnd(t, ts, c)
	for i := 0; ; i++ {
		var e *client.Error
		err := ts.api.Do(ctx, "GET", "/api/codes/"+code, "", nil, nil)
		if errors.As(err, &e) && e.Code == "no_code" {
			break
		}
		if i == 500 {
			t.Fatalf("the ended room's code still leads somewhere: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := roomCode(t, ts, c.Room.ID); got != "" {
		t.Errorf("the ended room still shows code %q", got)
	}
	if id, err := ts.codes.room(ctx, code); err != nil || id != "" {
		t.Errorf("the store still holds %s: %q, %v", code, id, err)
	}
}

// The rematch keeps the table's code: the code leads to the new room,
// the finished one no longer shows it, and a restart keeps it so.
func TestTheRematchKeepsTheCode(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "nickname": "Ann", "timers": quick}, &c); err != nil {
		t.Fatal(err)
	}
	code := roomCode(t, ts, c.Room.ID)
	playToTheEnd(t, ts, c)
	var next roomInfo
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/again", c.HostToken, nil, &next); err != nil {
		t.Fatal(err)
	}
	if next.Code != code {
		t.Fatalf("the rematch has code %q, want the table's %q", next.Code, code)
	}
	check := func(ts *testServer) {
		t.Helper()
		var got struct{ ID string }
		if err := ts.api.Do(ctx, "GET", "/api/codes/"+code, "", nil, &got); err != nil || got.ID != next.ID {
			t.Fatalf("code %s leads to %q (%v), want the rematch %s", code, got.ID, err, next.ID)
		}
		if old := roomCode(t, ts, c.Room.ID); old != "" {
			t.Errorf("the finished room still shows code %q", old)
		}
	}
	check(ts)
	if stored, err := ts.st.Room(ctx, c.Room.ID); err != nil || stored.Status != store.StatusOver {
		t.Fatalf("the finished room: %+v, %v", stored, err)
	}
	check(ts.restart(t, Options{}))
}

// sameDraws makes a server draw the codes of a sequence of its own, the
// same for every server given the same seed: servers that did not ask
// each other would give out the same codes.
func sameDraws(b *codeBook, seed uint64) {
	r := rand.New(rand.NewPCG(seed, seed))
	var mu sync.Mutex
	b.draw = func(n int) string {
		mu.Lock()
		defer mu.Unlock()
		b := make([]byte, n)
		for i := range b {
			b[i] = CodeAlphabet[r.IntN(len(CodeAlphabet))]
		}
		return string(b)
	}
}

// serverOn runs a server on st, which the test closes.
func serverOn(t *testing.T, st store.Store) *testServer {
	t.Helper()
	s := New(st, Options{CodesPerMinute: -1})
	hs := httptest.NewServer(s)
	t.Cleanup(func() { hs.Close(); s.Stop() })
	return &testServer{Server: s, api: &client.API{Base: hs.URL}, http: hs}
}

// Servers sharing one store (a cluster's nodes on one database) never
// give one code to two rooms, even drawing the same codes in the same
// order, rooms being created on both at once; and a code claimed by one
// leads to its room from the other.
func TestServersOnOneStoreNeverShareACode(t *testing.T) {
	for _, c := range []struct {
		name   string
		stores func(t *testing.T) (a, b store.Store)
	}{
		{"memory", func(t *testing.T) (store.Store, store.Store) {
			st := memory.New()
			return st, st
		}},
		{"postgres", func(t *testing.T) (store.Store, store.Store) {
			url := pgtest.Start(t).NewDB(t)
			var dbs [2]store.Store
			for i := range dbs {
				db, err := postgres.Open(context.Background(), url)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { db.Close() })
				dbs[i] = db
			}
			return dbs[0], dbs[1]
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sa, sb := c.stores(t)
			servers := []*testServer{serverOn(t, sa), serverOn(t, sb)}
			for _, ts := range servers {
				sameDraws(ts.codes, 7)
			}
			const rooms = 15 // on each server
			ctx := context.Background()
			var mu sync.Mutex
			codes := map[string]string{} // code → room
			var wg sync.WaitGroup
			for s, ts := range servers {
				for range rooms {
					wg.Go(func() {
						var cr struct {
							Room roomInfo `json:"room"`
						}
						if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &cr); err != nil {
							t.Error(err)
							return
						}
						wantCodeShape(t, cr.Room.Code)
						mu.Lock()
						defer mu.Unlock()
						if other, dup := codes[cr.Room.Code]; dup {
							t.Errorf("server %d gave code %s to room %s, which room %s holds", s, cr.Room.Code, cr.Room.ID, other)
						}
						codes[cr.Room.Code] = cr.Room.ID
					})
				}
			}
			wg.Wait()
			if len(codes) != 2*rooms {
				t.Fatalf("%d codes for %d rooms", len(codes), 2*rooms)
			}
			for code, id := range codes {
				for s, ts := range servers {
					var got struct{ Code, ID string }
					if err := ts.api.Do(ctx, "GET", "/api/codes/"+code, "", nil, &got); err != nil || got.ID != id {
						t.Errorf("server %d: code %s leads to %q (%v), want room %s", s, code, got.ID, err, id)
					}
				}
			}
		})
	}
}

// failingClaims is a store whose code claims fail, its rooms being
// written as usual.
type failingClaims struct{ store.Store }

func (failingClaims) ClaimCode(context.Context, string, string) error {
	return errors.New("the claims table is locked")
}

// A code that cannot be claimed is a store failure: the room is not
// created, rather than created with a code nobody holds.
func TestARoomIsNotCreatedWithoutItsCodesClaim(t *testing.T) {
	st := memory.New()
	ts := serverOn(t, failingClaims{st})
	var e *client.Error
	err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, nil)
	if !errors.As(err, &e) || e.Status != http.StatusServiceUnavailable || e.Code != "store" {
		t.Fatalf("creating a room whose code cannot be claimed: %v, want 503 store", err)
	}
	if rooms, err := st.Rooms(context.Background(), store.StatusOpen); err != nil || len(rooms) != 0 {
		t.Fatalf("the store holds %d rooms (%v), want none", len(rooms), err)
	}
}

// A live room whose code another room claimed while the server was down
// (another server on the store) is given a new code at the restart, and
// stored with it; the code stays the other room's.
func TestARestoredRoomWhoseCodeWasTakenGetsANewOne(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &c); err != nil {
		t.Fatal(err)
	}
	code := roomCode(t, ts, c.Room.ID)
	if err := ts.st.FreeCode(ctx, code, c.Room.ID); err != nil {
		t.Fatal(err)
	}
	if err := ts.st.ClaimCode(ctx, code, "elsewhere"); err != nil {
		t.Fatal(err)
	}
	ts = ts.restart(t, Options{})
	got := roomCode(t, ts, c.Room.ID)
	wantCodeShape(t, got)
	if got == code {
		t.Fatalf("the restored room shows code %s, which another room holds", code)
	}
	if stored, err := ts.st.Room(ctx, c.Room.ID); err != nil || stored.Code != got {
		t.Fatalf("the new code is not stored: %q, %v", stored.Code, err)
	}
	var look struct{ ID string }
	if err := ts.api.Do(ctx, "GET", "/api/codes/"+got, "", nil, &look); err != nil || look.ID != c.Room.ID {
		t.Fatalf("the new code %s leads to %q (%v)", got, look.ID, err)
	}
	if id, err := ts.codes.room(ctx, code); err != nil || id != "elsewhere" {
		t.Fatalf("the old code leads to %q (%v), want the room that claimed it", id, err)
	}
}

// A finished room's claim lapses by itself after its linger and a margin,
// should the server stop before freeing it: over sets it so in the store.
func TestAFinishedRoomsClaimLapsesByItself(t *testing.T) {
	st := memory.New()
	ctx := context.Background()
	b := newCodeBook(st, slog.New(slog.DiscardHandler), time.Hour)
	if b.lapse != time.Hour+codeMargin {
		t.Fatalf("a finished room's claim lasts %v, want its linger and %v", b.lapse, codeMargin)
	}
	code, err := b.fresh(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	b.over(code, "r1")
	if id, err := st.CodeRoom(ctx, code); err != nil || id != "r1" {
		t.Fatalf("while it lingers, code %s leads to %q (%v)", code, id, err)
	}
	b.lapse = 0 // the linger and its margin gone by
	b.over(code, "r1")
	if id, err := st.CodeRoom(ctx, code); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("once lapsed, code %s leads to %q (%v)", code, id, err)
	}
	if err := st.ClaimCode(ctx, code, "r2"); err != nil {
		t.Fatalf("a lapsed code cannot be claimed: %v", err)
	}
}

// The nodes of a cluster, drawing the same codes, give each room a code of
// its own, which leads to it from every node; when its owner dies, the
// node that adopts the room keeps its code.
func TestClusterNodesNeverShareACodeAndKeepItOnAdoption(t *testing.T) {
	c := newTestCluster(t)
	nodes := []*clusterNode{c.node(t, "a"), c.node(t, "b"), c.node(t, "c")}
	for _, n := range nodes {
		sameDraws(n.codes, 11)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const rooms = 5 // made on each node
	var mu sync.Mutex
	codes := map[string]string{} // code → room
	var byA []string             // the rooms made on node a, which owns them
	var wg sync.WaitGroup
	for i, n := range nodes {
		for range rooms {
			wg.Go(func() {
				var cr struct {
					Room roomInfo `json:"room"`
				}
				if err := n.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &cr); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if other, dup := codes[cr.Room.Code]; dup {
					t.Errorf("node %s gave code %s to room %s, which room %s holds", n.name, cr.Room.Code, cr.Room.ID, other)
				}
				codes[cr.Room.Code] = cr.Room.ID
				if i == 0 {
					byA = append(byA, cr.Room.ID)
				}
			})
		}
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	lookUp := func(n *clusterNode, code string) string {
		t.Helper()
		var got struct{ ID string }
		if err := n.api.Do(ctx, "GET", "/api/codes/"+code, "", nil, &got); err != nil {
			t.Errorf("node %s: code %s: %v", n.name, code, err)
		}
		return got.ID
	}
	want := map[string]string{} // room → code
	for code, id := range codes {
		want[id] = code
		for _, n := range nodes {
			if got := lookUp(n, code); got != id {
				t.Errorf("node %s: code %s leads to %q, want room %s", n.name, code, got, id)
			}
		}
	}
	nodes[0].kill()
	for _, id := range byA {
		next := owner(t, id, nodes[1], nodes[2])
		var info roomInfo
		if err := nodes[1].api.Do(ctx, "GET", "/api/rooms/"+id, "", nil, &info); err != nil {
			t.Fatal(err)
		}
		if info.Code != want[id] {
			t.Errorf("room %s, adopted by node %s, shows code %q, want its own %s", id, next.name, info.Code, want[id])
		}
		if got := lookUp(nodes[2], want[id]); got != id {
			t.Errorf("after the adoption code %s leads to %q, want room %s", want[id], got, id)
		}
	}
}
