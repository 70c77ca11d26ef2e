package server

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// memServer runs a server on a memory store, whose writes a test can make
// fail.
func memServer(t *testing.T) (*testServer, *memory.Store) {
	t.Helper()
	st := memory.New()
	s := New(st, Options{})
	hs := httptest.NewServer(s)
	t.Cleanup(func() { hs.Close(); s.Stop() })
	return &testServer{Server: s, api: &client.API{Base: hs.URL}, http: hs}, st
}

// restart stops a test server and opens a new one on the same file, which
// restores what the store holds.
func (ts *testServer) restart(t *testing.T, opts Options) *testServer {
	t.Helper()
	ts.http.Close()
	ts.Stop()
	if err := ts.st.Close(); err != nil {
		t.Fatal(err)
	}
	next := newTestServerAt(t, ts.path, opts)
	if _, err := next.Restore(context.Background()); err != nil {
		t.Fatalf("restore: %v", err)
	}
	return next
}

func newTestServerAt(t *testing.T, path string, opts Options) *testServer {
	t.Helper()
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s := New(st, opts)
	hs := httptest.NewServer(s)
	t.Cleanup(func() { hs.Close(); s.Stop(); st.Close() })
	return &testServer{Server: s, api: &client.API{Base: hs.URL}, http: hs, path: path}
}

func (ts *testServer) status(t *testing.T, id string) string {
	t.Helper()
	var info roomInfo
	if err := ts.api.Do(context.Background(), "GET", "/api/rooms/"+id, "", nil, &info); err != nil {
		t.Fatal(err)
	}
	return info.Status
}

// operator asks the operator listener's page.
func (ts *testServer) operator(t *testing.T, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	ts.Operator().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	body, _ := io.ReadAll(rec.Body)
	return rec.Code, string(body)
}

func codeOf(err error) string {
	var e *client.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// seatedGame creates a room with a seat for the test, starts it and
// connects the seat.
func (ts *testServer) seatedGame(ctx context.Context, t *testing.T, body map[string]any) (client.Created, *client.Conn) {
	t.Helper()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", body, &c); err != nil {
		t.Fatal(err)
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return c, conn
}

// TestAStartIsStoredWholeOrNotAtAll: a start the store refuses leaves the
// room waiting with no record of a game, answered 503 in plain words; once
// the store takes writes the same room starts.
func TestAStartIsStoredWholeOrNotAtAll(t *testing.T) {
	ts, st := memServer(t)
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "timers": quick}, &c); err != nil {
		t.Fatal(err)
	}
	st.FailWrites(errors.New("no space left on device"))
	err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil)
	if codeOf(err) != "store" || !strings.Contains(err.Error(), "cannot save") {
		t.Fatalf("a start the store refused: %v", err)
	}
	if code, body := ts.operator(t, "/readyz"); code != http.StatusServiceUnavailable {
		t.Fatalf("readyz while the store fails: %d %s", code, body)
	}
	st.FailWrites(nil)
	if got := ts.status(t, c.Room.ID); got != store.StatusOpen {
		t.Fatalf("the room is %s after a failed start", got)
	}
	if recs, _ := st.Records(ctx, c.Room.ID); len(recs) != 0 {
		t.Fatalf("a failed start left %d records", len(recs))
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatalf("the start once the store takes writes: %v", err)
	}
	if got := ts.status(t, c.Room.ID); got != store.StatusRunning {
		t.Fatalf("the room is %s after its start", got)
	}
	if code, _ := ts.operator(t, "/readyz"); code != http.StatusOK {
		t.Fatalf("readyz once the store takes writes again: %d", code)
	}
}

// TestARoomStoredRunningWithoutADealWaitsAgain: what a crash inside a start
// left before starts were one transaction — a room marked running with no
// record of its game — is repaired at restart: the room waits again and
// its host can start it.
func TestARoomStoredRunningWithoutADealWaitsAgain(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "timers": quick}, &c); err != nil {
		t.Fatal(err)
	}
	rec, err := ts.st.Room(ctx, c.Room.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec.Status = store.StatusRunning
	if err := ts.st.UpdateRoom(ctx, rec); err != nil {
		t.Fatal(err)
	}
	ts = ts.restart(t, Options{})
	if got := ts.status(t, c.Room.ID); got != store.StatusOpen {
		t.Fatalf("the cut-short room is %s after a restart", got)
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatalf("the host could not start the repaired room: %v", err)
	}
}

