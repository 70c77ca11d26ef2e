package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

func ledgerOf(t *testing.T, st store.Store) store.Ledger {
	t.Helper()
	l, ok := st.(store.Ledger)
	if !ok {
		t.Fatalf("%T does not keep the ledger (store.Ledger)", st)
	}
	return l
}

// Result is a row of account's seat in room's game at At(at).
func Result(account, room string, at int, outcome string) store.Result {
	return store.Result{AccountID: account, Room: room, Game: 1, Board: "std-12", Family: "std-12", Role: "seer",
		Camp: "village", Outcome: outcome, Counted: true, Rated: true, Season: "2026-Q4", At: At(at), Side: "village",
		Before: store.RatingValue{Mu: 25, Sigma: 25.0 / 3}, After: store.RatingValue{Mu: 26.5, Sigma: 7.9}}
}

func wantResults(t *testing.T, got []store.Result, err error, want ...store.Result) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i].At = got[i].At.Truncate(time.Millisecond) // PostgreSQL keeps microseconds
	}
	want = append([]store.Result(nil), want...)
	for i := range want {
		want[i].At = want[i].At.Truncate(time.Millisecond)
	}
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results\n got %+v\nwant %+v", got, want)
	}
}

func (s suite) testLedgerRoundTrip(t *testing.T) {
	l := ledgerOf(t, s.open(t))
	a1, b1 := Result("a", "r1", 1, "win"), Result("b", "r1", 1, "loss")
	b1.Counted, b1.Rated, b1.Reason, b1.Side, b1.Camp, b1.Role = false, false, "few_people", "wolf", "wolves", "werewolf"
	b1.Before, b1.After = store.RatingValue{}, store.RatingValue{}
	ra := store.Rating{AccountID: "a", Season: "2026-Q4", Side: "village", RatingValue: store.RatingValue{Mu: 26.5, Sigma: 7.9}, Games: 1}
	if err := l.RecordGame(ctx, []store.Result{a1, b1}, []store.Rating{ra}); err != nil {
		t.Fatal(err)
	}
	a2 := Result("a", "r2", 2, "loss")
	a2.Season = "2027-Q1"
	ra2 := ra
	ra2.Season, ra2.Mu, ra2.Games = "2027-Q1", 24, 1
	ra.Mu, ra.Games = 27, 2 // the same key again: replaced
	if err := l.RecordGame(ctx, []store.Result{a2}, []store.Rating{ra, ra2}); err != nil {
		t.Fatal(err)
	}
	got, err := l.Results(ctx, "a")
	wantResults(t, got, err, a2, a1) // newest first
	got, err = l.RoomResults(ctx, "r1")
	wantResults(t, got, err, a1, b1)
	got, err = l.Results(ctx, "nobody")
	wantResults(t, got, err)
	rs, err := l.Ratings(ctx, "2026-Q4", "a", "b", "c")
	if err != nil || !reflect.DeepEqual(rs, []store.Rating{ra}) {
		t.Errorf("Ratings = %+v %v, want %+v", rs, err, ra)
	}
	rs, err = l.AccountRatings(ctx, "a")
	if err != nil || !reflect.DeepEqual(rs, []store.Rating{ra2, ra}) {
		t.Errorf("AccountRatings = %+v %v, want the newest season first", rs, err)
	}
	seasons, err := l.Seasons(ctx)
	if err != nil || !reflect.DeepEqual(seasons, []string{"2027-Q1", "2026-Q4"}) {
		t.Errorf("Seasons = %v %v", seasons, err)
	}
}

