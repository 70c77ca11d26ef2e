package local

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// Table is one room of the device and, once started, its game.
type Table struct {
	dev *Device

	mu      sync.Mutex
	rec     roomRec
	version int64
	changed chan struct{} // closed at each change, then made anew
	st      *memory.Store
	actor   *game.Actor
}

// touch counts a change and wakes those waiting for one; the caller holds mu.
func (t *Table) touch() {
	t.version++
	close(t.changed)
	t.changed = make(chan struct{})
}

// saveRoom hands the room's record to the Saver; the caller holds mu (or
// the table is not shared yet).
func (t *Table) saveRoom() error {
	if t.dev.save == nil {
		return nil
	}
	b, _ := json.Marshal(t.rec)
	if err := t.dev.save.Room(t.rec.ID, b); err != nil {
		return fmt.Errorf("this device could not keep the room: %v", err)
	}
	return nil
}

func (t *Table) saveRecords(recs []store.Record) error {
	if t.dev.save == nil || len(recs) == 0 {
		return nil
	}
	return t.dev.save.Records(t.rec.ID, recs[0].N, encodeRecords(recs))
}

// roomInfo is the server's description of a room (internal/server, GET
// /api/rooms/ID), with what a room of the device has.
type roomInfo struct {
	ID       string            `json:"id"`
	Name     string            `json:"name"`
	Status   string            `json:"status"`
	Preset   string            `json:"preset,omitempty"`
	Cards    []string          `json:"cards"`
	Options  map[string]string `json:"options"`
	Timers   map[string]string `json:"timers"`
	Bots     string            `json:"bots"`
	Practice bool              `json:"practice"`
	CardSeen bool              `json:"card_seen"`
	Seed     *uint64           `json:"seed,omitempty"`
	Players  int               `json:"players"`
	Taken    int               `json:"taken"`
	Seats    []seatInfo        `json:"seats"`
	Game     *gameInfo         `json:"game,omitempty"`
	Version  int64             `json:"version"`
	You      rules.Seat        `json:"you,omitempty"`
	Local    bool              `json:"local"` // played on this device, with no server
}

type seatInfo struct {
	Seat rules.Seat `json:"seat"`
	Nick string     `json:"nick,omitempty"`
	Bot  bool       `json:"bot,omitempty"`
}

type gameInfo struct {
	Day       int        `json:"day"`
	Night     bool       `json:"night"`
	Alive     int        `json:"alive"`
	Paused    bool       `json:"paused,omitempty"`
	Over      bool       `json:"over,omitempty"`
	Winner    string     `json:"winner,omitempty"`
	CardsSeen *cardsInfo `json:"cards_seen,omitempty"`
}

type cardsInfo struct {
	Count int `json:"count"`
	Of    int `json:"of"`
}

// describe is the room as anyone may see it; the caller holds mu. Asking
// the actor for its summary waits for it: never from its own goroutine.
func (t *Table) describe() roomInfo {
	c := t.rec.Config
	in := roomInfo{ID: t.rec.ID, Name: c.Name, Status: t.rec.Status, Preset: c.Preset, Cards: c.Cards, Options: c.Options,
		Timers: c.Timers, Bots: c.Bots, Practice: c.Practice, CardSeen: c.CardSeen, Players: len(t.rec.Seats),
		Version: t.version, Local: true}
	if c.Practice { // any other room's seed is told by its replay only, as a server's
		seed := c.Seed
		in.Seed = &seed
	}
	for i, s := range t.rec.Seats {
		if !s.empty() {
			in.Taken++
		}
		in.Seats = append(in.Seats, seatInfo{Seat: rules.Seat(i + 1), Nick: s.Nick, Bot: s.Bot})
	}
	if t.actor != nil {
		if g, err := t.actor.Status(); err == nil {
			in.Game = &gameInfo{Day: g.Day, Night: g.Night, Alive: g.Alive, Paused: g.Paused, Over: g.Over}
			if g.Over {
				in.Game.Winner = g.Winner.String()
			}
			if f, err := t.actor.Cards(); err == nil && f.Waiting {
				in.Game.CardsSeen = &cardsInfo{Count: f.Count, Of: f.Of}
			}
		}
	}
	return in
}

