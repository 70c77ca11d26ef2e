package sim

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/rules"
)

func preset(t testing.TB, name string, players int) Board {
	t.Helper()
	p, err := rules.LookupPreset(name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(players)
	if err != nil {
		t.Fatal(err)
	}
	return Board{Name: name, Chinese: p.Chinese, Source: "preset", Board: b}
}

func run(t *testing.T, cfg Config) *Result {
	t.Helper()
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func jsonBytes(t *testing.T, r *Result) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestWorkersDoNotChangeTheResult: the same seed gives the same JSON and
// text, byte for byte, with 1 and 4 workers, over several boards.
func TestWorkersDoNotChangeTheResult(t *testing.T) {
	boards := []Board{preset(t, "std-12", 0), preset(t, "new-moon", 10), preset(t, "forum", 12)}
	for _, bots := range []Levels{AllAt(bot.Random), AllAt(bot.Smart)} {
		cfg := Config{Boards: boards, Games: 300, Seed: 7, Bots: bots, Workers: 1}
		one := run(t, cfg)
		cfg.Workers = 4
		four := run(t, cfg)
		if a, b := jsonBytes(t, one), jsonBytes(t, four); !bytes.Equal(a, b) {
			t.Fatalf("bots %s: 1 and 4 workers differ:\n%s\n---\n%s", bots, a, b)
		}
		var a, b bytes.Buffer
		_ = one.WriteText(&a)
		_ = four.WriteText(&b)
		if a.String() != b.String() {
			t.Fatalf("bots %s: the text differs", bots)
		}
	}
}

// TestSeedChangesTheGames: another seed deals other games; the same seed
// the same ones.
func TestSeedChangesTheGames(t *testing.T) {
	cfg := Config{Boards: []Board{preset(t, "std-12", 0)}, Games: 200, Seed: 1, Bots: AllAt(bot.Random), Workers: 2}
	a := jsonBytes(t, run(t, cfg))
	if b := jsonBytes(t, run(t, cfg)); !bytes.Equal(a, b) {
		t.Fatal("the same seed gave another result")
	}
	cfg.Seed = 2
	if b := jsonBytes(t, run(t, cfg)); bytes.Equal(a, b) {
		t.Fatal("seeds 1 and 2 gave the same result")
	}
}

// TestCountsAddUp: the wins, the length histogram and the players add up to
// the games played, on every preset.
func TestCountsAddUp(t *testing.T) {
	var boards []Board
	for _, p := range rules.Presets() {
		boards = append(boards, preset(t, p.Name, max(p.MinPlayers, min(12, p.MaxPlayers))))
	}
	const games = 250
	res := run(t, Config{Boards: boards, Games: games, Seed: 3, Bots: AllAt(bot.Random), Workers: 3})
	if len(res.Boards) != len(boards) {
		t.Fatalf("%d results for %d boards", len(res.Boards), len(boards))
	}
	for i, br := range res.Boards {
		if br.Name != boards[i].Name || br.Games != games {
			t.Fatalf("board %d is %s with %d games", i, br.Name, br.Games)
		}
		var wins, lengths, players, alive int64
		rates := 0.0
		for _, w := range br.Wins {
			wins += w.Games
			rates += w.Rate
			if w.Low > w.Rate || w.Rate > w.High {
				t.Errorf("%s %s: rate %v outside its interval [%v, %v]", br.Name, w.Camp, w.Rate, w.Low, w.High)
			}
		}
		if wins != games || math.Abs(rates-1) > 1e-5 {
			t.Errorf("%s: wins add up to %d games, %v", br.Name, wins, rates)
		}
		mean := 0.0
		for _, h := range br.Length.Histogram {
			lengths += h.Games
			mean += float64(h.Days*int(h.Games)) / games
		}
		if lengths != games || math.Abs(mean-br.Length.Mean) > 1e-5 || br.Length.Min < 1 {
			t.Errorf("%s: length histogram %+v", br.Name, br.Length)
		}
		for _, s := range br.Survival {
			players += s.Players
			alive += s.Alive
		}
		if players != int64(games*br.Players) {
			t.Errorf("%s: %d players counted, want %d", br.Name, players, games*br.Players)
		}
		var deaths int64
		for _, d := range br.Deaths {
			deaths += d.Deaths
		}
		if deaths != players-alive {
			t.Errorf("%s: %d deaths but %d players dead", br.Name, deaths, players-alive)
		}
	}
}

// TestSpecialRulesAreCounted: the rules each board is made of come into play.
func TestSpecialRulesAreCounted(t *testing.T) {
	want := map[string][]string{
		"std-12":        {"sheriff_elected", "heal", "poison", "shoot", "explode", "idiot_revealed", "pk_exile"},
		"std-12-wwk":    {"explode_take", "guard"},
		"new-moon":      {"elder_life", "enchant", "event_card"},
		"forum":         {"lovers", "black_lovers"},
		"std-12-beauty": {"guard"},
	}
	var boards []Board
	for name := range want {
		boards = append(boards, preset(t, name, 12))
	}
	res := run(t, Config{Boards: boards, Games: 400, Seed: 5, Bots: AllAt(bot.Random), Workers: 2})
	for _, br := range res.Boards {
		fired := map[string]int64{}
		for _, f := range br.Rules {
			fired[f.Rule] = f.Games
			if f.Games < 1 || f.Games > br.Games {
				t.Errorf("%s: %s fired in %d games", br.Name, f.Rule, f.Games)
			}
		}
		for _, r := range want[br.Name] {
			if fired[r] == 0 {
				t.Errorf("%s: %s never fired (%v)", br.Name, r, fired)
			}
		}
	}
	// On std-12 there is no guard, thief, cupid, elder or piper.
	for _, f := range res.Boards[0].Rules {
		if res.Boards[0].Name == "std-12" && (f.Rule == "guard" || f.Rule == "lovers" || f.Rule == "enchant") {
			t.Errorf("std-12: %s fired", f.Rule)
		}
	}
}

// TestWilson checks the interval on published values.
func TestWilson(t *testing.T) {
	cases := []struct {
		k, n      int64
		low, high float64
	}{
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{5, 10, 0.2366, 0.7634},
		{50, 100, 0.4038, 0.5962},
		{81, 263, 0.2553, 0.3662},
		{1, 3, 0.0615, 0.7923},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.k, c.n)
		if math.Abs(lo-c.low) > 5e-5 || math.Abs(hi-c.high) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = [%.5f, %.5f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.low, c.high)
		}
		if lo < 0 || hi > 1 {
			t.Errorf("Wilson(%d, %d) leaves [0, 1]", c.k, c.n)
		}
	}
	if lo, hi := Wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = [%v, %v]", lo, hi)
	}
}

