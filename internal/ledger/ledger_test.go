package ledger

import (
	"math"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// nine is a finished std-9 game the village won: seats 1–3 wolves, the
// rest village; every seat a person unless a test says.
func nine() Game {
	g := Game{Ended: true, Winner: rules.Village}
	for i := 1; i <= 9; i++ {
		r := rules.Villager
		if i <= 3 {
			r = rules.Werewolf
		}
		g.Seats = append(g.Seats, Seat{Seat: i, Account: "a" + string(rune('0'+i)), Dealt: r, Role: r, Camp: r.Camp()})
	}
	return g
}

func TestFairnessRules(t *testing.T) {
	bots := func(n int) func(*Game) {
		return func(g *Game) {
			for i := range n {
				g.Seats[len(g.Seats)-1-i].Bot, g.Seats[len(g.Seats)-1-i].Account = true, ""
			}
		}
	}
	tests := []struct {
		name   string
		rules  Rules
		change func(*Game)
		counts bool
		reason string
	}{
		{"a game of people that ran to its end counts", Rules{}, func(*Game) {}, true, ""},
		{"a practice room never counts", Rules{}, func(g *Game) { g.Practice = true }, false, Practice},
		{"an aborted game (no end in its log) does not count", Rules{}, func(g *Game) { g.Ended, g.Winner = false, rules.NoCamp }, false, NotEnded},
		{"a room of bots with one person does not count", Rules{}, bots(8), false, FewPeople},
		{"a bot-heavy room (5 bots of 9) is under half people", Rules{}, bots(5), false, FewPeople},
		{"half the seats people (rounded up: 5 of 9) counts", Rules{}, bots(4), true, ""},
		{"the server's share is the bar: 4 bots of 9 under a share of 2/3", Rules{MinShare: 2.0 / 3}, bots(4), false, FewPeople},
		{"a share of 2/3 takes 6 people of 9", Rules{MinShare: 2.0 / 3}, bots(3), true, ""},
		{"a draw does not count", Rules{}, func(g *Game) { g.Winner = rules.Draw }, false, Drawn},
		{"practice is said before the rest", Rules{}, func(g *Game) { g.Practice, g.Ended = true, false; bots(8)(g) }, false, Practice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := nine()
			tt.change(&g)
			ok, why := tt.rules.Counts(g)
			if ok != tt.counts || why != tt.reason {
				t.Errorf("Counts = %v %q, want %v %q", ok, why, tt.counts, tt.reason)
			}
		})
	}
}

