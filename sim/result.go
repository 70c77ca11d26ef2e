package sim

import (
	"math"

	"github.com/wolfden/wolfden/rules"
)

// Result is what a run counted, board by board. Every rate is derived from
// the integer counts next to it, rounded to 6 decimals.
type Result struct {
	Seed   uint64            `json:"seed"`
	Games  int               `json:"games"` // per board
	Bots   map[string]string `json:"bots"`  // each dealt camp's level
	Levels Levels            `json:"-"`
	Boards []BoardResult     `json:"boards"`
}

// BoardResult is one board's figures.
type BoardResult struct {
	Name     string     `json:"name"`
	Chinese  string     `json:"chinese,omitempty"`
	Source   string     `json:"source"` // "preset" or the board file's path
	Players  int        `json:"players"`
	Cards    string     `json:"cards"`
	Games    int64      `json:"games"`
	Wins     []CampWins `json:"wins"`     // the camps that won at least once (draw included)
	Length   Length     `json:"length"`   // in days
	Deaths   []Deaths   `json:"deaths"`   // the causes that killed at least once
	Survival []Survival `json:"survival"` // every card held by a player
	Rules    []Fired    `json:"rules"`    // the special rules that fired at least once
}

// CampWins is how often a camp won, with the 95% Wilson score interval of the
// rate.
type CampWins struct {
	Camp  string  `json:"camp"`
	Games int64   `json:"games"`
	Rate  float64 `json:"rate"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// Length is how long games last, in days: a day is a night and the day after
// it (or before it, on a day-first board), so a game that ends in its third
// night lasts 3 days.
type Length struct {
	Mean float64 `json:"mean"`
	Min  int     `json:"min"`
	Max  int     `json:"max"` // maxDays (64) stands for 64 or more
	// Histogram counts the games of each length from Min to Max.
	Histogram []LengthBin `json:"histogram"`
}

// LengthBin is the games that lasted Days days.
type LengthBin struct {
	Days  int     `json:"days"`
	Games int64   `json:"games"`
	Share float64 `json:"share"`
}

// Deaths counts the deaths of one cause.
type Deaths struct {
	Cause   string  `json:"cause"`
	Deaths  int64   `json:"deaths"`
	PerGame float64 `json:"per_game"`
	Share   float64 `json:"share"` // of all deaths
}

// Survival is how often the players holding a card are alive at the end. A
// thief who took a card counts as that card.
type Survival struct {
	Role    string  `json:"role"`
	Chinese string  `json:"chinese"`
	Players int64   `json:"players"`
	Alive   int64   `json:"alive"`
	Rate    float64 `json:"rate"`
}

// Fired counts the games in which a special rule came into play.
type Fired struct {
	Rule  string  `json:"rule"`
	Label string  `json:"label"`
	Games int64   `json:"games"`
	Rate  float64 `json:"rate"`
}

// z95 is the standard normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// Wilson is the 95% Wilson score interval of a proportion of k successes in n
// trials. It stays inside [0, 1] and is sound for rates near 0 or 1, where
// the normal approximation is not. With no trials it is [0, 1].
func Wilson(k, n int64) (low, high float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z95 * z95
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z95 / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(0, centre-half), min(1, centre+half)
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func ratio(k, n int64) float64 {
	if n == 0 {
		return 0
	}
	return round6(float64(k) / float64(n))
}

func newResult(cfg *Config, sums []tally) *Result {
	res := &Result{Seed: cfg.Seed, Games: cfg.Games, Levels: cfg.Bots, Bots: map[string]string{}}
	for _, c := range dealtCamps {
		res.Bots[c.String()] = string(cfg.Bots[c])
	}
	for i := range sums {
		res.Boards = append(res.Boards, boardResult(&cfg.Boards[i], &sums[i]))
	}
	return res
}

func boardResult(b *Board, t *tally) BoardResult {
	br := BoardResult{Name: b.Name, Chinese: b.Chinese, Source: b.Source, Players: b.Board.Players(),
		Cards: rules.CardList(b.Board.Cards, false), Games: t.games,
		Wins: []CampWins{}, Deaths: []Deaths{}, Survival: []Survival{}, Rules: []Fired{}}
	for c := rules.Village; c < rules.NumCamps; c++ {
		if k := t.wins[c]; k > 0 {
			lo, hi := Wilson(k, t.games)
			br.Wins = append(br.Wins, CampWins{Camp: c.String(), Games: k, Rate: ratio(k, t.games),
				Low: round6(lo), High: round6(hi)})
		}
	}
	br.Length = Length{Mean: ratio(t.days, t.games), Histogram: []LengthBin{}}
	first, last := -1, -1
	for d, k := range t.length {
		if k > 0 {
			if first < 0 {
				first = d
			}
			last = d
		}
	}
	if first >= 0 {
		br.Length.Min, br.Length.Max = first, last
		for d := first; d <= last; d++ {
			br.Length.Histogram = append(br.Length.Histogram, LengthBin{Days: d, Games: t.length[d], Share: ratio(t.length[d], t.games)})
		}
	}
	var all int64
	for _, k := range t.deaths {
		all += k
	}
	for c, k := range t.deaths {
		if k > 0 {
			br.Deaths = append(br.Deaths, Deaths{Cause: rules.Cause(c).String(), Deaths: k,
				PerGame: ratio(k, t.games), Share: ratio(k, all)})
		}
	}
	for _, r := range roleOrder(b.Board.Cards) {
		if t.players[r] > 0 {
			br.Survival = append(br.Survival, Survival{Role: r.String(), Chinese: r.Chinese(),
				Players: t.players[r], Alive: t.alive[r], Rate: ratio(t.alive[r], t.players[r])})
		}
	}
	for i, r := range specialRules {
		if k := t.fired[i]; k > 0 {
			br.Rules = append(br.Rules, Fired{Rule: r.id, Label: r.label, Games: k, Rate: ratio(k, t.games)})
		}
	}
	return br
}

// roleOrder is the board's roles, wolves first, then the others in the
// rules package's order.
func roleOrder(cards []rules.Role) []rules.Role {
	var in [maxRoles]bool
	for _, r := range cards {
		in[r] = true
	}
	var out []rules.Role
	for _, wolves := range []bool{true, false} {
		for _, r := range rules.Roles() {
			if in[r] && r.IsWolf() == wolves {
				out = append(out, r)
			}
		}
	}
	return out
}