func TestParseLevels(t *testing.T) {
	good := []struct{ in, want string }{
		{"smart", "smart"},
		{"random", "random"},
		{"village=smart,wolves=random", "village=smart,wolves=random,piper=smart,fox=smart,newlyweds=smart"},
		{"random, village=smart", "village=smart,wolves=random,piper=random,fox=random,newlyweds=random"},
		{"wolves=random", "village=smart,wolves=random,piper=smart,fox=smart,newlyweds=smart"},
		{"piper=random,village=random,wolves=random,fox=random,newlyweds=random", "random"},
	}
	for _, c := range good {
		ls, err := ParseLevels(c.in)
		if err != nil || ls.String() != c.want {
			t.Errorf("ParseLevels(%q) = %s, %v; want %s", c.in, ls, err, c.want)
		}
	}
	bad := []struct{ in, want string }{
		{"genius", `unknown level "genius"`},
		{"", "give a level"},
		{"village=genius", `unknown level "genius"`},
		{"elves=smart", `unknown camp "elves"`},
		{"lovers=smart", "lovers is not a dealt camp"},
		{"draw=smart", `unknown camp "draw"`},
		{"village=smart,village=random", "given twice"},
		{"village=smart,random", "may only come first"},
		{"wolf=smart", "did you mean wolves"},
	}
	for _, c := range bad {
		_, err := ParseLevels(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseLevels(%q): got %v, want %q", c.in, err, c.want)
		}
	}
}

