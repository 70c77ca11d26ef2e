package server

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
)

// framesUntil reads a connection's frames until ok holds, returning those
// of type typ read on the way.
func framesUntil(t *testing.T, c *client.Conn, typ string, ok func(client.Frame) bool) []string {
	t.Helper()
	var got []string
	limit := time.After(10 * time.Second)
	for {
		select {
		case f, more := <-c.Frames:
			if !more {
				t.Fatalf("seat %d: the connection closed", c.Seat)
			}
			if f.Type == typ {
				got = append(got, string(f.Raw))
			}
			if ok(f) {
				return got
			}
		case <-limit:
			t.Fatalf("seat %d: the frame awaited did not come (%q)", c.Seat, got)
		}
	}
}

// seenRoom is a room of these tests: Ann's, who made it, and Bob's seat
// when he joined it.
type seenRoom struct {
	client.Created
	bob seated
}

// seenRoom makes a room from body, filled in with the preset std-9, Ann as
// its host and the quick timers where body says nothing of them, and seats
// Bob in it when bob is set.
func (ts *testServer) seenRoom(t *testing.T, ctx context.Context, body map[string]any, bob bool) seenRoom {
	t.Helper()
	req := map[string]any{"preset": "std-9", "nickname": "Ann", "timers": quick}
	maps.Copy(req, body)
	var r seenRoom
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", req, &r.Created); err != nil {
		t.Fatal(err)
	}
	if bob {
		if err := ts.api.Do(ctx, "POST", "/api/rooms/"+r.Room.ID+"/join", "", map[string]any{"nickname": "Bob"}, &r.bob); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// startRoom starts the room as its host, returning what anyone is shown of
// it then.
func (ts *testServer) startRoom(t *testing.T, ctx context.Context, r seenRoom) roomInfo {
	t.Helper()
	var info roomInfo
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+r.Room.ID+"/start", r.HostToken, nil, &info); err != nil {
		t.Fatal(err)
	}
	return info
}

// dialRoom connects the seat of token to the room ("": a spectator, such as
// the table device) until the test ends; closing it sooner does no harm.
func (ts *testServer) dialRoom(t *testing.T, ctx context.Context, r seenRoom, token string) *client.Conn {
	t.Helper()
	conn, err := client.Dial(ctx, ts.http.URL, r.Room.ID, token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// refusal sends frame as number id and returns the code of the error it is
// answered with; an ack fails the test.
func refusal(t *testing.T, ctx context.Context, conn *client.Conn, id int64, frame map[string]any) string {
	t.Helper()
	frame["id"] = id
	if err := conn.Send(ctx, frame); err != nil {
		t.Fatal(err)
	}
	var code string
	framesUntil(t, conn, "", func(f client.Frame) bool {
		if f.ID != id || (f.Type != "error" && f.Type != "ack") {
			return false
		}
		if f.Type == "ack" {
			t.Fatalf("frame %d was acknowledged, want a refusal", id)
		}
		code = f.Code
		return true
	})
	return code
}

// TestATableRoomWaitsForEveryCardOverTheWire: a room made with card_seen
// waits after the deal; the wolf's phone, the villager's and a spectator
// (the table device) are told the same counts, byte for byte, and the
// night falls after the last confirmation; the host's skip is refused then.
func TestATableRoomWaitsForEveryCardOverTheWire(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	deal := []string{"werewolf", "villager", "seer", "werewolf", "werewolf", "werewolf", "witch", "hunter", "idiot",
		"villager", "villager", "villager"}
	c := ts.seenRoom(t, ctx, map[string]any{"preset": "std-12", "card_seen": true, "practice": true, "deal": deal}, true)
	info := ts.startRoom(t, ctx, c)
	if !info.CardSeen || info.Game == nil || info.Game.CardsSeen == nil || *info.Game.CardsSeen != (cardsInfo{0, 2}) {
		t.Fatalf("the started room: card_seen %v, game %+v", info.CardSeen, info.Game)
	}
	wolf, villager := ts.dialRoom(t, ctx, c, c.Token), ts.dialRoom(t, ctx, c, c.bob.Token)
	conns := []*client.Conn{wolf, villager, ts.dialRoom(t, ctx, c, "")}
	counts := make([][]string, len(conns))
	isSeen := func(n int) func(client.Frame) bool {
		return func(f client.Frame) bool { return f.Type == "seen" && countOf(f) == n }
	}
	noNight := func(i int, n int) {
		t.Helper()
		for _, raw := range framesUntil(t, conns[i], "event", isSeen(n)) {
			if f, _ := client.Split([]byte(raw)); f[0].Kind == "night" || f[0].Kind == "wolf_team" {
				t.Fatalf("connection %d was told %s before the count %d", i, raw, n)
			}
		}
	}
	for i := range conns {
		noNight(i, 0)
	}
	if err := wolf.Send(ctx, map[string]any{"type": "seen", "id": 1}); err != nil {
		t.Fatal(err)
	}
	for i := range conns {
		noNight(i, 1)
	}
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info); err != nil || info.Game.Night ||
		*info.Game.CardsSeen != (cardsInfo{1, 2}) {
		t.Fatalf("the room with one card seen: %v %+v", err, info.Game)
	}
	if err := villager.Send(ctx, map[string]any{"type": "seen", "id": 1}); err != nil {
		t.Fatal(err)
	}
	for i, conn := range conns {
		counts[i] = framesUntil(t, conn, "seen", func(f client.Frame) bool { return f.Type == "event" && f.Kind == "night" })
	}
	for i := range conns {
		if len(counts[i]) != 1 || counts[i][0] != counts[0][0] || counts[0][0] != `{"type":"seen","count":2,"of":2,"waiting":false}` {
			t.Errorf("connection %d was told %q at the end of the wait, connection 0 %q", i, counts[i], counts[0])
		}
	}
	var e *client.Error
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/seen/skip", c.HostToken, nil, nil); !errors.As(err, &e) || e.Code != "not_waiting" {
		t.Errorf("a skip once the night fell: %v", err)
	}
}

