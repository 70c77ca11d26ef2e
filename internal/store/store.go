// Package store keeps rooms and the log of every game so that a restart
// loses nothing: a change is written before the server acknowledges it.
// The interface is the server's; each dialect has its own package
// (sqlite/, postgres/, memory/), and storetest/ checks that
// each keeps the same contract.
package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/wolfden/wolfden/rules"
)

// ErrNotFound is returned for a room that does not exist.
var ErrNotFound = errors.New("store: not found")

// ErrClosed is wrapped by every error of a call made after Close.
var ErrClosed = errors.New("the store is closed")

// Room statuses.
const (
	StatusOpen    = "open"    // seats are being filled
	StatusRunning = "running" // a game is being played
	StatusOver    = "over"    // the game has ended
	// StatusLost: the game could not be restored (a damaged record); it is
	// kept as it is for the operator, and every other game goes on.
	StatusLost = "lost"
)

// Room is a room's lasting record. Config and Seats are JSON documents the
// server owns; the store keeps them as they are. Seats hold token hashes,
// never tokens.
type Room struct {
	ID      string
	Created time.Time
	Updated time.Time
	Status  string
	Config  []byte
	Seats   []byte
	// Code is the room's short code for joining across a table (the
	// server's; "" for none), as the room was given it. The room record
	// does not keep it unique: a code is freed when its game ends and may
	// then name a newer room. Which room a code leads to now is the
	// code's claim (Codes), unique across every server sharing the store.
	Code string
}

// Record is one change of a running game, written before it is
// acknowledged: what happened (Kind and Body, owned by the server), the
// events the game's log gained, and the server's clock afterwards.
type Record struct {
	N      int64 // 1, 2, … within the room, without gaps
	At     time.Time
	Kind   string
	Body   []byte
	Events []rules.Event
	Clock  []byte
}

// ErrCodeTaken: another room's live claim holds the code.
var ErrCodeTaken = errors.New("store: the room code is held by another room")

// Codes are the claims on rooms' short codes (internal/server/codes.go):
// a code names at most one room at a time, across every server sharing
// the store, since each claim is made in the store itself. A claim is
// live until it is freed, or until the time ExpireCode gave it (a
// finished game's room lingering); a lapsed claim leads nowhere and
// another room may claim the code. A claim does not need its room to be
// stored: a new room claims its code before it is created.
type Codes interface {
	// ClaimCode makes code room's: ErrCodeTaken if another room's live
	// claim holds it. Claimed again by its holder, the claim is live
	// again, without an end.
	ClaimCode(ctx context.Context, code, room string) error
	// GiveCode hands code from room from to room to (a rematch takes its
	// table's code), live again, without an end; from's claim may have
	// lapsed, if no other room has claimed the code since. When from
	// holds no claim of it, it is ClaimCode(code, to): ErrCodeTaken if
	// another room's live claim holds it.
	GiveCode(ctx context.Context, code, from, to string) error
	// ExpireCode makes room's claim on code lapse after ttl (0: now),
	// by the store's clock; ErrNotFound if room holds no claim of it.
	ExpireCode(ctx context.Context, code, room string, ttl time.Duration) error
	// FreeCode drops room's claim on code; another room's claim stays,
	// without an error.
	FreeCode(ctx context.Context, code, room string) error
	// CodeRoom is the room whose live claim holds code (ErrNotFound).
	CodeRoom(ctx context.Context, code string) (room string, err error)
}

// CheckClaim refuses a code claim's call without its code or a room, in
// the adapters' words (op names the call).
func CheckClaim(op, code string, rooms ...string) error {
	if code == "" {
		return fmt.Errorf("%s: no room code given", op)
	}
	for _, r := range rooms {
		if r == "" {
			return fmt.Errorf("%s %s: no room given", op, code)
		}
	}
	return nil
}

// Store is the event store.
type Store interface {
	Codes
	Accounts
	// CreateRoom adds a room; its ID must be new.
	CreateRoom(ctx context.Context, r Room) error
	// UpdateRoom replaces a room's Status, Config, Seats, Code and Updated.
	UpdateRoom(ctx context.Context, r Room) error
	// Room reads one room (ErrNotFound).
	Room(ctx context.Context, id string) (Room, error)
	// Rooms lists the rooms with a status, oldest first.
	Rooms(ctx context.Context, status string) ([]Room, error)
	// Append writes records of one room atomically and returns once they
	// are durable (they survive the process being killed). Records must
	// follow the room's last N without a gap.
	Append(ctx context.Context, roomID string, recs ...Record) error
	// StartGame is UpdateRoom and Append in one transaction: a game's
	// first records and its room's change to running are stored together
	// or not at all, so that a crash during a start leaves no room marked
	// running without a deal.
	StartGame(ctx context.Context, r Room, recs ...Record) error
	// ResetRoom is UpdateRoom that also drops the room's records, in one
	// transaction: a game the host aborted, its room waiting again.
	ResetRoom(ctx context.Context, r Room) error
	// Records reads a room's records in order.
	Records(ctx context.Context, roomID string) ([]Record, error)
	Close() error
}

