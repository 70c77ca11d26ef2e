package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/sqlite"
	"github.com/wolfden/wolfden/rules"
	"github.com/wolfden/wolfden/sim"
)

// nineCustom is a 9-player custom board: the create page's board file.
const nineCustom = "players: 9\ncards:\n  werewolf: 3\n  seer: 1\n  witch: 1\n  guard: 1\n  villager: 3\noptions:\n  sheriff: \"none\"\n"

type balanceReply struct {
	Preset      string            `json:"preset"`
	Players     int               `json:"players"`
	Cards       []string          `json:"cards"`
	Options     map[string]string `json:"options"`
	Source      string            `json:"source"`
	Balance     sim.Balance       `json:"balance"`
	Suggestions []struct {
		sim.Change
		Balance sim.Balance `json:"balance"`
	} `json:"suggestions"`
	Error *struct{ Code, Message string } `json:"error"`
}

func postBalance(t testing.TB, ts *testServer, query string, body any) (int, balanceReply) {
	t.Helper()
	var buf []byte
	switch b := body.(type) {
	case string:
		buf = []byte(b)
	default:
		buf, _ = json.Marshal(b)
	}
	res, err := http.Post(ts.http.URL+"/api/balance"+query, "application/json", bytes.NewReader(buf))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out balanceReply
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, out
}

func checkRate(t *testing.T, what string, r sim.Rate) {
	t.Helper()
	if !(r.Low <= r.Rate && r.Rate <= r.High && r.Low >= 0 && r.High <= 1) {
		t.Errorf("%s: %+v is not a rate inside its interval", what, r)
	}
}

// slowMachine is the tests' budget for a simulation: under the race detector
// on a loaded machine a 2,000-game estimate takes far longer than the
// server's 5 s, and a test waits on the answer, not on the clock.
const slowMachine = 10 * time.Minute

func TestBalanceOfAPresetComesFromTheTable(t *testing.T) {
	ts := newTestServerWith(t, Options{BalanceBudget: slowMachine})
	code, out := postBalance(t, ts, "", map[string]any{"preset": "std-12"})
	if code != http.StatusOK {
		t.Fatalf("%d %+v", code, out.Error)
	}
	tab, _ := sim.PresetBalances()
	p, _ := rules.LookupPreset("std-12")
	b, _ := p.Board(0)
	want, ok := tab.Lookup(b)
	if !ok || out.Source != "table" || out.Balance != want.Balance || out.Balance.Games != sim.PresetTableGames {
		t.Fatalf("std-12: %s %+v, want the table's %+v", out.Source, out.Balance, want.Balance)
	}
	// the table, served as it is embedded
	res, err := http.Get(ts.http.URL + "/api/balance/presets")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got sim.PresetTable
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || res.StatusCode != 200 {
		t.Fatal(res.StatusCode, err)
	}
	if len(got.Presets) != len(tab.Presets) || got.Games != tab.Games {
		t.Errorf("GET /api/balance/presets: %d rows of %d games", len(got.Presets), got.Games)
	}
	// a preset with an option changed is simulated
	code, out = postBalance(t, ts, "", map[string]any{"preset": "std-12", "options": map[string]string{"wolf_win": "kill_all"}})
	if code != http.StatusOK || out.Source != "simulation" || out.Balance.Games != 2000 || out.Options["wolf_win"] != "kill_all" {
		t.Fatalf("std-12 kill_all: %d %s %+v %+v", code, out.Source, out.Balance, out.Error)
	}
}