func (s suite) testLedgerRecordsOnce(t *testing.T) {
	l := ledgerOf(t, s.open(t))
	first := Result("a", "r1", 1, "win")
	r := store.Rating{AccountID: "a", Season: "2026-Q4", Side: "village", RatingValue: store.RatingValue{Mu: 26, Sigma: 8}, Games: 1}
	if err := l.RecordGame(ctx, []store.Result{first}, []store.Rating{r}); err != nil {
		t.Fatal(err)
	}
	// The game's end seen again (a restart on its end screen): nothing of
	// the second call is written, the other seat's row nor the rating.
	again := Result("b", "r1", 1, "loss")
	r2 := r
	r2.Mu, r2.Games = 30, 2
	if err := l.RecordGame(ctx, []store.Result{again}, []store.Rating{r2}); !errors.Is(err, store.ErrRecorded) {
		t.Fatalf("the game recorded twice: %v, want store.ErrRecorded", err)
	}
	got, err := l.RoomResults(ctx, "r1")
	wantResults(t, got, err, first)
	if rs, _ := l.Ratings(ctx, "2026-Q4", "a"); len(rs) != 1 || rs[0] != r {
		t.Errorf("the refused game changed the rating: %+v", rs)
	}
}

// testLedgerStaleRating: a rating computed from one that changed since
// (another node recorded a game of the same account in between) is
// refused whole, the game's results with it; computed again, it is taken.
func (s suite) testLedgerStaleRating(t *testing.T) {
	l := ledgerOf(t, s.open(t))
	first := store.Rating{AccountID: "a", Season: "2026-Q4", Side: "village", RatingValue: store.RatingValue{Mu: 26, Sigma: 8}, Games: 1}
	if err := l.RecordGame(ctx, []store.Result{Result("a", "r1", 1, "win")}, []store.Rating{first}); err != nil {
		t.Fatal(err)
	}
	// r2 was rated from no rating at all, before r1's was stored
	stale := first
	stale.Mu = 24
	b2 := Result("b", "r2", 2, "win")
	rb := store.Rating{AccountID: "b", Season: "2026-Q4", Side: "village", RatingValue: store.RatingValue{Mu: 27, Sigma: 8}, Games: 1}
	if err := l.RecordGame(ctx, []store.Result{Result("a", "r2", 2, "loss"), b2}, []store.Rating{rb, stale}); !errors.Is(err, store.ErrStaleRating) {
		t.Fatalf("a stale rating was taken: %v, want store.ErrStaleRating", err)
	}
	got, err := l.RoomResults(ctx, "r2")
	wantResults(t, got, err)
	if rs, _ := l.Ratings(ctx, "2026-Q4", "a", "b"); len(rs) != 1 || rs[0] != first {
		t.Errorf("the refused game changed the ratings: %+v", rs)
	}
	// a rating of two games over a stored one of one game
	again := first
	again.Mu, again.Games = 24.5, 2
	if err := l.RecordGame(ctx, []store.Result{Result("a", "r2", 2, "loss"), b2}, []store.Rating{rb, again}); err != nil {
		t.Fatal(err)
	}
	if rs, _ := l.Ratings(ctx, "2026-Q4", "a"); len(rs) != 1 || rs[0] != again {
		t.Errorf("ratings after the game rated again: %+v, want %+v", rs, again)
	}
	// and one that skips a game is stale too
	skip := again
	skip.Games = 4
	if err := l.RecordGame(ctx, []store.Result{Result("a", "r3", 3, "win")}, []store.Rating{skip}); !errors.Is(err, store.ErrStaleRating) {
		t.Errorf("a rating of 4 games over one of 2 was taken: %v", err)
	}
}

func (s suite) testLedgerRefuses(t *testing.T) {
	l := ledgerOf(t, s.open(t))
	noAccount := Result("", "r1", 1, "win")
	other := Result("b", "r2", 1, "win")
	for _, c := range []struct {
		name    string
		results []store.Result
		ratings []store.Rating
	}{
		{"a result without an account", []store.Result{noAccount}, nil},
		{"results of two rooms", []store.Result{Result("a", "r1", 1, "win"), other}, nil},
		{"a rating of no side", nil, []store.Rating{{AccountID: "a", Season: "2026-Q4", Side: "third"}}},
	} {
		if err := l.RecordGame(ctx, c.results, c.ratings); err == nil {
			t.Errorf("%s was taken", c.name)
		}
	}
	got, err := l.Results(ctx, "a")
	wantResults(t, got, err)
	if rs, _ := l.Ratings(ctx, "2026-Q4", "a"); len(rs) != 0 {
		t.Errorf("a refused call wrote %+v", rs)
	}
}

