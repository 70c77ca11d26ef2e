// Package local is a pass-and-play table played on the device itself, with
// no server: one device, no phones (issue 23). It holds the rooms of the
// device and answers what the web client asks the server about them (the
// room, its seats, the start, the replay: Handle) and the frames of their
// game (Session), in the server's own shapes, so that the screens do not
// know which of the two they talk to. The game is the server's actor
// (internal/game) on a store held in memory; every write goes first to the
// device's own storage (Saver: the browser's IndexedDB), so a reload
// resumes the game as a restarted server does.
//
// web/engine wires it to JavaScript (GOOS=js); the rest of wolfden never
// imports it.
package local

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/internal/usertext"
	"github.com/wolfden/wolfden/rules"
)

// Prefix starts the ID of every room of the device: the client routes a
// room so named to the engine, never to a server (whose IDs are base32
// letters and digits, without a dash).
const Prefix = "local-"

// Saver keeps a device's rooms where a reload finds them. Room is given
// the room's whole record at each change of its seats or status; Records
// the game's records as they are appended (from, the first one's number;
// any kept after them are dropped), before the game acknowledges what they
// hold: a Saver that returns before they are kept (the page's, which
// writes behind, docs/device.md) trades the last command of a closed tab
// for speed. An error pauses the game until a write succeeds again, as a
// server's full disk does; the same records are then given again.
type Saver interface {
	Room(id string, data []byte) error
	Records(id string, from int64, data []byte) error
}

// Device holds the device's rooms.
type Device struct {
	mu    sync.Mutex
	rooms map[string]*Table
	save  Saver
	now   func() time.Time
}

// New makes a device whose rooms are kept by save (nil: nowhere, tests).
func New(save Saver) *Device {
	return &Device{rooms: map[string]*Table{}, save: save, now: time.Now}
}

// Request is the body of POST /api/rooms the device takes: the server's
// (docs/server.md) less what needs a server (a board file, a language
// model, a fixed deal, a seat for the creator).
type Request struct {
	Name     string            `json:"name"`
	Preset   string            `json:"preset"`
	Players  int               `json:"players"`
	Options  map[string]string `json:"options"`
	Timers   map[string]string `json:"timers"`
	Pace     string            `json:"pace"` // quick unless said: a device's game is at one table
	Bots     string            `json:"bots"`
	Seed     *uint64           `json:"seed"`
	Practice bool              `json:"practice"`
	CardSeen bool              `json:"card_seen"`
	Board    string            `json:"board"`
	Deal     []string          `json:"deal"`
	Nickname string            `json:"nickname"`
	// Unpaced: a game of bots only, its nights not on the fixed schedule
	// (game.Config.Unpaced): each stage ends once its bots have acted, so
	// no bot is ever timed out however slow the machine. For tests
	// (web/engine: the device's games against the server's); refused in a
	// room where a person has a seat.
	Unpaced bool `json:"unpaced"`
}

// config is a room's settings as stored (the server's roomConfig): the
// board resolved, so that a stored game does not change with a preset.
type config struct {
	Name     string            `json:"name"`
	Preset   string            `json:"preset,omitempty"`
	Cards    []string          `json:"cards"`
	Options  map[string]string `json:"options"`
	Timers   map[string]string `json:"timers"`
	Pace     string            `json:"pace,omitempty"`
	Bots     string            `json:"bots"`
	Seed     uint64            `json:"seed"`
	Practice bool              `json:"practice,omitempty"`
	CardSeen bool              `json:"card_seen,omitempty"`
	Unpaced  bool              `json:"unpaced,omitempty"`
	Host     string            `json:"host"` // the host's token: the device's own, kept on it
}

// seatRec is one seat: a person of the device (his name and token) or a bot.
type seatRec struct {
	Nick  string `json:"nick,omitempty"`
	Token string `json:"token,omitempty"`
	Bot   bool   `json:"bot,omitempty"`
}

