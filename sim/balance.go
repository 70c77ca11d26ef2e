package sim

import (
	"context"
	"hash/fnv"
	"slices"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/rules"
)

// Rate is one camp's share of the games won, with its 95% Wilson interval.
type Rate struct {
	Games int64   `json:"games"` // games won
	Rate  float64 `json:"rate"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// Balance is a board's simulated outcome, condensed to who wins: the
// village, the wolves, the third parties (the lovers' camp and the piper)
// and the draws, each with its interval (docs/simulator.md, "Balance before
// play").
type Balance struct {
	Games   int64  `json:"games"`
	Seed    uint64 `json:"seed"`
	Village Rate   `json:"village"`
	Wolves  Rate   `json:"wolves"`
	Third   Rate   `json:"third"` // lovers and piper
	Draw    Rate   `json:"draw"`
}

func rateOf(k, n int64) Rate {
	lo, hi := Wilson(k, n)
	return Rate{Games: k, Rate: ratio(k, n), Low: round6(lo), High: round6(hi)}
}

// Summarize condenses a board's figures, run with seed, to a Balance.
func Summarize(br *BoardResult, seed uint64) Balance {
	var village, wolves, third, draw int64
	for _, w := range br.Wins {
		switch w.Camp {
		case rules.Village.String():
			village += w.Games
		case rules.Wolves.String():
			wolves += w.Games
		case rules.Draw.String():
			draw += w.Games
		default:
			third += w.Games
		}
	}
	n := br.Games
	return Balance{Games: n, Seed: seed, Village: rateOf(village, n), Wolves: rateOf(wolves, n),
		Third: rateOf(third, n), Draw: rateOf(draw, n)}
}

// Canonical is the board as the balance figures see it: the cards in the
// rules package's order (a deal shuffles them anyway) and
// narrate_absent_roles off (what the moderator calls aloud changes no one's
// play). Two boards with the same Canonical form get the same figures.
func Canonical(b rules.Board) rules.Board {
	c := rules.Board{Cards: slices.Clone(b.Cards), Options: b.Options}
	slices.Sort(c.Cards)
	c.Options[rules.OptNarrateAbsentRoles] = 0
	return c
}

// BoardSeed is the seed a board's balance is simulated with: a hash of its
// canonical form (its cards, and its options that are not at their first
// value, by name), so that the same board always gets the same figures, and
// nothing else (no room's seed, no clock) goes into it.
func BoardSeed(b rules.Board) uint64 {
	c := Canonical(b)
	h := fnv.New64a()
	h.Write([]byte("wolfden balance v1\x00"))
	for _, r := range c.Cards {
		h.Write([]byte{byte(r)})
	}
	// The options by name, those off their first value only: an option
	// added to the rules (at its first value) changes no board's seed.
	for _, o := range rules.AllOptions() {
		if c.Options[o] != 0 {
			h.Write([]byte{0xff})
			h.Write([]byte(o.Name() + "=" + c.Options.Get(o)))
		}
	}
	return mix(h.Sum64())
}

// Estimate plays games smart-bot games of the board on one goroutine, with
// the board's own seed (BoardSeed), and condenses the result. It is what
// POST /api/balance answers for a custom board; it stops with ctx.
func Estimate(ctx context.Context, b rules.Board, games int) (Balance, error) {
	c := Canonical(b)
	seed := BoardSeed(c)
	res, err := Run(ctx, Config{Boards: []Board{{Name: "board", Source: "balance", Board: c}},
		Games: games, Seed: seed, Workers: 1, Bots: AllAt(bot.Smart)})
	if err != nil {
		return Balance{}, err
	}
	return Summarize(&res.Boards[0], seed), nil
}

// QuickGames is how many games a quick estimate plays of a board of n
// players: 2,000 at 12 players, fewer for larger boards (a game's cost grows
// with its players), so that an answer takes about the same time.
func QuickGames(n int) int {
	return min(2000, max(500, 24000/max(n, 1)))
}
