package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
)

// TestAForumRoomTakesTheForumPace: a room of the forum preset (版杀) runs
// at the forum pace, its day one discussion; a board file's clocks are a
// room's starting point, the creator's own timers over them; hour-long
// timers are taken, and a timer or reminder out of range is refused with
// its name.
func TestAForumRoomTakesTheForumPace(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var r struct {
		Room struct {
			Pace    string            `json:"pace"`
			Remind  string            `json:"remind"`
			Timers  map[string]string `json:"timers"`
			Options map[string]string `json:"options"`
		} `json:"room"`
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "forum", "players": 9}, &r); err != nil {
		t.Fatal(err)
	}
	if r.Room.Pace != "forum" || r.Room.Timers["speech"] != "20h0m0s" || r.Room.Timers["night"] != "9h0m0s" {
		t.Fatalf("a forum room: pace %q, timers %v", r.Room.Pace, r.Room.Timers)
	}
	board := "players: 9\ncards: {werewolf: 3, seer: 1, witch: 1, hunter: 1, villager: 3}\npace: forum\ntimers: {vote: 6h}\nremind: 2h,30m\n"
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"board": board, "timers": map[string]string{"speech": "24h"}}, &r); err != nil {
		t.Fatal(err)
	}
	if r.Room.Pace != "forum" || r.Room.Remind != "2h,30m" || r.Room.Timers["vote"] != "6h0m0s" ||
		r.Room.Timers["speech"] != "24h0m0s" || r.Room.Options["speech_order"] != "free" {
		t.Fatalf("a board file's clocks: %+v", r.Room)
	}
	for _, bad := range []struct {
		body map[string]any
		code string
		says string
	}{
		{map[string]any{"preset": "std-9", "timers": map[string]string{"speech": "100h"}}, "", "timer speech: 100h0m0s is longer than the longest a speech timer may be, 72h"},
		{map[string]any{"preset": "std-9", "remind": "soon"}, "bad_remind", `remind: "soon" is not a duration`},
		{map[string]any{"board": "players: 9\ncards: {werewolf: 3, seer: 1, witch: 1, hunter: 1, villager: 3}\ntimers: {night: 80h}\n"}, "", "board:3: timer night: 80h0m0s is longer than the longest a night timer may be, 72h"},
		{map[string]any{"board": "players: 9\ncards: {werewolf: 3, seer: 1, witch: 1, hunter: 1, villager: 3}\npace: slow\n"}, "", `board:3: unknown pace "slow"`},
	} {
		err := ts.api.Do(ctx, "POST", "/api/rooms", "", bad.body, nil)
		if err == nil || !strings.Contains(err.Error(), bad.says) || (bad.code != "" && codeOf(err) != bad.code) {
			t.Errorf("%v: %v, want %s %q", bad.body, err, bad.code, bad.says)
		}
	}
}

// TestTheHostExtendsTheDeadline: POST /api/rooms/{id}/extend moves the
// running step's deadline by its "by", and every connection is told; it is
// the host's alone, and a bad duration is refused with a clear error.
func TestTheHostExtendsTheDeadline(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, conn := ts.seatedGame(ctx, t, map[string]any{"preset": "forum", "players": 9, "nickname": "ann", "timers": map[string]string{"tick": "200ms"}})
	defer conn.Close()
	deadline := func(stop func(f client.Frame, dl int64) bool) {
		t.Helper()
		for {
			select {
			case f, ok := <-conn.Frames:
				if !ok {
					t.Fatal("the connection closed")
				}
				var st struct {
					Deadline int64 `json:"deadline"`
				}
				_ = json.Unmarshal(f.Raw, &st)
				if stop(f, st.Deadline) {
					return
				}
			case <-ctx.Done():
				t.Fatal("waited in vain")
			}
		}
	}
	var before int64
	deadline(func(f client.Frame, dl int64) bool { before = dl; return f.Type == "state" && dl != 0 })
	path := "/api/rooms/" + c.Room.ID + "/extend"
	for _, bad := range []struct {
		tok, body, code string
	}{
		{c.Token, `{"by":"2h"}`, "not_host"},
		{c.HostToken, `{"by":"soon"}`, "bad_extend"},
		{c.HostToken, `{"by":"10s"}`, "bad_extend"},
		{c.HostToken, `{"by":"100h"}`, "bad_extend"},
		{c.HostToken, `{"by":"2h","why":"x"}`, "bad_json"},
	} {
		if err := ts.api.Do(ctx, "POST", path, bad.tok, json.RawMessage(bad.body), nil); codeOf(err) != bad.code {
			t.Errorf("extend %s: %v, want %s", bad.body, err, bad.code)
		}
	}
	if err := ts.api.Do(ctx, "POST", path, c.HostToken, map[string]any{"by": "2h"}, nil); err != nil {
		t.Fatal(err)
	}
	told := false
	deadline(func(f client.Frame, dl int64) bool {
		if f.Type == "extend" {
			told = string(f.Raw) == `{"type":"extend","by":7200000}`
		}
		return f.Type == "state" && dl != before
	})
	deadline(func(f client.Frame, dl int64) bool {
		if f.Type == "extend" {
			told = string(f.Raw) == `{"type":"extend","by":7200000}`
		}
		if f.Type == "state" && dl != 0 && dl-before != (2*time.Hour).Milliseconds() {
			t.Fatalf("the deadline moved from %v to %v", time.UnixMilli(before), time.UnixMilli(dl))
		}
		return told
	})
}

// TestARestartKeepsAForumNightsDeadline: the server restarts during a
// forum game's night (its stages hours long); the seat's state names the
// same deadline and dawn, to the millisecond, as before the restart: the
// table was told them, and the time the server was down does not move them.
func TestARestartKeepsAForumNightsDeadline(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, conn := ts.seatedGame(ctx, t, map[string]any{"preset": "forum", "players": 9, "nickname": "ann", "timers": map[string]string{"tick": "200ms"}})
	type told struct {
		Night    bool  `json:"night"`
		Deadline int64 `json:"deadline"`
		NightEnd int64 `json:"night_end"`
	}
	nightState := func(conn *client.Conn) told {
		t.Helper()
		for {
			select {
			case f, ok := <-conn.Frames:
				if !ok {
					t.Fatal("the connection closed")
				}
				var st told
				if f.Type == "state" && json.Unmarshal(f.Raw, &st) == nil && st.Night && st.NightEnd != 0 {
					return st
				}
			case <-ctx.Done():
				t.Fatal("no night state")
			}
		}
	}
	before := nightState(conn)
	conn.Close()
	ts = ts.restart(t, Options{})
	again, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if after := nightState(again); after != before {
		t.Fatalf("after the restart the seat is told %+v; before it %+v", after, before)
	}
}