// GameOpener is a Store that can also make a room and start its game in
// one write: a room made to start at once (a matched AIWolf game) costs
// one write (SQLite's: one to its journal), not CreateRoom's and
// StartGame's.
type GameOpener interface {
	// OpenGame is CreateRoom and StartGame together: the room, as r
	// has it, and its game's first records are stored together or not at
	// all. The room's ID must be new.
	OpenGame(ctx context.Context, r Room, recs ...Record) error
}

// ArenaRating is one program's rating on one side as a wolfden arena run
// left it (docs/arena.md); a run's rows share its Run, At, Board, Seed and
// Games.
type ArenaRating struct {
	Run     string    // the run's id
	At      time.Time // when the run ended
	Board   string
	Seed    uint64
	Games   int // the run's games
	Program string
	Side    string
	Mu      float64
	Sigma   float64
	Played  int // the run's games in which the program held a seat on the side
	Wins    int
	Tokens  float64 // a model's tokens per game (0 for a bot)
	Seconds float64 // a model's time per game, in seconds
}

// Arena keeps the ratings of wolfden arena runs (GET /api/arena). The
// adapters implement it beside Store; a server whose store does not
// serves an empty list.
type Arena interface {
	// AddArenaRun stores one run's ratings, all or none.
	AddArenaRun(ctx context.Context, rows []ArenaRating) error
	// ArenaRatings lists the stored ratings of the limit most recent runs
	// (at least 1), the newest run first, each run's rows in the order
	// they were added.
	ArenaRatings(ctx context.Context, limit int) ([]ArenaRating, error)
	// UpdateArenaStanding updates a standing run, one that grows game by
	// game (the AIWolf agent teams', docs/arena.md): rows take the place
	// of the run's rows of the same program and side, the others are
	// kept, and the run's time and games become rows[0]'s on all of them.
	// Its cost is that of the rows given, however many the run holds. It
	// refuses with ErrStaleRating, storing nothing, unless the run had
	// rows[0].Games − 1 games (none: a run not stored yet), so that two
	// nodes crediting the same standing cannot lose one's game.
	UpdateArenaStanding(ctx context.Context, rows []ArenaRating) error
	// ArenaStanding reads a standing run's games and its rows of the
	// programs given, on every side, in the order they were added.
	ArenaStanding(ctx context.Context, run string, programs []string) (games int, rows []ArenaRating, err error)
	// ArenaRun reads one run's rows in the order they were added (none if
	// the run is not stored).
	ArenaRun(ctx context.Context, run string) ([]ArenaRating, error)
}

// CheckArenaRun refuses a run that is not one run's rows, in the
// adapters' words (op names the call).
func CheckArenaRun(op string, rows []ArenaRating) error {
	if len(rows) == 0 {
		return fmt.Errorf("%s: no rating to store", op)
	}
	type key struct{ program, side string }
	seen := map[key]bool{}
	for i, r := range rows {
		switch {
		case r.Run == "" || r.Program == "" || r.Side == "":
			return fmt.Errorf("%s: row %d has no run, program or side", op, i+1)
		case r.Run != rows[0].Run || !r.At.Equal(rows[0].At) || r.Board != rows[0].Board || r.Seed != rows[0].Seed || r.Games != rows[0].Games:
			return fmt.Errorf("%s: row %d is not of the run of row 1", op, i+1)
		case seen[key{r.Program, r.Side}]:
			return fmt.Errorf("%s: row %d: %s on the %s side is given twice", op, i+1, r.Program, r.Side)
		}
		seen[key{r.Program, r.Side}] = true
	}
	return nil
}

// LatestArenaRuns is the rows of the limit most recent runs of rows (as
// added, oldest first), the newest run first: ArenaRatings for an adapter
// that holds them all.
func LatestArenaRuns(rows []ArenaRating, limit int) []ArenaRating {
	limit = max(limit, 1)
	var runs []string // newest first
	byRun := map[string][]ArenaRating{}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if _, ok := byRun[r.Run]; !ok {
			runs = append(runs, r.Run)
		}
		byRun[r.Run] = append(byRun[r.Run], r)
	}
	// Newest by At; runs ended at the same instant, the later added first.
	slices.SortStableFunc(runs, func(a, b string) int { return byRun[b][0].At.Compare(byRun[a][0].At) })
	out := []ArenaRating{}
	for _, run := range runs[:min(limit, len(runs))] {
		rs := byRun[run]
		slices.Reverse(rs)
		out = append(out, rs...)
	}
	return out
}
