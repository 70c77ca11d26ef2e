package server

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/boardfile"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/llm"
	"github.com/wolfden/wolfden/internal/usertext"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// textMap is a room's options or timers. It is encoded as json.Marshal
// encodes a map[string]string (its keys sorted), without reflection: a
// room's record is encoded at its creation, its start and its end, and
// the reflective encoding of its two maps made a twentieth of the objects
// an AIWolf game allocated.
type textMap map[string]string

func (m textMap) MarshalJSON() ([]byte, error) {
	return wire.AppendStringMap(make([]byte, 0, 32*len(m)+2), m), nil
}

// createRequest is the body of POST /api/rooms.
type createRequest struct {
	Name    string            `json:"name"`
	Preset  string            `json:"preset"`  // a preset name, or
	Board   string            `json:"board"`   // a board file's text (docs/boards.md)
	Players int               `json:"players"` // for a preset that takes several sizes
	Options map[string]string `json:"options"` // option overrides
	Timers  map[string]string `json:"timers"`  // timer overrides: "speech": "60s"
	// Pace sets every timer at once (quick, standard, relaxed) before the
	// overrides: a room at one table (card_seen) is quick unless it says,
	// any other standard.
	Pace string `json:"pace"`
	// Remind: how long before each deadline the table is reminded
	// ("1h,10m", the default; "off"), at the forum pace (game.ParseRemind).
	Remind   string  `json:"remind"`
	Bots     string  `json:"bots"`     // bot level: smart (default) or random
	Seed     *uint64 `json:"seed"`     // fixes the deal and the bots: practice rooms only
	Practice bool    `json:"practice"` // a practice room: its deal may be known (docs/server.md)
	// Deal fixes the cards, seat by seat (then the thief's two extra
	// cards): practice rooms only, for lessons and tests of a given deal.
	Deal     []string `json:"deal"`
	Nickname string   `json:"nickname"`
	// CardSeen: a room for a table; after the deal it waits until each
	// person has confirmed seeing his card (seen.go). Off for online play.
	CardSeen bool `json:"card_seen"`
	// Private: the room is never listed by GET /api/rooms; its link and
	// code still lead to it. A table's room (CardSeen) is private anyway.
	Private bool `json:"private"`
}

// roomConfig is a room's settings as stored: the board resolved, so that a
// stored game does not change when a preset does.
type roomConfig struct {
	Name    string   `json:"name"`
	Preset  string   `json:"preset,omitempty"`
	Cards   []string `json:"cards"`
	Options textMap  `json:"options"`
	Timers  textMap  `json:"timers"`
	Pace    string   `json:"pace,omitempty"`   // the pace the timers started from
	Remind  string   `json:"remind,omitempty"` // game.ParseRemind's text; "": the default
	Bots    string   `json:"bots"`
	// Seed deals the game and drives its bots. A practice room's is given
	// or random from its creation; any other room's is drawn when its game
	// is dealt (Server.dealSeed) and stored then, so a restart resumes it.
	Seed     uint64   `json:"seed"`
	Practice bool     `json:"practice,omitempty"`
	Deal     []string `json:"deal,omitempty"` // a practice room's fixed cards, if any
	HostHash string   `json:"host"`
	Next     string   `json:"next,omitempty"` // the room of the rematch, once the host asked for one
	// AIWolf: a game of matched AIWolf agents (internal/aiwolf), played
	// unpaced (game.Config.Unpaced).
	AIWolf bool `json:"aiwolf,omitempty"`
	// CardSeen: the first night waits for every card to be seen (seen.go).
	CardSeen bool `json:"card_seen,omitempty"`
	// Private: never listed (createRequest.Private).
	Private bool `json:"private,omitempty"`
}