// seatOf is the seat a token holds, or 0; the caller holds mu.
func (t *Table) seatOf(token string) rules.Seat {
	if token == "" {
		return 0
	}
	for i, s := range t.rec.Seats {
		if s.Token == token {
			return rules.Seat(i + 1)
		}
	}
	return 0
}

// join seats a person of the device at the first empty seat.
func (t *Table) join(nick string) (map[string]any, error) {
	if err := checkName("nickname", nick); err != nil {
		return nil, badRequest("bad_name", err.Error())
	}
	if nick == "" {
		return nil, badRequest("bad_name", "nickname is required")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rec.Status != store.StatusOpen {
		return nil, conflict("not_open", "the game has started")
	}
	if t.rec.Config.Unpaced {
		return nil, conflict("unpaced", "an unpaced room is played by bots only: nobody may join it")
	}
	i := slices.IndexFunc(t.rec.Seats, seatRec.empty)
	if i < 0 {
		return nil, conflict("full", "every seat is taken")
	}
	tok := newToken()
	t.rec.Seats[i] = seatRec{Nick: nick, Token: tok}
	if err := t.saveRoom(); err != nil {
		t.rec.Seats[i] = seatRec{}
		return nil, storeErr(err)
	}
	t.touch()
	return map[string]any{"seat": i + 1, "token": tok, "room": t.describe()}, nil
}

// addBots seats bots: at seat, or in every empty seat.
func (t *Table) addBots(seat int) (roomInfo, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rec.Status != store.StatusOpen {
		return roomInfo{}, conflict("not_open", "the game has started")
	}
	before := slices.Clone(t.rec.Seats)
	switch {
	case seat == 0:
		for i := range t.rec.Seats {
			if t.rec.Seats[i].empty() {
				t.rec.Seats[i] = seatRec{Bot: true}
			}
		}
	case seat < 1 || seat > len(t.rec.Seats):
		return roomInfo{}, badRequest("bad_seat", fmt.Sprintf("seat %d is not a seat of this room (1 to %d)", seat, len(t.rec.Seats)))
	case !t.rec.Seats[seat-1].empty():
		return roomInfo{}, conflict("taken", fmt.Sprintf("seat %d is taken", seat))
	default:
		t.rec.Seats[seat-1] = seatRec{Bot: true}
	}
	if err := t.saveRoom(); err != nil {
		t.rec.Seats = before
		return roomInfo{}, storeErr(err)
	}
	t.touch()
	return t.describe(), nil
}

func (t *Table) gameConfig() (game.Config, error) {
	c := t.rec.Config
	b, err := c.board()
	if err != nil {
		return game.Config{}, err
	}
	tm, err := c.timers()
	if err != nil {
		return game.Config{}, err
	}
	cfg := game.Config{Board: b, Seed: c.Seed, Timers: tm, Level: bot.Level(c.Bots), CardSeen: c.CardSeen, Unpaced: c.Unpaced}
	for i, s := range t.rec.Seats {
		if s.Bot {
			cfg.Bots |= 1 << uint(i+1)
		}
	}
	return cfg, nil
}

func (t *Table) hooks() game.Hooks {
	return game.Hooks{Over: func(rules.Camp) { go t.over() }}
}

// start deals the game: bots take the seats nobody took.
func (t *Table) start() (roomInfo, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rec.Status != store.StatusOpen {
		return roomInfo{}, conflict("not_open", "the game has started")
	}
	before := slices.Clone(t.rec.Seats)
	undo := func() { t.rec.Seats, t.rec.Status = before, store.StatusOpen }
	for i := range t.rec.Seats {
		if t.rec.Seats[i].empty() {
			t.rec.Seats[i] = seatRec{Bot: true}
		}
	}
	cfg, err := t.gameConfig()
	if err != nil {
		undo()
		return roomInfo{}, badRequest("bad_room", err.Error())
	}
	// The room is kept as running before its first record: a reload in
	// between finds a running room with no records, and deals it again
	// from the same seed (restore).
	t.rec.Status = store.StatusRunning
	if err := t.saveRoom(); err != nil {
		undo()
		return roomInfo{}, storeErr(err)
	}
	t.st = memory.New()
	a, err := game.Start(context.Background(), t.rec.ID, cfg, keeper{t.st, t}, t.hooks(), nil)
	if err != nil {
		undo()
		_ = t.saveRoom()
		return roomInfo{}, storeErr(err)
	}
	t.actor = a
	t.touch()
	return t.describe(), nil
}

// restore resumes a kept game; the table is not shared yet.
func (t *Table) restore(recs []store.Record) error {
	cfg, err := t.gameConfig()
	if err != nil {
		return err
	}
	t.st = memory.New()
	if len(recs) == 0 { // kept as running before its first record was
		if t.rec.Status != store.StatusRunning {
			return errors.New("a game over with no records")
		}
		a, err := game.Start(context.Background(), t.rec.ID, cfg, keeper{t.st, t}, t.hooks(), nil)
		if err != nil {
			return err
		}
		t.actor = a
		return nil
	}
	if err := t.st.Append(context.Background(), t.rec.ID, recs...); err != nil {
		return err
	}
	a, err := game.Restore(t.rec.ID, cfg, keeper{t.st, t}, recs, t.hooks(), nil)
	if err != nil {
		return err
	}
	t.actor = a
	if t.rec.Status == store.StatusOver {
		// its end screen and replay only: the actor, told its game is
		// over, has nothing more to do
		go t.over()
	}
	return nil
}

// over marks the room's game over, once it is.
func (t *Table) over() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rec.Status != store.StatusRunning {
		return
	}
	t.rec.Status = store.StatusOver
	_ = t.saveRoom() // kept running, a reload finds the game over all the same
	t.touch()
}

