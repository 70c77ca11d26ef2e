package aiwolf

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// decodeFrame reads one frame of a seat's stream into f, as json.Unmarshal
// would. Reading the frames was half of the conductor's cost; they are
// objects in the shape the actor encodes them (numbers, plain strings,
// lists of seats, the known cards, the choices), and those are read here
// by hand, in one pass and without reflection. Anything else (an escaped
// string, the night's calls, a key or a value of another shape) goes to
// json.Unmarshal, so what the conductor reads never depends on which of
// the two read it (decode_test.go).
func decodeFrame(line []byte, f *frame) error {
	if flatFrame(line, f) {
		return nil
	}
	*f = frame{}
	return json.Unmarshal(line, f)
}

// flatFrame reads a frame of the usual shapes; false: it is not one (f
// is then garbage).
func flatFrame(b []byte, f *frame) bool {
	*f = frame{}
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return false
	}
	i := 1
	if b[i] == '}' {
		return i+1 == len(b)
	}
	for {
		ks, ke, ok := plainSpan(b, i)
		if !ok || ke+1 >= len(b) || b[ke+1] != ':' {
			return false
		}
		i = ke + 2
		key := frameKeys[string(b[ks:ke])] // no copy: a lookup
		switch key {
		case "type", "kind", "role", "step", "channel", "text", "code", "message", "winner":
			v, n, ok := plainString(b, i)
			if !ok {
				return false
			}
			i = n
			switch key {
			case "type":
				f.Type = v
			case "kind":
				f.Kind = v
			case "role":
				f.Role = v
			case "step":
				f.Step = v
			case "channel":
				f.Channel = v
			case "text":
				f.Text = v
			case "code":
				f.Code = v
			case "message":
				f.Message = v
			case "winner":
				f.Winner = v
			}
		case "seq", "id", "seat", "target", "value", "at", "day", "turn", "sheriff", "deadline", "night_end":
			v, n, ok := integer(b, i, key)
			if !ok {
				return false
			}
			i = n
			switch key {
			case "seq":
				f.Seq = int(v)
			case "id":
				f.ID = v
			case "seat":
				f.Seat = rules.Seat(v)
			case "target":
				f.Target = rules.Seat(v)
			case "value":
				f.Value = int16(v)
			case "at":
				f.At = v
			case "day":
				f.Day = int(v)
			case "turn":
				f.Turn = rules.Seat(v)
			}
		case "night", "pending", "over", "drawn", "paused", "bot", "see_card": // not all are fields of frame: the others are read and dropped, as json does
			v, n, ok := boolean(b, i)
			if !ok {
				return false
			}
			i = n
			switch key {
			case "night":
				f.Night = v
			case "pending":
				f.Pending = v
			case "over":
				f.Over = v
			}
		case "mask", "alive", "wolves", "lovers", "exposed":
			v, n, ok := seats(b, i)
			if !ok {
				return false
			}
			i = n
			switch key {
			case "mask":
				f.Mask = v
			case "alive":
				f.Alive = v
			case "wolves":
				f.Wolves = v
			}
		case "channels":
			v, n, ok := stringList(b, i)
			if !ok {
				return false
			}
			i, f.Channels = n, v
		case "known":
			v, n, ok := known(b, i)
			if !ok {
				return false
			}
			i, f.Known = n, v
		case "choices":
			v, n, ok := choices(b, i)
			if !ok {
				return false
			}
			i, f.Choices = n, v
		case "calls": // every seat's state at night: json reads and drops it
			n, ok := skip(b, i, maxSkipDepth)
			if !ok {
				return false
			}
			i = n
		default: // a key of another frame, of another case, or none
			return false
		}
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return i+1 == len(b)
		default:
			return false
		}
	}
}

// plainString reads a string at b[i] that has no escape, no control
// character and only valid UTF-8 (json.Unmarshal would change nothing in
// it); n is the index after its closing quote. The frames' words (types,
// kinds, roles, steps, channels) are shared, not copied.
func plainString(b []byte, i int) (s string, n int, ok bool) {
	start, end, ok := plainSpan(b, i)
	if !ok {
		return "", 0, false
	}
	if w, ok := words[string(b[start:end])]; ok {
		return w, end + 1, true
	}
	return string(b[start:end]), end + 1, true
}

