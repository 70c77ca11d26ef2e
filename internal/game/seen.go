package game

import (
	"errors"
	"math/bits"

	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// "Everyone has seen his card" (issue 16): at a table the judge waits, after
// the deal, until every player has looked at his card before he calls the
// night. With Config.CardSeen the table is told the deal and nothing more
// until each seated person has confirmed (Seen) or the host goes on
// (SkipSeen); the bots have seen theirs at once. Every connection is told
// only how many people of how many have confirmed, never who. The night's
// schedule — its clock — starts when the wait ends. The confirmations are
// stored with the clock, so a restart in the middle of the wait keeps them.

// ErrNotWaiting refuses a confirmation or a skip once the wait is over (or
// in a game that has none): it is public, so it tells nothing.
var ErrNotWaiting = errors.New("the table is not waiting for the cards to be seen")

// humans are the seats played by people: they confirm.
func (a *Actor) humans() uint32 {
	all := uint32(1)<<uint(a.live.Players()+1) - 2
	return all &^ a.cfg.Bots
}

// startWait begins the wait of a new game that asks for one and has people.
func (a *Actor) startWait() {
	if a.cfg.CardSeen && a.humans() != 0 {
		a.clk.Gate = true
	}
}

// dealEnd is one past the deal's events (the game's start and each seat's
// card): what the table is told while it waits.
func (a *Actor) dealEnd() int {
	ev := a.live.Events()
	i := 0
	for i < len(ev) && (ev[i].Kind == rules.EvGameStart || ev[i].Kind == rules.EvRole) {
		i++
	}
	return i
}

// Seen confirms that sub's seat has seen its card; the answer (ack or
// error) goes to sub. A second confirmation is acknowledged and changes
// nothing.
func (a *Actor) Seen(sub *Sub, id int64) error {
	return a.send(func() {
		refuse := func(code, msg string) {
			a.queue(sub, encode(wire.ErrorFrame{Type: "error", ID: id, Code: code, Message: msg}))
		}
		bit := uint32(1) << uint(sub.Seat)
		switch {
		case sub.Seat == rules.NoSeat:
			refuse("spectator", "spectators have no card")
			return
		case a.stalled:
			refuse("store", ErrStalled.Error())
			return
		case a.clk.Paused:
			refuse("paused", "the game is paused")
			return
		case !a.clk.Gate:
			refuse("not_waiting", ErrNotWaiting.Error())
			return
		case a.clk.Seen&bit == 0 && a.humans()&bit != 0:
			a.clk.Seen |= bit
			a.record("seen", cmdBody{Seat: sub.Seat, Cmd: "seen", ID: id})
			if a.clk.Seen&a.humans() == a.humans() {
				a.clk.Gate = false
			}
			a.settle()
		}
		a.acks = append(a.acks, ack{sub: sub, id: id})
	})
}

// SkipSeen ends the wait at the host's word: the night falls now.
func (a *Actor) SkipSeen() error {
	return a.do(func() error {
		switch {
		case a.stalled:
			return ErrStalled
		case !a.clk.Gate:
			return ErrNotWaiting
		}
		a.clk.Gate = false
		a.record("seen_skip", nil)
		a.settle()
		a.commit()
		return nil
	})
}

// seenFrame is the wait's count as every connection is told it.
func (a *Actor) seenFrame() wire.SeenFrame {
	p := a.humans()
	return wire.SeenFrame{Type: "seen", Count: bits.OnesCount32(a.clk.Seen & p), Of: bits.OnesCount32(p), Waiting: a.clk.Gate}
}

// deliverSeen queues the wait's count for sub when it changed: during the
// wait, and once more as it ends for those told of it.
func (a *Actor) deliverSeen(sub *Sub) {
	if !a.clk.Gate && sub.lastSeen == nil {
		return
	}
	f := encode(a.seenFrame())
	if string(f) != string(sub.lastSeen) {
		sub.lastSeen = f
		a.queue(sub, f)
	}
}

// mustSee reports whether seat s has a card still to confirm.
func (a *Actor) mustSee(s rules.Seat) bool {
	bit := uint32(1) << uint(s)
	return a.clk.Gate && s > 0 && a.humans()&bit != 0 && a.clk.Seen&bit == 0
}

// Cards is the wait's count for the room's info: how many people of how
// many have seen their card, and whether the table still waits.
func (a *Actor) Cards() (wire.SeenFrame, error) {
	return ask(a, a.seenFrame)
}
