package arena

import (
	"context"
	"encoding/json"
	"math/bits"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/llm"
	"github.com/wolfden/wolfden/rules"
)

var legalLine = regexp.MustCompile(`Legal choices \(JSON\): (.*)\n`)

// endpoint is a chat-completions endpoint that plays the first legal
// action it is offered (a short speech at the floor), and reports 100
// prompt and 20 completion tokens for each answer.
func endpoint(t *testing.T, calls *atomic.Int64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string        `json:"model"`
			Messages []llm.Message `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "fake" || len(req.Messages) < 2 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		calls.Add(1)
		prompt := req.Messages[1].Content
		action := map[string]any{"cmd": "skip"}
		var choices []game.ChoiceJSON
		if m := legalLine.FindStringSubmatch(prompt); m != nil {
			_ = json.Unmarshal([]byte(m[1]), &choices)
		}
		for _, c := range choices {
			if c.Cmd == "skip" || c.Cmd == "abstain" || c.Cmd == "explode" || c.Cmd == "withdraw" || c.Cmd == "duel" || c.Cmd == "tear" {
				continue
			}
			action = map[string]any{"cmd": c.Cmd}
			if c.Value != 0 {
				action["value"] = c.Value
			}
			switch {
			case c.Pick > 0:
				action["seats"] = c.Targets[:c.Pick]
			case len(c.Targets) > 0:
				action["target"] = c.Targets[0]
			}
			break
		}
		reply := map[string]any{"action": action}
		if strings.Contains(prompt, "You have the floor") {
			reply = map[string]any{"speech": "I listened to everyone; let us be careful today.", "action": map[string]any{"cmd": "skip"}}
		}
		content, _ := json.Marshal(reply)
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": string(content)}}},
			"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A model's seats play through the endpoint as a server's do; the model is
// rated on its sides like a bot, with its calls, tokens and time per game;
// each game is kept with its messages.
func TestAModelPlaysAndIsRatedWithItsCost(t *testing.T) {
	var calls atomic.Int64
	srv := endpoint(t, &calls)
	programs, err := ParsePrograms("smart,llm:fake", &llm.Config{URL: srv.URL + "/v1", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	d := 300 * time.Millisecond
	timers := game.Timers{Setup: d, Night: d, Witch: d, Speech: d, Vote: d, Other: d, Tick: 20 * time.Millisecond}
	var mu sync.Mutex
	chats, notes := 0, 0
	keep := func(_ context.Context, g *Game) error {
		mu.Lock()
		defer mu.Unlock()
		ended := false // the game-over event is in an earlier record
		for _, r := range g.Log {
			switch r.Kind {
			case "chat":
				chats++
			case game.NoteKind:
				// A model's reply is kept after the end only: no frame
				// of the game could have held it.
				var n game.Note
				if err := json.Unmarshal(r.Body, &n); err != nil || !ended || g.Seats[n.Seat-1] != "llm:fake" || !strings.Contains(n.Text, `"action"`) {
					t.Errorf("game %d: note record %d (after the end: %v): %s", g.Index, r.N, ended, r.Body)
				}
				notes++
			}
			for _, e := range r.Events {
				ended = ended || e.Kind == rules.EvGameOver
			}
		}
		return nil
	}
	res, err := Run(context.Background(), Config{Board: preset(t, "std-12"), Programs: programs, Games: 2, Seed: 1,
		Timers: timers, Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, s := range res.Standings {
		switch s.Program {
		case "llm:fake":
			found++
			// Every call is counted, those the player gave up (its
			// question overtaken) too; tokens only for answers read.
			if s.Model == nil || s.Model.Tokens <= 0 || s.Model.Seconds <= 0 {
				t.Fatalf("the model's cost: %+v", s.Model)
			}
			answered := s.Model.Tokens * 2 / 120
			if answered != float64(int(answered)) || answered > float64(calls.Load()) || float64(calls.Load()) > s.Model.Calls*2 {
				t.Errorf("%+v per game over 2 games; the endpoint took %d calls", s.Model, calls.Load())
			}
		case string(bot.Smart):
			if s.Model != nil {
				t.Errorf("a bot with a model's cost: %+v", s)
			}
		}
	}
	if found != 2 || chats == 0 || notes == 0 {
		t.Errorf("the model rated on %d sides, %d messages and %d of its replies kept:\n%+v", found, chats, notes, res.Standings)
	}
}

// A table of programs waits for no timer: with every timer an hour long,
// games whose wolf team holds the model and a bot end as soon as everyone
// has acted. (The bots of a team with people in it keep the wolves' slot
// open until its end, so that a person may change his pick; a game of
// programs has no such person and no schedule to keep.)
func TestAModelsGameWaitsForNoTimer(t *testing.T) {
	var calls atomic.Int64
	srv := endpoint(t, &calls)
	programs, err := ParsePrograms("smart,llm:fake", &llm.Config{URL: srv.URL + "/v1", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h := game.MaxTimer
	timers := game.Timers{Setup: h, Night: h, Witch: h, Speech: h, Vote: h, Other: h, Tick: 20 * time.Millisecond}
	var mu sync.Mutex
	mixed := 0
	keep := func(_ context.Context, g *Game) error {
		mu.Lock()
		defer mu.Unlock()
		for _, r := range g.Log {
			if r.Kind == "timeout" {
				t.Errorf("game %d: a timer ran out (record %d)", g.Index, r.N)
			}
			for _, e := range r.Events {
				if e.Kind != rules.EvWolfTeam {
					continue
				}
				progs := map[string]bool{}
				for m := e.Mask; m != 0; m &= m - 1 {
					progs[g.Seats[bits.TrailingZeros32(m)-1]] = true
				}
				if len(progs) == 2 {
					mixed++
				}
			}
		}
		return nil
	}
	// The guard only turns a game stuck on its timers into a failure.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := Run(ctx, Config{Board: preset(t, "std-12"), Programs: programs, Games: 2, Seed: 1,
		Timers: timers, Keep: keep}); err != nil {
		t.Fatalf("the games did not end without their timers: %v", err)
	}
	if mixed == 0 {
		t.Errorf("no game had a wolf team of the model and a bot; the test proves nothing")
	}
}
