package ledger

import (
	"math"
	"sort"

	"github.com/wolfden/wolfden/internal/store"
)

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// Wilson is the 95% Wilson score interval of wins out of games (Wilson
// 1927): unlike the normal approximation it stays within [0, 1] and means
// something after a handful of games. No games: [0, 1].
func Wilson(wins, games int) (lo, hi float64) {
	if games <= 0 {
		return 0, 1
	}
	n, p := float64(games), float64(wins)/float64(games)
	z2 := z95 * z95
	centre := (p + z2/(2*n)) / (1 + z2/n)
	half := z95 / (1 + z2/n) * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return max(0, centre-half), min(1, centre+half)
}

// Tally is a win rate with its count and 95% interval.
type Tally struct {
	Games int     `json:"games"`
	Wins  int     `json:"wins"`
	Rate  float64 `json:"rate"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

func (t *Tally) add(win bool) {
	t.Games++
	if win {
		t.Wins++
	}
}

func (t *Tally) close() {
	t.Rate = float64(t.Wins) / float64(t.Games)
	t.Low, t.High = Wilson(t.Wins, t.Games)
}

// FamilyStats are a player's counted games of one board family.
type FamilyStats struct {
	Family string           `json:"family"`
	All    Tally            `json:"all"`
	Camps  map[string]Tally `json:"camps"` // by the camp he played for
	Roles  map[string]Tally `json:"roles"` // by the role he ended with
}

// Stats tallies the counted results by board family (families in order of
// their name), by camp and by role. Results that do not count are left
// out: they are in the history, never in the numbers.
func Stats(results []store.Result) []FamilyStats {
	by := map[string]*FamilyStats{}
	for _, r := range results {
		if !r.Counted {
			continue
		}
		f := by[r.Family]
		if f == nil {
			f = &FamilyStats{Family: r.Family, Camps: map[string]Tally{}, Roles: map[string]Tally{}}
			by[r.Family] = f
		}
		win := r.Outcome == Win
		f.All.add(win)
		c, ro := f.Camps[r.Camp], f.Roles[r.Role]
		c.add(win)
		ro.add(win)
		f.Camps[r.Camp], f.Roles[r.Role] = c, ro
	}
	out := make([]FamilyStats, 0, len(by))
	for _, f := range by {
		f.All.close()
		for k, t := range f.Camps {
			t.close()
			f.Camps[k] = t
		}
		for k, t := range f.Roles {
			t.close()
			f.Roles[k] = t
		}
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Family < out[j].Family })
	return out
}
