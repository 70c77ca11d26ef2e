package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/voice"
	"github.com/wolfden/wolfden/internal/voice/synth"
)

func newVoiceServer(t *testing.T) *testServer {
	t.Helper()
	st, err := voice.NewStack(voice.Options{Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return newTestServerWith(t, Options{Voice: st})
}

type voiceOffer struct {
	ID  string `json:"id"`
	SDP string `json:"sdp"`
}

// joinVoice asks for the server's offer for token's seat (a spectator's
// with none), answers it, and returns the browser.
func joinVoice(t *testing.T, ts *testServer, room, token string) *synth.Browser {
	t.Helper()
	b, _ := joinVoiceID(t, ts, room, token)
	return b
}

// joinVoiceID is joinVoice that also returns the connection's id.
func joinVoiceID(t *testing.T, ts *testServer, room, token string) (*synth.Browser, string) {
	t.Helper()
	ctx := context.Background()
	var o voiceOffer
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+room+"/voice", "", map[string]any{"token": token}, &o); err != nil {
		t.Fatal(err)
	}
	b, answer, err := synth.Answer(o.SDP, token != "", true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+room+"/voice/answer", "", map[string]any{"token": token, "id": o.ID, "sdp": answer}, nil); err != nil {
		t.Fatal(err)
	}
	return b, o.ID
}

// TestAtNightOnlyTheWolvesHearAWolf plays a std-9 night of people who do
// not act: a wolf speaks without pause; his mate hears him, a villager's
// and a spectator's track of his seat carry silence only, and every one
// gets packets of one size.
func TestAtNightOnlyTheWolvesHearAWolf(t *testing.T) {
	ts := newVoiceServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	timers := map[string]string{"setup": "60s", "night": "60s", "witch": "60s", "tick": "100ms",
		"speech": "60s", "vote": "60s", "other": "60s", "bot": "0s"}
	c, players := ts.table(t, map[string]any{"preset": "std-9", "seed": 3, "practice": true, "timers": timers})
	id := c.Room.ID
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+id+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	roles := map[string][]seated{}
	for _, p := range players {
		conn, err := client.Dial(ctx, ts.http.URL, id, p.Token, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for f := range conn.Frames {
			if f.Type == "state" && f.Role != "" {
				roles[f.Role] = append(roles[f.Role], p)
				break
			}
		}
		// Seen: the night falls once every seat has looked at its card.
		if err := conn.Send(ctx, map[string]any{"type": "seen", "id": 1}); err != nil {
			t.Fatal(err)
		}
		for f := range conn.Frames {
			if f.Type == "ack" || f.Type == "error" {
				break
			}
		}
		conn.Close()
	}
	wolves, villagers := roles["werewolf"], roles["villager"]
	if len(wolves) < 2 || len(villagers) < 1 {
		t.Fatalf("the deal: %v", roles)
	}
	speaker, mate, villager := wolves[0], wolves[1], villagers[0]
	talk := joinVoice(t, ts, id, speaker.Token)
	hearMate := joinVoice(t, ts, id, mate.Token)
	hearVillager := joinVoice(t, ts, id, villager.Token)
	hearSpectator := joinVoice(t, ts, id, "")
	track := fmt.Sprintf("seat-%d", speaker.Seat)
	var voiceFrame []byte // the wolf's frame as his mate hears it
	for {
		if err := talk.Speak(synth.Mark(byte(speaker.Seat))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond) // a microphone's pace
		heard := false
		for _, p := range hearMate.Packets(track) {
			if len(p.Payload) == voice.FrameSize && bytes.Contains(p.Payload, synth.Mark(byte(speaker.Seat))[1:]) {
				heard, voiceFrame = true, p.Payload
			}
		}
		if heard && hearVillager.Count(track) >= 50 && hearSpectator.Count(track) >= 50 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the mate heard the wolf: %v; the villager got %d packets, the spectator %d", heard,
				hearVillager.Count(track), hearSpectator.Count(track))
		}
	}
	for who, b := range map[string]*synth.Browser{"the villager": hearVillager, "a spectator": hearSpectator} {
		for _, p := range b.Packets(track) {
			if len(p.Payload) != voice.FrameSize {
				t.Fatalf("%s got a packet of %d bytes", who, len(p.Payload))
			}
			if bytes.Equal(p.Payload, voiceFrame) {
				t.Fatalf("%s heard the wolf at night", who)
			}
		}
	}
}