// appendJSON writes c as json.Marshal does, field by field: a matched
// AIWolf game's start encodes its room's, and the reflective encoder,
// which also reads the options' text again to check it, took 40 µs of
// the time before the first agent is told its role.
func (c *roomConfig) appendJSON(b []byte) []byte {
	key := func(k string) { // ,"k":
		b = append(b, ',', '"')
		b = append(b, k...)
		b = append(b, '"', ':')
	}
	str := func(k, v string, omitEmpty bool) {
		if !omitEmpty || v != "" {
			key(k)
			b = wire.AppendString(b, v)
		}
	}
	list := func(k string, v []string, omitEmpty bool) {
		if omitEmpty && len(v) == 0 {
			return
		}
		key(k)
		if v == nil {
			b = append(b, "null"...)
			return
		}
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = wire.AppendString(b, x)
		}
		b = append(b, ']')
	}
	flag := func(k string, v bool) {
		if v {
			key(k)
			b = append(b, "true"...)
		}
	}
	b = append(b, `{"name":`...)
	b = wire.AppendString(b, c.Name)
	str("preset", c.Preset, true)
	list("cards", c.Cards, false)
	key("options")
	b = wire.AppendStringMap(b, c.Options)
	key("timers")
	b = wire.AppendStringMap(b, c.Timers)
	str("pace", c.Pace, true)
	str("remind", c.Remind, true)
	str("bots", c.Bots, false)
	key("seed")
	b = strconv.AppendUint(b, c.Seed, 10)
	flag("practice", c.Practice)
	list("deal", c.Deal, true)
	str("host", c.HostHash, false)
	str("next", c.Next, true)
	flag("aiwolf", c.AIWolf)
	flag("card_seen", c.CardSeen)
	flag("private", c.Private)
	return append(b, '}')
}

// listed tells whether GET /api/rooms may offer the room: not a table's
// room, whose players are in one place and join by its code or QR code, and
// not one its host made private.
func (c *roomConfig) listed() bool { return !c.CardSeen && !c.Private }

// MaxName bounds room names and nicknames, in characters.
const MaxName = 40

// errSeed refuses a seed outside a practice room: whoever fixes the seed
// knows the deal and every bot's choice.
var errSeed = fail(http.StatusBadRequest, "seed",
	`a seed or a deal can only be fixed in a practice room (add "practice": true; every seat is told the room is a practice)`)

func (req *createRequest) config() (roomConfig, error) {
	c := roomConfig{Name: req.Name, Bots: req.Bots, Practice: req.Practice, CardSeen: req.CardSeen, Private: req.Private}
	if (req.Seed != nil || req.Deal != nil) && !req.Practice {
		return c, errSeed
	}
	if err := checkName("name", req.Name, true); err != nil {
		return c, err
	}
	var b rules.Board
	var file *boardfile.File
	switch {
	case req.Preset != "" && req.Board != "":
		return c, fmt.Errorf("give a preset or a board, not both")
	case req.Board != "":
		f, err := boardfile.Parse("board", []byte(req.Board))
		if err != nil {
			return c, err
		}
		b, file = f.Board, f
		if c.Name == "" {
			c.Name = f.Name
		}
	default:
		if req.Preset == "" {
			req.Preset = "std-12"
		}
		p, err := rules.LookupPreset(req.Preset)
		if err != nil {
			return c, err
		}
		if b, err = p.Board(req.Players); err != nil {
			return c, err
		}
		c.Preset = p.Name
	}
	// The server says the night's calls aloud; calling only the roles still
	// able to act would tell who is dead or out. A room calls every role
	// unless its creator chose otherwise.
	if _, set := req.Options["narrate_absent_roles"]; !set && !strings.Contains(req.Board, "narrate_absent_roles") {
		_ = b.Options.Set("narrate_absent_roles", "on")
	}
	keys := make([]string, 0, len(req.Options))
	for k := range req.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := b.Options.Set(k, req.Options[k]); err != nil {
			return c, err
		}
	}
	if err := b.Validate(); err != nil {
		return c, err
	}
	pace := req.Pace
	switch {
	case pace != "":
	case file != nil && file.Pace != "":
		pace = file.Pace
	case c.Preset == "forum": // 版杀: played over days
		pace = "forum"
	case req.CardSeen:
		pace = "quick"
	default:
		pace = "standard"
	}
	t, err := game.Pace(pace)
	if err != nil {
		return c, fail(http.StatusBadRequest, "bad_pace", "pace: %v", err)
	}
	c.Pace = pace
	// At the forum pace a day is one long discussion (speech_order=free)
	// and its vote: a speech timer of hours for each speaker in turn would
	// make a day last a week. A room or board that names its speech order
	// keeps it.
	if _, set := req.Options["speech_order"]; pace == "forum" && !set && !strings.Contains(req.Board, "speech_order") {
		_ = b.Options.Set("speech_order", "free")
	}
	if file != nil {
		for k, v := range file.Timers {
			if err := t.Set(k, v); err != nil {
				return c, err
			}
		}
	}
	for k, v := range req.Timers {
		if err := t.Set(k, v); err != nil {
			return c, err
		}
	}
	c.Remind = req.Remind
	if c.Remind == "" && file != nil {
		c.Remind = file.Remind
	}
	if _, err := game.ParseRemind(c.Remind); err != nil {
		return c, fail(http.StatusBadRequest, "bad_remind", "%v", err)
	}
	if c.Bots == "" {
		c.Bots = string(bot.Smart)
	}
	if _, err := bot.ParseLevel(c.Bots); err != nil && c.Bots != llm.Level {
		return c, fmt.Errorf("bots: unknown level %q (smart, random or llm)", c.Bots)
	}
	switch {
	case req.Seed != nil:
		c.Seed = *req.Seed
	case req.Practice:
		c.Seed = randomSeed()
	}
	if req.Deal != nil {
		deal, err := parseDeal(req.Deal)
		if err != nil {
			return c, err
		}
		if _, err := rules.New(b, c.Seed, deal); err != nil {
			return c, fmt.Errorf("deal: %v (it lists the board's cards, seat 1 first, then the thief's two)", err)
		}
		c.Deal = req.Deal
	}
	if c.Name == "" {
		c.Name = c.Preset
	}
	c.setBoard(b)
	c.Timers = t.Map()
	return c, nil
}

