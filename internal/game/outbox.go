package game

// Outbox is what a connection's writer took from its Sub and has not
// written yet: Out's messages first, then those that waited behind it
// (NewLazySub). The server's WebSocket writer and the device's session
// write from one.
type Outbox struct {
	sub   *Sub
	pend  [][]byte // pend[head:] wait; the slice is reused once they are out
	head  int
	batch []byte
}

// NewOutbox is sub's outbox.
func NewOutbox(sub *Sub) *Outbox { return &Outbox{sub: sub} }

// Add holds a message the writer received from sub.Out.
func (o *Outbox) Add(b []byte) { o.pend = append(o.pend, b) }

// more says whether a message waits, taking one from the queue if none is
// held.
func (o *Outbox) more() bool {
	if o.head < len(o.pend) {
		return true
	}
	select {
	case b := <-o.sub.Out:
		o.pend = append(o.pend, b)
	default:
		o.pend = append(o.pend, o.sub.Spilled()...)
	}
	return o.head < len(o.pend)
}

// Pop is the next message as it was queued, or false when none waits.
func (o *Outbox) Pop() ([]byte, bool) {
	if !o.more() {
		return nil, false
	}
	b := o.pend[o.head]
	o.pend[o.head] = nil
	if o.head++; o.head == len(o.pend) {
		o.pend, o.head = o.pend[:0], 0
	}
	return b, true
}

// Next is the next message to write, or false when none waits. Frames
// queued together go out in one message, one per line, up to about max
// bytes: a write per frame would cost more than everything else. A night
// message goes out alone and as it is (sealed: its size and count are the
// same on every connection; Recycle it once written). A batch is valid
// until the next call; a message that goes alone is the one queued.
func (o *Outbox) Next(max int) (msg []byte, sealed bool, ok bool) {
	b, ok := o.Pop()
	if !ok {
		return nil, false, false
	}
	if Sealed(b) {
		return b, true, true
	}
	if !o.more() || Sealed(o.pend[o.head]) { // alone: as it is, not copied
		return b, false, true
	}
	o.batch = append(o.batch[:0], b...)
	for len(o.batch) < max && o.more() && !Sealed(o.pend[o.head]) {
		b, _ := o.Pop()
		o.batch = append(append(o.batch, '\n'), b...)
	}
	return o.batch, false, true
}
