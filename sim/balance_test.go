package sim

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// TestPresetTableIsUpToDate: the embedded table holds every preset of
// rules.Presets() at each of its sizes, with its current cards and options.
func TestPresetTableIsUpToDate(t *testing.T) {
	tab, err := PresetBalances()
	if err != nil {
		t.Fatal(err)
	}
	if missing := tab.Missing(); len(missing) > 0 {
		t.Fatalf("sim/balance_presets.json lacks %s (new presets, or their cards or options changed): regenerate it from the repository's root with\n\t%s",
			strings.Join(missing, ", "), PresetTableCommand)
	}
	if tab.Games != PresetTableGames || tab.Seed != PresetTableSeed || tab.Bots != "smart" {
		t.Errorf("the table was made with %d games, seed %d, %s bots; want %d, %d, smart (%s)",
			tab.Games, tab.Seed, tab.Bots, PresetTableGames, PresetTableSeed, PresetTableCommand)
	}
	for _, p := range tab.Presets {
		if sum := p.Village.Games + p.Wolves.Games + p.Third.Games + p.Draw.Games; sum != p.Games {
			t.Errorf("%s:%d: the camps' wins add to %d, not %d games", p.Preset, p.Players, sum, p.Games)
		}
		if p.Village.Low > p.Village.Rate || p.Village.Rate > p.Village.High {
			t.Errorf("%s:%d: the village's rate %v is outside its interval", p.Preset, p.Players, p.Village)
		}
	}
	b, _ := rules.LookupPreset("std-12")
	board, _ := b.Board(0)
	if _, ok := tab.Lookup(board); !ok {
		t.Error("Lookup does not find std-12")
	}
	board.Options[rules.OptNarrateAbsentRoles] = 1 // as a room gets it: the same figures
	if _, ok := tab.Lookup(board); !ok {
		t.Error("Lookup does not find std-12 with narrate_absent_roles on")
	}
	_ = board.Options.Set("wolf_win", "kill_all")
	if _, ok := tab.Lookup(board); ok {
		t.Error("Lookup finds std-12 with another wolf_win")
	}
}

// TestPresetTableInTheDocs: docs/simulator.md shows the embedded table as
// the generator writes it.
func TestPresetTableInTheDocs(t *testing.T) {
	tab, err := PresetBalances()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/simulator.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), tab.Markdown()) {
		t.Fatalf("docs/simulator.md does not show the table of sim/balance_presets.json: regenerate both with\n\t%s", PresetTableCommand)
	}
	if got := string(tab.ReplaceMarkdown(doc)); got != string(doc) {
		t.Error("ReplaceMarkdown changes a document that already shows the table")
	}
}