// plainSpan finds such a string: b[start:end] is its text, b[end] its
// closing quote.
func plainSpan(b []byte, i int) (start, end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, 0, false
	}
	ascii := true
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			if !ascii && !utf8.Valid(b[i+1:j]) {
				return 0, 0, false
			}
			return i + 1, j, true
		case c == '\\' || c < 0x20:
			return 0, 0, false
		case c >= 0x80:
			ascii = false
		}
	}
	return 0, 0, false
}

// frameKeys are the keys flatFrame reads.
var frameKeys = map[string]string{}

// words are the strings the frames repeat, kept once.
var words = map[string]string{}

func init() {
	for _, k := range []string{"type", "kind", "role", "step", "channel", "text", "code", "message",
		"seq", "id", "seat", "target", "value", "at", "day", "turn", "night", "pending", "over", "drawn", "mask",
		"winner", "sheriff", "deadline", "night_end", "paused", "bot", "see_card", "alive", "wolves", "lovers", "exposed",
		"channels", "known", "choices", "cmd", "targets", "no_target", "pick", "roles", "calls"} {
		frameKeys[k] = k
	}
	for _, w := range []string{"event", "chat", "state", "ack", "error", "day", "wolves", "dead", "lovers"} {
		words[w] = w
	}
	for i := range 256 {
		for _, s := range []string{rules.EventKind(i).String(), rules.Role(i).String(), rules.Step(i).String()} {
			words[s] = s
		}
	}
}

// integer reads a JSON integer (no fraction, no exponent) that fits the
// frame field key is read into.
func integer(b []byte, i int, key string) (v int64, n int, ok bool) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	start := j
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	if j == start || (b[start] == '0' && j-start > 1) {
		return 0, 0, false
	}
	if j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E') {
		return 0, 0, false
	}
	limit := int64(1<<63 - 1)
	switch key {
	case "seat", "target", "turn":
		limit = 1<<7 - 1
	case "value":
		limit = 1<<15 - 1
	}
	neg := b[i] == '-'
	if neg {
		limit++ // -128, -32768, -1<<63: as far as the negative side goes (as a uint64)
	}
	var u uint64
	for _, c := range b[start:j] {
		d := uint64(c - '0')
		if u > (uint64(limit)-d)/10 {
			return 0, 0, false
		}
		u = u*10 + d
	}
	if neg {
		return -int64(u), j, true
	}
	return int64(u), j, true
}

// maxSkipDepth bounds how deep skip goes; deeper is json's.
const maxSkipDepth = 8

// skip passes over a value that no field of frame holds (the night's
// calls): plain strings (plainSpan), integers, true, false, null, and
// arrays and objects of them, up to depth levels deep; n is the index
// after it. It takes only what json.Unmarshal takes, and what it does not
// take it leaves to json.Unmarshal. Each seat's state at night holds the
// calls: they sent every seat's first state of each night to json, a
// tenth of a matched game's start (docs/benchmarks.md).
func skip(b []byte, i, depth int) (n int, ok bool) {
	if i >= len(b) || depth == 0 {
		return 0, false
	}
	switch c := b[i]; c {
	case '"':
		_, end, ok := plainSpan(b, i)
		return end + 1, ok
	case 't', 'f':
		_, n, ok := boolean(b, i)
		return n, ok
	case 'n':
		if len(b)-i >= 4 && string(b[i:i+4]) == "null" {
			return i + 4, true
		}
		return 0, false
	case '[', '{':
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		i++
		if i < len(b) && b[i] == end {
			return i + 1, true
		}
		for {
			if c == '{' {
				_, ke, ok := plainSpan(b, i)
				if !ok || ke+1 >= len(b) || b[ke+1] != ':' {
					return 0, false
				}
				i = ke + 2
			}
			if i, ok = skip(b, i, depth-1); !ok || i >= len(b) {
				return 0, false
			}
			switch b[i] {
			case ',':
				i++
			case end:
				return i + 1, true
			default:
				return 0, false
			}
		}
	}
	_, n, ok = integer(b, i, "")
	return n, ok
}

func boolean(b []byte, i int) (v bool, n int, ok bool) {
	switch {
	case len(b)-i >= 4 && string(b[i:i+4]) == "true":
		return true, i + 4, true
	case len(b)-i >= 5 && string(b[i:i+5]) == "false":
		return false, i + 5, true
	}
	return false, 0, false
}

