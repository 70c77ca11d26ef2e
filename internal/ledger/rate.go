package ledger

import (
	"github.com/wolfden/wolfden/internal/rating"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// Update rates a finished game: the teams are the camps at the end (the
// village, the wolves, a third party its own team), the winning camp
// first and the others tied after it. A leaver or a red-carded player
// stays in his camp's team for the others' update (his seat played on),
// but his own is the one his camp would have had had it lost after every
// other camp: his result is a loss whatever his camp did. Every seat plays with a rating: an account's on its side in the
// season (current; rating.New() before its first rated game), a bot's or a
// guest's the default prior, which nothing stores.
//
// results are Results(…) of g; those Rated get their Before and After,
// and the accounts' new ratings are returned. A game with no rated result
// changes nothing.
func Update(g Game, results []store.Result, current []store.Rating) ([]store.Result, []store.Rating) {
	rated := map[string]int{} // account → its result
	for i, r := range results {
		if r.Rated {
			rated[r.AccountID] = i
		}
	}
	if len(rated) == 0 {
		return results, nil
	}
	season := results[0].Season
	type key struct{ account, side string }
	have := map[key]store.Rating{}
	for _, r := range current {
		have[key{r.AccountID, r.Side}] = r
	}
	type member struct{ seat, team, at int }
	var teams [][]rating.Rating
	var rank []int
	camps := map[rules.Camp]int{}
	var members []member
	join := func(team int, r rating.Rating) int {
		teams[team] = append(teams[team], r)
		return len(teams[team]) - 1
	}
	newTeam := func(place int) int {
		teams, rank = append(teams, nil), append(rank, place)
		return len(teams) - 1
	}
	for i, s := range g.Seats {
		prior := rating.New()
		if _, ok := rated[s.Account]; ok && !s.Bot {
			if r, ok := have[key{s.Account, Side(s)}]; ok {
				prior = rating.Rating{Mu: r.Mu, Sigma: r.Sigma}
			}
		}
		team, ok := camps[s.Camp]
		if !ok {
			place := 1
			if s.Camp == g.Winner {
				place = 0
			}
			team = newTeam(place)
			camps[s.Camp] = team
		}
		members = append(members, member{seat: i, team: team, at: join(team, prior)})
	}
	after := rating.Rate(teams, rank)
	lost := map[int][][]rating.Rating{} // a team's update had it come last
	lostRate := func(team int) [][]rating.Rating {
		if lost[team] == nil {
			worse := append([]int(nil), rank...)
			worse[team] = 2
			lost[team] = rating.Rate(teams, worse)
		}
		return lost[team]
	}
	var out []store.Rating
	for _, m := range members {
		s := g.Seats[m.seat]
		i, ok := rated[s.Account]
		if s.Bot || !ok {
			continue
		}
		before, now := teams[m.team][m.at], after[m.team][m.at]
		if s.Left() || s.RedCard {
			now = lostRate(m.team)[m.team][m.at]
		}
		results[i].Before = store.RatingValue{Mu: before.Mu, Sigma: before.Sigma}
		results[i].After = store.RatingValue{Mu: now.Mu, Sigma: now.Sigma}
		prev := have[key{s.Account, Side(s)}]
		out = append(out, store.Rating{AccountID: s.Account, Season: season, Side: Side(s),
			RatingValue: results[i].After, Games: prev.Games + 1})
	}
	return results, out
}