// TestLevelsGoByCamp: a seat's bot plays at the level of its card's camp.
func TestLevelsGoByCamp(t *testing.T) {
	ls, err := ParseLevels("random,village=smart")
	if err != nil {
		t.Fatal(err)
	}
	for r, want := range map[rules.Role]bot.Level{rules.Werewolf: bot.Random, rules.WolfKing: bot.Random,
		rules.Seer: bot.Smart, rules.Villager: bot.Smart, rules.Cupid: bot.Smart, rules.Thief: bot.Smart, rules.Piper: bot.Random} {
		if got := ls.For(r); got != want {
			t.Errorf("%s plays %s, want %s", r, got, want)
		}
	}
}

func TestBadConfigIsRefused(t *testing.T) {
	std := preset(t, "std-12", 0)
	broken := std
	broken.Board.Cards = []rules.Role{rules.Villager, rules.Villager, rules.Seer}
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{Games: 10, Bots: AllAt(bot.Random)}, "no board"},
		{Config{Boards: []Board{std}, Games: 0, Bots: AllAt(bot.Random)}, "1 or more, not 0"},
		{Config{Boards: []Board{std}, Games: -3, Bots: AllAt(bot.Random)}, "1 or more, not -3"},
		{Config{Boards: []Board{std}, Games: 10, Workers: -1, Bots: AllAt(bot.Random)}, "workers must be 1 or more"},
		{Config{Boards: []Board{std}, Games: 10}, "no valid level"},
		{Config{Boards: []Board{broken}, Games: 10, Bots: AllAt(bot.Random)}, "at least one wolf"},
	}
	for _, c := range cases {
		_, err := Run(context.Background(), c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.cfg, err, c.want)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Config{Boards: []Board{preset(t, "std-12", 0)}, Games: 100000, Bots: AllAt(bot.Random)})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// TestProgressCountsEveryGame: the progress callback sees every game once.
func TestProgressCountsEveryGame(t *testing.T) {
	var done atomic.Int64
	cfg := Config{Boards: []Board{preset(t, "std-9", 0), preset(t, "std-12", 0)}, Games: 111, Bots: AllAt(bot.Random), Workers: 3,
		Progress: func(n int) { done.Add(int64(n)) }}
	run(t, cfg)
	if got := done.Load(); got != 222 {
		t.Fatalf("progress counted %d games", got)
	}
}

func TestGameSeedsDiffer(t *testing.T) {
	seen := map[uint64]bool{}
	for b := 0; b < 4; b++ {
		for i := 0; i < 1000; i++ {
			s := GameSeed(1, b, i)
			if seen[s] {
				t.Fatalf("GameSeed(1, %d, %d) repeats", b, i)
			}
			seen[s] = true
		}
	}
	if GameSeed(1, 0, 0) == GameSeed(2, 0, 0) {
		t.Fatal("the run's seed does not change the game seeds")
	}
}

// TestHTMLReport: the page names every board, draws SVG charts and loads
// nothing from elsewhere.
func TestHTMLReport(t *testing.T) {
	odd := preset(t, "std-9", 0)
	odd.Name = `<b>&"odd"`
	res := run(t, Config{Boards: []Board{preset(t, "std-12", 0), odd}, Games: 100, Bots: AllAt(bot.Random), Workers: 2})
	var b bytes.Buffer
	if err := res.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<!DOCTYPE html>", "std-12", "预女猎白", "&lt;b&gt;&amp;", "<svg", "aria-label=\"win rates\"", "aria-label=\"length of games\"", "village", "Survival by role"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<b>&") {
		t.Error("a board name is not escaped")
	}
	for _, external := range []string{"<script", "<link", "src=", "url(", "@import", "https://"} {
		if strings.Contains(page, external) {
			t.Errorf("the page holds %q: it must open offline", external)
		}
	}
}

// TestEndlessGameFails: a game that does not end within bot.MaxCommands
// fails the run, naming the game to replay, instead of hanging it.
func TestEndlessGameFails(t *testing.T) {
	defer func(n int) { bot.MaxCommands = n }(bot.MaxCommands)
	bot.MaxCommands = 10
	_, err := Run(context.Background(), Config{Boards: []Board{preset(t, "std-12", 0)}, Games: 50, Seed: 4, Bots: AllAt(bot.Random), Workers: 2})
	if err == nil || !strings.Contains(err.Error(), "does not end after 10 commands") || !strings.Contains(err.Error(), "(seed ") {
		t.Fatalf("got %v", err)
	}
}
