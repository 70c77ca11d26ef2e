package game

import (
	"encoding/json"

	"github.com/wolfden/wolfden/rules"
)

// What the AIWolf gateway (internal/aiwolf) needs of a game: to hand an
// agent's seat to the server's bot while the agent is gone or failed a
// request, and to store its request/response log with the game's records.

// SetAway hands seat s to the server's bot (away) until it is given back
// (!away). A seat's player is otherwise marked away only when his time
// runs out while no connection of his is open; the gateway holds an agent's
// seat open for the whole game, so it says itself when the agent is gone.
// The change is stored with the clock, so a restart keeps it.
func (a *Actor) SetAway(s rules.Seat, away bool) error {
	return a.do(func() error {
		if a.stalled {
			return ErrStalled
		}
		if s < 1 || int(s) > a.live.Players() {
			return ErrNoSeat
		}
		bit := uint32(1) << uint(s)
		if away == (a.clk.Away&bit != 0) {
			return nil
		}
		if away {
			a.clk.Away |= bit
		} else {
			a.clk.Away &^= bit
		}
		a.botPend = 0
		a.settle()
		a.commit()
		return nil
	})
}

// ErrNoSeat refuses a seat the game does not have.
var ErrNoSeat = errNoSeat{}

type errNoSeat struct{}

func (errNoSeat) Error() string { return "no such seat in this game" }

// Note stores body (JSON, kept as it is: the caller's to make valid and
// to leave alone) as a record of kind with the game's records, in the
// game's next write. Replay and restore skip kinds they do not know;
// the gateway reads its own back (its request log).
func (a *Actor) Note(kind string, body []byte) error {
	return a.send(func() { a.record(kind, json.RawMessage(body)) })
}

// NoteLater is Note for a record that may wait for the game's next write
// (a command, a message, a change of the clock) instead of making one of
// its own: nothing is told to anyone from it. The gateway's request log,
// a day at a time. The actor stores what waits as it stops.
func (a *Actor) NoteLater(kind string, body []byte) error {
	return a.send(func() {
		a.record(kind, json.RawMessage(body))
		a.later++
	})
}

// NoteWait is Note, returning once the record is stored (the gateway's
// last lines: it lets its agents go then, and an agent let go may read
// the game's log at once). A store that refuses the write leaves the
// record waiting, as any, and NoteWait returns ErrStalled (ErrMoved for a
// game another server took). Unlike do it has no deadline: a caller that
// gave up and sent the note again would store it twice. ErrBusy: the
// note was not taken.
func (a *Actor) NoteWait(kind string, body []byte) error {
	stored := make(chan error, 1)
	err := a.send(func() {
		a.record(kind, json.RawMessage(body))
		// Committed now, not at the end of the turn: the answer would
		// otherwise reach the caller before the write.
		switch {
		case a.commit():
			stored <- nil
		case a.gone:
			stored <- ErrMoved
		default:
			stored <- ErrStalled
		}
	})
	if err != nil {
		return err
	}
	select {
	case err := <-stored:
		return err
	case <-a.done:
		select {
		case err := <-stored:
			return err
		default:
			return ErrStopped
		}
	}
}
