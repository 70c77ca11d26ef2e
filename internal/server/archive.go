package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

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
	// Log is the game's records, numbered from 1, as an actor stores them
	// (messages included), or one record of its events.
	Log []store.Record
}

// Archive stores a finished game as a room that is over, so that its
// replay is read by GET /api/rooms/{id}/replay as any game's, and returns
// the room's id. The room is a practice room (its seed is known, its games
// count for nobody) and private (never listed); its seats are bots named
// after their programs.
func Archive(ctx context.Context, st store.Store, f Finished) (string, error) {
	var last *rules.Event
	for i, r := range f.Log {
		if r.N != int64(i+1) {
			return "", fmt.Errorf("archive: record %d is numbered %d", i+1, r.N)
		}
		if n := len(r.Events); n > 0 {
			last = &r.Events[n-1]
		}
	}
	if last == nil || last.Kind != rules.EvGameOver {
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
	at := f.Log[len(f.Log)-1].At.UTC()
	rec := store.Room{ID: newRoomID(), Created: f.Log[0].At.UTC(), Updated: at, Status: store.StatusOver}
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
	if err := st.StartGame(ctx, rec, f.Log...); err != nil {
		return "", err
	}
	return rec.ID, nil
}
