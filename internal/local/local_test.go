package local

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// kept is a Saver in memory: what the browser's IndexedDB holds.
type kept struct {
	mu   sync.Mutex
	room map[string][]byte
	recs map[string][][]byte
}

func newKept() *kept { return &kept{room: map[string][]byte{}, recs: map[string][][]byte{}} }

func (k *kept) Room(id string, data []byte) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.room[id] = bytes.Clone(data)
	return nil
}

func (k *kept) Records(id string, from int64, data []byte) error {
	var recs []json.RawMessage
	if err := json.Unmarshal(data, &recs); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.recs[id] = k.recs[id][:from-1]
	for _, r := range recs {
		k.recs[id] = append(k.recs[id], bytes.Clone(r))
	}
	return nil
}

func (k *kept) copy(id string) ([]byte, [][]byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return bytes.Clone(k.room[id]), append([][]byte(nil), k.recs[id]...)
}

func do(t *testing.T, d *Device, method, path, token string, body any, out any) int {
	t.Helper()
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	status, resp := d.Handle(context.Background(), method, path, token, b)
	if out != nil {
		if err := json.Unmarshal(resp, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, resp)
		}
	}
	return status
}

type info struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Version int64  `json:"version"`
	Game    *struct {
		Day   int  `json:"day"`
		Night bool `json:"night"`
	} `json:"game"`
}

// TestAGameOfTheDeviceResumesFromWhatItKept: a game of bots is stopped in
// the middle of its second night (a reload), and a new device given what
// the first kept resumes it, still at night, and plays it to its end;
// its log begins with every event kept.
func TestAGameOfTheDeviceResumesFromWhatItKept(t *testing.T) {
	k := newKept()
	d := New(k)
	var made struct {
		Host string `json:"host_token"`
		Room info   `json:"room"`
	}
	timers := map[string]string{"setup": "300ms", "night": "300ms", "witch": "300ms", "speech": "300ms", "vote": "300ms",
		"other": "300ms", "bot": "0s", "tick": "50ms"}
	if s := do(t, d, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "practice": true, "seed": 9, "timers": timers}, &made); s != 201 {
		t.Fatalf("create: %d", s)
	}
	id := made.Room.ID
	var rm info
	do(t, d, "POST", "/api/rooms/"+id+"/start", made.Host, nil, &rm)
	for rm.Game == nil || !rm.Game.Night || rm.Game.Day < 1 { // night 2 comes after day 1
		time.Sleep(10 * time.Millisecond) // a poll: the room's version counts its changes, not the game's
		do(t, d, "GET", "/api/rooms/"+id, "", nil, &rm)
		if rm.Status != "running" {
			t.Fatalf("the game ended before its second night: %+v", rm)
		}
	}
	room, recs := k.copy(id)
	d.table(id).actor.Stop() // the tab is closed

	k2 := newKept() // the same storage, read again
	k2.room[id], k2.recs[id] = room, recs
	d2 := New(k2)
	if err := d2.Load(room, recs); err != nil {
		t.Fatal(err)
	}
	var back info
	do(t, d2, "GET", "/api/rooms/"+id, "", nil, &back)
	if back.Status != "running" || back.Game == nil || !back.Game.Night || back.Game.Day != 1 {
		t.Fatalf("resumed: %+v (game %+v)", back, back.Game)
	}
	for back.Status != "over" {
		time.Sleep(10 * time.Millisecond)
		do(t, d2, "GET", "/api/rooms/"+id, "", nil, &back)
	}
	var kept []store.Record
	for _, b := range recs {
		r, err := decodeRecord(b)
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, r)
	}
	all, err := d2.table(id).st.Records(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) <= len(kept) {
		t.Fatalf("the resumed game stored nothing more: %d records, %d kept", len(all), len(kept))
	}
	for i, r := range kept {
		if r.N != all[i].N || r.Kind != all[i].Kind || len(r.Events) != len(all[i].Events) {
			t.Fatalf("record %d changed on resuming: %+v, now %+v", i+1, r, all[i])
		}
	}
}

// TestTheDeviceRefusesWhatNeedsAServer: each refusal says what is wrong,
// and nothing is made.
func TestTheDeviceRefusesWhatNeedsAServer(t *testing.T) {
	d := New(nil)
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"board": "cards: [werewolf]"}, "board file needs the server"},
		{map[string]any{"deal": []string{"seer"}, "practice": true}, "fixed deal needs the server"},
		{map[string]any{"seed": 3}, "practice"},
		{map[string]any{"preset": "nope"}, "nope"},
		{map[string]any{"timers": map[string]string{"night": "soon"}}, "night"},
		{map[string]any{"bots": "llm"}, "bots"},
		{map[string]any{"unknown": 1}, "unknown"},
	} {
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if s := do(t, d, "POST", "/api/rooms", "", tc.body, &e); s != 400 || !strings.Contains(e.Error.Message, tc.want) {
			t.Errorf("%v: %d %+v, want 400 saying %q", tc.body, s, e.Error, tc.want)
		}
	}
	if len(d.rooms) != 0 {
		t.Errorf("a refused room was made: %d rooms", len(d.rooms))
	}
	if err := d.Load([]byte(`{"id":"abc"}`), nil); err == nil || !strings.Contains(err.Error(), "not one of this device") {
		t.Errorf("a kept room of another ID: %v", err)
	}
	if err := d.Load([]byte(`{`), nil); err == nil {
		t.Error("a kept room that is not JSON was taken")
	}
	var e struct{ Error struct{ Code string } }
	if s := do(t, d, "GET", "/api/rooms/local-none", "", nil, &e); s != 404 || e.Error.Code != "no_room" {
		t.Errorf("an unknown room: %d %+v", s, e)
	}
	// an unpaced room is for bots only: nobody joins it
	var made struct {
		Room struct{ ID string } `json:"room"`
	}
	do(t, d, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "unpaced": true}, &made)
	if s := do(t, d, "POST", "/api/rooms/"+made.Room.ID+"/join", "", map[string]any{"nickname": "Mei"}, &e); s != 409 || e.Error.Code != "unpaced" {
		t.Errorf("a person joined an unpaced room: %d %+v", s, e)
	}
}