func TestBalanceOfACustomBoardIsDeterministic(t *testing.T) {
	ts := newTestServerWith(t, Options{BalanceBudget: slowMachine})
	code, a := postBalance(t, ts, "", map[string]any{"board": nineCustom})
	if code != http.StatusOK {
		t.Fatalf("%d %+v", code, a.Error)
	}
	if a.Source != "simulation" || a.Players != 9 || a.Balance.Games != int64(sim.QuickGames(9)) {
		t.Fatalf("%+v", a)
	}
	checkRate(t, "village", a.Balance.Village)
	checkRate(t, "wolves", a.Balance.Wolves)
	if a.Balance.Village.Games+a.Balance.Wolves.Games+a.Balance.Third.Games+a.Balance.Draw.Games != a.Balance.Games {
		t.Errorf("the camps' games do not add up: %+v", a.Balance)
	}
	// the same board, its cards in another order: the same figures
	other := strings.Replace(nineCustom, "  werewolf: 3\n", "", 1) + "" // move the wolves last
	other = strings.Replace(other, "  villager: 3\n", "  villager: 3\n  werewolf: 3\n", 1)
	code, b := postBalance(t, ts, "", map[string]any{"board": other})
	if code != http.StatusOK || b.Balance != a.Balance {
		t.Fatalf("the same board twice: %+v, then %d %+v", a.Balance, code, b.Balance)
	}
	// another server (another secret): the same figures; a room's seed is no part of them
	ts2 := newTestServerWith(t, Options{BalanceBudget: slowMachine})
	if _, c := postBalance(t, ts2, "", map[string]any{"board": nineCustom}); c.Balance != a.Balance {
		t.Fatalf("another server: %+v, not %+v", c.Balance, a.Balance)
	}
	bd, _, _ := balanceBoard(&balanceRequest{Board: nineCustom})
	if a.Balance.Seed != sim.BoardSeed(bd) {
		t.Errorf("seed %d, not the board's %d", a.Balance.Seed, sim.BoardSeed(bd))
	}
}

func TestBalanceRefusesBadBoardsNamingTheProblem(t *testing.T) {
	ts := newTestServerWith(t, Options{BalancePerMinute: -1, BalanceBudget: slowMachine})
	for _, c := range []struct {
		body       any
		code, want string
	}{
		{map[string]any{"preset": "std-13"}, "bad_board", `unknown preset "std-13"`},
		{map[string]any{"preset": "std-12", "players": 9}, "bad_board", "std-12 is for 12 players, not 9"},
		{map[string]any{"board": "players: 4\ncards:\n  werewolf: 4\n"}, "bad_board", "at least one non-wolf"},
		{map[string]any{"board": "players: 5\ncards:\n  werewolf: 1\n  seer: 2\n  villager: 2\n"}, "bad_board", "at most one seer"},
		{map[string]any{"board": "players: 3\ncards:\n  werewolf: 1\n  wizard: 1\n  villager: 1\n"}, "bad_board", "wizard"},
		{map[string]any{"preset": "std-12", "options": map[string]string{"witch_self_heal": "sometimes"}}, "bad_board", `witch_self_heal`},
		{map[string]any{"preset": "std-12", "board": nineCustom}, "bad_board", "not both"},
		{map[string]any{"preset": "std-12", "seed": 42}, "seed", "no seed"},
		{map[string]any{"preset": "std-12", "seed": 42, "practice": true}, "seed", "no seed"},
		{map[string]any{"preset": "std-12", "room": "abcdefghijklmnop"}, "seed", "room"},
		{map[string]any{"preset": "std-12", "deal": []string{"seer"}}, "seed", "deal"},
		{map[string]any{"preset": "std-12", "timers": map[string]string{"speech": "1s"}}, "bad_json", `unknown field "timers"`},
		{`{"preset": "std-12"`, "bad_json", "malformed"},
	} {
		code, out := postBalance(t, ts, "", c.body)
		if code != http.StatusBadRequest || out.Error == nil || out.Error.Code != c.code || !strings.Contains(out.Error.Message, c.want) {
			t.Errorf("%v: %d %+v, want 400 %s naming %q", c.body, code, out.Error, c.code, c.want)
		}
	}
	if code, out := postBalance(t, ts, "?suggest=maybe", map[string]any{"preset": "std-12"}); code != 400 || out.Error.Code != "bad_query" {
		t.Errorf("suggest=maybe: %d %+v", code, out.Error)
	}
	if code, out := postBalance(t, ts, "?room=abc", map[string]any{"preset": "std-12"}); code != 400 || out.Error.Code != "bad_query" {
		t.Errorf("room=abc: %d %+v", code, out.Error)
	}
}

func TestBalanceIsRateLimitedPerAddress(t *testing.T) {
	ts := newTestServerWith(t, Options{BalancePerMinute: 5, BalanceBudget: slowMachine})
	for i := range 5 {
		if code, out := postBalance(t, ts, "", map[string]any{"preset": "std-12"}); code != 200 {
			t.Fatalf("request %d: %d %+v", i+1, code, out.Error)
		}
	}
	if code, out := postBalance(t, ts, "", map[string]any{"preset": "std-12"}); code != http.StatusTooManyRequests || out.Error.Code != "rate" {
		t.Fatalf("request 6: %d %+v", code, out.Error)
	}
}

