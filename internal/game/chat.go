package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/usertext"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// The chat channels.
const (
	ChanDay    = "day"    // the living by day, and everyone once the game is over; spectators read it
	ChanWolves = "wolves" // the wolf team at night; the little girl reads it without names
	ChanLovers = "lovers" // the two lovers
	ChanDead   = "dead"   // the dead, who may not talk to the living
	// ChanSiblings is the sisters' (or the brothers') channel on the nights
	// they meet (ROLES-MORE-2.md 姐妹, 三兄弟): those woken tonight.
	ChanSiblings = "siblings"
	// ChanNewlyweds is the ghost bride and her groom's channel on the
	// nights they confer, from night 2 (ROLES-MORE-2.md 鬼魂新娘): those
	// woken tonight. The witness is not in it.
	ChanNewlyweds = "newlyweds"
)

// MaxChat is the longest message, in characters.
const MaxChat = 500

// chat is one stored message with its audience, fixed when it was sent:
// a player who dies later does not read what the dead said before.
type chat struct {
	Channel string     `json:"ch"`
	Seat    rules.Seat `json:"seat"`
	Text    string     `json:"text"`
	At      int64      `json:"at"`
	Public  bool       `json:"public,omitempty"`
	To      uint32     `json:"to,omitempty"`
	Spy     rules.Seat `json:"spy,omitempty"` // reads it without the writer's seat
	ID      int64      `json:"id,omitempty"`  // the writer's client's id of it (Answer); told to nobody
}

func (c *chat) visible(s rules.Seat) bool {
	return c.Public || (s > 0 && (c.To&(1<<uint(s)) != 0 || c.Spy == s))
}

// audience is who reads a message the seat of v (its view of what the
// table was told) writes on channel ch now; ok is false when it may not.
func (a *Actor) audience(v *rules.View, ch string) (c chat, ok bool) {
	s := v.Seat
	me := uint32(1) << uint(s)
	alive := v.Alive&me != 0
	night := a.clk.Slots != nil || v.Night
	if v.Over {
		return chat{Public: true}, ch == ChanDay
	}
	if a.clk.Paused {
		return chat{}, false
	}
	switch ch {
	case ChanDay:
		// The dead speak once more by day: their last words (遗言).
		lastWords := v.Step == rules.StepLastWords && v.Turn == s
		silenced := v.Silenced == s && !lastWords // 禁言长老: no speech today, last words aside (the rules skip them under silence_covers_last_words)
		return chat{Public: true}, (alive || lastWords) && !night && !silenced
	case ChanWolves:
		if !alive || !night || v.Wolves&me == 0 {
			return chat{}, false
		}
		// The little girl is read from what the table was told, which is
		// night until dawn: she reads the wolves in the witch's slot too,
		// and whatever the live game has resolved.
		return chat{To: v.Wolves & v.Alive, Spy: a.shown.Spy()}, true
	case ChanLovers:
		return chat{To: v.Lovers & v.Alive}, alive && v.Lovers&me != 0
	case ChanSiblings:
		return chat{To: v.Met & v.Alive}, alive && night && v.Met&me != 0
	case ChanNewlyweds:
		return chat{To: v.Couple & v.Alive}, alive && night && v.Couple&me != 0
	case ChanDead:
		// A dying player joins the dead only once every task of his death
		// (shot, badge, last words…) is done: until then the dead could
		// tell him whom to shoot.
		var all uint32
		for x := 1; x <= v.Players; x++ {
			all |= 1 << uint(x)
		}
		dying := a.shown.Dying()
		return chat{To: all &^ v.Alive &^ dying}, !alive && dying&me == 0
	}
	return chat{}, false
}

// channels lists the channels the seat of v may write to now.
func (a *Actor) channels(v *rules.View) []string {
	set := 0
	for i, ch := range allChannels {
		if _, ok := a.audience(v, ch); ok {
			set |= 1 << i
		}
	}
	return channelSets[set]
}

// allChannels in the order a state frame lists them.
var allChannels = [...]string{ChanDay, ChanWolves, ChanLovers, ChanDead, ChanSiblings, ChanNewlyweds}

