package arena

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/llm"
	"github.com/wolfden/wolfden/internal/rating"
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
	res, err := Run(context.Background(), Config{Board: preset(t, "std-12"), Programs: Bots(bot.Smart, bot.Random), Games: 2000, Seed: 1})
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
		res, err := Run(context.Background(), Config{Board: preset(t, "std-12"), Programs: Bots(bot.Random, bot.Smart),
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
	programs := Bots(bot.Smart, bot.Random)
	b := preset(t, "std-12")
	for i := range 20 {
		count := map[string]int{}
		for _, p := range Seats(programs, 12, GameSeed(3, i)) {
			count[p.Name]++
		}
		if count["smart"] != 6 || count["random"] != 6 {
			t.Fatalf("game %d: seats %v; want 6 each", i, count)
		}
	}
	if a, c := Seats(programs, 12, 1), Seats(programs, 12, 2); slices.Equal(names(a), names(c)) {
		t.Errorf("two game seeds drew the same seats %v", a)
	}
	var mu sync.Mutex
	sides := map[string]map[rules.Camp]bool{}
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
		if !sides[p.Name][rules.Village] || !sides[p.Name][rules.Wolves] {
			t.Errorf("%s played %v; want both sides", p.Name, sides[p.Name])
		}
	}
}

func names(ps []Program) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
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
		if len(g.Log) != 1 {
			t.Fatalf("game %d: %d records, want its events in one", g.Index, len(g.Log))
		}
		if ev := g.Log[0].Events; len(ev) == 0 || ev[len(ev)-1].Kind != rules.EvGameOver || g.Winner == rules.NoCamp {
			t.Errorf("game %d kept unfinished (%d events, winner %v)", g.Index, len(ev), g.Winner)
		}
		if g.Seed != GameSeed(5, g.Index) || len(g.Seats) != 12 {
			t.Errorf("game %d: seed %d, %d seats", g.Index, g.Seed, len(g.Seats))
		}
		return nil
	}
	if _, err := Run(context.Background(), Config{Board: preset(t, "std-12"), Programs: Bots(bot.Smart, bot.Random),
		Games: 10, Seed: 5, Workers: 3, Keep: keep}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 10 {
		t.Errorf("kept %d games, want 10", len(seen))
	}
}

func TestParseProgramsRefusesBadLists(t *testing.T) {
	if got, err := ParsePrograms(" smart , random", nil); err != nil || len(got) != 2 || got[0].Level != bot.Smart {
		t.Errorf("smart,random: %v, %v", got, err)
	}
	endpoint := &llm.Config{URL: "http://127.0.0.1:9/v1"}
	got, err := ParsePrograms("smart,llm:m1,llm:m2", endpoint)
	if err != nil || len(got) != 3 || got[1].LLM.Model != "m1" || got[2].LLM.Model != "m2" || got[1].LLM.Usage == got[2].LLM.Usage || endpoint.Model != "" {
		t.Errorf("smart,llm:m1,llm:m2: %+v, %v; want a model each, its own usage, the endpoint untouched", got, err)
	}
	for in, want := range map[string]string{
		"smart":            "two programs",
		"smart,smart":      "given twice",
		"smart,clever":     `unknown program "clever"`,
		"smart,":           `unknown program ""`,
		"smart,llm:":       "names no model",
		"smart,llm:gpt-4o": "needs an endpoint: --llm-url",
	} {
		if _, err := ParsePrograms(in, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v; want one saying %q", in, err, want)
		}
	}
}

func TestRunRefusesBadConfig(t *testing.T) {
	b := preset(t, "std-12")
	for _, cfg := range []Config{
		{Board: b, Programs: Bots(bot.Smart, bot.Random), Games: 0},
		{Board: b, Programs: Bots(bot.Smart), Games: 1},
		{Board: b, Programs: Bots(bot.Smart, bot.Random), Games: 1, Workers: -1},
	} {
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

// A third party's camp is a team of its own, rated on its own side (the
// piper's here), never merged with another's.
func TestAThirdPartyIsRatedOnItsOwnSide(t *testing.T) {
	b, err := rules.BoardOf([]string{"werewolf", "werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager", "piper"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Board: sim.Board{Name: "piper-10", Board: b}, Programs: Bots(bot.Smart, bot.Random), Games: 40, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	sides := map[string]int{}
	for _, s := range res.Standings {
		sides[s.Side]++
	}
	if sides[Village] != 2 || sides[Wolf] != 2 || sides["piper"] != 2 || len(sides) != 3 {
		t.Errorf("sides rated: %v; want village, wolf and piper, two programs each", sides)
	}
}

// A program holding two seats of a team is credited the sum of their
// changes in mean and the product of their factors in sigma.
func TestCreditSumsAProgramsSeats(t *testing.T) {
	a, b := Key{"kanolab", Wolf}, Key{"sample", Village}
	ratings := map[Key]rating.Rating{b: {Mu: 27, Sigma: 5}}
	Credit(ratings, [][]Key{{a, a}, {b}}, []int{0, 1})
	up := rating.Rate([][]rating.Rating{{rating.New(), rating.New()}, {{Mu: 27, Sigma: 5}}}, []int{0, 1})
	drift := math.Hypot(rating.Sigma0, rating.Tau)
	want := rating.Rating{Mu: up[0][0].Mu + up[0][1].Mu - rating.Mu0, Sigma: drift * (up[0][0].Sigma / drift) * (up[0][1].Sigma / drift)}
	if got := ratings[a]; math.Abs(got.Mu-want.Mu) > 1e-12 || math.Abs(got.Sigma-want.Sigma) > 1e-12 {
		t.Errorf("the two-seat program: %+v; want %+v", got, want)
	}
	if got := ratings[b]; got != up[1][0] {
		t.Errorf("the one-seat program: %+v; want %+v", got, up[1][0])
	}
}
