package game

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// A request stored and then not acknowledged (the connection dropped, or
// the game's owner died or handed it over between the write and the ack)
// would leave its client unsure whether it was taken. The client names
// such requests in its next connection's hello (wire.ClientFrame.Pending)
// and the game acknowledges those it took, on that connection, as it would
// have on the first; of the others it says nothing. A client's ids are
// unique within its seat's game (docs/server.md, "The WebSocket"), so a
// seat's id names one request of its own and nobody else's.

// keepTaken is how many of a seat's latest requests the game remembers:
// far more than a client has unanswered at once.
const keepTaken = 32

// tookFrom notes that the game took the request id of a seat's connection.
func (a *Actor) tookFrom(s rules.Seat, id int64) {
	if s == rules.NoSeat || id == 0 {
		return
	}
	t := a.taken[s]
	if len(t) == keepTaken {
		t = append(t[:0], t[1:]...)
	}
	a.taken[s] = append(t, id)
}

// readTaken finds the requests a restored game took from its seats'
// connections in its records.
func (a *Actor) readTaken(recs []store.Record) {
	idKey := []byte(`"id":`)
	for _, r := range recs {
		if (r.Kind != "cmd" && r.Kind != "seen" && r.Kind != "chat") || !bytes.Contains(r.Body, idKey) {
			continue
		}
		var b struct {
			Seat rules.Seat `json:"seat"`
			ID   int64      `json:"id"`
		}
		if json.Unmarshal(r.Body, &b) == nil && b.Seat > 0 && int(b.Seat) < len(a.taken) {
			a.tookFrom(b.Seat, b.ID)
		}
	}
}

// Answer acknowledges, on sub, those of ids (requests its client sent on
// an earlier connection without hearing their answer) that the game took
// from sub's seat. A spectator has none.
func (a *Actor) Answer(sub *Sub, ids []int64) error {
	return a.send(func() {
		for _, id := range ids {
			if sub.Seat != rules.NoSeat && id != 0 && slices.Contains(a.taken[sub.Seat], id) {
				a.queue(sub, encode(wire.AckFrame{Type: "ack", ID: id}))
			}
		}
	})
}
