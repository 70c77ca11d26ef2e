package server

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// Finished is a game played elsewhere (wolfden arena), to be kept as any
// room's finished game.
type Finished struct {
	Name   string // the room's name
	Preset string // the board's preset, if any
	Board  rules.Board
	Seed   uint64
	Names  []string // seat i+1's name: the program that played it
	Events []rules.Event
	At     time.Time
}

// Archive stores a finished game as a room that is over, so that its
// replay is read by GET /api/rooms/{id}/replay as any game's, and returns
// the room's id. The room is a practice room (its seed is known, its games
// count for nobody) and private (never listed); its seats are bots named
// after their programs.
func Archive(ctx context.Context, st store.Store, f Finished) (string, error) {
	if len(f.Events) == 0 || f.Events[len(f.Events)-1].Kind != rules.EvGameOver {
		return "", errors.New("archive: the game is not over")
	}
	if len(f.Names) != f.Board.Players() {
		return "", errors.New("archive: one name per seat is needed")
	}
	t, err := game.Pace("standard")
	if err != nil {
		return "", err
	}
	cfg := roomConfig{Name: f.Name, Preset: f.Preset, Timers: t.Map(), Pace: "standard", Bots: "smart", Seed: f.Seed,
		Practice: true, Private: true}
	cfg.setBoard(f.Board)
	seats := make([]seatRec, len(f.Names))
	for i, n := range f.Names {
		seats[i] = seatRec{Nick: n, Bot: true}
	}
	rec := store.Room{ID: newRoomID(), Created: f.At.UTC(), Updated: f.At.UTC(), Status: store.StatusOver}
	if rec.Config, err = json.Marshal(cfg); err != nil {
		return "", err
	}
	if rec.Seats, err = json.Marshal(seats); err != nil {
		return "", err
	}
	// Created open, then over with its whole log in one record: a reader
	// never finds the room over without its game.
	open := rec
	open.Status = store.StatusOpen
	if err := st.CreateRoom(ctx, open); err != nil {
		return "", err
	}
	if err := st.StartGame(ctx, rec, store.Record{N: 1, At: rec.Updated, Kind: "start", Events: f.Events}); err != nil {
		return "", err
	}
	return rec.ID, nil
}
