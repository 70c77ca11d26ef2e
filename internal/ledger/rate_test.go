package ledger

import (
	"testing"

	"github.com/wolfden/wolfden/internal/rating"
	"github.com/wolfden/wolfden/internal/store"
)

func TestRatingsUpdateTheWinnersUpAndTheLosersDown(t *testing.T) {
	g := nine()
	g.Seats[8].Bot, g.Seats[8].Account = true, ""
	g.Seats[4].AwayPhases = 2 // a villager who left: his camp won
	rs := Results(Rules{}, g, Info{Room: "r", Board: "std-9", Rated: true, Season: "2026-Q4"})
	prior := store.Rating{AccountID: "a6", Season: "2026-Q4", Side: Village, RatingValue: store.RatingValue{Mu: 30, Sigma: 5}, Games: 4}
	rs, ratings := Update(g, rs, []store.Rating{prior})
	if len(ratings) != 8 {
		t.Fatalf("%d ratings, want the 8 accounts' (not the bot's): %+v", len(ratings), ratings)
	}
	by := map[string]store.Rating{}
	for _, r := range ratings {
		by[r.AccountID] = r
	}
	for _, r := range rs {
		up := r.After.Mu > r.Before.Mu
		if up != (r.Outcome == Win) {
			t.Errorf("%s (%s, %s): mu %.3f → %.3f", r.AccountID, r.Camp, r.Outcome, r.Before.Mu, r.After.Mu)
		}
		if by[r.AccountID].RatingValue != r.After || by[r.AccountID].Side != r.Side {
			t.Errorf("%s: stored %+v, result after %+v", r.AccountID, by[r.AccountID], r.After)
		}
	}
	if a5 := by["a5"]; a5.Mu >= rating.Mu0 {
		t.Errorf("the leaver's rating rose with his camp: %+v", a5)
	}
	if a6 := by["a6"]; a6.Games != 5 || rs[5].Before != (store.RatingValue{Mu: 30, Sigma: 5}) {
		t.Errorf("a6 did not start from his rating: %+v, before %+v", a6, rs[5].Before)
	}
	if a1 := by["a1"]; a1.Side != Wolf || a1.Games != 1 {
		t.Errorf("a wolf's first rated game: %+v", a1)
	}
}

func TestAGameThatIsNotRatedChangesNoRating(t *testing.T) {
	for name, in := range map[string]Info{
		"a lopsided board": {Room: "r", Board: "classic", Rated: false, Season: "s"},
		"a practice room":  {Room: "r", Board: "std-9", Rated: true, Season: "s"},
	} {
		g := nine()
		g.Practice = name == "a practice room"
		rs, ratings := Update(g, Results(Rules{}, g, in), nil)
		if len(ratings) != 0 {
			t.Errorf("%s: ratings %+v", name, ratings)
		}
		for _, r := range rs {
			if r.Rated || r.After != (store.RatingValue{}) {
				t.Errorf("%s: %+v", name, r)
			}
		}
	}
}