func TestOutcomeRules(t *testing.T) {
	tests := []struct {
		name   string
		seat   int
		change func(*Seat)
		want   string
	}{
		{"a seat of the winning camp wins", 5, func(*Seat) {}, Win},
		{"a seat of the losing camp loses", 1, func(*Seat) {}, Loss},
		{"a leaver (a bot played his seat in two phases) loses though his camp won", 5, func(s *Seat) { s.AwayPhases = 2 }, Loss},
		{"a bot for one phase (a dropped connection) is no leaver", 5, func(s *Seat) { s.AwayPhases = 1 }, Win},
		{"a leaver of the losing camp loses", 1, func(s *Seat) { s.AwayPhases = 3 }, Loss},
		{"a red card is a loss though his camp won", 5, func(s *Seat) { s.RedCard = true }, Loss},
		{"a villager who became a black lover plays for the lovers", 5, func(s *Seat) { s.Camp = rules.Lovers }, Loss},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := nine()
			s := g.Seats[tt.seat-1]
			tt.change(&s)
			if got := Outcome(g, s); got != tt.want {
				t.Errorf("Outcome = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestBotsSeatsCountForNothing(t *testing.T) {
	g := nine()
	g.Seats[8].Bot, g.Seats[8].Account = true, ""
	g.Seats[7].Account = "" // a guest: a person, but no account to keep results for
	at := time.Date(2026, 12, 5, 14, 0, 0, 0, time.UTC)
	rs := Results(Rules{}, g, Info{Room: "r", Board: "std-9", Rated: true, Season: "2026-Q4", At: at})
	if len(rs) != 7 {
		t.Fatalf("%d results, want 7 (the accounts' seats, not the bot's nor the guest's): %+v", len(rs), rs)
	}
	for _, r := range rs {
		if r.AccountID == "" || r.AccountID == "a8" || r.AccountID == "a9" {
			t.Errorf("a result for %q", r.AccountID)
		}
		if !r.Counted || !r.Rated || r.Family != "std-9" || r.Season != "2026-Q4" || !r.At.Equal(at) {
			t.Errorf("result %+v", r)
		}
	}
}

func TestAnAccountWithSeveralSeatsKeepsNoneOfThem(t *testing.T) {
	g := nine()
	g.Seats[3].Account, g.Seats[4].Account = "host", "host" // one device seated two
	rs := Results(Rules{}, g, Info{Room: "r", Board: "std-9", Rated: true})
	if len(rs) != 7 {
		t.Fatalf("%d results, want the 7 accounts of one seat each", len(rs))
	}
	for _, r := range rs {
		if r.AccountID == "host" {
			t.Errorf("a result of the account with two seats: %+v", r)
		}
	}
	if _, ratings := Update(g, rs, nil); len(ratings) != 7 {
		t.Errorf("%d ratings, want 7", len(ratings))
	}
}

func TestResultsOfAGameThatDoesNotCount(t *testing.T) {
	g := nine()
	g.Practice = true
	for _, r := range Results(Rules{}, g, Info{Room: "r", Board: "std-9", Rated: true}) {
		if r.Counted || r.Rated || r.Reason != Practice {
			t.Errorf("a practice room's result %+v counts", r)
		}
	}
}

func TestReadTheLog(t *testing.T) {
	seats := make([]Seat, 5)
	ev := []rules.Event{
		{Kind: rules.EvRole, Seat: 1, Role: rules.Werewolf},
		{Kind: rules.EvRole, Seat: 2, Role: rules.Thief},
		{Kind: rules.EvRole, Seat: 3, Role: rules.Villager},
		{Kind: rules.EvRole, Seat: 4, Role: rules.Seer},
		{Kind: rules.EvRole, Seat: 5, Role: rules.Villager},
		{Kind: rules.EvSwap, Seat: 2, Role: rules.Werewolf},
		{Kind: rules.EvBlackLovers, Mask: 1<<3 | 1<<1},
		{Kind: rules.EvRedCard, Seat: 4},
		{Kind: rules.EvGameOver, Value: int16(rules.Lovers)},
	}
	g := Read(ev, seats)
	want := []struct {
		dealt rules.Role
		camp  rules.Camp
		red   bool
	}{{rules.Werewolf, rules.Lovers, false}, {rules.Werewolf, rules.Wolves, false}, {rules.Villager, rules.Lovers, false},
		{rules.Seer, rules.Village, true}, {rules.Villager, rules.Village, false}}
	for i, w := range want {
		s := g.Seats[i]
		if s.Dealt != w.dealt || s.Camp != w.camp || s.RedCard != w.red {
			t.Errorf("seat %d: %v %v red %v, want %v %v %v", i+1, s.Dealt, s.Camp, s.RedCard, w.dealt, w.camp, w.red)
		}
	}
	if !g.Ended || g.Winner != rules.Lovers {
		t.Errorf("end %v %v", g.Ended, g.Winner)
	}
	if Side(g.Seats[1]) != Wolf || Side(g.Seats[2]) != Village {
		t.Errorf("the thief who took a wolf plays the wolf side; a black lover keeps his card's side")
	}
}

// TestReadTheNewlyweds: the ghost bride's groom and witness (鬼魂新娘) play
// for the newlyweds' camp, whatever their cards; the bride's card is of it.
func TestReadTheNewlyweds(t *testing.T) {
	seats := make([]Seat, 4)
	ev := []rules.Event{
		{Kind: rules.EvRole, Seat: 1, Role: rules.GhostBride},
		{Kind: rules.EvRole, Seat: 2, Role: rules.Werewolf},
		{Kind: rules.EvRole, Seat: 3, Role: rules.Seer},
		{Kind: rules.EvRole, Seat: 4, Role: rules.Villager},
		{Kind: rules.EvGroom, Seat: 1, Target: 2},
		{Kind: rules.EvWitness, Seat: 1, Target: 3, Mask: 1<<1 | 1<<2},
		{Kind: rules.EvGameOver, Value: int16(rules.Newlyweds)},
	}
	g := Read(ev, seats)
	for i, want := range []rules.Camp{rules.Newlyweds, rules.Newlyweds, rules.Newlyweds, rules.Village} {
		if c := g.Seats[i].Camp; c != want {
			t.Errorf("seat %d plays for %v, want %v", i+1, c, want)
		}
	}
}

// Newcombe (1998), "Two-sided confidence intervals for the single
// proportion", Statistics in Medicine 17, table II, method 3 (Wilson).
func TestWilsonIntervalMatchesNewcombe(t *testing.T) {
	tests := []struct {
		wins, games int
		lo, hi      float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.wins, tt.games)
		if math.Abs(lo-tt.lo) > 5e-5 || math.Abs(hi-tt.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = %.4f–%.4f, want %.4f–%.4f", tt.wins, tt.games, lo, hi, tt.lo, tt.hi)
		}
	}
	if lo, hi := Wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("no games: %v–%v, want 0–1", lo, hi)
	}
}

func TestStatsCountOnlyCountedGamesByFamilyCampAndRole(t *testing.T) {
	rs := []store.Result{
		{Family: "std-12", Camp: "village", Role: "seer", Outcome: Win, Counted: true},
		{Family: "std-12", Camp: "village", Role: "villager", Outcome: Loss, Counted: true},
		{Family: "std-12", Camp: "wolves", Role: "werewolf", Outcome: Win, Counted: true},
		{Family: "std-12", Camp: "wolves", Role: "werewolf", Outcome: Win, Counted: false, Reason: Practice},
		{Family: "std-9", Camp: "village", Role: "witch", Outcome: Loss, Counted: true},
	}
	st := Stats(rs)
	if len(st) != 2 || st[0].Family != "std-12" || st[1].Family != "std-9" {
		t.Fatalf("families %+v", st)
	}
	f := st[0]
	if f.All.Games != 3 || f.All.Wins != 2 || f.Camps["wolves"].Games != 1 || f.Camps["village"].Wins != 1 || f.Roles["werewolf"].Games != 1 {
		t.Errorf("std-12 %+v", f)
	}
	lo, hi := Wilson(2, 3)
	if f.All.Low != lo || f.All.High != hi || math.Abs(f.All.Rate-2.0/3) > 1e-12 {
		t.Errorf("interval %+v", f.All)
	}
}

func TestSeasonIsACalendarQuarterByDefault(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		length Seasons
		at     string
		want   string
	}{
		{Quarter, "2026-12-31T23:59:59Z", "2026-Q4"},
		{Quarter, "2027-01-01T00:00:00Z", "2027-Q1"},
		{Quarter, "2026-03-31T20:00:00-05:00", "2026-Q2"}, // 01:00 UTC on 1 April
		{Quarter, "2026-06-30T12:00:00Z", "2026-Q2"},
		{Month, "2026-12-05T10:00:00Z", "2026-12"},
		{Year, "2026-12-05T10:00:00Z", "2026"},
	}
	for _, tt := range tests {
		if got := tt.length.Of(at(tt.at)); got != tt.want {
			t.Errorf("%s of %s = %s, want %s", tt.length, tt.at, got, tt.want)
		}
	}
	if p, err := ParseSeasons(""); err != nil || p != Quarter {
		t.Errorf("the default length is %q %v", p, err)
	}
	if _, err := ParseSeasons("week"); err == nil {
		t.Error("a week was taken")
	}
}

func TestBoardFamilies(t *testing.T) {
	for preset, want := range map[string]string{"std-9": "std-9", "std-12": "std-12", "std-12-wwk": "std-12",
		"std-12-fox": "std-12", "classic": "classic", "aiwolf-5": "aiwolf", "aiwolf-13": "aiwolf", "": Custom, "forum": "forum"} {
		if got := Family(preset); got != want {
			t.Errorf("Family(%q) = %q, want %q", preset, got, want)
		}
	}
}

func TestALopsidedBoardIsNotRated(t *testing.T) {
	tests := []struct {
		name  string
		rate  float64
		known bool
		want  bool
	}{
		{"std-12's 51% is rated", 0.5119, true, true},
		{"40% exactly is rated", 0.40, true, true},
		{"60% exactly is rated", 0.60, true, true},
		{"classic 12's 71% village is lopsided", 0.7103, true, false},
		{"std-12-gargoyle's 32% is lopsided", 0.3161, true, false},
		{"a custom board without a figure is unrated", 0.5, false, false},
	}
	for _, tt := range tests {
		if got := Rated(tt.rate, tt.known); got != tt.want {
			t.Errorf("%s: Rated = %v", tt.name, got)
		}
	}
}
