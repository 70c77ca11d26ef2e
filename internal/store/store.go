// Package store keeps rooms and the log of every game so that a restart
// loses nothing: a change is written before the server acknowledges it.
// The interface is the server's; each dialect has its own package
// (sqlite/, postgres/, memory/), and storetest/ checks that
// each keeps the same contract.
package store

import (
	"context"
	"errors"
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
	// server's; "" for none). The store does not keep it unique: a code
	// is freed when its game ends and may then name a newer room, which
	// the server tells apart (internal/server/codes.go).
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

// Store is the event store.
type Store interface {
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
