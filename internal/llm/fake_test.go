package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// fake is a chat-completions endpoint written for the tests: answer gives
// the content of each reply (and how long to take), from the seat and the
// conversation it was sent.
type fake struct {
	t      *testing.T
	srv    *httptest.Server
	answer func(seat int, msgs []Message) (string, time.Duration)

	mu    sync.Mutex
	convs map[int][][]Message // every conversation received, by seat
	seed  map[int][]int64     // the seed of each, by seat
	// cancelled counts the calls the player gave up before the reply
	// came; bad counts requests that were not what an endpoint expects.
	cancelled, bad atomic.Int32
}

const testKey = "sk-test-0123456789"

var seatOfPrompt = regexp.MustCompile(`at seat (\d+) of`)

func newFake(t *testing.T, answer func(seat int, msgs []Message) (string, time.Duration)) *fake {
	f := &fake{t: t, answer: answer, convs: map[int][][]Message{}, seed: map[int][]int64{}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer "+testKey ||
			json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "test-model" || len(req.Messages) < 2 {
			f.bad.Add(1)
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		m := seatOfPrompt.FindStringSubmatch(req.Messages[0].Content)
		seat, _ := strconv.Atoi(m[1])
		f.mu.Lock()
		f.convs[seat] = append(f.convs[seat], req.Messages)
		f.seed[seat] = append(f.seed[seat], req.Seed)
		if req.Temperature != 0.2 || req.MaxTokens == 0 {
			f.bad.Add(1)
		}
		f.mu.Unlock()
		content, wait := f.answer(seat, req.Messages)
		if wait > 0 {
			select {
			case <-time.After(wait):
			case <-r.Context().Done():
				f.cancelled.Add(1)
				return
			}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) config() *Config {
	return &Config{URL: f.srv.URL + "/v1", Model: "test-model", Key: testKey, Timeout: 5 * time.Second, Temperature: 0.2}
}

func (f *fake) seeds(seat int) []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.seed[seat])
}

func (f *fake) conversations(seat int) [][]Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.convs[seat])
}

var legalLine = regexp.MustCompile(`Legal choices \(JSON\): (.*)\n`)

// legalOf reads the legal choices the conversation's first prompt lists.
func legalOf(msgs []Message) []game.ChoiceJSON {
	var out []game.ChoiceJSON
	if m := legalLine.FindStringSubmatch(msgs[1].Content); m != nil {
		_ = json.Unmarshal([]byte(m[1]), &out)
	}
	return out
}

func hasFloor(msgs []Message) bool { return strings.Contains(msgs[1].Content, "You have the floor") }