// TestAFullDiskPausesGamesAndTheServerSaysSo: while the store refuses
// writes a game's players are told it is paused, /readyz answers 503 and
// the metrics count the failures; once writes succeed the game goes on to
// its end by itself.
func TestAFullDiskPausesGamesAndTheServerSaysSo(t *testing.T) {
	ts, st := memServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, conn := ts.seatedGame(ctx, t, map[string]any{"preset": "std-12", "timers": quick, "nickname": "a"})
	defer conn.Close()
	st.FailWrites(errors.New("no space left on device"))
	for f := range conn.Frames { // the seat does nothing: its time runs out, and the write fails
		if f.Type == "error" && f.Code == "store" {
			break
		}
	}
	if code, body := ts.operator(t, "/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "paused") {
		t.Fatalf("readyz while a game cannot save: %d %s", code, body)
	}
	if _, body := ts.operator(t, "/metrics"); !strings.Contains(body, "wolfden_stalled_games 1") ||
		strings.Contains(body, "wolfden_store_write_failures_total 0") {
		t.Fatalf("the metrics do not show the failing store:\n%s", grepLines(body, "wolfden_st"))
	}
	st.FailWrites(nil)
	if _, err := conn.PlayRandom(ctx, rand.New(rand.NewPCG(1, 1)), nil); err != nil { // to the end
		t.Fatalf("the game after the store came back: %v", err)
	}
	if code, _ := ts.operator(t, "/readyz"); code != http.StatusOK {
		t.Fatalf("readyz once the game saves again: %d", code)
	}
}