func parseDeal(names []string) ([]rules.Role, error) {
	deal := make([]rules.Role, len(names))
	for i, name := range names {
		r, err := rules.ParseRole(name)
		if err != nil {
			return nil, fmt.Errorf("deal: card %d: %v", i+1, err)
		}
		deal[i] = r
	}
	return deal, nil
}

func randomSeed() uint64 {
	var buf [8]byte
	_, _ = rand.Read(buf[:])
	return binary.LittleEndian.Uint64(buf[:])
}

func (c *roomConfig) setBoard(b rules.Board) {
	c.Cards = c.Cards[:0]
	for _, r := range b.Cards {
		c.Cards = append(c.Cards, r.String())
	}
	c.Options = map[string]string{}
	for _, o := range rules.AllOptions() {
		c.Options[o.Name()] = b.Options.Get(o)
	}
}

// board reads the stored board back.
func (c *roomConfig) board() (rules.Board, error) { return rules.BoardOf(c.Cards, c.Options) }

func (c *roomConfig) timers() (game.Timers, error) { return game.TimersOf(c.Timers) }

// seatRec is one seat of a room as stored: a player (his nickname and the
// hash of his token) or a bot, or nobody yet.
type seatRec struct {
	Nick string `json:"nick,omitempty"`
	Hash string `json:"hash,omitempty"`
	LLM  bool   `json:"llm,omitempty"` // a bot seat played by the model (llm.go)
	Bot  bool   `json:"bot,omitempty"`
	// Closed: the host emptied the seat, and nobody may join it until he
	// reopens it. Bots may still take it.
	Closed bool `json:"closed,omitempty"`
	// Agent: an AIWolf agent plays the seat, through the gateway.
	Agent bool `json:"agent,omitempty"`
	// Account is the ID of the signed-in player's account who holds the
	// seat (accounts.go); never shown.
	Account string `json:"account,omitempty"`
	// Deleted: the seat's player deleted his account; his name is gone.
	Deleted bool `json:"deleted,omitempty"`
}

func (s *seatRec) empty() bool { return s.Hash == "" && !s.Bot && !s.Agent }

// checkName holds a name to the rule of every user text (package usertext)
// and to MaxName.
func checkName(what, s string, mayBeEmpty bool) error {
	if err := usertext.Check(s); err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	if s == "" && !mayBeEmpty {
		return fmt.Errorf("%s is required", what)
	}
	if utf8.RuneCountInString(s) > MaxName {
		return fmt.Errorf("%s: at most %d characters", what, MaxName)
	}
	return nil
}
