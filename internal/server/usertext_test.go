package server

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
)

// hostileTexts are the characters of issue 29 that reached every player:
// each is refused wherever a user types text that others see.
var hostileTexts = []struct{ name, text, yaml string }{
	{"NUL", "Ann\x00", `Ann\0`},
	{"ESC sequence", "\x1b[2J\x1b[31mAnn", `\e[2J\e[31mAnn`},
	{"RTL override", "Ann\u202e9", `Ann\u202e9`},
	{"BOM", "\ufeffAnn", `\ufeffAnn`},
	{"line separator", "Ann\u2028Bob", `Ann\u2028Bob`},
	{"line feed", "Ann\nBob", `Ann\nBob`},
}

// TestUserTextIsHeldToOneRule: chat, nicknames (on creating a room and on
// joining one), room names and a board's name and description refuse the
// same characters, each with an error that names the field.
func TestUserTextIsHeldToOneRule(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var room client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &room); err != nil {
		t.Fatal(err)
	}
	const board = "players: 3\ncards: [werewolf, seer, villager]\n"
	for _, h := range hostileTexts {
		t.Run(h.name, func(t *testing.T) {
			for _, c := range []struct {
				field, path string
				body        map[string]any
			}{
				{"nickname", "/api/rooms", map[string]any{"preset": "std-9", "nickname": h.text}},
				{"name", "/api/rooms", map[string]any{"preset": "std-9", "name": h.text}},
				{"board:1: name", "/api/rooms", map[string]any{"board": `name: "` + h.yaml + `"` + "\n" + board}},
				{"board:1: description", "/api/rooms", map[string]any{"board": `description: "` + h.yaml + `"` + "\n" + board}},
				{"board:1: name", "/api/balance", map[string]any{"board": `name: "` + h.yaml + `"` + "\n" + board}},
				{"nickname", "/api/rooms/" + room.Room.ID + "/join", map[string]any{"nickname": h.text}},
			} {
				err := ts.api.Do(ctx, "POST", c.path, "", c.body, nil)
				var e *client.Error
				if !errors.As(err, &e) || e.Status != 400 || !strings.Contains(e.Message, c.field+": the text holds U+") {
					t.Errorf("%s at %s: %v, want a 400 naming the field and the character", c.field, c.path, err)
				}
			}
			f, err := decodeFrame([]byte(`{"type":"chat","channel":"day","text":` + jsonString(h.text) + `}`))
			var te *textError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), "chat: the text holds U+") {
				t.Errorf("chat %+v: %v, want it refused by the rule of user text", f, err)
			}
		})
	}
}

// TestAChatOfControlCharactersIsRefusedWithItsCode: over a real connection,
// the refusal carries the code the client translates, and nothing is said.
func TestAChatOfControlCharactersIsRefusedWithItsCode(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "nickname": "Ann"}, &c); err != nil {
		t.Fatal(err)
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Send(ctx, map[string]any{"type": "chat", "id": 7, "channel": "day", "text": "hi\u202e"}); err != nil {
		t.Fatal(err)
	}
	for {
		f, ok := next(conn, frameWait)
		if !ok {
			t.Fatal("no answer to the chat")
		}
		if f.Type == "chat" {
			t.Fatalf("the chat was said: %s", f.Raw)
		}
		if f.Type == "error" && f.ID == 7 {
			if f.Code != "text" {
				t.Errorf("refused with %s, want the code text", f.Raw)
			}
			return
		}
	}
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r < 0x20 || r == '"' || r == '\\':
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
