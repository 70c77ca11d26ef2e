package chat

import (
	"context"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// Rooms is the server's room machinery as the chat core uses it: the very
// rooms, actors and store of the web rooms (internal/server implements it
// over its own handlers), so a chat game is a web room with chat clients.
// Every method's error is a user's mistake or the server's refusal, as the
// web client would be told it; the core shows it to the user.
type Rooms interface {
	// Open creates a room for a group's game: preset "" takes the
	// default board. It returns the room's id and the host's credential.
	Open(ctx context.Context, o Open) (room, host string, err error)
	// Join takes the first empty seat for a user, as POST join does: the
	// seat and its credential (the token the web page uses).
	// user names the chat user for the server's per-user limits.
	Join(ctx context.Context, room, user, nick string) (seat rules.Seat, token string, err error)
	// Leave gives back a seat before the start.
	Leave(ctx context.Context, room, token string) error
	// Start fills the empty seats with bots and deals.
	Start(ctx context.Context, room, host string) error
	// Actor is the room's running game.
	Actor(ctx context.Context, room string) (*game.Actor, error)
	// Pause pauses (on) or resumes the game.
	Pause(ctx context.Context, room, host string, on bool) error
	// RedCard removes a seat from the game (a red card, 红牌).
	RedCard(ctx context.Context, room, host string, seat rules.Seat) error
	// Extend moves the running deadline d later (forum pace).
	Extend(ctx context.Context, room, host string, d time.Duration) error
	// SeatLink is the address of the seat's web page with its
	// credential (in the fragment, which no server sees): whoever holds it
	// plays the seat.
	SeatLink(room string, seat rules.Seat, token string) string
}

// Open is what a group's game is created with.
type Open struct {
	Preset string
	Name   string // the room's name: the group's
	User   string // the host's chat user ("platform:id"), for the server's per-user limits
	// Seed, Deal and Practice: a practice room with a fixed deal (tests).
	Seed     *uint64
	Deal     []string
	Timers   map[string]string
	Remind   string // the reminders before each deadline (game.ParseRemind); "": the room's default
	Practice bool
}