func countOf(f client.Frame) int {
	var v struct{ Count int }
	_ = json.Unmarshal(f.Raw, &v)
	return v.Count
}

// TestTheHostEndsTheWaitAndOnlineRoomsDoNotWait: the host's skip lets the
// night fall with cards unconfirmed; a room made without card_seen (online
// play) does not wait, and refuses a seen frame as out of place.
func TestTheHostEndsTheWaitAndOnlineRoomsDoNotWait(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, table := range []bool{true, false} {
		c := ts.seenRoom(t, ctx, map[string]any{"card_seen": table}, false)
		var e *client.Error
		if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/seen/skip", c.Token+"x", nil, nil); !errors.As(err, &e) || e.Code != "not_host" {
			t.Errorf("a stranger's skip: %v", err)
		}
		ts.startRoom(t, ctx, c)
		conn := ts.dialRoom(t, ctx, c, c.Token)
		if table {
			framesUntil(t, conn, "", func(f client.Frame) bool { return f.Type == "seen" })
			if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/seen/skip", c.HostToken, nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		seen := framesUntil(t, conn, "seen", func(f client.Frame) bool { return f.Type == "event" && f.Kind == "night" })
		if table && (len(seen) != 1 || seen[0] != `{"type":"seen","count":0,"of":1,"waiting":false}`) {
			t.Errorf("after the skip: %q", seen)
		}
		if !table && len(seen) != 0 {
			t.Errorf("an online room was told %q", seen)
		}
		if !table {
			if code := refusal(t, ctx, conn, 7, map[string]any{"type": "seen"}); code != "not_waiting" {
				t.Errorf("a seen frame online was refused as %q", code)
			}
		}
	}
}

// TestADecoyFrameIsAnsweredLikeACommand: over the wire a seat's decoy
// frame, padded as a phone pads it, gets the ack a command gets; a
// spectator's is refused as his command would be.
func TestADecoyFrameIsAnsweredLikeACommand(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := ts.seenRoom(t, ctx, nil, false)
	ts.startRoom(t, ctx, c)
	ann, watcher := ts.dialRoom(t, ctx, c, c.Token), ts.dialRoom(t, ctx, c, "")
	framesUntil(t, ann, "", func(f client.Frame) bool { return f.Type == "event" && f.Kind == "night" })
	pad := `{"type":"decoy","id":9,"target":4,"pad":"` + strings.Repeat(" ", 60) + `"}`
	if err := ann.SendRaw(ctx, []byte(pad)); err != nil {
		t.Fatal(err)
	}
	got := framesUntil(t, ann, "ack", func(f client.Frame) bool { return (f.Type == "ack" || f.Type == "error") && f.ID == 9 })
	if len(got) == 0 || got[len(got)-1] != `{"type":"ack","id":9}` {
		t.Fatalf("the decoy's answer: %q", got)
	}
	if code := refusal(t, ctx, watcher, 3, map[string]any{"type": "decoy"}); code != "spectator" {
		t.Errorf("a spectator's decoy was refused as %q", code)
	}
}

// TestTheWaitForCardsSurvivesAServerRestart: a confirmation stored before
// the server stopped still counts after it restarts on the same file.
func TestTheWaitForCardsSurvivesAServerRestart(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := ts.seenRoom(t, ctx, map[string]any{"card_seen": true}, true)
	ts.startRoom(t, ctx, c)
	ann := ts.dialRoom(t, ctx, c, c.Token)
	if err := ann.Send(ctx, map[string]any{"type": "seen", "id": 1}); err != nil {
		t.Fatal(err)
	}
	framesUntil(t, ann, "", func(f client.Frame) bool { return f.Type == "ack" && f.ID == 1 })
	ann.Close()
	ts = ts.restart(t, Options{})
	var info roomInfo
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info); err != nil {
		t.Fatal(err)
	}
	if info.Game == nil || info.Game.Night || info.Game.CardsSeen == nil || *info.Game.CardsSeen != (cardsInfo{1, 2}) {
		t.Fatalf("after the restart: %+v", info.Game)
	}
	conn := ts.dialRoom(t, ctx, c, c.bob.Token)
	if err := conn.Send(ctx, map[string]any{"type": "seen", "id": 1}); err != nil {
		t.Fatal(err)
	}
	framesUntil(t, conn, "", func(f client.Frame) bool { return f.Type == "event" && f.Kind == "night" })
}

// TestATableRoomPlaysToTheEnd: once the cards are seen a table's room is a
// game like any other, played to its end.
func TestATableRoomPlaysToTheEnd(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := ts.seenRoom(t, ctx, map[string]any{"card_seen": true}, false)
	ts.startRoom(t, ctx, c)
	conn := ts.dialRoom(t, ctx, c, c.Token)
	framesUntil(t, conn, "", func(f client.Frame) bool { return f.Type == "seen" })
	if err := conn.Send(ctx, map[string]any{"type": "seen", "id": 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.PlayRandom(ctx, rand.New(rand.NewPCG(2, 2)), nil); err != nil {
		t.Fatal(err)
	}
	ts.waitOver(t, c.Room.ID)
}