// channelSets are the lists of every subset of allChannels (nil for none),
// made once and shared by the frames that list them, which never change
// them: a list made for every seat's state was two allocations of it.
var channelSets = func() (sets [1 << len(allChannels)][]string) {
	for set := range sets {
		for i, ch := range allChannels {
			if set&(1<<i) != 0 {
				sets[set] = append(sets[set], ch)
			}
		}
	}
	return sets
}()

// ErrChannel is the answer to a message for a channel the seat may not
// write to now. It is the same whatever the reason, and names only what
// the writer already knows.
var ErrChannel = errors.New("you cannot write to this channel now")

// Chat sends a message; the answer goes to sub. The text must already be
// checked for length; what the rule of user text forbids is dropped here, for
// the writers that cannot be refused (language models; package usertext).
func (a *Actor) Chat(sub *Sub, id int64, ch, text string) error {
	text = usertext.Clean(text)
	return a.send(func() {
		if text == "" {
			a.queue(sub, encode(wire.ErrorFrame{Type: "error", ID: id, Code: "text", Message: "the text is empty once its control characters are dropped"}))
			return
		}
		if a.stalled {
			a.queue(sub, encode(wire.ErrorFrame{Type: "error", ID: id, Code: "store", Message: ErrStalled.Error()}))
			return
		}
		v := a.view(sub.Seat)
		c, ok := a.audience(&v, ch)
		if sub.Seat == rules.NoSeat || !ok {
			a.queue(sub, encode(wire.ErrorFrame{Type: "error", ID: id, Code: "channel", Message: ErrChannel.Error()}))
			return
		}
		c.Channel, c.Seat, c.Text, c.At, c.ID = ch, sub.Seat, text, a.now().UnixMilli(), id
		a.chats = append(a.chats, c)
		a.record("chat", c)
		a.acks = append(a.acks, ack{sub: sub, id: id})
	})
}

// Message is a chat message in a replay, with its channel and writer.
type Message struct {
	Channel string     `json:"channel"`
	Seat    rules.Seat `json:"seat"`
	Text    string     `json:"text"`
	At      time.Time  `json:"at"`
}

// Log reads a stored game back: every event and every message, the god's
// view, for the replay of a finished game.
func Log(recs []store.Record) ([]rules.Event, []Message, error) {
	events, chats, err := readLog(recs)
	if err != nil {
		return nil, nil, err
	}
	msgs := make([]Message, 0, len(chats))
	for _, c := range chats {
		msgs = append(msgs, Message{Channel: c.Channel, Seat: c.Seat, Text: c.Text, At: time.UnixMilli(c.At).UTC()})
	}
	return events, msgs, nil
}

// NoteKind is the kind of a record holding a program's private note: a
// model's whole reply to one question, its reasoning in it (wolfden arena,
// docs/arena.md). Such records are written after the game's end, so no
// frame ever held them; the replay, given once the game is over, shows
// them.
const NoteKind = "note"

// Note is one note of a stored game.
type Note struct {
	Seat rules.Seat `json:"seat"`
	Text string     `json:"text"`
	At   int64      `json:"at"` // unix milliseconds
}

// Notes reads a stored game's notes, in order.
func Notes(recs []store.Record) ([]Note, error) {
	out := []Note{}
	for _, r := range recs {
		if r.Kind != NoteKind {
			continue
		}
		var n Note
		if err := json.Unmarshal(r.Body, &n); err != nil {
			return nil, fmt.Errorf("record %d: %v", r.N, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// readLog gathers a stored game's events and messages, checking that its
// records follow one another.
func readLog(recs []store.Record) ([]rules.Event, []chat, error) {
	var events []rules.Event
	var chats []chat
	for i, r := range recs {
		if r.N != int64(i+1) {
			return nil, nil, fmt.Errorf("record %d is numbered %d", i+1, r.N)
		}
		events = append(events, r.Events...)
		if r.Kind == "chat" {
			var c chat
			if err := json.Unmarshal(r.Body, &c); err != nil {
				return nil, nil, fmt.Errorf("record %d: %v", r.N, err)
			}
			chats = append(chats, c)
		}
	}
	return events, chats, nil
}
