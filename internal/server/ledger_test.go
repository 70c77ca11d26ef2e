package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/ledger"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

func TestRoomSaysWhetherItIsRated(t *testing.T) {
	ts := newTestServer(t)
	board, err := os.ReadFile("../../examples/boards/wolf-king-guard.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		body map[string]any
		want bool
	}{
		{"std-9 (44% village) is rated", map[string]any{"preset": "std-9"}, true},
		{"std-12 (51% village) is rated", map[string]any{"preset": "std-12"}, true},
		{"classic at 12 (71% village) is lopsided", map[string]any{"preset": "classic", "players": 12}, false},
		{"a practice room is never rated", map[string]any{"preset": "std-12", "practice": true}, false},
		{"a preset with an option changed has no figure", map[string]any{"preset": "std-12", "options": map[string]string{"vote_tie": "random"}}, false},
		{"a board file has no figure", map[string]any{"board": string(board)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c struct {
				Room struct {
					ID    string `json:"id"`
					Rated *bool  `json:"rated"`
				} `json:"room"`
			}
			if err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", tt.body, &c); err != nil {
				t.Fatal(err)
			}
			if c.Room.Rated == nil || *c.Room.Rated != tt.want {
				t.Errorf("rated = %v, want %v", c.Room.Rated, tt.want)
			}
		})
	}
}

