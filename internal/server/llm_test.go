package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/llm"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// TestLLMSeatsNeedAnEndpoint: a room of llm bots, or a seat played by the
// model, is refused by a server with no endpoint, naming the flags.
func TestLLMSeatsNeedAnEndpoint(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var ce *client.Error
	err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "bots": "llm"}, nil)
	if !errors.As(err, &ce) || ce.Status != 400 || ce.Code != "no_llm" || !strings.Contains(ce.Message, "--llm-url") {
		t.Fatalf("an llm room on a server without an endpoint: %v", err)
	}
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &c); err != nil {
		t.Fatal(err)
	}
	for body, code := range map[string]string{`{"seat": 2, "level": "llm"}`: "no_llm", `{"seat": 2, "level": "smart"}`: "bad_level"} {
		var in map[string]any
		_ = json.Unmarshal([]byte(body), &in)
		err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/bots", c.HostToken, in, nil)
		if !errors.As(err, &ce) || ce.Code != code {
			t.Fatalf("%s: %v, want %s", body, err, code)
		}
	}
}

// TestALLMRoomDoesNotStartWithoutAnEndpoint: a room of llm bots made while
// the server had an endpoint is refused at its start once it has none (a
// restart without --llm-url), and stays open.
func TestALLMRoomDoesNotStartWithoutAnEndpoint(t *testing.T) {
	ts := newTestServerWith(t, Options{LLM: &llm.Config{URL: "http://127.0.0.1:9/v1", Model: "m"}})
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "bots": "llm"}, &c); err != nil {
		t.Fatal(err)
	}
	ts.opts.LLM = nil
	var ce *client.Error
	err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil)
	if !errors.As(err, &ce) || ce.Code != "no_llm" {
		t.Fatalf("start: %v", err)
	}
	var info roomInfo
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info); err != nil || info.Status != "open" || info.Taken != 0 {
		t.Fatalf("the room after the refusal: %v %+v", err, info)
	}
}

var legalJSON = regexp.MustCompile(`Legal choices \(JSON\): (.*)\n`)
var promptSeat = regexp.MustCompile(`at seat (\d+) of`)

// modelEndpoint answers every question with the first legal choice that
// does something, on its first target, and at the floor a short speech.
func modelEndpoint(t *testing.T) (*httptest.Server, func() map[int]int) {
	var mu sync.Mutex
	calls := map[int]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []llm.Message `json:"messages"`
		}
		if r.Header.Get("Authorization") != "Bearer k" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) < 2 {
			http.Error(w, "bad request", 400)
			return
		}
		seat, _ := strconv.Atoi(promptSeat.FindStringSubmatch(req.Messages[0].Content)[1])
		mu.Lock()
		calls[seat]++
		mu.Unlock()
		var legal []game.ChoiceJSON
		if m := legalJSON.FindStringSubmatch(req.Messages[1].Content); m != nil {
			_ = json.Unmarshal([]byte(m[1]), &legal)
		}
		act := map[string]any{"cmd": "skip"}
		for _, c := range legal {
			if c.Cmd == "skip" || c.Cmd == "abstain" || c.Cmd == "explode" || c.Cmd == "withdraw" || c.Cmd == "tear" || c.Cmd == "duel" {
				continue
			}
			act = map[string]any{"cmd": c.Cmd, "value": c.Value}
			if c.Pick > 0 {
				act["seats"] = c.Targets[:c.Pick]
			} else if len(c.Targets) > 0 {
				act["target"] = c.Targets[0]
			}
			break
		}
		reply := map[string]any{"action": act}
		if strings.Contains(req.Messages[1].Content, "You have the floor") {
			reply = map[string]any{"speech": "I am a villager.", "action": map[string]any{"cmd": "skip"}}
		}
		b, _ := json.Marshal(reply)
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": string(b)}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, func() map[int]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[int]int{}
		for k, v := range calls {
			out[k] = v
		}
		return out
	}
}

// TestLLMSeatsPlayAGameOnTheServer: a room whose bots are llm, started
// with nobody seated: every seat is played through the endpoint, as a
// connection of its own, and the game ends. A seat asked for in a smart
// room is the model's; the others stay the server's bots.
func TestLLMSeatsPlayAGameOnTheServer(t *testing.T) {
	srv, calls := modelEndpoint(t)
	ts := newTestServerWith(t, Options{LLM: &llm.Config{URL: srv.URL + "/v1", Model: "m", Key: "k"}})
	ctx := context.Background()
	timers := map[string]string{"setup": "400ms", "night": "400ms", "witch": "400ms", "tick": "10ms",
		"speech": "2s", "vote": "2s", "other": "2s", "bot": "0s"}

	var mixed client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "timers": timers}, &mixed); err != nil {
		t.Fatal(err)
	}
	var info roomInfo
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+mixed.Room.ID+"/bots", mixed.HostToken, map[string]any{"seat": 2, "level": "llm"}, &info); err != nil {
		t.Fatal(err)
	}
	if !info.Seats[1].LLM || !info.Seats[1].Bot || info.Seats[2].LLM {
		t.Fatalf("seats: %+v", info.Seats[:3])
	}

	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "bots": "llm", "timers": timers}, &c); err != nil {
		t.Fatal(err)
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, &info); err != nil {
		t.Fatal(err)
	}
	for _, s := range info.Seats {
		if !s.LLM {
			t.Fatalf("seat %d is not the model's", s.Seat)
		}
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if err := ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info); err != nil {
			t.Fatal(err)
		}
		if info.Status == "over" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end: %+v", info.Game)
		}
		time.Sleep(50 * time.Millisecond)
	}
	got := calls()
	for s := 1; s <= 9; s++ {
		if got[s] == 0 {
			t.Errorf("seat %d never asked the model (%v)", s, got)
		}
	}
	t.Logf("calls by seat: %v", got)
}

// TestLLMSeatsResumeAfterARestart: a game of model seats stopped mid-game
// resumes on the next server, its players joined again from the start of
// their streams, and ends.
func TestLLMSeatsResumeAfterARestart(t *testing.T) {
	srv, calls := modelEndpoint(t)
	opts := Options{LLM: &llm.Config{URL: srv.URL + "/v1", Model: "m", Key: "k"}}
	path := filepath.Join(t.TempDir(), "w.db")
	open := func() (*Server, *client.API, func()) {
		st, err := sqlite.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		s := New(st, opts)
		if _, err := s.Restore(context.Background()); err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(s)
		return s, &client.API{Base: hs.URL}, func() { hs.Close(); s.Stop(); st.Close() }
	}
	ctx := context.Background()
	_, api, stop := open()
	timers := map[string]string{"setup": "400ms", "night": "400ms", "witch": "400ms", "tick": "10ms",
		"speech": "2s", "vote": "2s", "other": "2s", "bot": "0s"}
	var c client.Created
	if err := api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "bots": "llm", "timers": timers}, &c); err != nil {
		t.Fatal(err)
	}
	if err := api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	total := func() int {
		n := 0
		for _, v := range calls() {
			n += v
		}
		return n
	}
	for total() < 12 {
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	before := total()
	_, api, stop = open()
	defer stop()
	var info roomInfo
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if err := api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info); err != nil {
			t.Fatal(err)
		}
		if info.Status == "over" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the resumed game did not end: %+v", info.Game)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if total() <= before {
		t.Fatalf("the model was not asked after the restart (%d calls before, %d after)", before, total())
	}
	t.Logf("%d calls before the restart, %d after", before, total()-before)
}
