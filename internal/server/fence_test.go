package server

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/store"
)

// operatorPage asks a server's operator listener.
func operatorPage(s *Server, path string) (int, string) {
	rec := httptest.NewRecorder()
	s.Operator().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	body, _ := io.ReadAll(rec.Body)
	return rec.Code, string(body)
}

// TestClusterAFencedWriteMovesThePlayersAndNothingElse: an owner that
// stopped renewing writes once another node has adopted its game; the
// write is fenced. Its players, one connected to it and one relayed
// through the other node, are closed with 1012 "moved" and told nothing
// else (no word of a full disk); the node counts no stalled game and no
// failed write, and its /readyz stays 200 throughout.
func TestClusterAFencedWriteMovesThePlayersAndNothingElse(t *testing.T) {
	c := newTestCluster(t)
	a, b := c.node(t, "a"), c.node(t, "b")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	slow := maps.Clone(quick)
	slow["night"] = "1s" // the game goes on, writing, until the lease has moved
	room, players := clusterTable(ctx, t, []*clusterNode{a, b}, map[string]any{"preset": "std-9", "seed": 6, "practice": true, "timers": slow})
	id := room.Room.ID
	if !a.cl.owns(id) {
		t.Fatal("the room was made on node a, which does not own it")
	}
	direct, err := client.Dial(ctx, a.http.URL, id, players[0].token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	relayed, err := client.Dial(ctx, b.http.URL, id, players[1].token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.Close()

	var notReady atomic.Value
	watching := make(chan struct{})
	watched := make(chan struct{})
	go func() { // /readyz, all along
		defer close(watched)
		for {
			select {
			case <-watching:
				return
			default:
			}
			if code, body := operatorPage(a.Server, "/readyz"); code != http.StatusOK {
				notReady.Store(fmt.Sprintf("%d %s", code, body))
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	a.cl.stop() // node a no longer renews, nor notices that its lease ran out
	for !b.cl.owns(id) {
		if ctx.Err() != nil {
			t.Fatal("node b never adopted the room")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, conn := range []*client.Conn{direct, relayed} {
		for f := range conn.Frames { // until node a's next write, fenced, closes it
			if f.Type == "error" {
				t.Errorf("seat %d was told: %s", conn.Seat, f.Raw)
			}
		}
		if code, reason := conn.CloseStatus(); code != 1012 || reason != "moved" {
			t.Errorf("seat %d's connection closed with %d %q, want 1012 \"moved\"", conn.Seat, code, reason)
		}
	}
	close(watching)
	<-watched
	if v := notReady.Load(); v != nil {
		t.Errorf("node a's /readyz answered %s", v)
	}
	if a.cl.owns(id) {
		t.Error("the fenced node still owns the room")
	}
	_, metrics := operatorPage(a.Server, "/metrics")
	for _, want := range []string{"wolfden_stalled_games 0", "wolfden_store_write_failures_total 0"} {
		if !strings.Contains(metrics, want+"\n") {
			t.Errorf("node a's metrics lack %q:\n%s", want, grepLines(metrics, "wolfden_st"))
		}
	}
}

// storedRequest waits until the room's records hold the client's request
// id.
func storedRequest(ctx context.Context, t *testing.T, st store.Store, room string, id int64) {
	t.Helper()
	key := fmt.Sprintf(`"id":%d`, id)
	for ctx.Err() == nil {
		recs, err := st.Records(ctx, room)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if strings.Contains(string(r.Body), key) {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("request %d was never stored", id)
}

// answersUntil sends the seat a request (id sync) whose answer comes from
// the game after whatever the hello's pending ids were answered with, and
// returns the ids acknowledged before it.
func answersUntil(t *testing.T, ctx context.Context, conn *client.Conn, sync int64) []int64 {
	t.Helper()
	if err := conn.Send(ctx, map[string]any{"type": "seen", "id": sync}); err != nil {
		t.Fatal(err)
	}
	var acked []int64
	framesUntil(t, conn, "", func(f client.Frame) bool {
		if f.ID == sync && (f.Type == "ack" || f.Type == "error") {
			return true
		}
		if f.Type == "ack" {
			acked = append(acked, f.ID)
		}
		return false
	})
	return acked
}

// TestARequestStoredButNotAnsweredIsAckedOnTheNextConnection: a seat's
// request the game stored while its connection was gone, so that its
// answer never reached the client, is acknowledged on the seat's next
// connection when its hello names it: at the same server, and after a
// restart (found in the records). An id never sent is not acknowledged,
// nor is the seat's id when another seat names it.
func TestARequestStoredButNotAnsweredIsAckedOnTheNextConnection(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := ts.seenRoom(t, ctx, map[string]any{"card_seen": true}, true)
	ts.startRoom(t, ctx, r)
	const taken, never = 777001, 777002
	conn, err := client.Dial(ctx, ts.http.URL, r.Room.ID, r.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Send(ctx, map[string]any{"type": "seen", "id": taken}); err != nil {
		t.Fatal(err)
	}
	conn.Kill() // before its answer can have come
	storedRequest(ctx, t, ts.st, r.Room.ID, taken)
	resume := client.Resume{Pending: []int64{taken, never}}
	for i, srv := range []*testServer{ts, nil} {
		if srv == nil {
			srv = ts.restart(t, Options{})
		}
		bob, err := client.DialResume(ctx, nil, srv.http.URL, r.Room.ID, r.bob.Token, resume)
		if err != nil {
			t.Fatal(err)
		}
		if got := answersUntil(t, ctx, bob, int64(10+i)); len(got) != 0 {
			t.Errorf("connection %d: Bob naming Ann's request was acked %v", i+1, got)
		}
		bob.Close()
		ann, err := client.DialResume(ctx, nil, srv.http.URL, r.Room.ID, r.Token, resume)
		if err != nil {
			t.Fatal(err)
		}
		if got := answersUntil(t, ctx, ann, int64(20+i)); len(got) != 1 || got[0] != taken {
			t.Errorf("connection %d: Ann's hello named %v; acked %v, want [%d]", i+1, resume.Pending, got, taken)
		}
		ann.Close()
	}
}

// TestClusterANewOwnerAcksWhatTheOldOneStored: the owner stores a seat's
// request and dies before its answer reaches the client; the node that
// adopts the game acknowledges it on the seat's next connection.
func TestClusterANewOwnerAcksWhatTheOldOneStored(t *testing.T) {
	c := newTestCluster(t)
	a, b := c.node(t, "a"), c.node(t, "b")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var r client.Created
	body := map[string]any{"preset": "std-9", "nickname": "Ann", "timers": quick, "card_seen": true}
	if err := a.api.Do(ctx, "POST", "/api/rooms", "", body, &r); err != nil {
		t.Fatal(err)
	}
	if err := a.api.Do(ctx, "POST", "/api/rooms/"+r.Room.ID+"/start", r.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	const taken = 424242
	conn, err := client.Dial(ctx, a.http.URL, r.Room.ID, r.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Send(ctx, map[string]any{"type": "seen", "id": taken}); err != nil {
		t.Fatal(err)
	}
	conn.Kill()
	storedRequest(ctx, t, b.st, r.Room.ID, taken)
	a.kill()
	var ann *client.Conn
	for ann == nil { // node b adopts the game once a's lease has run out
		if ann, err = client.DialResume(ctx, nil, b.http.URL, r.Room.ID, r.Token, client.Resume{Pending: []int64{taken}}); err != nil {
			if ctx.Err() != nil {
				t.Fatalf("node b never took the game: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	defer ann.Close()
	if got := answersUntil(t, ctx, ann, 1); len(got) != 1 || got[0] != taken {
		t.Fatalf("the new owner acked %v, want [%d]", got, taken)
	}
}

// TestAHelloNamingBadPendingIdsIsRefused: a hello's pending ids are at
// most 16, each a request's (positive); otherwise the hello is refused
// saying so, and the game is untouched.
func TestAHelloNamingBadPendingIdsIsRefused(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := ts.seenRoom(t, ctx, map[string]any{"card_seen": true}, false)
	ts.startRoom(t, ctx, r)
	many := make([]int64, 17)
	for i := range many {
		many[i] = int64(i + 1)
	}
	for _, c := range []struct {
		pending []int64
		want    string
	}{
		{many, "pending names 17 requests; at most 16"},
		{[]int64{5, -1}, "pending: id -1 is not a request's (ids are positive)"},
		{[]int64{0}, "pending: id 0 is not a request's (ids are positive)"},
	} {
		_, err := client.DialResume(ctx, nil, ts.http.URL, r.Room.ID, r.Token, client.Resume{Pending: c.pending})
		if err == nil || !strings.Contains(err.Error(), "hello") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("a hello naming %v: %v, want a refusal saying %q", c.pending, err, c.want)
		}
	}
	conn, err := client.DialResume(ctx, nil, ts.http.URL, r.Room.ID, r.Token, client.Resume{Pending: many[:16]})
	if err != nil {
		t.Fatalf("a hello naming 16 ids: %v", err)
	}
	conn.Close()
}

// TestClusterSetsAsideADamagedGameItAdopts: a node adopting a game whose
// records cannot be rebuilt sets it aside as lost, as a restart does:
// counted in wolfden_rooms_lost, stored with the status lost, its lease
// released (no node keeps owning a game nobody plays).
func TestClusterSetsAsideADamagedGameItAdopts(t *testing.T) {
	c := newTestCluster(t)
	c.ttl = 3 * time.Second // time enough to damage the game before it is adopted
	a, b := c.node(t, "a"), c.node(t, "b")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	slow := maps.Clone(quick)
	slow["night"] = "1m"
	room, _ := clusterTable(ctx, t, []*clusterNode{a, b}, map[string]any{"preset": "std-9", "seed": 6, "practice": true, "timers": slow})
	id := room.Room.ID
	a.kill()
	db, err := pgx.Connect(ctx, c.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	if _, err := db.Exec(ctx, `UPDATE records SET clock = $1 WHERE room_id = $2`, []byte(`{"released": 999999}`), id); err != nil {
		t.Fatal(err)
	}
	for {
		rec, err := b.st.Room(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Status == store.StatusLost {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the damaged game is %s", rec.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, metrics := operatorPage(b.Server, "/metrics"); !strings.Contains(metrics, "\nwolfden_rooms_lost 1\n") {
		t.Errorf("node b's metrics do not count the lost game:\n%s", grepLines(metrics, "wolfden_rooms"))
	}
	if b.cl.owns(id) {
		t.Error("node b owns the lost game")
	}
	// The lease is let go after the status is stored: wait for it.
	for {
		var holder string
		err := db.QueryRow(ctx, `SELECT node FROM leases WHERE room_id = $1`, id).Scan(&holder)
		if err == nil && holder == "" {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the lost game's lease is held by %q (%v); want it released", holder, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
