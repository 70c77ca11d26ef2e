package game

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// Sub is one connection watching the game: a player's seat, or a spectator
// (Seat 0) who sees public events only. The actor writes messages to Out and
// never waits: a connection that lets Out fill up is dropped (Kick), and
// may reconnect and resume from the last frame it has.
type Sub struct {
	Seat rules.Seat
	Out  chan []byte
	kick func()

	evIdx, evSeq     int // events of the log looked at, and sent
	chatIdx, chatSeq int
	lastState        []byte
	last             wire.StateFrame // what lastState encodes; set with it
	lastSeen         []byte          // the last count of the wait for the cards (seen.go)
	dropped          bool
	frames           [][]byte // frames not yet sent

	// A lazy queue (NewLazySub): Out holds a few messages, and up to size
	// in all wait in spill, behind everything in Out, while the reader is
	// behind. Out only takes a message while spill is empty.
	size  int
	mu    sync.Mutex
	spill [][]byte
	// notify, if set, is called from the actor after each message queued
	// (NewNotifySub).
	notify func()
	// direct, if set (WriteDirect), writes a message from the actor while
	// the connection's writer is idle (busy false); busy is under mu.
	direct func(parts [][]byte) Direct
	busy   bool
	one    [1][]byte // a message of one part, for direct
}

// Direct is what a direct write did with a message.
type Direct int

const (
	// Wrote: the message is out (or dropped with its connection).
	Wrote Direct = iota
	// NotWritten: nothing was written; the message is queued for the writer.
	NotWritten
	// Handed: part of it is out, and the writer must write the rest before
	// anything else; the writer is busy from then on.
	Handed
)

// WriteDirect lets the actor write a lazy sub's messages itself, with f,
// while its writer has nothing to write: a message then costs no wake-up
// of the writer. f is given the message as its parts, to be joined by
// newlines: a day's message is its frames, which are joined only when
// they must wait for the writer. f must not wait nor keep the parts; it is
// called with mu held. The writer is busy until it first calls Idle.
func (s *Sub) WriteDirect(f func(parts [][]byte) Direct) {
	s.mu.Lock()
	s.direct = f
	s.busy = true
	s.mu.Unlock()
}

// Hold ends the direct writes, as the writer stops: once it returns, none
// is under way and none will start.
func (s *Sub) Hold() {
	s.mu.Lock()
	s.busy = true
	s.mu.Unlock()
}

// Idle is called by the writer when it has written everything it took:
// true when nothing waits either, and the actor may write directly until
// it queues a message again.
func (s *Sub) Idle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.Out) > 0 || len(s.spill) > 0 {
		return false
	}
	s.busy = false
	return true
}

// NewSub makes a connection's queue of size messages; kick is called once,
// from the actor, when the connection is dropped for being too slow.
func NewSub(seat rules.Seat, size int, kick func()) *Sub {
	return &Sub{Seat: seat, Out: make(chan []byte, size), kick: kick}
}

// lazyOut is how many messages a lazy queue's Out holds: a reader that
// keeps up has one or two waiting.
const lazyOut = 8

// NewLazySub is NewSub with a queue that costs only what waits in it: a
// channel of 1,024 slots is 24 KiB a connection, most of its memory, while
// a reader that keeps up has a message or two waiting. The bound is the
// same (size messages, then the connection is dropped), but only the first
// few go to Out: the reader must take the rest with Spilled when Out is
// empty.
func NewLazySub(seat rules.Seat, size int, kick func()) *Sub {
	return &Sub{Seat: seat, Out: make(chan []byte, min(size, lazyOut)), kick: kick, size: size}
}

// NewNotifySub is NewLazySub for a reader that is told of each message
// queued (notify, called from the actor; it must not wait) instead of
// waiting on Out: a program's seat read by its conductor between other
// work (the AIWolf gateway), with no goroutine of its own per seat.
func NewNotifySub(seat rules.Seat, size int, kick, notify func()) *Sub {
	s := NewLazySub(seat, size, kick)
	s.notify = notify
	return s
}

