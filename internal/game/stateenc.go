package game

import (
	"slices"
	"strconv"

	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// appendState appends the JSON of a state frame, byte for byte what
// json.Marshal gives (TestStateEncodingIsMarshals holds it to that): a
// delivery encodes a state for every seat whose state changed, which by
// reflection was a tenth of the server's work at 10,000 players.
func appendState(b []byte, f *wire.StateFrame) []byte {
	b = append(b, `{"type":`...)
	b = wire.AppendString(b, f.Type)
	b = appendInt(append(b, `,"seat":`...), int64(f.Seat))
	if f.Role != "" {
		b = wire.AppendString(append(b, `,"role":`...), f.Role)
	}
	b = appendInt(append(b, `,"day":`...), int64(f.Day))
	b = appendBool(append(b, `,"night":`...), f.Night)
	if f.Step != "" {
		b = wire.AppendString(append(b, `,"step":`...), f.Step)
	}
	if f.Turn != 0 {
		b = appendInt(append(b, `,"turn":`...), int64(f.Turn))
	}
	b = appendSeats(append(b, `,"alive":`...), f.Alive)
	if f.Sheriff != 0 {
		b = appendInt(append(b, `,"sheriff":`...), int64(f.Sheriff))
	}
	if len(f.Known) > 0 {
		// encoding/json orders a map by its keys as strings ("10" before "2").
		keys := make([]string, 0, len(f.Known))
		for k := range f.Known {
			keys = append(keys, strconv.Itoa(k))
		}
		slices.Sort(keys)
		b = append(b, `,"known":{`...)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			n, _ := strconv.Atoi(k)
			b = append(wire.AppendString(b, k), ':')
			b = wire.AppendString(b, f.Known[n])
		}
		b = append(b, '}')
	}
	if len(f.Wolves) > 0 {
		b = appendSeats(append(b, `,"wolves":`...), f.Wolves)
	}
	if len(f.Lovers) > 0 {
		b = appendSeats(append(b, `,"lovers":`...), f.Lovers)
	}
	if len(f.Couple) > 0 {
		b = appendSeats(append(b, `,"couple":`...), f.Couple)
	}
	if len(f.Exposed) > 0 {
		b = appendSeats(append(b, `,"exposed":`...), f.Exposed)
	}
	b = appendBool(append(b, `,"pending":`...), f.Pending)
	if len(f.Choices) > 0 {
		b = append(b, `,"choices":[`...)
		for i := range f.Choices {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendChoice(b, &f.Choices[i])
		}
		b = append(b, ']')
	}
	if f.Deadline != 0 {
		b = appendInt(append(b, `,"deadline":`...), f.Deadline)
	}
	if f.NightEnd != 0 {
		b = appendInt(append(b, `,"night_end":`...), f.NightEnd)
	}
	if f.Paused {
		b = append(b, `,"paused":true`...)
	}
	if f.Over {
		b = append(b, `,"over":true`...)
	}
	if f.Winner != "" {
		b = wire.AppendString(append(b, `,"winner":`...), f.Winner)
	}
	if len(f.Channels) > 0 {
		b = appendStrings(append(b, `,"channels":`...), f.Channels)
	}
	if f.Bot {
		b = append(b, `,"bot":true`...)
	}
	if len(f.Calls) > 0 {
		b = append(b, `,"calls":[`...)
		for i, c := range f.Calls {
			if i > 0 {
				b = append(b, ',')
			}
			b = wire.AppendString(append(b, `{"key":`...), c.Key)
			if c.Role != "" {
				b = wire.AppendString(append(b, `,"role":`...), c.Role)
			}
			if c.Group != "" {
				b = wire.AppendString(append(b, `,"group":`...), c.Group)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if f.SeeCard {
		b = append(b, `,"see_card":true`...)
	}
	return append(b, '}')
}

func appendChoice(b []byte, c *wire.ChoiceJSON) []byte {
	b = wire.AppendString(append(b, `{"cmd":`...), c.Cmd)
	if len(c.Targets) > 0 {
		b = appendSeats(append(b, `,"targets":`...), c.Targets)
	}
	if c.NoTarget {
		b = append(b, `,"no_target":true`...)
	}
	if c.Value != 0 {
		b = appendInt(append(b, `,"value":`...), int64(c.Value))
	}
	if c.Pick != 0 {
		b = appendInt(append(b, `,"pick":`...), int64(c.Pick))
	}
	if len(c.Roles) > 0 {
		b = appendStrings(append(b, `,"roles":`...), c.Roles)
	}
	return append(b, '}')
}

func appendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

func appendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// appendSeats: a nil slice is null, as json.Marshal writes it.
func appendSeats(b []byte, s []rules.Seat) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInt(b, int64(x))
	}
	return append(b, ']')
}

func appendStrings(b []byte, s []string) []byte {
	b = append(b, '[')
	for i, x := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(b, x)
	}
	return append(b, ']')
}