// pick is a plain legal action: the first choice that does something
// (not a pass, nor an explosion or a withdrawal), on its first targets.
func pick(msgs []Message) map[string]any {
	for _, c := range legalOf(msgs) {
		switch c.Cmd {
		case "skip", "abstain", "explode", "withdraw", "duel", "tear":
			continue
		}
		a := map[string]any{"cmd": c.Cmd}
		if c.Value != 0 {
			a["value"] = c.Value
		}
		switch {
		case c.Pick > 0:
			a["seats"] = c.Targets[:c.Pick]
		case len(c.Targets) > 0:
			a["target"] = c.Targets[0]
		}
		return a
	}
	return map[string]any{"cmd": "skip"}
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// plain answers every question with a legal action, and at the floor a
// short speech.
func plain(seat int, msgs []Message) (string, time.Duration) {
	if hasFloor(msgs) {
		return js(map[string]any{"speech": "I listened to everyone; let us be careful today.", "action": map[string]any{"cmd": "skip"}}), 0
	}
	return js(map[string]any{"action": pick(msgs)}), 0
}

func testTimers() game.Timers {
	d := 500 * time.Millisecond
	return game.Timers{Setup: d, Night: d, Witch: d, Speech: d, Vote: d, Other: d, Bot: 0, Tick: 20 * time.Millisecond}
}

// match is a game whose seats in llm are played by the fake's model and the
// others by smart bots.
type match struct {
	a     *game.Actor
	st    *memory.Store
	over  chan rules.Camp
	errs  chan error
	seats []rules.Seat
}

func std12Board(t *testing.T) rules.Board {
	p, err := rules.LookupPreset("std-12")
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(12)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// std12Deal: the wolves at 1, 4, 8, 11; the seer 3, the witch 6, the hunter
// 9, the idiot 12; villagers 2, 5, 7, 10.
var std12Deal = []rules.Role{rules.Werewolf, rules.Villager, rules.Seer, rules.Werewolf, rules.Villager, rules.Witch,
	rules.Villager, rules.Werewolf, rules.Hunter, rules.Villager, rules.Werewolf, rules.Idiot}

func startMatch(t *testing.T, f *fake, cfg *Config, seed uint64, llm ...rules.Seat) *match {
	t.Helper()
	return startMatchWith(t, cfg, seed, nil, llm...)
}

// startMatchWith calls before, if set, once the game has started and
// before its players join.
func startMatchWith(t *testing.T, cfg *Config, seed uint64, before func(*game.Actor), llm ...rules.Seat) *match {
	t.Helper()
	b := std12Board(t)
	all := uint32(1)<<13 - 2
	m := &match{st: memory.New(), over: make(chan rules.Camp, 1), errs: make(chan error, len(llm)), seats: llm}
	gc := game.Config{Board: b, Seed: seed, Timers: testTimers(), Bots: all &^ rules.Mask(llm...), Level: bot.Smart, Deal: std12Deal}
	a, err := game.Start(context.Background(), "g", gc, m.st, game.Hooks{Over: func(w rules.Camp) { m.over <- w }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.a = a
	t.Cleanup(a.Stop)
	if before != nil {
		before(a)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	for _, s := range llm {
		frames, table, leave, err := Attach(a, s, cancel)
		if err != nil {
			t.Fatal(err)
		}
		p := NewPlayer(cfg, s, b.Players(), SeatSeed(seed, s), frames, table, nil)
		go func() { defer leave(); m.errs <- p.Run(ctx) }()
	}
	return m
}

// wait waits for the end of the game and of its players.
func (m *match) wait(t *testing.T, limit time.Duration) rules.Camp {
	t.Helper()
	var w rules.Camp
	select {
	case w = <-m.over:
	case <-time.After(limit):
		t.Fatalf("the game did not end in %v", limit)
	}
	for range m.seats {
		select {
		case err := <-m.errs:
			if err != nil {
				t.Errorf("a player ended with %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a player did not stop at the end of the game")
		}
	}
	return w
}

// commands lists the commands stored for seat, each as "cmd" (bot: played
// by the server's bot for an away seat), and the timeouts.
func (m *match) commands(t *testing.T, seat rules.Seat) (mine []string, bots, timeouts int) {
	recs, err := m.st.Records(context.Background(), "g")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		switch r.Kind {
		case "timeout":
			timeouts++
		case "cmd":
			var c struct {
				Seat rules.Seat
				Cmd  string
				Bot  bool
			}
			_ = json.Unmarshal(r.Body, &c)
			if c.Seat == seat && c.Bot {
				bots++
			} else if c.Seat == seat {
				mine = append(mine, c.Cmd)
			}
		}
	}
	return mine, bots, timeouts
}

// chats lists the messages stored for seat.
func (m *match) chats(t *testing.T, seat rules.Seat) []string {
	recs, _ := m.st.Records(context.Background(), "g")
	var out []string
	for _, r := range recs {
		if r.Kind == "chat" {
			var c struct {
				Seat rules.Seat `json:"seat"`
				Text string     `json:"text"`
			}
			_ = json.Unmarshal(r.Body, &c)
			if c.Seat == seat {
				out = append(out, c.Text)
			}
		}
	}
	return out
}

// events is the game's whole log.
func (m *match) events(t *testing.T) []rules.Event {
	recs, _ := m.st.Records(context.Background(), "g")
	var out []rules.Event
	for _, r := range recs {
		out = append(out, r.Events...)
	}
	return out
}

var _ store.Store = (*memory.Store)(nil)

func fmtCmds(c []string) string { return fmt.Sprint(len(c), " ", c) }