func grepLines(s, sub string) string {
	var out []string
	for line := range strings.Lines(s) {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

// TestADamagedGameIsSetAsideAndTheOthersResume: a game whose stored record
// cannot be read back does not keep the server from starting: it is marked
// lost (counted in wolfden_rooms_lost), its players are told so, and every
// other game resumes.
func TestADamagedGameIsSetAsideAndTheOthersResume(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	slow := map[string]string{"night": "1m", "setup": "1m", "witch": "1m"}
	var rooms [2]client.Created
	for i := range rooms {
		if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "timers": slow, "nickname": "a"}, &rooms[i]); err != nil {
			t.Fatal(err)
		}
		if err := ts.api.Do(ctx, "POST", "/api/rooms/"+rooms[i].Room.ID+"/start", rooms[i].HostToken, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	ts.http.Close()
	ts.Stop()
	ts.st.Close()
	db, err := sql.Open("sqlite", ts.path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE records SET clock = '{"released": 999999}' WHERE room_id = ?`, rooms[0].Room.ID); err != nil {
		t.Fatal(err)
	}
	db.Close()
	next := newTestServerAt(t, ts.path, Options{})
	n, err := next.Restore(ctx)
	if err != nil || n != 1 {
		t.Fatalf("restore: %d games resumed, %v; want the one intact", n, err)
	}
	if got := next.status(t, rooms[0].Room.ID); got != store.StatusLost {
		t.Fatalf("the damaged game is %s", got)
	}
	if got := next.status(t, rooms[1].Room.ID); got != store.StatusRunning {
		t.Fatalf("the intact game is %s", got)
	}
	if _, body := next.operator(t, "/metrics"); !strings.Contains(body, "\nwolfden_rooms_lost 1\n") {
		t.Fatalf("the metrics do not count the lost game:\n%s", grepLines(body, "wolfden_rooms"))
	}
	if _, err := client.Dial(ctx, next.http.URL, rooms[0].Room.ID, rooms[0].Token, 0, 0); err == nil || !strings.Contains(err.Error(), "lost") {
		t.Fatalf("a player of the lost game was told %v", err)
	}
	conn, err := client.Dial(ctx, next.http.URL, rooms[1].Room.ID, rooms[1].Token, 0, 0)
	if err != nil {
		t.Fatalf("a player of the intact game: %v", err)
	}
	conn.Close()
}

// TestAFinishedGameStaysReadableAcrossARestart: a game on its end screen
// when the server restarts stays live for what is left of its linger.
func TestAFinishedGameStaysReadableAcrossARestart(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, conn := ts.seatedGame(ctx, t, map[string]any{"preset": "std-12", "timers": quick, "nickname": "a"})
	st, err := conn.PlayRandom(ctx, rand.New(rand.NewPCG(1, 1)), nil)
	conn.Close()
	if err != nil {
		t.Fatal(err)
	}
	ts.waitOver(t, c.Room.ID)
	ts = ts.restart(t, Options{})
	conn, err = client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatalf("the finished game after a restart: %v", err)
	}
	defer conn.Close()
	for f := range conn.Frames {
		if f.Type == "state" && f.Over {
			if f.Winner != st.Winner {
				t.Fatalf("the end screen says %q won; the game said %q", f.Winner, st.Winner)
			}
			return
		}
	}
	t.Fatal("no end state after the restart")
}

// TestTheHostAbortsAGame: the players are told and their connections
// closed; the room waits again, its seats kept, and starts anew.
func TestTheHostAbortsAGame(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "timers": quick, "nickname": "a"}, &c); err != nil {
		t.Fatal(err)
	}
	id := "/api/rooms/" + c.Room.ID
	if err := ts.api.Do(ctx, "POST", id+"/abort", c.HostToken, nil, nil); codeOf(err) != "not_running" {
		t.Fatalf("aborting a room that waits: %v", err)
	}
	if err := ts.api.Do(ctx, "POST", id+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := ts.api.Do(ctx, "POST", id+"/abort", c.Token, nil, nil); codeOf(err) != "not_host" {
		t.Fatalf("a player aborting: %v", err)
	}
	if err := ts.api.Do(ctx, "POST", id+"/abort", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	told := false
	for f := range conn.Frames {
		told = told || (f.Type == "error" && f.Code == "aborted")
	}
	if !told {
		t.Fatal("the player was not told the game was aborted")
	}
	if got := ts.status(t, c.Room.ID); got != store.StatusOpen {
		t.Fatalf("the aborted room is %s", got)
	}
	if err := ts.api.Do(ctx, "POST", id+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatalf("the aborted room does not start again: %v", err)
	}
	again, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatalf("the seat after the new start: %v", err)
	}
	again.Close()
}

// TestAWaitingRequestLearnsOfTheStartAtOnce: GET ?after=VERSION answers
// as soon as the room changes, so joiners need not poll.
func TestAWaitingRequestLearnsOfTheStartAtOnce(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "timers": quick}, &c); err != nil {
		t.Fatal(err)
	}
	var info roomInfo
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info); err != nil {
		t.Fatal(err)
	}
	got := make(chan roomInfo, 1)
	go func() {
		var after roomInfo
		if err := ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID+"?after="+strconv.FormatInt(info.Version, 10), "", nil, &after); err != nil {
			t.Error(err)
		}
		got <- after
	}()
	select {
	case <-got:
		t.Fatal("the waiting request answered before the room changed")
	case <-time.After(100 * time.Millisecond):
	}
	started := time.Now()
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	after := <-got
	t.Logf("the waiting request answered %v after the start was asked", time.Since(started))
	if after.Status != store.StatusRunning || after.Version <= info.Version {
		t.Fatalf("the waiting request got status %s, version %d (was %d)", after.Status, after.Version, info.Version)
	}
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID+"?after=x", "", nil, nil); codeOf(err) != "bad_after" {
		t.Fatalf("a malformed after: %v", err)
	}
}

// TestAPracticeRoomMayFixItsDeal: a practice room deals the cards it was
// given, seat by seat, and says so; a deal outside a practice room, or one
// that is not the board's cards, is refused.
func TestAPracticeRoomMayFixItsDeal(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	deal := []string{"seer", "werewolf", "villager", "villager", "werewolf", "witch"}
	board := "players: 6\ncards: [werewolf, werewolf, seer, witch, villager, villager]\n"
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"board": board, "deal": deal}, nil); codeOf(err) != "seed" {
		t.Fatalf("a deal outside a practice room: %v", err)
	}
	bad := map[string]any{"board": board, "practice": true, "deal": []string{"seer", "seer", "villager", "villager", "werewolf", "witch"}}
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", bad, nil); err == nil || !strings.Contains(err.Error(), "deal") {
		t.Fatalf("a deal that is not the board's cards: %v", err)
	}
	body := map[string]any{"board": board, "practice": true, "deal": deal, "nickname": "a", "timers": map[string]string{"night": "1m"}}
	_, conn := ts.seatedGame(ctx, t, body)
	defer conn.Close()
	for f := range conn.Frames {
		if f.Type == "state" {
			if f.Role != "seer" {
				t.Fatalf("seat 1 was dealt %q; the deal gives it the seer", f.Role)
			}
			return
		}
	}
}