// seats reads an array of seat numbers; [] is an empty list, not nil, as
// json.Unmarshal makes it.
func seats(b []byte, i int) (v []rules.Seat, n int, ok bool) {
	if i >= len(b) || b[i] != '[' {
		return nil, 0, false
	}
	i++
	v = []rules.Seat{}
	if i < len(b) && b[i] == ']' {
		return v, i + 1, true
	}
	for {
		x, n, ok := integer(b, i, "seat")
		if !ok || n >= len(b) {
			return nil, 0, false
		}
		v = append(v, rules.Seat(x))
		i = n
		switch b[i] {
		case ',':
			i++
		case ']':
			return v, i + 1, true
		default:
			return nil, 0, false
		}
	}
}

// stringList reads an array of plain strings; [] is empty, not nil.
func stringList(b []byte, i int) (v []string, n int, ok bool) {
	if i >= len(b) || b[i] != '[' {
		return nil, 0, false
	}
	i++
	v = []string{}
	if i < len(b) && b[i] == ']' {
		return v, i + 1, true
	}
	for {
		x, n, ok := plainString(b, i)
		if !ok || n >= len(b) {
			return nil, 0, false
		}
		v = append(v, x)
		i = n
		switch b[i] {
		case ',':
			i++
		case ']':
			return v, i + 1, true
		default:
			return nil, 0, false
		}
	}
}

// known reads the seats' cards: an object of seat numbers (digits only,
// no leading zero) to plain strings; {} is empty, not nil.
func known(b []byte, i int) (v map[int]string, n int, ok bool) {
	if i >= len(b) || b[i] != '{' {
		return nil, 0, false
	}
	i++
	v = map[int]string{}
	if i < len(b) && b[i] == '}' {
		return v, i + 1, true
	}
	for {
		ks, ke, ok := plainSpan(b, i)
		if !ok || ke+1 >= len(b) || b[ke+1] != ':' {
			return nil, 0, false
		}
		k, kn, ok := integer(b[ks:ke], 0, "seat")
		if !ok || kn != ke-ks || b[ks] == '-' {
			return nil, 0, false
		}
		x, n, ok := plainString(b, ke+2)
		if !ok || n >= len(b) {
			return nil, 0, false
		}
		v[int(k)] = x
		i = n
		switch b[i] {
		case ',':
			i++
		case '}':
			return v, i + 1, true
		default:
			return nil, 0, false
		}
	}
}

// choices reads the seat's choices: an array of flat objects.
func choices(b []byte, i int) (v []game.ChoiceJSON, n int, ok bool) {
	if i >= len(b) || b[i] != '[' {
		return nil, 0, false
	}
	i++
	v = []game.ChoiceJSON{}
	if i < len(b) && b[i] == ']' {
		return v, i + 1, true
	}
	for {
		c, n, ok := choice(b, i)
		if !ok || n >= len(b) {
			return nil, 0, false
		}
		v = append(v, c)
		i = n
		switch b[i] {
		case ',':
			i++
		case ']':
			return v, i + 1, true
		default:
			return nil, 0, false
		}
	}
}

func choice(b []byte, i int) (c game.ChoiceJSON, n int, ok bool) {
	if i >= len(b) || b[i] != '{' {
		return c, 0, false
	}
	i++
	if i < len(b) && b[i] == '}' {
		return c, i + 1, true
	}
	for {
		ks, ke, ok := plainSpan(b, i)
		if !ok || ke+1 >= len(b) || b[ke+1] != ':' {
			return c, 0, false
		}
		i = ke + 2
		switch frameKeys[string(b[ks:ke])] {
		case "cmd":
			c.Cmd, i, ok = plainString(b, i)
		case "targets":
			c.Targets, i, ok = seats(b, i)
		case "no_target":
			c.NoTarget, i, ok = boolean(b, i)
		case "value", "pick":
			var x int64
			x, i, ok = integer(b, i, "seat") // int8, as a seat
			if string(b[ks:ke]) == "value" {
				c.Value = int8(x)
			} else {
				c.Pick = int8(x)
			}
		case "roles":
			c.Roles, i, ok = stringList(b, i)
		default:
			return c, 0, false
		}
		if !ok || i >= len(b) {
			return c, 0, false
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return c, i + 1, true
		default:
			return c, 0, false
		}
	}
}
