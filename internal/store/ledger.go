package store

import (
	"context"
	"errors"
	"time"
)

// Result is one account's seat in one finished game (internal/ledger
// decides what counts). Rows are keyed by AccountID, so that deleting an
// account deletes its rows.
type Result struct {
	AccountID string
	Room      string
	Game      int    // the room's game: 1 (a rematch is another room)
	Board     string // the preset's name, or "custom"
	Family    string // the board's family (ledger.Family)
	Role      string // the role he ended with (rules.Role's id)
	Camp      string // the camp he played for at the end (rules.Camp's name)
	Outcome   string // "win" or "loss" (ledger.Win, ledger.Loss)
	Counted   bool   // it counts in his statistics (ledger's fairness rules)
	Reason    string // why it does not count; "" when it does
	Rated     bool   // it changed his rating (counted, on a rated board)
	Season    string
	At        time.Time
	// Side is the rating his seat played for (village or wolf); Before and
	// After are that rating around this game (zero when not rated).
	Side          string
	Before, After RatingValue
}

// RatingValue is a skill estimate: its mean and its uncertainty.
type RatingValue struct{ Mu, Sigma float64 }

// Rating is one account's rating on one side in one season.
type Rating struct {
	AccountID string
	Season    string
	Side      string // "village" or "wolf"
	RatingValue
	Games int // the rated games it counts
}

// ErrRecorded: the results of this room's game are stored already; nothing
// was written (a restored game's end is seen again after a restart).
var ErrRecorded = errors.New("store: the game's results are already recorded")

// ErrStaleRating: a rating changed since it was read (another game of the
// account was recorded in between, on this node or another); nothing was
// written. The caller reads the ratings again and recomputes.
var ErrStaleRating = errors.New("store: a rating changed since it was read")

// Ledger keeps the results of finished games and the ratings they changed
// (internal/ledger; docs/accounts.md).
type Ledger interface {
	// RecordGame stores a game's results (all of one room and game) and
	// the ratings they changed, in one transaction: ErrRecorded if results
	// of that game are stored already. A rating of n games replaces the
	// stored rating of n−1 games (none for n = 1), read before the game
	// was rated; if that is not what is stored, ErrStaleRating and nothing
	// is written: two games of one account recorded at once, by two nodes,
	// cannot lose either's update.
	RecordGame(ctx context.Context, results []Result, ratings []Rating) error
	// Results are an account's results, newest first.
	Results(ctx context.Context, accountID string) ([]Result, error)
	// RoomResults are the results of a room's games, by account id.
	RoomResults(ctx context.Context, room string) ([]Result, error)
	// Ratings are the accounts' ratings in a season (those that exist).
	Ratings(ctx context.Context, season string, accountIDs ...string) ([]Rating, error)
	// AccountRatings are an account's ratings in every season, newest season first.
	AccountRatings(ctx context.Context, accountID string) ([]Rating, error)
	// Leaderboard is a season's ratings on one side, best first (by the
	// ordinal mu − 3·sigma, then by account id), from offset, at most limit.
	Leaderboard(ctx context.Context, season, side string, offset, limit int) ([]Rating, error)
	// Seasons are the seasons with results, newest first.
	Seasons(ctx context.Context) ([]string, error)
}

// CheckResults refuses a RecordGame whose results are not all of one game
// or lack an account, in the adapters' words (op names the call).
func CheckResults(op string, results []Result, ratings []Rating) error {
	for _, r := range results {
		if r.AccountID == "" {
			return errors.New(op + ": a result without an account")
		}
		if r.Room == "" || r.Room != results[0].Room || r.Game != results[0].Game {
			return errors.New(op + ": the results are not all of one room's game")
		}
	}
	for _, r := range ratings {
		if r.AccountID == "" || r.Season == "" || (r.Side != "village" && r.Side != "wolf") {
			return errors.New(op + ": a rating needs an account, a season and a side (village or wolf)")
		}
	}
	return nil
}