// wait answers once the room's version is above after, or after d.
func (t *Table) wait(ctx context.Context, after int64, d time.Duration) {
	t.mu.Lock()
	ch, v := t.changed, t.version
	t.mu.Unlock()
	if v > after {
		return
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ch:
	case <-tm.C:
	case <-ctx.Done():
	}
}

// replay is the server's GET /api/rooms/ID/replay.
func (t *Table) replay() (map[string]any, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rec.Status != store.StatusOver {
		return nil, &Error{Status: 403, Code: "not_over", Message: "the replay is available once the game is over"}
	}
	recs, err := t.st.Records(context.Background(), t.rec.ID)
	if err != nil {
		return nil, storeErr(err)
	}
	events, msgs, err := game.Log(recs)
	if err != nil {
		return nil, storeErr(err)
	}
	roles := map[int]string{}
	for _, e := range events {
		if e.Kind == rules.EvRole || e.Kind == rules.EvSwap {
			roles[int(e.Seat)] = e.Role.String()
		}
	}
	return map[string]any{"room": t.describe(), "seed": t.rec.Config.Seed, "roles": roles, "events": events, "chats": msgs}, nil
}

// abort ends the game for every seat; the room waits again, as a server's.
func (t *Table) abort() (map[string]any, error) {
	t.mu.Lock()
	a := t.actor
	t.mu.Unlock()
	if a == nil {
		return nil, conflict("not_running", "the game is not running")
	}
	if err := a.Abort(); err != nil {
		return nil, conflict("not_running", err.Error())
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.actor, t.st = nil, nil
	t.rec.Status = store.StatusOpen
	if err := t.saveRoom(); err != nil {
		return nil, storeErr(err)
	}
	if t.dev.save != nil { // the aborted game's records go
		_ = t.dev.save.Records(t.rec.ID, 1, []byte("[]"))
	}
	t.touch()
	return map[string]any{"aborted": true}, nil
}
