package bot

import (
	"flag"
	"math"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

var tellGames = flag.Int("tells", 3000, "games played by TestBotsHaveNoTells")

// guess is an observer's rule of thumb: from the claimers of a role, in
// the order they first claimed it, the one he names a wolf.
type guess struct {
	name string
	pick func(order []rules.Seat) rules.Seat
}

var guesses = []guess{
	{"the lowest-numbered claimer", func(o []rules.Seat) rules.Seat { return lowestOf(o) }},
	{"the highest-numbered claimer", func(o []rules.Seat) rules.Seat { return highestOf(o) }},
	{"the first to claim", func(o []rules.Seat) rules.Seat { return o[0] }},
	{"the last to claim", func(o []rules.Seat) rules.Seat { return o[len(o)-1] }},
}

func lowestOf(o []rules.Seat) rules.Seat {
	m := o[0]
	for _, s := range o {
		m = min(m, s)
	}
	return m
}

func highestOf(o []rules.Seat) rules.Seat {
	m := o[0]
	for _, s := range o {
		m = max(m, s)
	}
	return m
}

// tally counts, over the games with a counter-claim, how often each guess
// names a wolf, against the base rate: the share of wolves among the
// claimers, what a guess that knows nothing but the claims gets.
type tally struct {
	cases int
	base  float64
	hits  []int
}

func (t *tally) add(order []rules.Seat, wolf func(rules.Seat) bool) {
	if t.hits == nil {
		t.hits = make([]int, len(guesses))
	}
	t.cases++
	w := 0
	for _, s := range order {
		if wolf(s) {
			w++
		}
	}
	t.base += float64(w) / float64(len(order))
	for i, g := range guesses {
		if wolf(g.pick(order)) {
			t.hits[i]++
		}
	}
}

// TestBotsHaveNoTells: an observer who knows the bots' code but not the
// cards must not name the wolf among the claimants of a card better than
// the claims themselves allow. Smart bots play std-12. In every game where
// two or more players claimed a card only one holds (one of them a wolf,
// faking), each rule of thumb (the lowest or highest seat, the first or
// last to claim) names a wolf about as often as a blind pick among the
// claimants. Among all the players who claimed a card on day 1, so does
// the seat; the order is reported, not held to the base rate: it follows
// from which cards were claimed, which is public (the seer claims in the
// campaign, an accused player answers later). Run with -v for the rates;
// -tells N for more games.
//
// std-12-pure-white too (ROLES-MORE-2.md): its checker is the pure white,
// whose card the wolves fake as they fake the seer's; and std-12-mirror-seer
// (灯影预言家), where two players claim the seer in good faith: the mirror
// seer plays the seer he believes he is. And the boards of the angel
// (mh-angel: he plays to be exiled on day 1), the cursed fox
// (std-12-cursed-fox: he claims plainly), the mechanical wolf
// (std-12-mechanical-wolf: a wolf who knows no mate) and std-12-eternal
// (永序之轮), where the queen shelters before the pack wakes and the prince
// may rewind; std-12-masquerade (假面舞会): the masquerade, a wolf outside
// the pack, and the dancer's nights; std-12-ghost-bride (鬼魂新娘): a wolf wed
// or named witness leaves the pack and plays for the newlyweds;
// std-12-warden and std-12-miracle-merchant: the trade and the gift kill or
// save at night without changing who claims what.
func TestBotsHaveNoTells(t *testing.T) {
	for _, name := range []string{"std-12", "std-12-pure-white", "std-12-mirror-seer", "mh-angel", "std-12-cursed-fox", "std-12-mechanical-wolf", "std-12-eternal", "std-12-masquerade", "std-12-ghost-bride", "std-12-warden", "std-12-miracle-merchant"} {
		t.Run(name, func(t *testing.T) { noTells(t, name) })
	}
}

func noTells(t *testing.T, preset string) {
	p, err := rules.LookupPreset(preset)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(12)
	if err != nil {
		t.Fatal(err)
	}
	var counter, day1 tally
	fakes := map[rules.Role]int{}
	fakers := 0
	var fakerSeat [rules.MaxSeats + 1]int
	n := b.Players()
	for i := 0; i < *tellGames; i++ {
		seed := uint64(7_000_000 + i)
		g, err := rules.New(b, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]Bot, n)
		for s := range bots {
			bots[s], _ = New(Smart, rules.Seat(s+1), n, Seed(seed, rules.Seat(s+1)))
		}
		if _, err := Play(g, bots); err != nil {
			t.Fatal(err)
		}
		wolf := func(s rules.Seat) bool { return g.Role(s).IsWolf() }
		byRole := map[rules.Role][]rules.Seat{}
		var first []rules.Seat
		claimed := map[rules.Seat]bool{}
		day := 0
		for _, e := range g.Events() {
			switch {
			case e.Kind == rules.EvDay:
				day = int(e.Value)
			case e.Kind == rules.EvClaim && e.Public && e.Value == rules.ClaimRole:
				if !claimed[e.Seat] {
					claimed[e.Seat] = true
					byRole[e.Role] = append(byRole[e.Role], e.Seat)
					if day <= 1 {
						first = append(first, e.Seat)
					}
					if wolf(e.Seat) {
						fakes[e.Role]++
						fakers++
						fakerSeat[e.Seat]++
					}
				}
			}
		}
		for r, o := range byRole {
			if len(o) >= 2 && r != rules.Villager { // a card only one player holds
				counter.add(o, wolf)
			}
		}
		if len(first) >= 2 {
			day1.add(first, wolf)
		}
	}
	t.Logf("%d games; wolves' fake claims: %d (%v); by seat %v", *tellGames, fakers, fakes, fakerSeat[1:n+1])
	for _, c := range []struct {
		name string
		t    *tally
	}{{"counter-claims of one card", &counter}, {"day-1 claimants", &day1}} {
		if c.t.cases < 100 {
			t.Errorf("%s: only %d games", c.name, c.t.cases)
			continue
		}
		base := c.t.base / float64(c.t.cases)
		// Three standard errors of a rate near one half, plus a point.
		margin := 3*math.Sqrt(0.25/float64(c.t.cases)) + 0.01
		t.Logf("%s: %d games, base rate %.1f%% (±%.1f%% allowed)", c.name, c.t.cases, 100*base, 100*margin)
		for i, gs := range guesses {
			rate := float64(c.t.hits[i]) / float64(c.t.cases)
			t.Logf("  %-30s names a wolf %.1f%%", gs.name, 100*rate)
			if math.Abs(rate-base) > margin && (c.t == &counter || i < 2) {
				t.Errorf("%s: %q names a wolf %.1f%% of the time; the claims alone allow %.1f%%",
					c.name, gs.name, 100*rate, 100*base)
			}
		}
	}
}