// TestOptionCardsMatchTheWeb: the options a suggestion may change are those
// the create page shows for the cards (web/src/lib/board.js OPTION_CARDS),
// but those that only change when roles are called (wakeOnly).
func TestOptionCardsMatchTheWeb(t *testing.T) {
	src, err := os.ReadFile("../web/src/lib/board.js")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)export const OPTION_CARDS = \{(.*?)\n\};`).FindSubmatch(src)
	if block == nil {
		t.Fatal("no OPTION_CARDS in web/src/lib/board.js")
	}
	web := map[string]string{}
	for _, m := range regexp.MustCompile(`(?ms)^\s*(\w+): (\[\[.*?\]\]),`).FindAllSubmatch(block[1], -1) {
		web[string(m[1])] = strings.Join(strings.Fields(string(m[2])), "") // an entry may span lines
	}
	goSide := map[string]string{}
	for name, sets := range optionCards {
		var parts []string
		for _, set := range sets {
			var roles []string
			for _, r := range set {
				roles = append(roles, "'"+r.String()+"'")
			}
			parts = append(parts, "["+strings.Join(roles, ",")+"]")
		}
		goSide[name] = "[" + strings.Join(parts, ",") + "]"
	}
	for name, w := range web {
		if wakeOnly[name] {
			continue
		}
		if goSide[name] != w {
			t.Errorf("option %s: the web's cards %s, sim's %s", name, w, goSide[name])
		}
	}
	for name := range goSide {
		if _, ok := web[name]; !ok {
			t.Errorf("option %s: in sim's optionCards, not in the web's OPTION_CARDS", name)
		}
	}
}

func std(t *testing.T, name string) rules.Board {
	t.Helper()
	return preset(t, name, 0).Board
}

func TestEstimateIsDeterministic(t *testing.T) {
	b := std(t, "std-9")
	a1, err := Estimate(context.Background(), b, 200)
	if err != nil {
		t.Fatal(err)
	}
	// The same cards in another order, narrate_absent_roles on: the same board.
	c := rules.Board{Cards: slices.Clone(b.Cards), Options: b.Options}
	slices.Reverse(c.Cards)
	c.Options[rules.OptNarrateAbsentRoles] = 1
	a2, err := Estimate(context.Background(), c, 200)
	if err != nil {
		t.Fatal(err)
	}
	if a1 != a2 {
		t.Fatalf("the same board twice: %+v, then %+v", a1, a2)
	}
	if a1.Games != 200 || a1.Seed != BoardSeed(b) || a1.Village.Games+a1.Wolves.Games != 200 {
		t.Errorf("estimate %+v", a1)
	}
	d := c
	_ = d.Options.Set("wolf_win", "kill_all")
	if BoardSeed(d) == BoardSeed(b) {
		t.Error("another option, the same seed")
	}
}

// TestCandidatesDifferByOneChange: every candidate is the board with one
// card replaced, or one option of the cards' changed.
func TestCandidatesDifferByOneChange(t *testing.T) {
	b := Canonical(std(t, "std-12"))
	cands := Candidates(b)
	kinds := map[string]int{}
	for _, c := range cands {
		kinds[c.Change.Kind]++
		if err := c.Board.Validate(); err != nil {
			t.Errorf("%+v: %v", c.Change, err)
		}
		cards, opts := 0, 0 // cards replaced (the cards are sorted: compare the counts), options changed
		for _, r := range rules.Roles() {
			if d := count(c.Board.Cards, r) - count(b.Cards, r); d > 0 {
				cards += d
			}
		}
		if len(c.Board.Cards) != len(b.Cards) {
			t.Errorf("%+v: %d cards, not %d", c.Change, len(c.Board.Cards), len(b.Cards))
		}
		for o := range c.Board.Options {
			if c.Board.Options[o] != b.Options[o] {
				opts++
			}
		}
		if cards+opts != 1 || (c.Change.Kind == "option") != (opts == 1) {
			t.Errorf("%+v: %d cards and %d options changed", c.Change, cards, opts)
		}
	}
	for _, k := range []string{"villager_to_god", "god_to_villager", "special_wolf", "wolf_more", "wolf_less", "option"} {
		if kinds[k] == 0 {
			t.Errorf("no candidate of kind %s in %v", k, kinds)
		}
	}
	for _, c := range cands {
		if c.Change.Kind == "option" && !slices.Contains([]string{"seer_sees", "witch_informed", "witch_self_heal",
			"witch_both_same_night", "hunter_shoots_when_poisoned", "win_check_before_shot", "action_feedback",
			"exploded_sheriff_badge", "night_shot", "wolf_win"}, c.Change.Option) {
			t.Errorf("option %s is not one std-12's cards use", c.Change.Option)
		}
		if c.Change.To == "thief" || c.Change.To == "piper" {
			t.Errorf("%+v suggested", c.Change)
		}
	}
}

func count(cards []rules.Role, r rules.Role) int {
	n := 0
	for _, c := range cards {
		if c == r {
			n++
		}
	}
	return n
}

func TestSuggest(t *testing.T) {
	b := std(t, "std-9")
	cfg := SuggestConfig{ScreenBudget: 1000, ScreenMin: 20, ScreenMax: 40, Finalists: 4, FinalGames: 80, Keep: 3}
	s1, err := Suggest(context.Background(), b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(s1) != 3 {
		t.Fatalf("%d suggestions", len(s1))
	}
	for i := 1; i < len(s1); i++ {
		if d := func(s Suggestion) float64 { return abs(s.Balance.Village.Rate - 0.5) }; d(s1[i]) < d(s1[i-1]) {
			t.Errorf("suggestion %d nearer 50%% than %d", i, i-1)
		}
	}
	s2, err := Suggest(context.Background(), b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s1 {
		if s1[i].Change != s2[i].Change || s1[i].Balance != s2[i].Balance {
			t.Errorf("suggestion %d: %+v, then %+v", i, s1[i], s2[i])
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Suggest(ctx, b, cfg); err == nil {
		t.Error("a cancelled search answered")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
