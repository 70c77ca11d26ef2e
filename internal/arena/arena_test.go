package arena

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/rules"
	"github.com/wolfden/wolfden/sim"
)

func preset(t *testing.T, name string) sim.Board {
	t.Helper()
	p, err := rules.LookupPreset(name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(0)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Board{Name: name, Board: b}
}

func output(t *testing.T, res *Result) (table, js string) {
	t.Helper()
	var a, b bytes.Buffer
	if err := res.WriteTable(&a); err != nil {
		t.Fatal(err)
	}
	if err := res.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String()
}

// The test: smart bots rank above random ones on both sides, with
// 95% intervals that do not overlap, after 2,000 games of std-12.
func TestSmartRanksAboveRandomOnBothSides(t *testing.T) {
	res, err := Run(context.Background(), Config{Board: preset(t, "std-12"), Programs: []bot.Level{bot.Smart, bot.Random}, Games: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []string{Village, Wolf} {
		var smart, random *Standing
		for i := range res.Standings {
			s := &res.Standings[i]
			if s.Side != side {
				continue
			}
			switch s.Program {
			case string(bot.Smart):
				smart = s
			case string(bot.Random):
				random = s
			}
		}
		if smart == nil || random == nil {
			t.Fatalf("%s: a program is missing from %+v", side, res.Standings)
		}
		if !(smart.Low > random.High) {
			t.Errorf("%s: smart %.2f [%.2f, %.2f] vs random %.2f [%.2f, %.2f]: want smart above, intervals apart",
				side, smart.Mu, smart.Low, smart.High, random.Mu, random.Low, random.High)
		}
	}
}

// One seed gives the same games and the same table, byte for byte,
// whatever the number of workers; another seed another table.
func TestSameSeedSameTableWhateverWorkers(t *testing.T) {
	run := func(seed uint64, workers int) (string, string) {
		res, err := Run(context.Background(), Config{Board: preset(t, "std-12"), Programs: []bot.Level{bot.Random, bot.Smart},
			Games: 40, Seed: seed, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		return output(t, res)
	}
	table1, json1 := run(7, 1)
	table4, json4 := run(7, 4)
	if table1 != table4 || json1 != json4 {
		t.Errorf("seed 7 with 1 and 4 workers differ:\n%s\n%s", table1, table4)
	}
	if other, _ := run(8, 4); other == table1 {
		t.Errorf("seeds 7 and 8 gave the same table:\n%s", other)
	}
}

// Every seat is a program's, as evenly as they go, and each program plays
// both sides over a run.
func TestSeatsAreSharedEvenlyAndBothSidesPlayed(t *testing.T) {
	programs := []bot.Level{bot.Smart, bot.Random}
	b := preset(t, "std-12")
	for i := range 20 {
		count := map[bot.Level]int{}
		for _, l := range Seats(programs, 12, GameSeed(3, i)) {
			count[l]++
		}
		if count[bot.Smart] != 6 || count[bot.Random] != 6 {
			t.Fatalf("game %d: seats %v; want 6 each", i, count)
		}
	}
	if a, c := Seats(programs, 12, 1), Seats(programs, 12, 2); slicesEqual(a, c) {
		t.Errorf("two game seeds drew the same seats %v", a)
	}
	var mu sync.Mutex
	sides := map[bot.Level]map[rules.Camp]bool{}
	keep := func(_ context.Context, g *Game) error {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range []rules.Camp{rules.Village, rules.Wolves} {
			for _, s := range g.outcome.teamOf(c) {
				if sides[g.Seats[s-1]] == nil {
					sides[g.Seats[s-1]] = map[rules.Camp]bool{}
				}
				sides[g.Seats[s-1]][c] = true
			}
		}
		return nil
	}
	if _, err := Run(context.Background(), Config{Board: b, Programs: programs, Games: 5, Seed: 1, Keep: keep}); err != nil {
		t.Fatal(err)
	}
	for _, p := range programs {
		if !sides[p][rules.Village] || !sides[p][rules.Wolves] {
			t.Errorf("%s played %v; want both sides", p, sides[p])
		}
	}
}

func slicesEqual(a, b []bot.Level) bool {
	return strings.Join(levels(a), ",") == strings.Join(levels(b), ",")
}

func levels(ls []bot.Level) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = string(l)
	}
	return out
}

// Keep is given every game once, finished, with its whole log.
func TestKeepGetsEveryFinishedGame(t *testing.T) {
	var mu sync.Mutex
	seen := map[int]bool{}
	keep := func(_ context.Context, g *Game) error {
		mu.Lock()
		defer mu.Unlock()
		if seen[g.Index] {
			t.Errorf("game %d kept twice", g.Index)
		}
		seen[g.Index] = true
		if n := len(g.Events); n == 0 || g.Events[n-1].Kind != rules.EvGameOver || g.Winner == rules.NoCamp {
			t.Errorf("game %d kept unfinished (%d events, winner %v)", g.Index, n, g.Winner)
		}
		if g.Seed != GameSeed(5, g.Index) || len(g.Seats) != 12 {
			t.Errorf("game %d: seed %d, %d seats", g.Index, g.Seed, len(g.Seats))
		}
		return nil
	}
	if _, err := Run(context.Background(), Config{Board: preset(t, "std-12"), Programs: []bot.Level{bot.Smart, bot.Random},
		Games: 10, Seed: 5, Workers: 3, Keep: keep}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 10 {
		t.Errorf("kept %d games, want 10", len(seen))
	}
}

func TestParseProgramsRefusesBadLists(t *testing.T) {
	if got, err := ParsePrograms(" smart , random"); err != nil || len(got) != 2 || got[0] != bot.Smart {
		t.Errorf("smart,random: %v, %v", got, err)
	}
	for in, want := range map[string]string{
		"smart":            "two programs",
		"smart,smart":      "given twice",
		"smart,clever":     `unknown program "clever"`,
		"smart,":           `unknown program ""`,
		"smart,llm:gpt-4o": "language model",
	} {
		if _, err := ParsePrograms(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v; want one saying %q", in, err, want)
		}
	}
}

func TestRunRefusesBadConfig(t *testing.T) {
	b := preset(t, "std-12")
	for _, cfg := range []Config{
		{Board: b, Programs: []bot.Level{bot.Smart, bot.Random}, Games: 0},
		{Board: b, Programs: []bot.Level{bot.Smart}, Games: 1},
		{Board: b, Programs: []bot.Level{bot.Smart, bot.Random}, Games: 1, Workers: -1},
	} {
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}