func (s suite) testLeaderboard(t *testing.T) {
	l := ledgerOf(t, s.open(t))
	rating := func(id, side string, mu, sigma float64) store.Rating {
		return store.Rating{AccountID: id, Season: "2026-Q4", Side: side, RatingValue: store.RatingValue{Mu: mu, Sigma: sigma}, Games: 1}
	}
	// The ordinal mu − 3·sigma ranks: a sure 20 (ordinal 17) over an unsure 30 (ordinal 0).
	rs := []store.Rating{rating("unsure", "village", 30, 10), rating("sure", "village", 20, 1), rating("mid", "village", 25, 4),
		rating("tie-b", "village", 14, 1), rating("tie-a", "village", 14, 1), rating("wolf", "wolf", 40, 1)}
	if err := l.RecordGame(ctx, nil, rs); err != nil {
		t.Fatal(err)
	}
	ids := func(rs []store.Rating, err error) []string {
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.AccountID)
		}
		return out
	}
	if got := ids(l.Leaderboard(ctx, "2026-Q4", "village", 0, 10)); !reflect.DeepEqual(got, []string{"sure", "mid", "tie-a", "tie-b", "unsure"}) {
		t.Errorf("leaderboard %v", got)
	}
	if got := ids(l.Leaderboard(ctx, "2026-Q4", "village", 1, 2)); !reflect.DeepEqual(got, []string{"mid", "tie-a"}) {
		t.Errorf("page 2 of 2 a page: %v", got)
	}
	if got := ids(l.Leaderboard(ctx, "2026-Q3", "village", 0, 10)); len(got) != 0 {
		t.Errorf("another season: %v", got)
	}
}

func (s suite) testLedgerReopen(t *testing.T) {
	st := s.open(t)
	r := Result("a", "r1", 1, "win")
	if err := ledgerOf(t, st).RecordGame(ctx, []store.Result{r}, nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	got, err := ledgerOf(t, s.open(t)).Results(ctx, "a")
	wantResults(t, got, err, r)
}

func (s suite) testLedgerDeleteAccount(t *testing.T) {
	st := s.open(t)
	l := ledgerOf(t, st)
	for _, id := range []string{"a", "b"} {
		if err := st.CreateAccount(ctx, store.Account{ID: id, Name: "name-" + id, Created: At(1)}); err != nil {
			t.Fatal(err)
		}
	}
	b := Result("b", "r1", 1, "loss")
	rb := store.Rating{AccountID: "b", Season: "2026-Q4", Side: "village", RatingValue: store.RatingValue{Mu: 24, Sigma: 8}, Games: 1}
	ra := rb
	ra.AccountID = "a"
	if err := l.RecordGame(ctx, []store.Result{Result("a", "r1", 1, "win"), b}, []store.Rating{ra, rb}); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteAccount(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	got, err := l.Results(ctx, "a")
	wantResults(t, got, err)
	if rs, err := l.AccountRatings(ctx, "a"); err != nil || len(rs) != 0 {
		t.Errorf("the deleted account's ratings: %+v %v", rs, err)
	}
	got, err = l.RoomResults(ctx, "r1")
	wantResults(t, got, err, b) // the other player's stay
	if rs, _ := l.Leaderboard(ctx, "2026-Q4", "village", 0, 10); len(rs) != 1 || rs[0].AccountID != "b" {
		t.Errorf("leaderboard after the deletion: %+v", rs)
	}
}
