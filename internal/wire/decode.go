package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/wolfden/wolfden/rules"
)

// MaxFrame is the largest frame a client may send, in bytes.
const MaxFrame = 4096

// MaxPending is how many unanswered requests a hello may name.
const MaxPending = 16

// Decode reads a client frame strictly: unknown fields, trailing data and
// values out of range are errors that say what is wrong. maxChat bounds a
// chat message, in characters. The server and the engine on the device
// (internal/local) read frames with it, so both refuse the same frames
// with the same words.
func Decode(data []byte, maxChat int) (ClientFrame, error) {
	var f ClientFrame
	if len(data) > MaxFrame {
		return f, fmt.Errorf("frame of %d bytes is larger than %d", len(data), MaxFrame)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("malformed frame: %v", err)
	}
	// Only JSON whitespace may follow the object. (dec.More is not enough:
	// it is false before a stray '}' or ']', which would pass.)
	if rest := data[dec.InputOffset():]; len(bytes.Trim(rest, " \t\r\n")) != 0 {
		return f, errors.New("malformed frame: data after the JSON object")
	}
	if f.Pending != nil && f.Type != "hello" {
		return f, errors.New("pending belongs in a hello only")
	}
	switch f.Type {
	case "hello", "ping":
		if f.Since < 0 || f.ChatSince < 0 {
			return f, errors.New("since and chat_since cannot be negative")
		}
		if len(f.Pending) > MaxPending {
			return f, fmt.Errorf("pending names %d requests; at most %d", len(f.Pending), MaxPending)
		}
		for _, id := range f.Pending {
			if id <= 0 {
				return f, fmt.Errorf("pending: id %d is not a request's (ids are positive)", id)
			}
		}
	case "act":
		if _, err := f.Command(); err != nil {
			return f, err
		}
	case "chat":
		if f.Channel == "" {
			return f, errors.New("chat: channel is required")
		}
		if !utf8.ValidString(f.Text) {
			return f, errors.New("chat: the text is not valid UTF-8")
		}
		if n := utf8.RuneCountInString(f.Text); n == 0 || n > maxChat {
			return f, fmt.Errorf("chat: the text must have 1 to %d characters", maxChat)
		}
	case "cover": // the night's filler: nothing to do, nothing answered
	case "seen": // the seat has seen its card
	case "decoy": // a phone's decoy task at a table: answered like a command, nothing else
		if f.Target < 0 || f.Target > rules.MaxSeats {
			return f, fmt.Errorf("decoy: target %d is not a seat", f.Target)
		}
	case "":
		return f, errors.New("the frame has no type")
	default:
		return f, fmt.Errorf("unknown frame type %q (hello, act, chat, ping, cover, seen, decoy)", f.Type)
	}
	return f, nil
}

// Command turns an act frame into an engine command; the seat is the
// connection's, never the frame's.
func (f *ClientFrame) Command() (rules.Command, error) {
	var c rules.Command
	if f.Target < 0 || f.Target > rules.MaxSeats {
		return c, fmt.Errorf("act: target %d is not a seat", f.Target)
	}
	if f.Value < -128 || f.Value > 127 {
		return c, fmt.Errorf("act: value %d is out of range", f.Value)
	}
	c.Target, c.Value = rules.Seat(f.Target), int8(f.Value)
	for _, s := range f.Seats {
		if s < 1 || s > rules.MaxSeats {
			return c, fmt.Errorf("act: seat %d is not a seat", s)
		}
		if c.Mask&(1<<uint(s)) != 0 {
			return c, fmt.Errorf("act: seat %d is named twice", s)
		}
		c.Mask |= 1 << uint(s)
	}
	switch f.Cmd {
	case "accuse", "vouch":
		c.Kind, c.Value = rules.CmdClaim, rules.ClaimWolf
		if f.Cmd == "vouch" {
			c.Value = rules.ClaimGood
		}
		return c, nil
	case "claim":
		r, err := rules.ParseRole(f.Role)
		if err != nil {
			return c, fmt.Errorf("act: claim: %v", err)
		}
		c.Kind, c.Value, c.Role = rules.CmdClaim, rules.ClaimRole, r
		return c, nil
	case "":
		return c, errors.New("act: cmd is required")
	}
	k, err := rules.ParseCmd(f.Cmd)
	if err != nil {
		return c, fmt.Errorf("act: unknown command %q", f.Cmd)
	}
	c.Kind = k
	return c, nil
}