func (s seatRec) empty() bool { return s.Token == "" && !s.Bot }

// roomRec is a room as the Saver keeps it.
type roomRec struct {
	ID      string    `json:"id"`
	Status  string    `json:"status"`
	Created time.Time `json:"created"`
	Config  config    `json:"config"`
	Seats   []seatRec `json:"seats"`
}

// MaxName bounds room names and nicknames, in characters (the server's).
const MaxName = 40

func (req *Request) config() (config, rules.Board, error) {
	c := config{Name: req.Name, Bots: req.Bots, Practice: req.Practice, CardSeen: true, Unpaced: req.Unpaced}
	var b rules.Board
	switch {
	case req.Board != "":
		return c, b, errors.New("a board file needs the server; on this device choose a preset")
	case req.Deal != nil:
		return c, b, errors.New("a fixed deal needs the server; on this device give a seed")
	case req.Nickname != "":
		return c, b, errors.New("on this device the players take their seats at the table, not at the creation")
	case req.Seed != nil && !req.Practice:
		return c, b, errors.New(`a seed can only be fixed in a practice room (add "practice": true; every seat is told the room is a practice)`)
	}
	if err := checkName("name", req.Name); err != nil {
		return c, b, err
	}
	if req.Preset == "" {
		req.Preset = "std-12"
	}
	p, err := rules.LookupPreset(req.Preset)
	if err != nil {
		return c, b, err
	}
	if b, err = p.Board(req.Players); err != nil {
		return c, b, err
	}
	c.Preset = p.Name
	// Every role is called, as in a server's room: calling only those able
	// to act would tell who is dead or out.
	if _, set := req.Options["narrate_absent_roles"]; !set {
		_ = b.Options.Set("narrate_absent_roles", "on")
	}
	keys := make([]string, 0, len(req.Options))
	for k := range req.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := b.Options.Set(k, req.Options[k]); err != nil {
			return c, b, err
		}
	}
	if err := b.Validate(); err != nil {
		return c, b, err
	}
	if req.Pace == "" {
		req.Pace = "quick"
	}
	t, err := game.Pace(req.Pace)
	if err != nil {
		return c, b, err
	}
	c.Pace = req.Pace
	for k, v := range req.Timers {
		if err := t.Set(k, v); err != nil {
			return c, b, err
		}
	}
	if c.Bots == "" {
		c.Bots = string(bot.Smart)
	}
	if _, err := bot.ParseLevel(c.Bots); err != nil {
		return c, b, fmt.Errorf("bots: unknown level %q (smart or random)", c.Bots)
	}
	if req.Seed != nil {
		c.Seed = *req.Seed
	} else {
		c.Seed = randomSeed()
	}
	if c.Name == "" {
		c.Name = c.Preset
	}
	for _, r := range b.Cards {
		c.Cards = append(c.Cards, r.String())
	}
	c.Options = map[string]string{}
	for _, o := range rules.AllOptions() {
		c.Options[o.Name()] = b.Options.Get(o)
	}
	c.Timers = t.Map()
	return c, b, nil
}

func (c *config) board() (rules.Board, error) { return rules.BoardOf(c.Cards, c.Options) }

func (c *config) timers() (game.Timers, error) { return game.TimersOf(c.Timers) }

func checkName(what, s string) error {
	if err := usertext.Check(s); err != nil { // the server's rule for every user text
		return fmt.Errorf("%s: %v", what, err)
	}
	if utf8.RuneCountInString(s) > MaxName {
		return fmt.Errorf("%s: at most %d characters", what, MaxName)
	}
	return nil
}

// randomSeed deals a room whose seed nobody fixed: unknown to the players
// until the replay (on this device too, the seed is not shown before).
func randomSeed() uint64 {
	var buf [8]byte
	_, _ = rand.Read(buf[:])
	return binary.LittleEndian.Uint64(buf[:])
}

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return strings.ToLower(b32.EncodeToString(b[:]))
}

func newRoomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return Prefix + strings.ToLower(b32.EncodeToString(b[:]))
}

// Create makes an open room; it answers as the server's POST /api/rooms.
func (d *Device) Create(req Request) (map[string]any, error) {
	c, b, err := req.config()
	if err != nil {
		return nil, err
	}
	c.Host = newToken()
	t := &Table{dev: d, rec: roomRec{ID: newRoomID(), Status: store.StatusOpen, Created: d.now().UTC(), Config: c,
		Seats: make([]seatRec, b.Players())}, changed: make(chan struct{})}
	if err := t.saveRoom(); err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.rooms[t.rec.ID] = t
	d.mu.Unlock()
	return map[string]any{"host_token": c.Host, "room": t.describe()}, nil
}

// Load gives the device a room kept by its Saver, with its game's records:
// a running game resumes where its records stop, its clocks where they
// were last stored. A room already held is kept as it is.
func (d *Device) Load(room []byte, records [][]byte) error {
	var rec roomRec
	if err := json.Unmarshal(room, &rec); err != nil {
		return fmt.Errorf("local: a kept room: %v", err)
	}
	if !strings.HasPrefix(rec.ID, Prefix) {
		return fmt.Errorf("local: a kept room has the ID %q, not one of this device", rec.ID)
	}
	d.mu.Lock()
	_, held := d.rooms[rec.ID]
	d.mu.Unlock()
	if held {
		return nil
	}
	t := &Table{dev: d, rec: rec, changed: make(chan struct{})}
	if rec.Status != store.StatusOpen {
		recs := make([]store.Record, 0, len(records))
		for i, b := range records {
			r, err := decodeRecord(b)
			if err != nil {
				return fmt.Errorf("local: room %s: record %d: %v", rec.ID, i+1, err)
			}
			recs = append(recs, r)
		}
		if err := t.restore(recs); err != nil {
			return fmt.Errorf("local: room %s: %v", rec.ID, err)
		}
	}
	d.mu.Lock()
	d.rooms[rec.ID] = t
	d.mu.Unlock()
	return nil
}

// Held says whether the device holds the room now.
func (d *Device) Held(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.rooms[id] != nil
}

func (d *Device) table(id string) *Table {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.rooms[id]
}

// storedRecord is a record as the Saver keeps it: the events in the
// stores' own encoding (store.AppendEvents).
type storedRecord struct {
	N      int64     `json:"n"`
	At     time.Time `json:"at"`
	Kind   string    `json:"kind"`
	Body   []byte    `json:"body,omitempty"`
	Events []byte    `json:"events,omitempty"`
	Clock  []byte    `json:"clock,omitempty"`
}

func encodeRecords(recs []store.Record) []byte {
	out := make([]storedRecord, len(recs))
	for i, r := range recs {
		out[i] = storedRecord{N: r.N, At: r.At, Kind: r.Kind, Body: r.Body, Clock: r.Clock}
		if len(r.Events) > 0 {
			out[i].Events = store.AppendEvents(nil, r.Events)
		}
	}
	b, _ := json.Marshal(out)
	return b
}

func decodeRecord(b []byte) (store.Record, error) {
	var s storedRecord
	if err := json.Unmarshal(b, &s); err != nil {
		return store.Record{}, err
	}
	r := store.Record{N: s.N, At: s.At, Kind: s.Kind, Body: s.Body, Clock: s.Clock}
	if len(s.Events) > 0 {
		ev, err := store.DecodeEvents(s.Events)
		if err != nil {
			return r, err
		}
		r.Events = ev
	}
	return r, nil
}

// keeper is the game's store: the device's Saver first, then memory (for
// the replay). A write the Saver refuses is refused whole.
type keeper struct {
	*memory.Store
	t *Table
}

func (k keeper) Append(ctx context.Context, id string, recs ...store.Record) error {
	if err := k.t.saveRecords(recs); err != nil {
		return err
	}
	return k.Store.Append(ctx, id, recs...)
}