// TestBalanceSuggestions: at most five edits, each one change of the board
// that the board takes, nearest 50% first, the same twice.
func TestBalanceSuggestions(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 10,000 games")
	}
	ts := newTestServerWith(t, Options{BalancePerMinute: -1, BalanceBudget: slowMachine})
	start := time.Now()
	code, a := postBalance(t, ts, "?suggest=1", map[string]any{"board": nineCustom})
	if code != 200 {
		t.Fatalf("%d %+v", code, a.Error)
	}
	t.Logf("suggestions for a 9-player board in %v", time.Since(start))
	if len(a.Suggestions) == 0 || len(a.Suggestions) > 5 {
		t.Fatalf("%d suggestions", len(a.Suggestions))
	}
	base, _, _ := balanceBoard(&balanceRequest{Board: nineCustom})
	dist := func(r sim.Rate) float64 { return max(r.Rate-0.5, 0.5-r.Rate) }
	for i, s := range a.Suggestions {
		checkRate(t, "suggestion", s.Balance.Village)
		if i > 0 && dist(s.Balance.Village) < dist(a.Suggestions[i-1].Balance.Village) {
			t.Errorf("suggestion %d is nearer 50%% than the one before", i)
		}
		// apply the change: one card, or one option, of the board's
		b := rules.Board{Cards: slices.Clone(base.Cards), Options: base.Options}
		if s.Kind == "option" {
			o, err := rules.ParseOption(s.Option)
			if err != nil || b.Options.Get(o) != s.From || s.From == s.To {
				t.Fatalf("%+v: not a change of the board's option (%v)", s.Change, err)
			}
			if err := b.Options.Set(s.Option, s.To); err != nil {
				t.Fatal(err)
			}
		} else {
			from, err1 := rules.ParseRole(s.From)
			to, err2 := rules.ParseRole(s.To)
			i := slices.Index(b.Cards, from)
			if err1 != nil || err2 != nil || i < 0 || from == to {
				t.Fatalf("%+v: not a card of the board for another", s.Change)
			}
			b.Cards[i] = to
		}
		if err := b.Validate(); err != nil {
			t.Errorf("%+v: %v", s.Change, err)
		}
		if sim.BoardSeed(b) != s.Balance.Seed {
			t.Errorf("%+v: seeded %d, not with its board's seed", s.Change, s.Balance.Seed)
		}
	}
	code, b := postBalance(t, ts, "?suggest=1", map[string]any{"board": nineCustom})
	if code != 200 || len(b.Suggestions) != len(a.Suggestions) {
		t.Fatalf("again: %d, %d suggestions", code, len(b.Suggestions))
	}
	for i := range a.Suggestions {
		if a.Suggestions[i].Change != b.Suggestions[i].Change || a.Suggestions[i].Balance != b.Suggestions[i].Balance {
			t.Errorf("suggestion %d: %+v, then %+v", i, a.Suggestions[i], b.Suggestions[i])
		}
	}
}

// BenchmarkBalance times POST /api/balance and a search for suggestions
// (docs/server.md, "Balance"): std-12 (from the table; with an option
// changed, simulated) and a 9-player custom board.
//
//	go test ./internal/server -run XXX -bench Balance -benchtime 5x
func BenchmarkBalance(b *testing.B) {
	ts := newBenchServer(b)
	std12 := map[string]any{"preset": "std-12"}
	std12Changed := map[string]any{"preset": "std-12", "options": map[string]string{"last_words": "all"}}
	nine := map[string]any{"board": nineCustom}
	for _, c := range []struct {
		name, query string
		body        any
	}{
		{"std-12/table", "", std12},
		{"std-12-last-words-all/simulated", "", std12Changed},
		{"custom-9/simulated", "", nine},
		{"std-12/suggest", "?suggest=1", std12},
		{"custom-9/suggest", "?suggest=1", nine},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if code, out := postBalance(b, ts, c.query, c.body); code != 200 {
					b.Fatal(code, out.Error)
				}
			}
		})
	}
}

func newBenchServer(b *testing.B) *testServer {
	b.Helper()
	st, err := sqlite.Open(filepath.Join(b.TempDir(), "w.db"))
	if err != nil {
		b.Fatal(err)
	}
	s := New(st, Options{BalancePerMinute: -1, BalanceBudget: slowMachine})
	hs := httptest.NewServer(s)
	b.Cleanup(func() {
		hs.Close()
		s.Stop()
		st.Close()
	})
	return &testServer{Server: s, http: hs}
}