func TestVoiceRequestsAreChecked(t *testing.T) {
	ctx := context.Background()
	off := newTestServer(t)
	c, players := off.table(t, map[string]any{"preset": "std-9", "practice": true})
	_ = players
	var e *client.Error
	if err := off.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/voice", "", map[string]any{}, nil); !errors.As(err, &e) || e.Code != "no_voice" {
		t.Fatalf("voice on a server without it: %v", err)
	}

	ts := newVoiceServer(t)
	c, players = ts.table(t, map[string]any{"preset": "std-9", "seed": 3, "practice": true,
		"timers": map[string]string{"night": "60s", "setup": "60s", "tick": "100ms"}})
	id := "/api/rooms/" + c.Room.ID
	if err := ts.api.Do(ctx, "POST", id+"/voice", "", map[string]any{"token": players[0].Token}, nil); !errors.As(err, &e) || e.Code != "not_running" {
		t.Fatalf("voice before the game: %v", err)
	}
	if err := ts.api.Do(ctx, "POST", id+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := ts.api.Do(ctx, "POST", id+"/voice", "", map[string]any{"token": "not-a-token"}, nil); !errors.As(err, &e) || e.Code != "token" {
		t.Fatalf("a token of no seat: %v", err)
	}
	var o voiceOffer
	if err := ts.api.Do(ctx, "POST", id+"/voice", "", map[string]any{"token": players[0].Token}, &o); err != nil {
		t.Fatal(err)
	}
	// Another seat cannot answer seat 1's offer, nor can a spectator.
	for _, tok := range []string{players[1].Token, ""} {
		if err := ts.api.Do(ctx, "POST", id+"/voice/answer", "", map[string]any{"token": tok, "id": o.ID, "sdp": "v=0"}, nil); !errors.As(err, &e) || e.Code != "no_voice_connection" {
			t.Fatalf("answering another's offer: %v", err)
		}
	}
	if err := ts.api.Do(ctx, "POST", id+"/voice/answer", "", map[string]any{"token": players[0].Token, "id": o.ID, "sdp": "v=0"}, nil); !errors.As(err, &e) || e.Code != "bad_sdp" {
		t.Fatalf("a malformed answer: %v", err)
	}
	// The refused answer closed the connection: it is gone.
	if err := ts.api.Do(ctx, "POST", id+"/voice/answer", "", map[string]any{"token": players[0].Token, "id": o.ID, "sdp": "v=0"}, nil); !errors.As(err, &e) || e.Code != "no_voice_connection" {
		t.Fatalf("answering a closed connection: %v", err)
	}
	if err := ts.api.Do(ctx, "POST", id+"/voice/mute", players[0].Token, map[string]any{"seat": 2, "on": true}, nil); !errors.As(err, &e) || e.Code != "not_host" {
		t.Fatalf("a player mutes: %v", err)
	}
	if err := ts.api.Do(ctx, "POST", id+"/voice/mute", c.HostToken, map[string]any{"seat": 10, "on": true}, nil); !errors.As(err, &e) || e.Code != "bad_seat" {
		t.Fatalf("muting seat 10 of 9: %v", err)
	}
	if err := ts.api.Do(ctx, "POST", id+"/voice/mute", c.HostToken, map[string]any{"seat": 2, "on": true}, nil); err != nil {
		t.Fatalf("the host mutes: %v", err)
	}
}
