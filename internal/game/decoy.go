package game

import (
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// Decoys (issue 16): at a table every living player without a night
// action is given a task of the same shape as the real ones ("tap any
// seat"), so that nobody learns who acts from who touches his phone. The
// phone sends its tap as a decoy frame, padded to a real command's size;
// the game takes it from any seat at any time, stores nothing, changes
// nothing, and answers it as it answers an accepted command: an ack of the
// same shape, sent with the game's own frames (at night at the next tick,
// inside the night's fixed-size message, like every answer).

// Decoy answers a seat's decoy tap.
func (a *Actor) Decoy(sub *Sub, id int64) error {
	return a.send(func() {
		refuse := func(code, msg string) {
			a.queue(sub, encode(wire.ErrorFrame{Type: "error", ID: id, Code: code, Message: msg}))
		}
		// The refusals a real command would get whatever the seat's role:
		// they are the table's, and tell nothing.
		switch {
		case sub.Seat == rules.NoSeat:
			refuse("spectator", "spectators cannot act")
		case a.clk.Paused:
			refuse("paused", "the game is paused")
		case a.stalled:
			refuse("store", ErrStalled.Error())
		default:
			a.acks = append(a.acks, ack{sub: sub, id: id})
		}
	})
}