// Spilled takes the messages that wait behind Out, in order, once Out is
// empty (none while it is not: they come after what it holds). The reader
// calls it when Out is empty, before it waits on Out.
func (s *Sub) Spilled() [][]byte {
	if s.size == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.Out) > 0 { // refilled since the reader looked: those first
		return nil
	}
	out := s.spill
	s.spill = nil
	return out
}

// offer queues a message without waiting; false: the queue is full.
func (s *Sub) offer(msg []byte) bool {
	return s.offerParts(nil, msg, len(msg))
}

// offerParts queues the message of parts joined by newlines, n bytes
// long (or msg, when parts is nil), without waiting; false: the queue is
// full.
func (s *Sub) offerParts(parts [][]byte, msg []byte, n int) bool {
	if !s.queue(parts, msg, n) {
		return false
	}
	if s.notify != nil {
		s.notify()
	}
	return true
}

// AppendJoined appends parts to b, one per line: a message of frames.
func AppendJoined(b []byte, parts [][]byte) []byte {
	for i, f := range parts {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, f...)
	}
	return b
}

// join makes the message of parts, n bytes long; a lone part is the
// message as it is (no frame is changed once queued).
func join(parts [][]byte, n int) []byte {
	if len(parts) == 1 {
		return parts[0]
	}
	return AppendJoined(make([]byte, 0, n), parts)
}

