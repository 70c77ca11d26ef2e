package store

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/wolfden/wolfden/rules"
)

// eventSize is the encoded size of one event. The size is fixed so that a
// record's events can be counted, and a torn or foreign blob recognised,
// from the length alone.
const eventSize = 20

// AppendEvents appends the binary form of evs to buf: for each event, in
// little endian, Seq (4 bytes), Kind, Public (0 or 1), Draws, Seat, Target,
// Role (1 byte each), Value (2), To (4) and Mask (4). The layout is a stored
// format: change it only with a migration of the stored blobs.
func AppendEvents(buf []byte, evs []rules.Event) []byte {
	buf = slices.Grow(buf, eventSize*len(evs))
	le := binary.LittleEndian
	for i := range evs {
		e := &evs[i]
		buf = le.AppendUint32(buf, uint32(e.Seq))
		var public byte
		if e.Public {
			public = 1
		}
		buf = append(buf, byte(e.Kind), public, e.Draws, byte(e.Seat), byte(e.Target), byte(e.Role))
		buf = le.AppendUint16(buf, uint16(e.Value))
		buf = le.AppendUint32(buf, e.To)
		buf = le.AppendUint32(buf, e.Mask)
	}
	return buf
}

// DecodeEvents reads what AppendEvents wrote. It refuses, rather than
// guesses at, data that AppendEvents cannot have produced, so that every
// accepted blob encodes back to the same bytes. Empty data gives nil.
func DecodeEvents(data []byte) ([]rules.Event, error) {
	if len(data)%eventSize != 0 {
		return nil, fmt.Errorf("store: events: %d bytes is not a multiple of %d", len(data), eventSize)
	}
	if len(data) == 0 {
		return nil, nil
	}
	le := binary.LittleEndian
	evs := make([]rules.Event, len(data)/eventSize)
	for i := range evs {
		b := data[i*eventSize : (i+1)*eventSize]
		if b[5] > 1 {
			return nil, fmt.Errorf("store: events: event %d: public flag is %d, not 0 or 1", i, b[5])
		}
		evs[i] = rules.Event{
			Seq:    int32(le.Uint32(b[0:])),
			Kind:   rules.EventKind(b[4]),
			Public: b[5] == 1,
			Draws:  b[6],
			Seat:   rules.Seat(int8(b[7])),
			Target: rules.Seat(int8(b[8])),
			Role:   rules.Role(b[9]),
			Value:  int16(le.Uint16(b[10:])),
			To:     le.Uint32(b[12:]),
			Mask:   le.Uint32(b[16:]),
		}
	}
	return evs, nil
}
