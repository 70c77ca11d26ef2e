package server

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// seatBits are the bits of a command's Mask that name a seat.
const seatBits = uint32(1<<(rules.MaxSeats+1)) - 2

// FuzzDecodeFrame: whatever a client sends, decodeFrame answers without
// panicking, and what it accepts is one JSON object of a known type whose
// fields are in range: an act is a command of seats that exist (and reads
// back the same once written by the Go client), a chat is 1 to MaxChat
// characters of valid UTF-8, hello and ping count from 0. A frame over
// MaxFrame is always refused.
func FuzzDecodeFrame(f *testing.F) {
	seeds := []string{
		// hello and ping
		`{"type":"hello","token":"abc","since":3,"chat_since":2}`,
		`{"type":"hello"}`,
		`{"type":"hello","token":"","since":-1}`,
		`{"type":"hello","chat_since":-5}`,
		`{"type":"hello","since":9223372036854775807}`,
		`{"type":"hello","since":9223372036854775808}`,
		`{"type":"ping","id":7}`,
		// a table's frames (issue 16)
		`{"type":"seen","id":2}`,
		`{"type":"decoy","id":3,"target":5,"pad":"    "}`,
		`{"type":"decoy","id":3,"target":21}`,
		`{"type":"ping","id":-1}`,
		`{"type":"ping","id":1e3}`,
		`{"type":"ping","id":1.5}`,
		`{"type":"ping","id":"7"}`,
		// act: every field
		`{"type":"act","id":1,"cmd":"attack","target":3}`,
		`{"type":"act","id":1,"cmd":"attack","target":0}`,
		`{"type":"act","id":1,"cmd":"attack","target":20}`,
		`{"type":"act","id":1,"cmd":"attack","target":21}`,
		`{"type":"act","id":1,"cmd":"vote","target":-1}`,
		`{"type":"act","id":1,"cmd":"vote","target":1e400}`,
		`{"type":"act","cmd":"order","value":1}`,
		`{"type":"act","cmd":"take","value":127}`,
		`{"type":"act","cmd":"take","value":128}`,
		`{"type":"act","cmd":"take","value":-128}`,
		`{"type":"act","cmd":"take","value":-129}`,
		`{"type":"act","cmd":"link","seats":[3,4]}`,
		`{"type":"act","cmd":"link","seats":[3,3]}`,
		`{"type":"act","cmd":"voters","seats":[]}`,
		`{"type":"act","cmd":"voters","seats":null}`,
		`{"type":"act","cmd":"voters","seats":[0]}`,
		`{"type":"act","cmd":"voters","seats":[21]}`,
		`{"type":"act","cmd":"charm","seats":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]}`,
		`{"type":"act","cmd":"charm","seats":[[1]]}`,
		`{"type":"act","cmd":"claim","role":"seer"}`,
		`{"type":"act","cmd":"claim","role":"none"}`,
		`{"type":"act","cmd":"claim","role":"king"}`,
		`{"type":"act","cmd":"claim"}`,
		`{"type":"act","cmd":"accuse","target":5}`,
		`{"type":"act","cmd":"vouch","target":5,"value":9}`,
		`{"type":"act","cmd":"done"}`,
		`{"type":"act","cmd":"pass"}`,
		`{"type":"act","cmd":"none"}`,
		`{"type":"act","cmd":"cmd(0)"}`,
		`{"type":"act","cmd":"ATTACK","target":1}`,
		`{"type":"act","cmd":"fly"}`,
		`{"type":"act","id":3}`,
		`{"type":"act","cmd":"skip","seat":3}`,
		`{"type":"act","cmd":"skip","since":-1}`,
		// chat
		`{"type":"chat","id":2,"channel":"day","text":"hello"}`,
		`{"type":"chat","channel":"wolves","text":"今晚刀3号"}`,
		`{"type":"chat","channel":"day","text":"🐺🌕 e\u0301"}`,
		`{"type":"chat","channel":"day","text":""}`,
		`{"type":"chat","channel":"","text":"x"}`,
		`{"type":"chat","text":"x"}`,
		`{"type":"chat","channel":"day","text":"\ud800"}`,
		`{"type":"chat","channel":"day","text":"\u0000"}`,
		"{\"type\":\"chat\",\"channel\":\"day\",\"text\":\"\xff\xfe\"}",
		`{"type":"chat","channel":"day","text":"` + strings.Repeat("狼", game.MaxChat) + `"}`,
		`{"type":"chat","channel":"day","text":"` + strings.Repeat("a", game.MaxChat+1) + `"}`,
		// junk
		``, ` `, `null`, `true`, `0`, `""`, `[]`, `{}`, `{`, `}`, `{"type":}`, `{"type":"act",}`,
		"{\"type\":\"ping\"}\n", "{\"type\":\"act\",\"cmd\":\"skip\"} \t",
		`{"type":"ping"} {"type":"ping"}`, `{"type":"ping"} x`, `{"type":"welcome"}`, `{"type":"error"}`,
		`{"TYPE":"PING"}`, `{"Type":"ping"}`, `{"ｔｙｐｅ":"ping"}`, `{"type":"ping","type":"hello"}`,
		`{"type":"ping","extra":{"a":[1,2,3]}}`, "\ufeff{\"type\":\"ping\"}", "{\"type\":\"ping\"}\x00",
		// huge
		`{"type":"ping","id":1}` + strings.Repeat(" ", MaxFrame-22),
		`{"type":"ping","id":1}` + strings.Repeat(" ", MaxFrame-21),
		`{"type":"chat","channel":"day","text":"` + strings.Repeat("x", 2*MaxFrame) + `"}`,
		// deep
		strings.Repeat("[", 2000) + strings.Repeat("]", 2000),
		`{"type":"act","cmd":"link","seats":` + strings.Repeat("[", 1500) + strings.Repeat("]", 1500) + `}`,
		strings.Repeat(`{"a":`, 800) + "1" + strings.Repeat("}", 800),
		strings.Repeat("[", 100000),
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := decodeFrame(data)
		if err != nil {
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("error message is not valid UTF-8: %q", err.Error())
			}
			return
		}
		if len(data) > MaxFrame {
			t.Fatalf("accepted a frame of %d bytes", len(data))
		}
		if !json.Valid(data) {
			t.Fatalf("accepted %q, which is not one JSON value", data)
		}
		switch fr.Type {
		case "hello", "ping":
			if fr.Since < 0 || fr.ChatSince < 0 {
				t.Fatalf("accepted negative since %d/%d", fr.Since, fr.ChatSince)
			}
		case "act":
			c, err := fr.command()
			if err != nil {
				t.Fatalf("accepted an act whose command fails: %v", err)
			}
			checkCommand(t, c)
			// The Go client writes the command back to the same command.
			b, err := json.Marshal(client.Act(fr.ID, c))
			if err != nil {
				t.Fatal(err)
			}
			back, err := decodeFrame(b)
			if err != nil {
				t.Fatalf("the client's frame %s for %s is refused: %v", b, c, err)
			}
			c2, _ := back.command()
			if c2 != c || back.ID != fr.ID {
				t.Fatalf("%s read back as %+v (id %d), was %+v (id %d)", b, c2, back.ID, c, fr.ID)
			}
		case "chat":
			if fr.Channel == "" {
				t.Fatal("accepted a chat without a channel")
			}
			if !utf8.ValidString(fr.Text) {
				t.Fatalf("accepted invalid UTF-8 %q", fr.Text)
			}
			if n := utf8.RuneCountInString(fr.Text); n < 1 || n > game.MaxChat {
				t.Fatalf("accepted a chat of %d characters", n)
			}
		case "cover", "seen":
		case "decoy":
			if fr.Target < 0 || fr.Target > rules.MaxSeats {
				t.Fatalf("accepted a decoy on target %d", fr.Target)
			}
		default:
			t.Fatalf("accepted a frame of type %q", fr.Type)
		}
	})
}

