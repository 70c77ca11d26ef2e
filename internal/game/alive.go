package game

import "time"

// The day's keep-alive. By night the beat (beat.go) sends every connection
// a message at each tick; by day a game may be quiet for minutes (a long
// speech), and a client could not tell a quiet table from a dead line (its
// server frozen, a relay cut). So by day every connection is sent the same
// frame, AliveFrame, at the same instants: KeepAlive after the last one or
// after the last public event, whichever came later, whatever its seat. It
// is a message of its own, identical for all, sent to all at once from the
// actor's loop: its size, count and timing tell nothing about any seat
// (TestTheKeepAliveIsTheSameForEverySeat). By night it stops; the ticks
// take its place.
//
// A public event told by day is sent to every connection at once, and
// keeps the lines alive as well as a keep-alive: the next is due a period
// after it. When the keep-alives go is thus a matter of the public events
// alone, the same instants for every seat, and a table that keeps talking
// is sent none (they were a ninth of the messages of the load of
// docs/benchmarks.md; TestAPublicEventPutsTheKeepAliveOff).

// KeepAlive is how often, by day, every connection is sent AliveFrame
// (Config.KeepAlive overrides it).
const KeepAlive = 2 * time.Second

// AliveFrame is the keep-alive: the same bytes for every connection.
var AliveFrame = []byte(`{"type":"alive"}`)

func (a *Actor) keepAliveEvery() time.Duration {
	if a.cfg.KeepAlive > 0 {
		return max(a.cfg.KeepAlive, MinTimer)
	}
	return KeepAlive
}

// Quiet is the longest a live connection to this game goes without a
// message: the keep-alive's period by day, the tick's by night. A client
// that hears nothing for a good deal longer has lost its line (the
// welcome tells it this, as "alive").
func (a *Actor) Quiet() time.Duration {
	q := a.keepAliveEvery()
	if !a.cfg.Unpaced {
		q = max(q, a.cfg.Timers.Tick, MinTimer)
	}
	return q
}

// keepAlive sends every connection the keep-alive if one is due and the
// night's beat does not run, and sets the next one.
func (a *Actor) keepAlive(now time.Time) {
	if a.ticking {
		a.aliveAt = time.Time{} // the ticks keep the lines alive
		return
	}
	every := a.keepAliveEvery()
	if a.aliveAt.IsZero() { // the first day, or the dawn: one period from now
		a.aliveAt = now.Add(every)
		a.arm()
		return
	}
	if now.Before(a.aliveAt) {
		return
	}
	for sub := range a.subs {
		a.put(sub, AliveFrame)
	}
	a.aliveAt = now.Add(every)
	a.arm()
}

// toldPublic reports whether the events the table was told since it last
// looked hold a public one, which every connection is sent.
func (a *Actor) toldPublic() bool {
	ev := a.shown.Events()
	public := false
	for ; a.pubSeen < len(ev); a.pubSeen++ {
		public = public || ev[a.pubSeen].Public
	}
	return public
}

// aliveSent moves the next keep-alive a period after now, when every
// connection has just been sent a public event by day.
func (a *Actor) aliveSent(now time.Time) {
	if !a.ticking && !a.aliveAt.IsZero() {
		a.aliveAt = now.Add(a.keepAliveEvery())
	}
}
