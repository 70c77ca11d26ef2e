// Package ledger holds what a finished game is worth to the people who
// played it: whether it counts (the fairness rules of docs/accounts.md),
// each seat's outcome, the statistics with their intervals, the seasons,
// and which boards are rated. It is pure: the server reads a game's log
// and its seats, and stores what this package decides.
package ledger

import (
	"math"
	"time"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// Outcomes of a seat. A draw is not an outcome: a drawn game does not count.
const (
	Win  = "win"
	Loss = "loss"
)

// Sides a rating is kept for: a seat plays for the side of the card he was
// dealt (a wolf card's seat is the wolf side, whatever camp he ends in).
const (
	Village = "village"
	Wolf    = "wolf"
)

// Reasons a game does not count.
const (
	Practice  = "practice"   // a practice room: its deal may be known
	FewPeople = "few_people" // fewer people than Rules.MinShare of the seats
	NotEnded  = "not_ended"  // no end in its log (aborted, lost)
	Drawn     = "draw"       // nobody won
)

// Seat is one seat of a finished game.
type Seat struct {
	Seat    int
	Account string     // the signed-in account that held it; "" for a guest or a bot
	Bot     bool       // a bot's from the deal: it counts for nothing
	Dealt   rules.Role // the card he was dealt (or took as the thief)
	Role    rules.Role // the role he ended with
	Camp    rules.Camp // the camp he played for at the end
	// AwayPhases: the phases (nights and days) in some part of which a bot
	// played his seat because he was gone (game.AwayPhases).
	AwayPhases int
	RedCard    bool // sent off by the host (红牌)
}

// Game is a finished game as the rules see it.
type Game struct {
	Practice bool
	Ended    bool       // its log holds the game's end
	Winner   rules.Camp // the winning camp (rules.Draw for a draw)
	Seats    []Seat
}

// Rules are the fairness rules' settings.
type Rules struct {
	// MinShare: the share of the seats that must be people (not bots) at
	// the deal for a game to count; 0 takes DefaultMinShare.
	MinShare float64
}

// DefaultMinShare: half the seats must be people.
const DefaultMinShare = 0.5

// MinPeople is the fewest people a game of players seats needs to count.
func (r Rules) MinPeople(players int) int {
	share := r.MinShare
	if share <= 0 {
		share = DefaultMinShare
	}
	return int(math.Ceil(share*float64(players) - 1e-9))
}

// Counts tells whether a game counts, and if not why (one of the reasons
// above; the first that applies).
func (r Rules) Counts(g Game) (bool, string) {
	people := 0
	for _, s := range g.Seats {
		if !s.Bot {
			people++
		}
	}
	switch {
	case g.Practice:
		return false, Practice
	case !g.Ended:
		return false, NotEnded
	case people < r.MinPeople(len(g.Seats)):
		return false, FewPeople
	case g.Winner == rules.Draw || g.Winner == rules.NoCamp:
		return false, Drawn
	}
	return true, ""
}

// LeaverPhases: a seat a bot played in more than this many phases was left
// by its player.
const LeaverPhases = 1

// Left tells whether the seat's player left the game: a bot played his
// seat in more than one phase.
func (s Seat) Left() bool { return s.AwayPhases > LeaverPhases }

// Outcome is a person's result in a game that ended: a leaver's or a red
// card's is a loss whatever his camp did; anyone else wins with his camp.
func Outcome(g Game, s Seat) string {
	if s.Left() || s.RedCard || s.Camp != g.Winner {
		return Loss
	}
	return Win
}

// Side is the rating a seat plays for: the side of the card he was dealt.
func Side(s Seat) string {
	if s.Dealt.Camp() == rules.Wolves {
		return Wolf
	}
	return Village
}

// Info is what the server knows of a finished game besides its log.
type Info struct {
	Room   string
	Game   int    // 0 is taken as 1
	Board  string // the preset's name; "" for a board file
	Rated  bool   // the board is rated (Rated)
	Season string
	At     time.Time
}

// Results are the rows to keep of a finished game: one for each seat an
// account held (a guest's seat and a bot's keep none). An account that
// held several seats of one game (a signed-in host seating a whole table
// on his device) keeps none: whose play would its result be? Whether the
// game counts is the same for every row; a row is Rated when it counts on
// a rated board (its ratings are then updated: Update).
func Results(r Rules, g Game, in Info) []store.Result {
	counted, why := r.Counts(g)
	seats := map[string]int{}
	for _, s := range g.Seats {
		if !s.Bot && s.Account != "" {
			seats[s.Account]++
		}
	}
	board := in.Board
	if board == "" {
		board = Custom
	}
	var out []store.Result
	for _, s := range g.Seats {
		if s.Bot || s.Account == "" || seats[s.Account] > 1 {
			continue
		}
		res := store.Result{AccountID: s.Account, Room: in.Room, Game: max(in.Game, 1), Board: board, Family: Family(in.Board),
			Role: s.Role.String(), Camp: s.Camp.String(), Outcome: Loss, Counted: counted, Reason: why,
			Rated: counted && in.Rated, Season: in.Season, At: in.At, Side: Side(s)}
		if g.Ended {
			res.Outcome = Outcome(g, s)
		}
		out = append(out, res)
	}
	return out
}