// queue is offerParts but for the notice.
func (s *Sub) queue(parts [][]byte, msg []byte, n int) bool {
	if s.size == 0 {
		if parts != nil {
			msg = join(parts, n)
		}
		select {
		case s.Out <- msg:
			return true
		default:
			return false
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.direct != nil && !s.busy {
		p := parts
		if p == nil {
			s.one[0] = msg
			p = s.one[:]
		}
		// Under mu, so that Hold waits for a direct write under way.
		d := s.direct(p)
		s.one[0] = nil
		switch d {
		case Wrote:
			return true
		case Handed:
			s.busy = true
			return true
		}
	}
	if msg == nil {
		msg = join(parts, n)
	}
	s.busy = true
	if len(s.spill) == 0 {
		select {
		case s.Out <- msg:
			return true
		default:
		}
	}
	if len(s.Out)+len(s.spill) >= s.size {
		return false
	}
	s.spill = append(s.spill, msg)
	return true
}

// Join attaches a connection. since and chatSince are the last event and
// chat numbers the client already has (0 for none): it is sent exactly
// what it missed, then everything new.
func (a *Actor) Join(sub *Sub, since, chatSince int) error {
	return a.do(func() error {
		switch {
		case a.gone:
			return ErrMoved
		case a.stalled: // what it would be sent may not be stored yet
			return ErrStalled
		}
		a.subs[sub] = struct{}{}
		if sub.Seat > 0 {
			a.online[sub.Seat]++
			if a.clk.Away&(1<<uint(sub.Seat)) != 0 { // the player is back
				a.clk.Away &^= 1 << uint(sub.Seat)
				a.botPend = 0
			}
		}
		a.catchUp(sub, since, chatSince)
		a.settle()
		a.commit()
		if a.ticking && !sub.dropped && len(sub.frames) > 0 {
			// A connection that joins at night gets its first night message
			// at once, rather than at the next tick: one message of the
			// night's size, whatever the seat, when the client itself asked
			// (tick -1: off the night's grid), unless a tick just carried
			// it. The rest follows the beat.
			a.put(sub, a.pack(sub, encode(wire.TickFrame{Type: "tick", N: -1}), NightMessage, false))
		}
		return nil
	})
}

// Leave detaches a connection.
func (a *Actor) Leave(sub *Sub) {
	_ = a.send(func() { a.detach(sub) })
}

// detach forgets a connection, once.
func (a *Actor) detach(sub *Sub) {
	if _, ok := a.subs[sub]; ok {
		delete(a.subs, sub)
		if sub.Seat > 0 {
			a.online[sub.Seat]--
		}
	}
}

// catchUp skips what the client has and queues what it missed.
func (a *Actor) catchUp(sub *Sub, since, chatSince int) {
	sub.evIdx, sub.evSeq, sub.chatIdx, sub.chatSeq = 0, 0, 0, 0
	ev := a.shown.Events()
	for ; sub.evIdx < len(ev) && sub.evSeq < since; sub.evIdx++ {
		if ev[sub.evIdx].Visible(sub.Seat) {
			sub.evSeq++
		}
	}
	for ; sub.chatIdx < len(a.chats) && sub.chatSeq < chatSince; sub.chatIdx++ {
		if a.chats[sub.chatIdx].visible(sub.Seat) {
			sub.chatSeq++
		}
	}
	a.gen++
	a.deliverTo(sub)
}

func (a *Actor) deliver() {
	a.gen++
	for sub := range a.subs {
		a.deliverTo(sub)
	}
}

// Within one delivery (one gen) every connection of a seat is told the same
// state, and every connection that sees an event or a message gets the same
// bytes but for its own number: both are built once, not once per
// connection. A frame is cached only as encoded, so what a connection
// receives is exactly what encoding it for that connection alone would give.

// seatState is a seat's state in this delivery, built once.
type seatState struct {
	gen int
	f   wire.StateFrame
	b   []byte // encoded on first need
}

func (a *Actor) stateOf(s rules.Seat) *seatState {
	c := &a.stCache[s]
	if c.gen != a.gen {
		c.gen, c.f, c.b = a.gen, a.state(s), nil
	}
	return c
}

// seqFrame appends a frame {"type":T,"seq":N,…} for seq n from tail, the
// encoding's bytes after the number.
func seqFrame(head []byte, n int, tail []byte) []byte {
	b := make([]byte, 0, len(head)+20+len(tail))
	b = strconv.AppendInt(append(b, head...), int64(n), 10)
	return append(b, tail...)
}

var (
	eventHead = []byte(`{"type":"event","seq":`)
	chatHead  = []byte(`{"type":"chat","seq":`)
)

// tailAfterSeq is an encoded frame's bytes after its seq (encoded as 0).
func tailAfterSeq(b, head []byte) []byte {
	if !bytes.HasPrefix(b, head) || len(b) <= len(head) || b[len(head)] != '0' {
		panic("game: a frame's encoding does not start with its type and seq")
	}
	return b[len(head)+1:]
}

// eventTail is event i's frame after its seq, encoded once.
func (a *Actor) eventTail(i int) []byte {
	for len(a.evTails) <= i {
		a.evTails = append(a.evTails, nil)
	}
	if a.evTails[i] == nil {
		e := &a.shown.Events()[i]
		a.evTails[i] = tailAfterSeq(encode(eventFrame(0, e)), eventHead)
	}
	return a.evTails[i]
}

// chatTail is message i's frame after its seq, encoded once; anon: the copy
// without the writer's seat (the little girl's).
func (a *Actor) chatTail(i int, anon bool) []byte {
	for len(a.chatTails) <= i {
		a.chatTails = append(a.chatTails, [2][]byte{})
	}
	k := 0
	if anon {
		k = 1
	}
	if a.chatTails[i][k] == nil {
		c := &a.chats[i]
		f := wire.ChatFrame{Type: "chat", Channel: c.Channel, Seat: c.Seat, Text: c.Text, At: c.At}
		if anon {
			f.Seat = rules.NoSeat
		}
		a.chatTails[i][k] = tailAfterSeq(encode(f), chatHead)
	}
	return a.chatTails[i][k]
}

// deliverTo sends a connection the events and messages it has not had,
// then its state if it changed.
func (a *Actor) deliverTo(sub *Sub) {
	a.deliverSeen(sub)
	ev := a.shown.Events()
	for ; sub.evIdx < len(ev); sub.evIdx++ {
		e := &ev[sub.evIdx]
		if e.Visible(sub.Seat) {
			sub.evSeq++
			a.queue(sub, seqFrame(eventHead, sub.evSeq, a.eventTail(sub.evIdx)))
		}
	}
	for ; sub.chatIdx < len(a.chats); sub.chatIdx++ {
		c := &a.chats[sub.chatIdx]
		if c.visible(sub.Seat) {
			sub.chatSeq++
			anon := !c.Public && c.To&(1<<uint(sub.Seat)) == 0 // the little girl's copy
			a.queue(sub, seqFrame(chatHead, sub.chatSeq, a.chatTail(sub.chatIdx, anon)))
		}
	}
	// Most changes leave most seats' states as they were: comparing the
	// frame is much cheaper than encoding it to compare the bytes.
	st := a.stateOf(sub.Seat)
	if sub.lastState != nil && sameState(&st.f, &sub.last) {
		return
	}
	if st.b == nil {
		// Kept as the connections' last state, at its own size: a buffer
		// of 512 bytes, grown to 1,024 for a seat with choices, was a
		// sixth of what the server allocated at 10,000 players.
		a.stBuf = appendState(a.stBuf[:0], &st.f)
		st.b = bytes.Clone(a.stBuf)
	}
	if !bytes.Equal(st.b, sub.lastState) {
		sub.lastState = st.b
		a.queue(sub, st.b)
	}
	sub.last = st.f
}

// sameState reports whether two state frames are equal field by field, so
// that they encode alike. TestSameStateSeesEveryField holds it to every
// field of the frame.
func sameState(x, y *wire.StateFrame) bool {
	return x.Type == y.Type && x.Seat == y.Seat && x.Role == y.Role && x.Day == y.Day && x.Night == y.Night &&
		x.Step == y.Step && x.Turn == y.Turn && sameSeats(x.Alive, y.Alive) && x.Sheriff == y.Sheriff &&
		(x.Known == nil) == (y.Known == nil) && maps.Equal(x.Known, y.Known) &&
		sameSeats(x.Wolves, y.Wolves) && sameSeats(x.Lovers, y.Lovers) && sameSeats(x.Couple, y.Couple) && sameSeats(x.Exposed, y.Exposed) &&
		x.Pending == y.Pending && slices.EqualFunc(x.Choices, y.Choices, sameChoice) && (x.Choices == nil) == (y.Choices == nil) &&
		x.Deadline == y.Deadline && x.NightEnd == y.NightEnd && x.Paused == y.Paused && x.Over == y.Over &&
		x.Winner == y.Winner && slices.Equal(x.Channels, y.Channels) && (x.Channels == nil) == (y.Channels == nil) &&
		x.Bot == y.Bot && slices.Equal(x.Calls, y.Calls) && (x.Calls == nil) == (y.Calls == nil) && x.SeeCard == y.SeeCard
}

// sameSeats: nil and empty encode differently (null, []).
func sameSeats(x, y []rules.Seat) bool { return (x == nil) == (y == nil) && slices.Equal(x, y) }

func sameChoice(x, y wire.ChoiceJSON) bool {
	return x.Cmd == y.Cmd && sameSeats(x.Targets, y.Targets) && x.NoTarget == y.NoTarget && x.Value == y.Value &&
		x.Pick == y.Pick && slices.Equal(x.Roles, y.Roles) && (x.Roles == nil) == (y.Roles == nil)
}

// queue adds a frame to what the connection is sent next. By day the
// frames of one change (its events, the new state, the ack) go out
// together: a write per frame would cost more than everything else. At
// night they wait for the next tick (beat.go).
func (a *Actor) queue(sub *Sub, b []byte) {
	sub.frames = append(sub.frames, b)
}

// PageSize bounds a message by day: a connection resuming a long game gets
// its history in pages of about this size, never in one huge message.
const PageSize = 32 << 10

// sendAll hands each connection its gathered frames, one message per page;
// a connection whose queue is full is dropped (it may reconnect and resume).
func (a *Actor) sendAll() {
	for sub := range a.subs {
		all := sub.frames // reused for the next frames, not shrunk by the sends
		for len(sub.frames) > 0 && !sub.dropped {
			n, size := 1, len(sub.frames[0])
			for ; n < len(sub.frames) && size+1+len(sub.frames[n]) <= PageSize; n++ {
				size += 1 + len(sub.frames[n])
			}
			// The frames are joined into one message only to wait for the
			// writer: a direct write takes them as they are.
			parts := sub.frames[:n]
			sub.frames = sub.frames[n:]
			if !sub.offerParts(parts, nil, size) {
				a.drop(sub)
			}
		}
		clear(all)
		sub.frames = all[:0]
	}
}

// put hands a message to a connection, or drops the connection when its
// queue is full.
func (a *Actor) put(sub *Sub, msg []byte) {
	if !sub.offer(msg) {
		a.drop(sub)
	}
}

func (a *Actor) drop(sub *Sub) {
	if sub.dropped {
		return
	}
	sub.dropped = true
	a.detach(sub)
	if sub.kick != nil {
		sub.kick()
	}
}

// known is the cards seat s knows of others' (nil: none). A seat's
// knowledge seldom changes: the map of its last state is shared while it
// holds (no state's map is changed once made), rather than one made for
// each state, which was a fifteenth of what the server allocated at
// 10,000 players.
func (a *Actor) known(s rules.Seat, v *rules.View) map[int]string {
	last := a.stCache[s].f.Known
	n, same := 0, true
	for x := rules.Seat(1); int(x) <= v.Players; x++ {
		if r := v.Known[x]; r != rules.NoRole && x != s {
			n++
			if c, ok := last[int(x)]; !ok || c != r.String() {
				same = false
			}
		}
	}
	switch {
	case n == 0:
		return nil
	case same && n == len(last):
		return last
	}
	m := make(map[int]string, n)
	for x := rules.Seat(1); int(x) <= v.Players; x++ {
		if r := v.Known[x]; r != rules.NoRole && x != s {
			m[int(x)] = r.String()
		}
	}
	return m
}

// state is what seat s knows and may do now, from what the table was told.
func (a *Actor) state(s rules.Seat) wire.StateFrame {
	v := a.view(s)
	// A seat the table still believes awaited after its time ran out (the
	// timeout is told at a fixed time) may no longer act.
	v.Pending = v.Pending && a.caughtUp()
	f := wire.StateFrame{Type: "state", Seat: s, Day: v.Day, Night: v.Night, Turn: v.Turn,
		Alive: a.alive(v.Alive), Sheriff: v.Sheriff, Pending: v.Pending && !a.clk.Paused,
		Paused: a.clk.Paused, Over: v.Over, Bot: a.clk.Away&(1<<uint(s)) != 0, SeeCard: a.mustSee(s)}
	if v.Step != rules.StepNone {
		f.Step = v.Step.String()
	}
	if v.Role != rules.NoRole {
		f.Role = v.Role.String()
	}
	f.Known = a.known(s, &v)
	f.Wolves, f.Lovers, f.Exposed = rules.Seats(v.Wolves), rules.Seats(v.Lovers), rules.Seats(v.Exposed)
	if v.Bride != rules.NoSeat && v.Groom != rules.NoSeat {
		f.Couple = []rules.Seat{min(v.Bride, v.Groom), max(v.Bride, v.Groom)}
	}
	if v.Over {
		f.Winner = v.Winner.String()
	}
	repick := s > 0 && a.mayRepick(s) // a person of a mixed wolf team (wolfteam.go)
	if s > 0 && !v.Over && !a.clk.Paused && (v.Pending || a.clk.Slots == nil || repick) {
		if cs := a.shown.Choices(s, nil); len(cs) > 0 {
			f.Choices = make([]wire.ChoiceJSON, len(cs))
			for i, c := range cs {
				f.Choices[i] = choiceJSON(c)
			}
		}
	}
	if a.clk.Slots != nil && !v.Over && !a.clk.Paused {
		// When the night ends is the board's: every seat is told the same
		// instant, and the moderator's calls are paced on it.
		end := a.clk.SlotEnd
		for _, sl := range a.clk.Slots[a.clk.Slot+1:] {
			end = end.Add(time.Duration(sl.Dur) * time.Millisecond)
		}
		f.NightEnd = unixMs(end)
	}
	switch {
	case v.Over || a.clk.Paused:
	case a.clk.Slots != nil && (v.Pending || repick):
		f.Deadline = unixMs(a.clk.SlotEnd)
	case a.clk.Slots != nil: // sleepers see when the night ends
		f.Deadline = f.NightEnd
	default:
		f.Deadline = unixMs(a.clk.Deadline)
	}
	if s > 0 {
		f.Channels = a.channels(&v)
	}
	if v.Night && !v.Over {
		f.Calls = a.nightCalls()
	}
	return f
}

// alive lists the seats of mask, the list of the last mask asked for
// kept (the zero actor's is right: no seat, nil): every seat's state lists
// the living, which seldom change, and the frames that share the list
// never change it.
func (a *Actor) alive(mask uint32) []rules.Seat {
	if mask != a.aliveMask {
		a.aliveMask, a.aliveList = mask, rules.Seats(mask)
	}
	return a.aliveList
}

// nightCalls are the moderator's calls of tonight. Which roles are called
// is the board's (and, with narrate_absent_roles off, the table's accepted)
// knowledge as it stood at nightfall: it is read from the game as it was
// then, once a night, never from tonight's events (a death told to the
// moderator at the end of the wolves' slot must not drop a call).
func (a *Actor) nightCalls() []wire.CallJSON {
	n := a.shown.NightNumber()
	if a.callsNight == n && a.calls != nil {
		return a.calls
	}
	ev := a.shown.Events()
	fall := len(ev)
	for fall > 0 && ev[fall-1].Kind != rules.EvNight {
		fall--
	}
	g, err := rules.Replay(a.cfg.Board, a.cfg.Seed, ev[:fall])
	if err != nil {
		panic(err) // a prefix of a log the game made
	}
	a.calls, a.callsNight = []wire.CallJSON{}, n
	for _, c := range g.Narration(n) {
		a.calls = append(a.calls, callJSON(c))
	}
	return a.calls
}

func choiceJSON(c rules.Choice) wire.ChoiceJSON {
	j := wire.ChoiceJSON{Cmd: c.Kind.String(), Targets: rules.Seats(c.Targets), NoTarget: c.NoTarget, Value: c.Value, Pick: c.Pick}
	for r := rules.Role(0); r < 64; r++ {
		if c.Roles&(1<<uint(r)) != 0 {
			j.Roles = append(j.Roles, r.String())
		}
	}
	return j
}

// Refuse answers a connection's frame that the server refused before it
// reached the game (over a rate, malformed). The answer goes out with the
// game's own frames: at night, at the next tick like everything else, so
// that when it comes tells nothing of what the seat did.
func (a *Actor) Refuse(sub *Sub, f wire.ErrorFrame) error {
	f.Type = "error"
	return a.send(func() { a.queue(sub, encode(f)) }) // sent as the actor commits
}

// Act sends a seat's command. The answer (ack or error) goes to sub.
func (a *Actor) Act(sub *Sub, id int64, c rules.Command) error {
	start := time.Now()
	err := a.send(func() { a.act(sub, id, c, start) })
	if errors.Is(err, ErrBusy) && a.hooks.Command != nil {
		a.hooks.Command("busy", 0)
	}
	return err
}

// Acting is one command of ActAll: a seat's (Sub's) command and its id.
type Acting struct {
	Sub *Sub
	ID  int64
	Cmd rules.Command
}

// ActAll sends several seats' commands at once, taken in order as Act
// takes each, and stored in one write: the AIWolf gateway hands a round's
// votes to the game together, as the reference collects them. Either all
// are queued or none (ErrBusy, ErrStopped).
func (a *Actor) ActAll(acts []Acting) error {
	start := time.Now()
	acts = slices.Clone(acts)
	err := a.send(func() {
		for _, x := range acts {
			a.act(x.Sub, x.ID, x.Cmd, start)
		}
	})
	if errors.Is(err, ErrBusy) && a.hooks.Command != nil {
		for range acts {
			a.hooks.Command("busy", 0)
		}
	}
	return err
}

func (a *Actor) act(sub *Sub, id int64, c rules.Command, start time.Time) {
	refuse := func(code, msg string) {
		a.queue(sub, encode(wire.ErrorFrame{Type: "error", ID: id, Code: code, Message: msg}))
		if a.hooks.Command != nil {
			a.hooks.Command("refused", time.Since(start))
		}
	}
	c.Seat = sub.Seat
	switch {
	case sub.Seat == rules.NoSeat:
		refuse("spectator", "spectators cannot act")
		return
	case a.clk.Paused:
		refuse("paused", "the game is paused")
		return
	case a.stalled:
		refuse("store", ErrStalled.Error())
		return
	}
	// While the table has not been told everything (at night), a seat acts
	// only in the step it was woken for; anything else gets one answer,
	// whatever the hidden state, so the answer tells nothing.
	if a.clk.Slots != nil || !a.caughtUp() {
		// A person of a wolf team with bots in it may change his pick
		// until the slot ends (wolfteam.go).
		repick := c.Kind == rules.CmdAttack && a.mayRepick(sub.Seat)
		if over, _ := a.shown.Over(); !over && !repick && (!a.caughtUp() || a.shown.Pending()&(1<<uint(sub.Seat)) == 0) {
			refuse("not_now", "you cannot act now")
			return
		}
	}
	before := len(a.live.Events())
	own, err := a.live.Resolve(c)
	if err != nil {
		code, msg := "rule", err.Error()
		var re *rules.Error
		if errors.As(err, &re) {
			code = codeNames[re.Code]
		}
		refuse(code, msg)
		return
	}
	a.record("cmd", cmdBody{Seat: c.Seat, Cmd: c.String(), ID: id})
	a.tellOwn(before, own)
	a.teamPicked(c.Seat, c, a.now())
	a.settle()
	a.acks = append(a.acks, ack{sub: sub, id: id, cmd: true, start: start})
}

var codeNames = map[rules.Code]string{rules.CodeOver: "over", rules.CodeSeat: "seat", rules.CodeDead: "dead",
	rules.CodeNotNow: "not_now", rules.CodeTarget: "target", rules.CodeRule: "rule"}

// Pause stops (or restarts) the clocks; while paused nobody may act.
func (a *Actor) Pause(on bool) error {
	return a.do(func() error {
		if over, _ := a.shown.Over(); over {
			return errors.New("the game is over")
		}
		if a.stalled {
			return ErrStalled
		}
		if a.clk.Paused == on {
			return errors.New(map[bool]string{true: "the game is already paused", false: "the game is not paused"}[on])
		}
		now := a.now()
		if on {
			a.clk.Paused, a.clk.PausedAt = true, now
			a.record("pause", nil)
		} else {
			d := now.Sub(a.clk.PausedAt)
			shift := func(t *time.Time) {
				if !t.IsZero() {
					*t = t.Add(d)
				}
			}
			shift(&a.clk.SlotEnd)
			shift(&a.clk.Deadline)
			shift(&a.botAt)
			a.clk.Paused, a.clk.PausedAt = false, time.Time{}
			a.record("resume", nil)
		}
		a.settle()
		a.commit()
		return nil
	})
}

// RedCard sends a player off (红牌), by day only: at night the table is
// told on a fixed schedule that a moderator's act must not disturb.
func (a *Actor) RedCard(s rules.Seat) error {
	return a.do(func() error {
		if a.clk.Slots != nil || a.clk.Released < len(a.live.Events()) {
			return errors.New("a red card can only be given by day")
		}
		if a.stalled {
			return ErrStalled
		}
		if err := a.live.RedCard(s); err != nil {
			return err
		}
		a.record("red", cmdBody{Seat: s, Cmd: "red_card"})
		a.settle()
		a.commit()
		return nil
	})
}

// ErrAborted is what the players of a game the host ended are told.
var ErrAborted = errors.New("the host ended this game; the room waits for a new one")

// Abort ends the game at the host's word: every connection is told, then
// closed, and the actor stops. It is public, so it is said at once, night
// or day.
func (a *Actor) Abort() error {
	err := a.do(func() error {
		if over, _ := a.shown.Over(); over {
			return errors.New("the game is over")
		}
		msg := encode(wire.ErrorFrame{Type: "error", Code: "aborted", Message: ErrAborted.Error()})
		for sub := range a.subs {
			a.put(sub, msg)
		}
		a.halt()
		return nil
	})
	if err == nil {
		<-a.done
	}
	return err
}

// Status is the public summary of a game.
type Status struct {
	Day     int
	Night   bool
	Alive   int
	Over    bool
	Winner  rules.Camp
	Paused  bool
	Players int
}

// Status reads the public summary.
func (a *Actor) Status() (Status, error) {
	return ask(a, func() Status {
		v := a.view(rules.NoSeat)
		return Status{Day: v.Day, Night: v.Night, Alive: len(rules.Seats(v.Alive)), Over: v.Over,
			Winner: v.Winner, Paused: a.clk.Paused, Players: v.Players}
	})
}
