package game

import (
	"bytes"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/wire"
)

// The night's beat. From nightfall to dawn every connection — each seat,
// whatever its role, and each spectator — is sent exactly one message at
// each tick, of exactly NightMessage bytes: a tick frame, the frames the
// connection has waiting (its events, messages, state, answers) as far as
// they fit, and padding. Nothing is sent in between, so neither the number,
// the size nor the timing of the messages on a connection tells what its
// seat does at night, even to someone who only watches the encrypted
// traffic. Frames that do not fit wait for the next tick.
//
// The dawn's tick is the night's last, for every connection alike: it
// carries all that each connection has waiting (the dawn, and whatever the
// wolves wrote late, still queued behind the night's other frames), in a
// message of the same size for all — NightMessage, or the multiple of it
// that the fullest queue needs. Had the frames waiting gone out at further
// ticks, the wolves' dawn would arrive a tick after everyone else's, and
// every connection would be sent one more tick than on a quiet night. Then
// messages go out as they come again.

// NightMessage is the size of every message at night. It holds the longest
// chat message (MaxChat characters, each at most 6 bytes once escaped) and
// the largest state frame with room to spare.
const NightMessage = 4096

// padOpen and padClose frame the padding: {"type":"pad","p":"   "}.
var (
	padOpen  = []byte(`{"type":"pad","p":"`)
	padClose = []byte(`"}`)
	spaces   = bytes.Repeat([]byte{' '}, NightMessage)
)

const padMin = 1 + 19 + 2 // the newline and the empty pad frame

// out hands the connections what they have waiting: at night at the
// tick, if one is due; by day at once.
func (a *Actor) out() {
	if a.ticking {
		a.tickIfDue(a.now())
	} else {
		a.sendAll()
	}
}

// beat starts the night's ticks now, unless they are running.
func (a *Actor) beat(now time.Time) {
	if !a.ticking && !a.cfg.Unpaced {
		a.ticking, a.tickBase, a.tickAt, a.tickN = true, now, now, -1
	}
}

// tickIfDue sends a tick if one is due. Ticks are numbered on the night's
// grid (nightfall + n ticks): ticks missed while the actor was busy are
// skipped for every connection alike, and leave their numbers unused.
func (a *Actor) tickIfDue(now time.Time) {
	if now.Before(a.tickAt) {
		return
	}
	every := max(a.cfg.Timers.Tick, MinTimer)
	k := int(now.Sub(a.tickBase) / every)
	a.tickN = max(k, a.tickN+1)
	a.tick()
	a.tickAt = a.tickBase.Add(time.Duration(a.tickN+1) * every)
	if a.clk.Slots == nil { // that was the dawn's tick: the night's last
		a.ticking = false
	}
}

// tick sends every connection its message of the tick; after dawn, all it
// has waiting, in messages of one size for all.
func (a *Actor) tick() {
	head := encode(wire.TickFrame{Type: "tick", N: a.tickN})
	if a.clk.Slots != nil {
		for sub := range a.subs {
			a.put(sub, a.pack(sub, head, NightMessage, false))
		}
		return
	}
	size := NightMessage
	for sub := range a.subs {
		n := len(head) + padMin
		for _, f := range sub.frames {
			n += 1 + len(f)
		}
		for n > size {
			size += NightMessage
		}
	}
	for sub := range a.subs {
		a.put(sub, a.pack(sub, head, size, true))
	}
}

// nightBufs keeps the night's messages once written: each connection gets
// one at every tick, and allocating them anew (80 MB/s at 10,000
// connections and the default tick of 500 ms) made the garbage collector
// run over the whole heap every few seconds.
var nightBufs = sync.Pool{New: func() any { b := make([]byte, 0, NightMessage); return &b }}

// Recycle hands back a night message once written, for another tick to
// fill: its reader calls it when nothing holds the bytes any more. Any
// other message is left alone.
func Recycle(msg []byte) {
	if cap(msg) == NightMessage && Sealed(msg) {
		msg = msg[:0]
		nightBufs.Put(&msg)
	}
}

// pack fills one night message of at least size bytes (a multiple of
// NightMessage) for sub from its waiting frames: as many as fit, or all.
func (a *Actor) pack(sub *Sub, head []byte, size int, all bool) []byte {
	msg := (*nightBufs.Get().(*[]byte))[:0]
	msg = append(msg, head...)
	n := 0
	for ; n < len(sub.frames); n++ {
		f := sub.frames[n]
		if !all && len(msg)+1+len(f)+padMin > size {
			break
		}
		msg = append(append(msg, '\n'), f...)
	}
	if n == 0 && len(sub.frames) > 0 && len(head)+1+len(sub.frames[0])+padMin > NightMessage {
		// A frame larger than a message cannot happen with the limits the
		// frames have; should one come, it goes alone in a message padded
		// to a multiple of the size, rather than block the queue for good.
		a.log.Error("a frame does not fit a night message", "bytes", len(sub.frames[0]))
		msg = append(append(msg, '\n'), sub.frames[0]...)
		n = 1
	}
	sub.frames = sub.frames[n:]
	for len(msg)+padMin > size {
		size += NightMessage
	}
	msg = append(append(msg, '\n'), padOpen...)
	for fill := size - len(msg) - len(padClose); fill > 0; fill -= min(fill, len(spaces)) {
		msg = append(msg, spaces[:min(fill, len(spaces))]...)
	}
	return append(msg, padClose...)
}

// Sealed reports whether a message is one of the night's: it must go out
// alone and as it is, never joined to another.
func Sealed(msg []byte) bool { return bytes.HasPrefix(msg, []byte(`{"type":"tick"`)) }