func checkCommand(t *testing.T, c rules.Command) {
	t.Helper()
	if c.Kind == rules.CmdNone || strings.HasPrefix(c.Kind.String(), "cmd(") {
		t.Fatalf("command of kind %d", c.Kind)
	}
	if c.Seat != rules.NoSeat {
		t.Fatalf("the frame chose the seat %d", c.Seat)
	}
	if c.Target < 0 || c.Target > rules.MaxSeats { // 0: no target
		t.Fatalf("target %d is not a seat", c.Target)
	}
	if c.Mask&^seatBits != 0 {
		t.Fatalf("mask %#x names a seat outside 1..%d", c.Mask, rules.MaxSeats)
	}
	if c.Kind == rules.CmdClaim {
		if c.Value < rules.ClaimRole || c.Value > rules.ClaimGood {
			t.Fatalf("claim of kind %d", c.Value)
		}
		if (c.Value == rules.ClaimRole) != (c.Role != rules.NoRole) || !c.Role.Implemented() && c.Role != rules.NoRole {
			t.Fatalf("claim %d of role %v", c.Value, c.Role)
		}
	} else if c.Role != rules.NoRole {
		t.Fatalf("%s carries role %v", c.Kind, c.Role)
	}
}

// The seeds alone, as a plain test: also checks that the seeds do what
// their comments say, so the corpus stays meaningful.
func TestDecodeFrameSeeds(t *testing.T) {
	for _, tc := range []struct {
		in      string
		ok      bool
		errPart string
	}{
		{`{"type":"ping","id":1}` + strings.Repeat(" ", MaxFrame-22), true, ""},
		{`{"type":"ping","id":1}` + strings.Repeat(" ", MaxFrame-21), false, "larger than"},
		{`{"type":"act","cmd":"link","seats":[3,3]}`, false, "named twice"},
		{`{"type":"act","cmd":"vote","target":21}`, false, "not a seat"},
		{`{"type":"act","cmd":"take","value":128}`, false, "out of range"},
		{`{"type":"act","id":3}`, false, "cmd is required"},
		{`{"type":"act","cmd":"fly"}`, false, "unknown command"},
		{`{"type":"act","cmd":"skip","seat":3}`, false, "unknown field"},
		{`{"type":"chat","channel":"day","text":""}`, false, "1 to 500"},
		{`{"type":"ping"} {"type":"ping"}`, false, "data after"},
		{`{"type":"hello","since":-1}`, false, "negative"},
		{`{"type":"seen","id":4}`, true, ""},
		{`{"type":"decoy","id":5,"target":3,"pad":"` + strings.Repeat(" ", 40) + `"}`, true, ""},
		{`{"type":"decoy","id":5,"target":21}`, false, "not a seat"},
		{`{"type":"wink"}`, false, "(hello, act, chat, ping, cover, seen, decoy)"},
		{`{"type":"chat","channel":"day","text":"` + strings.Repeat("狼", game.MaxChat) + `"}`, true, ""},
	} {
		_, err := decodeFrame([]byte(tc.in))
		short := tc.in
		if len(short) > 60 {
			short = short[:60] + "…"
		}
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: %v", short, err)
		case !tc.ok && err == nil:
			t.Errorf("%s: accepted", short)
		case !tc.ok && !strings.Contains(err.Error(), tc.errPart):
			t.Errorf("%s: error %q does not say %q", short, err, tc.errPart)
		}
	}
}
