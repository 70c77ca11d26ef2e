package llm

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// record is everything the seat has been told, read from its frames and
// from nothing else: the player has no other source. Its stream lines and
// its latest state are what the prompt is made of; the public facts its
// speech is checked against are gathered from the same frames.
type record struct {
	seat    rules.Seat
	players int

	lines []string          // the stream, rendered: events and messages in the order received
	state *game.StateFrame  // the latest state
	want  int64             // the request whose answer is awaited (0: none)
	acks  map[int64]ackInfo // its answer, once come

	exiled   uint32                         // seats the table saw exiled
	revealed [rules.MaxSeats + 1]rules.Role // cards turned face up before the table
	heard    uint32                         // seats the table heard: a day message or a claim
	steps    int                            // step events received: each begins a new question
	over     bool
}

type ackInfo struct {
	ok   bool
	code string
	msg  string
}

func newRecord(seat rules.Seat, players int) *record {
	return &record{seat: seat, players: players, acks: map[int64]ackInfo{}}
}

// frameHead is what tells the frames apart.
type frameHead struct {
	Type    string `json:"type"`
	ID      int64  `json:"id"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// take reads one message of the connection: frames, one a line (at night a
// tick, the frames that fit and a pad). It reports whether a state came.
func (r *record) take(msg []byte) (state bool, err error) {
	for line := range bytes.SplitSeq(msg, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var h frameHead
		if err := json.Unmarshal(line, &h); err != nil {
			return state, fmt.Errorf("llm: a frame that is not JSON: %v", err)
		}
		switch h.Type {
		case "event":
			var f game.EventFrame
			if err := json.Unmarshal(line, &f); err != nil {
				return state, err
			}
			r.event(&f)
		case "chat":
			var f game.ChatFrame
			if err := json.Unmarshal(line, &f); err != nil {
				return state, err
			}
			if f.Channel == game.ChanDay && f.Seat != 0 {
				r.heard |= 1 << uint(f.Seat)
			}
			r.lines = append(r.lines, chatLine(&f))
		case "state":
			var f game.StateFrame
			if err := json.Unmarshal(line, &f); err != nil {
				return state, err
			}
			r.state, state = &f, true
			r.over = f.Over
		case "ack":
			if h.ID == r.want {
				r.acks[h.ID] = ackInfo{ok: true}
			}
		case "error":
			if h.ID != 0 && h.ID == r.want {
				r.acks[h.ID] = ackInfo{code: h.Code, msg: h.Message}
			}
		}
	}
	return state, nil
}

func (r *record) event(f *game.EventFrame) {
	switch f.Kind {
	case "exile":
		if f.Seat != 0 {
			r.exiled |= 1 << uint(f.Seat)
		}
	case "reveal":
		if role, err := rules.ParseRole(f.Role); err == nil && f.Seat >= 1 && int(f.Seat) <= rules.MaxSeats {
			r.revealed[f.Seat] = role
		}
	case "claim":
		r.heard |= 1 << uint(f.Seat)
	case "step":
		r.steps++
	}
	r.lines = append(r.lines, eventLine(f))
}

// alive is the living seats as the table was told.
func (r *record) alive() uint32 {
	if r.state == nil {
		return 0
	}
	return rules.Mask(r.state.Alive...)
}