// playLinked plays a game of people seats (random clients) and bots for
// the rest; the seats in accounts are linked to those accounts before the
// start, as a signed-in player's join links his. A seat in gone never
// connects: a bot plays it from its first timeout. It returns the room and
// the people's seats.
func (ts *testServer) playLinked(t *testing.T, body map[string]any, people int, accounts map[int]string, gone ...int) (string, []seated) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", body, &c); err != nil {
		t.Fatal(err)
	}
	var players []seated
	for i := range people {
		var p seated
		if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/join", "", map[string]any{"nickname": fmt.Sprint("p", i+1)}, &p); err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
		if a := accounts[p.Seat]; a != "" {
			if err := ts.st.LinkSeat(ctx, c.Room.ID, p.Seat, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i, p := range players {
		if slices.Contains(gone, p.Seat) {
			continue
		}
		wg.Go(func() {
			conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, p.Token, 0, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			if _, err := conn.PlayRandom(ctx, rand.New(rand.NewPCG(uint64(i), 7)), nil); err != nil {
				t.Errorf("seat %d: %v", p.Seat, err)
			}
		})
	}
	wg.Wait()
	ts.waitOver(t, c.Room.ID)
	return c.Room.ID, players
}

func (ts *testServer) account(t *testing.T, id, name string, public bool) {
	t.Helper()
	if err := ts.st.CreateAccount(context.Background(), store.Account{ID: id, Name: name, Public: public, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// waitResults waits until the room's results are stored.
func (ts *testServer) waitResults(t *testing.T, room string, n int) []store.Result {
	t.Helper()
	for i := 0; ; i++ {
		rs, err := ts.st.(store.Ledger).RoomResults(context.Background(), room)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) >= n {
			return rs
		}
		if i == 500 {
			t.Fatalf("%d results of room %s stored, want %d", len(rs), room, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestAFinishedGameKeepsItsAccountsResultsAndRatings(t *testing.T) {
	ts := newTestServer(t)
	ts.account(t, "ann", "Ann", true)
	ts.account(t, "bob", "Bob", false)
	// Five people of nine (half, rounded up) and four bots: it counts.
	room, _ := ts.playLinked(t, map[string]any{"preset": "std-9", "timers": quick}, 5, map[int]string{1: "ann", 2: "bob"})
	rs := ts.waitResults(t, room, 2)
	if len(rs) != 2 {
		t.Fatalf("%d results, want Ann's and Bob's only (guests and bots keep none): %+v", len(rs), rs)
	}
	for _, r := range rs {
		if r.Reason == ledger.Drawn { // a stalemate: nothing to check of a rating
			t.Skip("the random game was a draw")
		}
		if !r.Counted || !r.Rated || r.Board != "std-9" || r.Family != "std-9" || r.Before.Mu != 25 || r.After == (store.RatingValue{}) {
			t.Errorf("result %+v", r)
		}
	}
	var seasons struct {
		Current string   `json:"current"`
		Seasons []string `json:"seasons"`
	}
	if err := ts.api.Do(context.Background(), "GET", "/api/seasons", "", nil, &seasons); err != nil {
		t.Fatal(err)
	}
	if seasons.Current != rs[0].Season || seasons.Seasons[0] != rs[0].Season {
		t.Errorf("seasons %+v, the game's %s", seasons, rs[0].Season)
	}
	// Ann's public profile has the game; Bob's private one is not found,
	// as a name nobody has is not.
	var p profile
	if err := ts.api.Do(context.Background(), "GET", "/api/players/ann", "", nil, &p); err != nil {
		t.Fatal(err)
	}
	if p.Name != "Ann" || p.Own || len(p.Games) != 1 || p.Games[0].Room != room || len(p.Stats) != 1 || p.Stats[0].All.Games != 1 || len(p.Ratings) != 1 {
		t.Errorf("Ann's profile %+v", p)
	}
	for _, name := range []string{"bob", "nobody"} {
		err := ts.api.Do(context.Background(), "GET", "/api/players/"+name, "", nil, nil)
		if code := codeOf(err); code != "no_player" {
			t.Errorf("%s: %v, want no_player", name, err)
		}
	}
	// The leaderboard lists Ann on her side, not the private Bob.
	var lb struct {
		Players []boardEntry `json:"players"`
	}
	side := rs[0].Side
	if rs[0].AccountID != "ann" {
		side = rs[1].Side
	}
	if err := ts.api.Do(context.Background(), "GET", "/api/leaderboard?side="+side, "", nil, &lb); err != nil {
		t.Fatal(err)
	}
	if len(lb.Players) != 1 || lb.Players[0].Name != "Ann" || lb.Players[0].Rank != 1 || lb.Players[0].Games != 1 {
		t.Errorf("leaderboard %+v", lb.Players)
	}
	if err := ts.api.Do(context.Background(), "GET", "/api/leaderboard?side=third", "", nil, nil); codeOf(err) != "bad_side" {
		t.Errorf("a side of nothing: %v", err)
	}
}

func TestABotHeavyRoomDoesNotCount(t *testing.T) {
	ts := newTestServer(t)
	ts.account(t, "ann", "Ann", true)
	// Four people of nine: under half.
	room, _ := ts.playLinked(t, map[string]any{"preset": "std-9", "timers": quick}, 4, map[int]string{1: "ann"})
	rs := ts.waitResults(t, room, 1)
	if rs[0].Counted || rs[0].Rated || rs[0].Reason != ledger.FewPeople || rs[0].After != (store.RatingValue{}) {
		t.Errorf("a bot-heavy room's result %+v", rs[0])
	}
	if rt, _ := ts.st.(store.Ledger).AccountRatings(context.Background(), "ann"); len(rt) != 0 {
		t.Errorf("ratings %+v", rt)
	}
}

// The end of a game tells each signed-in player his own rating change,
// asked with his seat's token and his session: another seat's token, a
// guest's, or another account's session learn nothing of it.
func TestARatingChangeIsToldToItsOwnSeatOnly(t *testing.T) {
	ts := newAccountServer(t, Options{Fairness: ledger.Rules{MinShare: 0.3}}) // three people of nine count
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "timers": quick}, &c); err != nil {
		t.Fatal(err)
	}
	join := func(b *browser, nick string) seated {
		var s seated
		if err := json.Unmarshal(b.want(http.StatusOK, "POST", "/api/rooms/"+c.Room.ID+"/join", map[string]string{"nickname": nick}), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	ann, bob := newBrowser(t, ts), newBrowser(t, ts)
	ann.signUp("Ann")
	bob.signUp("Bob")
	annSeat, bobSeat := join(ann, "Ann"), join(bob, "Bob")
	var guest seated
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/join", "", map[string]any{"nickname": "Guest"}, &guest); err != nil {
		t.Fatal(err)
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	ask := func(b *browser, token string) (int, seatResult, string) {
		code, body, _ := b.do("GET", "/api/rooms/"+c.Room.ID+"/rating", nil, "Authorization", "Bearer "+token)
		var r seatResult
		json.Unmarshal(body, &r)
		return code, r, string(body)
	}
	if code, _, body := ask(ann, annSeat.Token); code != http.StatusConflict {
		t.Errorf("during the game: %d %s, want 409 not_over", code, body)
	}
	var wg sync.WaitGroup
	for i, p := range []seated{annSeat, bobSeat, guest} {
		wg.Go(func() {
			conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, p.Token, 0, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			if _, err := conn.PlayRandom(ctx, rand.New(rand.NewPCG(uint64(i), 9)), nil); err != nil {
				t.Errorf("seat %d: %v", p.Seat, err)
			}
		})
	}
	wg.Wait()
	ts.waitOver(t, c.Room.ID)
	rs := ts.waitResults(t, c.Room.ID, 2)
	mine := map[string]store.Result{}
	for _, r := range rs {
		a, err := ts.st.AccountByID(ctx, r.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		mine[a.Name] = r
	}
	if mine["Ann"].Reason == ledger.Drawn {
		t.Skip("the random game was a draw: no rating changed")
	}
	for _, who := range []struct {
		name string
		b    *browser
		seat seated
	}{{"Ann", ann, annSeat}, {"Bob", bob, bobSeat}} {
		code, r, body := ask(who.b, who.seat.Token)
		want := mine[who.name]
		if code != http.StatusOK || !r.Linked || !r.Rated || r.Outcome != want.Outcome || r.Side != want.Side ||
			r.Before == nil || r.After == nil || r.After.Mu != want.After.Mu || r.Before.Mu != want.Before.Mu {
			t.Errorf("%s's own change: %d %s, want %+v", who.name, code, body, want)
		}
	}
	// Ann's session with Bob's seat's token, Bob's with Ann's: refused,
	// with nothing of the other's result.
	for _, x := range []struct {
		b     *browser
		token string
		other store.Result
	}{{ann, bobSeat.Token, mine["Bob"]}, {bob, annSeat.Token, mine["Ann"]}} {
		code, _, body := ask(x.b, x.token)
		if code != http.StatusForbidden || strings.Contains(body, fmt.Sprint(x.other.After.Mu)) {
			t.Errorf("another account's seat: %d %s, want 403 not_yours", code, body)
		}
	}
	guestBrowser := newBrowser(t, ts)
	if code, r, body := ask(guestBrowser, guest.Token); code != http.StatusOK || r.Linked || r.Before != nil {
		t.Errorf("the guest's seat: %d %s, want linked false and nothing else", code, body)
	}
	if code, _, body := ask(guestBrowser, ""); code != http.StatusUnauthorized {
		t.Errorf("no token: %d %s", code, body)
	}
	// Signed out, the seat's own token is not enough.
	if code, _, body := ask(guestBrowser, annSeat.Token); code != http.StatusForbidden {
		t.Errorf("Ann's token without her session: %d %s", code, body)
	}
}

// A player who never comes to his seat is played by a bot from its first
// timeout: a leaver, whose game is a loss whatever his camp did, and whose
// rating falls.
func TestALeaverLosesWhateverHisCampDid(t *testing.T) {
	ts := newTestServer(t)
	ts.account(t, "ann", "Ann", true)
	ts.account(t, "bob", "Bob", true)
	room, _ := ts.playLinked(t, map[string]any{"preset": "std-9", "timers": quick}, 5, map[int]string{1: "ann", 2: "bob"}, 1)
	rs := ts.waitResults(t, room, 2)
	for _, r := range rs {
		if r.Reason == ledger.Drawn {
			t.Skip("the random game was a draw")
		}
		if r.AccountID != "ann" {
			continue
		}
		if r.Outcome != ledger.Loss || !r.Counted || !r.Rated || r.After.Mu >= r.Before.Mu {
			t.Errorf("the leaver's result %+v", r)
		}
	}
	recs, err := ts.st.Records(context.Background(), room)
	if err != nil {
		t.Fatal(err)
	}
	if away, _ := game.AwayPhases(recs); away[1] < 2 {
		t.Errorf("seat 1 was played by a bot in %d phases: not recorded as a leaver", away[1])
	}
}

// BenchmarkRoomRated is the rated badge's cost in every room description
// (the lobby lists many): the board's fingerprint looked up in the table.
func BenchmarkRoomRated(b *testing.B) {
	req := createRequest{Preset: "std-12"}
	c, err := req.config()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if !c.rated() {
			b.Fatal("std-12 is not rated")
		}
	}
}

// racingLedger is a store on which another node records a game of one of
// the accounts (a rating of one game on each side) just before this node's
// first RecordGame: this node's ratings, read before it, are stale.
type racingLedger struct {
	*sqlite.DB
	account string
	raced   bool
	stale   int // RecordGame calls refused as stale
}

func (r *racingLedger) RecordGame(ctx context.Context, results []store.Result, ratings []store.Rating) error {
	if !r.raced && len(ratings) > 0 {
		r.raced = true
		other := aWin(r.account, "elsewhere", ratings[0].Season)
		var theirs []store.Rating
		for _, side := range []string{ledger.Village, ledger.Wolf} {
			theirs = append(theirs, store.Rating{AccountID: r.account, Season: ratings[0].Season, Side: side,
				RatingValue: store.RatingValue{Mu: 30, Sigma: 7}, Games: 1})
		}
		if err := r.DB.RecordGame(ctx, []store.Result{other}, theirs); err != nil {
			return err
		}
	}
	err := r.DB.RecordGame(ctx, results, ratings)
	if errors.Is(err, store.ErrStaleRating) {
		r.stale++
	}
	return err
}

// aWin is one rated win of account in room, in season.
func aWin(account, room, season string) store.Result {
	return store.Result{AccountID: account, Room: room, Game: 1, Board: "std-9", Family: "std-9", Role: "villager",
		Camp: "village", Outcome: ledger.Win, Counted: true, Rated: true, Season: season, At: time.Now().UTC(), Side: ledger.Village}
}

// TestARatingChangedByAnotherNodeIsReadAgain: a game of Ann's recorded by
// another node between this node's reading of her rating and its write
// makes the write stale; the server reads her rating again and rates this
// game over the other's: both games count, her rating counts two.
func TestARatingChangedByAnotherNodeIsReadAgain(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	st := &racingLedger{DB: db, account: "ann"}
	ts := newTestServerOver(t, st, Options{})
	ts.account(t, "ann", "Ann", true)
	// A rated room's deal is random; a drawn game rates nobody, and the
	// next is played instead.
	var rs []store.Result
	for range 3 {
		room, _ := ts.playLinked(t, map[string]any{"preset": "std-9", "timers": quick}, 5, map[int]string{1: "ann"})
		if rs = ts.waitResults(t, room, 1); rs[0].Reason != ledger.Drawn {
			break
		}
	}
	if rs[0].Reason == ledger.Drawn {
		t.Fatal("three drawn games")
	}
	if st.stale != 1 {
		t.Errorf("%d writes refused as stale, want 1", st.stale)
	}
	mine, err := db.Results(context.Background(), "ann")
	rooms := map[string]bool{}
	for _, r := range mine {
		rooms[r.Room] = true
	}
	if err != nil || !rooms[rs[0].Room] || !rooms["elsewhere"] {
		t.Fatalf("Ann's results: %+v %v, want this game's and the other node's", mine, err)
	}
	rt, err := db.Ratings(context.Background(), rs[0].Season, "ann")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rt {
		if r.Side == rs[0].Side && r.Games != 2 {
			t.Errorf("Ann's %s rating counts %d games, want 2: %+v", r.Side, r.Games, r)
		}
	}
	if rs[0].Before.Mu != 30 {
		t.Errorf("this game was rated from %+v, want the other node's rating (mu 30)", rs[0].Before)
	}
}
