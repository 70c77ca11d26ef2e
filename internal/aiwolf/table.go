package aiwolf

import (
	"bytes"
	"encoding/json"
	"iter"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// frame is any frame a seat's connection to the game receives (event,
// chat, state, ack, error: internal/game's frames.go), read into one
// struct: the shapes share their field names.
type frame struct {
	Type     string            `json:"type"`
	Seq      int               `json:"seq"`
	ID       int64             `json:"id"`
	Kind     string            `json:"kind"`
	Seat     rules.Seat        `json:"seat"`
	Target   rules.Seat        `json:"target"`
	Role     string            `json:"role"`
	Value    int16             `json:"value"`
	Step     string            `json:"step"`
	Mask     []rules.Seat      `json:"mask"`
	Channel  string            `json:"channel"`
	Text     string            `json:"text"`
	At       int64             `json:"at"`
	Day      int               `json:"day"`
	Night    bool              `json:"night"`
	Turn     rules.Seat        `json:"turn"`
	Alive    []rules.Seat      `json:"alive"`
	Known    map[int]string    `json:"known"`
	Wolves   []rules.Seat      `json:"wolves"`
	Pending  bool              `json:"pending"`
	Choices  []game.ChoiceJSON `json:"choices"`
	Over     bool              `json:"over"`
	Winner   string            `json:"winner"`
	Code     string            `json:"code"`
	Message  string            `json:"message"`
	Channels []string          `json:"channels"`
}

// A table's mail: frames of a seat, a request's report, a connection.
type mail struct {
	seat   *seat
	queued *game.Sub  // the game queued messages for the seat on this queue
	msg    []byte     // frames (one message of the seat's connection)
	rep    *report    // a request's outcome
	conn   *conn      // an agent (re)connected to the seat
	kick   bool       // the seat's connection to the game was dropped
	probe  *probeNote // a probe ended
	gone   *conn      // an agent's connection ended
	grace  bool       // the time an absent agent had to come back is over

	push    *heard // an utterance pushed in a group chat (groupchat.go)
	timeUp  string // a group chat's duration has passed (its phase's key)
	release bool   // the held action replies are to go to the game (holdWait)
}

// mailbox is a table's inbox: unbounded, so that nothing that feeds it
// ever waits for the conductor (a seat's game queue must keep draining).
type mailbox struct {
	mu    sync.Mutex
	items []mail
	ready chan struct{}
}

func (m *mailbox) put(x mail) {
	m.mu.Lock()
	m.items = append(m.items, x)
	m.mu.Unlock()
	select {
	case m.ready <- struct{}{}:
	default:
	}
}

func (m *mailbox) take(buf []mail) []mail {
	m.mu.Lock()
	buf = append(buf[:0], m.items...)
	clear(m.items)
	m.items = m.items[:0]
	m.mu.Unlock()
	return buf
}

// table conducts one game's agent seats. Its goroutine (run) owns every
// field but the seats' send queues.
type table struct {
	g        *Gateway
	scratch  frame // the frame handle decodes into: its fields are copied out
	room     string
	born     time.Time // when the gateway took the game on
	gameID   string
	a        *game.Actor
	board    rules.Board
	n        int
	reg      Regulation
	setting  []byte // reg.Setting encoded: the same in every packet that carries it
	seed     uint64
	names    nameList     // in-game names by seat; nil: Agent[01]… (names.go)
	profiles []string     // profile texts by seat, told with INITIALIZE; nil: none
	byName   []rules.Seat // the seats in their names' order, as a packet's maps list them (byNames)
	pairs    []pair       // a packet's status_map and role_map while it is built (packet)
	seats    []*seat      // by seat number; nil: not an agent's seat
	box      mailbox
	quit     chan struct{}
	ended    chan struct{}
	rng      *rand.Rand
	nextID   int64
	acts     map[int64]*seat // commands sent, by id: a refusal falls back to the bot
	// held: a matched game's action replies not yet handed to the game,
	// while another seat's action request awaits its reply (hold).
	held     []game.Acting
	heldStop func() bool // the backstop that hands them over (holdWait)
	// voteDay, voteAlive: the day of the vote held, and who votes in it
	// (nil: no vote is held).
	voteDay   int
	voteAlive []rules.Seat

	talks    []Talk // today's talk, Skips and Overs included
	talkDay  int
	whispers []Talk // tonight's (or day 0's) whisper
	whispDay int
	talk     *phase // today's talk rounds
	whisper  *phase // tonight's whisper rounds
	over     bool
	notes    []logNote // request log lines not yet stored
	matched  bool      // a game the gateway matched: its actor may stop at the end
	joining  bool      // start joins the seats: requests wait (asksHeld)
	day0Done bool      // day 0's talk is over
	inFlow   bool      // flow is running: seats to run it for wait in again
	again    []*seat
}

// seat is one agent's seat. The table goroutine owns everything but mu's.
// The table writes the seat's packets itself (sendQueued): a seat has no
// goroutine.
type seat struct {
	t    *table
	no   rules.Seat
	name string // the agent's own name, its reply to NAME
	sub  *game.Sub
	out  *game.Outbox // sub's messages, taken as the game tells of them
	// queuedTold is set when the game has queued a message for sub and
	// the table has not been sent word of it since: one mail however many.
	queuedTold *atomic.Bool

	mu       sync.Mutex
	c        *conn
	awaiting *awaited // the request whose reply is awaited (await); nil once answered
	probeRun bool     // a request timed out and its NAME probe runs (timedOut)

	queue []*outgoing // packets not yet sent (sendQueued)

	// what the seat knows, from its frames
	st       frame
	evSeq    int
	chatSeq  int
	stepSeq  int       // seq of the last step, day or night event: a step's instance
	days     []results // by AIWolf day: what the day and its night told the seat
	evDay    int       // the AIWolf day the events being read belong to
	nightNo  int       // the last night begun (wolfden's count: night k ends AIWolf day k-1)
	dayDue   int       // a day began that the agent has not been told of (-1: none)
	told     int       // the last day told with DAILY_INITIALIZE (-1: none)
	finished int       // the last day told with DAILY_FINISH (-1: none)
	inited   bool
	done     bool // FINISH sent
	closeDue bool // FINISH sent, the connection not yet closed (letGo)
	asked    string
	talkSeen int
	whisSeen int
	readyFor string // the talk phase this seat said ready after

	gen       int  // counts the agent's connections: a report of an older one is stale
	waitFor   bool // its agent has not come yet: the bot waits for it a while
	away      bool // the actor was told the bot plays the seat
	probing   bool // a request timed out: the NAME probe runs
	acting    bool // an action request (VOTE, DIVINE, GUARD, ATTACK) awaits its reply
	defaulted bool // a reply was refused: the bot plays this step
}

// results are what an AIWolf day and its night told the seat (the
// reference's GameStatus of the day): every packet of the next day tells
// them, and FINISH tells the last day's.
type results struct {
	executed, attacked rules.Seat
	divine, medium     *judge
	votes, attackVotes []ballot
}

// judge is a divination's or a medium's result.
type judge struct {
	day        int
	by, target rules.Seat
	wolf       bool
}

// ballot is one vote, or one wolf's attack vote.
type ballot struct {
	day           int
	voter, target rules.Seat
}

// resultsOf is AIWolf day d's results; nil before day 0.
func (s *seat) resultsOf(d int) *results {
	if d < 0 {
		return nil
	}
	for len(s.days) <= d {
		s.days = append(s.days, results{})
	}
	return &s.days[d]
}

// outgoing is a packet waiting to be sent to an agent.
type outgoing struct {
	req   string
	day   int
	key   string // a request's instance
	gen   int    // the seat's connection it was made for (seat.gen)
	body  []byte
	close bool // after FINISH: end the connection

	listen, shut bool // a group chat's start (then its utterances are read), its end
}

// report is a request's outcome: its reply, its timeout, or its
// connection's end (seat.answer).
type report struct {
	out     *outgoing
	reply   string
	err     error
	sent    time.Time
	latency time.Duration
}

type probeNote struct {
	c  *conn
	ok bool
}

func newTable(g *Gateway, gm Game, gameID string, agents map[rules.Seat]string) *table {
	t := &table{g: g, room: gm.Room, born: time.Now(), gameID: gameID, a: gm.Actor, board: gm.Board, n: gm.Board.Players(),
		quit: make(chan struct{}), ended: make(chan struct{}), acts: map[int64]*seat{},
		rng: rand.New(rand.NewPCG(gm.Seed, 0xa1)), talkDay: -1, whispDay: -1, seed: gm.Seed}
	t.box.ready = make(chan struct{}, 1)
	t.reg = regulation(&t.board, g.opts.ActionTimeout, g.opts.ResponseTimeout)
	t.setting, _ = json.Marshal(t.reg.Setting)
	t.seats = make([]*seat, t.n+1)
	for s, name := range agents {
		t.seats[s] = &seat{t: t, no: s, name: name, dayDue: -1, told: -1, finished: -1}
	}
	return t
}

// start joins every agent seat to the game, with its agent's connection
// when it has one, and runs the conductor.
func (t *table) start(conns map[rules.Seat]*conn) error {
	// Every seat has its connection before the first joins: a talk that
	// begins then waits for a seat that is not joined yet, rather than
	// pass over it as one without an agent.
	for _, s := range t.seats {
		if s == nil {
			continue
		}
		if c := conns[s.no]; c != nil {
			s.mu.Lock()
			s.c = c
			if s.name == "" || s.name == "agent" {
				s.name = c.name
			}
			s.mu.Unlock()
		} else {
			// Until its agent connects, the bot plays the seat, once the
			// agent has had the time to come (or, after a restart, back).
			s.waitFor = true
		}
	}
	var buf []mail
	t.joining = true
	for _, s := range t.seats {
		if s == nil {
			continue
		}
		if f := testHookJoin.Load(); f != nil {
			(*f)(t, s.no)
		}
		if err := t.join(s); err != nil {
			return err
		}
		if s.c == nil {
			time.AfterFunc(t.g.opts.ResponseTimeout, func() { t.box.put(mail{seat: s, grace: true}) })
		} else {
			t.watch(s, s.c)
		}
		// The seat's first frames are read, and its INITIALIZE written,
		// before the next seat joins: the agents that came first, whose
		// wait is the longest, do not also wait for every other seat's
		// join (the reference too writes each INITIALIZE in turn). The
		// table's goroutine does not run yet: this one stands in for it.
		buf = t.turn(buf)
	}
	t.joining = false
	t.flushSeats()
	go t.run(buf)
	return nil
}

// testHookJoin, set by a test, is called before a starting table joins
// a seat to the game.
var testHookJoin atomic.Pointer[func(*table, rules.Seat)]

// join attaches the seat to the game from the last frames it had.
func (t *table) join(s *seat) error {
	// A lazy queue: a channel of 1,024 slots per seat and game was the
	// largest allocation of a matched game, and a seat has a frame or two
	// waiting. The bound is the same.
	//
	// The game tells the table of what it queued (a mail), and the
	// table takes it between its other work: no goroutine of its own per
	// seat, whose wake-up and channels cost each frame twice over.
	told := new(atomic.Bool)
	var sub *game.Sub
	sub = game.NewNotifySub(s.no, 1024, func() { t.box.put(mail{seat: s, kick: true}) }, func() {
		if told.CompareAndSwap(false, true) {
			t.box.put(mail{seat: s, queued: sub})
		}
	})
	if err := t.a.Join(sub, s.evSeq, s.chatSeq); err != nil {
		return err
	}
	// Word of what Join queued is read by this goroutine, after this.
	s.sub, s.out, s.queuedTold = sub, game.NewOutbox(sub), told
	return nil
}

// take handles what the game has queued for the seat, one message at a
// time, as it was queued. A queue the seat has left since (a new one
// resends what it held) is not read.
func (t *table) take(s *seat, from *game.Sub) {
	if from != s.sub {
		return
	}
	s.queuedTold.Store(false) // what is queued after this is told again
	for m, ok := s.out.Pop(); ok && from == s.sub; m, ok = s.out.Pop() {
		t.handle(&mail{seat: s, msg: m})
	}
}

func (t *table) run(buf []mail) {
	defer close(t.ended)
	for {
		select {
		case <-t.box.ready:
		case <-t.quit:
			t.stop()
			return
		case <-t.a.Done():
			t.stop()
			return
		}
		buf = t.turn(buf)
		if t.finished() {
			t.stop()
			if t.matched {
				t.g.host.Finished(t.room)
			}
			return
		}
		t.flushNotes()
	}
}

// turn handles the mail at hand and sends what it queued. buf is the
// turn's scratch, returned for the next.
func (t *table) turn(buf []mail) []mail {
	buf = t.box.take(buf)
	for i := range buf {
		if m := &buf[i]; m.queued != nil {
			t.take(m.seat, m.queued)
		} else {
			t.handle(m)
		}
	}
	t.release(false)
	t.letGo(false)
	t.flushSeats()
	return buf
}

// letGo closes the connections of the agents told FINISH once the
// request log, FINISH's line with it, is stored: an agent let go may
// read its game's log at once. It waits for every connected agent to be
// told, so that the end is one write, unless the table stops (now).
func (t *table) letGo(now bool) {
	due := false
	for _, s := range t.seats {
		if s == nil {
			continue
		}
		if !now && !s.done && s.currentConn() != nil {
			return
		}
		due = due || s.closeDue
	}
	if !due {
		return
	}
	t.flushNotesWait()
	for _, s := range t.seats {
		if s != nil && s.closeDue {
			s.closeDue = false
			s.enqueue(&outgoing{close: true})
		}
	}
}

// finished: every agent was told the end, and what was queued for it
// went out (FINISH may wait behind a request's reply, or its probe).
func (t *table) finished() bool {
	if !t.over {
		return false
	}
	for _, s := range t.seats {
		if s != nil && (!s.done || len(s.queue) > 0) {
			return false
		}
	}
	return true
}

func (t *table) stop() {
	t.release(true)
	t.letGo(true)
	t.flushSeats()
	t.flushNotesWait()
	for _, s := range t.seats {
		if s == nil {
			continue
		}
		t.a.Leave(s.sub)
		if c := s.currentConn(); c != nil && !s.done {
			// the server stops: the game resumes with it, and the agent
			// may come back by name
			c.closeWith(websocket.StatusGoingAway, "the server is shutting down; reconnect with the same name")
		}
	}
	t.g.forget(t)
}

func (t *table) handle(m *mail) {
	if m.timeUp != "" {
		t.timeUp(m.timeUp)
		return
	}
	if m.release {
		t.release(true)
		return
	}
	s := m.seat
	switch {
	case m.push != nil:
		t.pushed(s, m.push)
	case m.msg != nil:
		for line := range lines(m.msg) {
			if decodeFrame(line, &t.scratch) != nil {
				continue
			}
			t.frame(s, &t.scratch)
		}
		t.flowOnce(s)
	case m.rep != nil:
		t.reported(s, m.rep)
	case m.conn != nil:
		t.attach(s, m.conn)
	case m.probe != nil:
		s.probed()
		if m.probe.c == s.currentConn() {
			s.probing = false
			if !m.probe.ok {
				s.dropConn(m.probe.c)
			}
		}
		t.flow(s)
	case m.kick:
		if t.join(s) != nil {
			return
		}
	case m.gone != nil:
		if a := s.waitingOn(); a != nil && a.c == m.gone {
			s.answer(a, "", errGone) // unless the reader gave the reply before it ended
		}
		if m.gone == s.currentConn() && !s.done {
			t.g.log.Info("aiwolf: an agent's connection ended; the bot plays its seat until it reconnects", "room", t.room, "agent", t.name(s.no), "name", s.name)
			s.dropConn(m.gone)
			s.probing = false
			t.purge(s)
			s.gen++ // what the dead connection still reports is stale
			t.unwait(s)
		}
	case m.grace:
		s.waitFor = false
	}
	t.resume(s)
	t.groupResume()
	t.reconcile(s)
}

// resume goes on with today's talk rounds when they stopped at a seat
// that could not be asked yet (its day not told) and nobody's reply is
// awaited. The seat's own flow only comes back to the rounds while its
// step is pending; once the bot has readied it (it was away at dawn), or
// its agent left, nothing else would, and the table stalled until the
// game's backstop timer, minutes later.
func (t *table) resume(s *seat) {
	p, st := t.talk, &s.st
	if p == nil || p.done || p.waiting != 0 || p.day != st.Day || st.Night && p.key != day0Key {
		return
	}
	t.advance(p)
}

// lines yields b's lines, split at "\n" (none after a last "\n"),
// without a slice of them to allocate.
func lines(b []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for len(b) > 0 {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				yield(b)
				return
			}
			if !yield(b[:i]) {
				return
			}
			b = b[i+1:]
		}
	}
}

// frame reads one frame of seat s's stream.
func (t *table) frame(s *seat, f *frame) {
	switch f.Type {
	case "event":
		s.evSeq = f.Seq
		t.event(s, f)
	case "chat":
		s.chatSeq = f.Seq
		t.chat(s, f)
	case "state":
		s.st = *f
	case "error":
		if owner, ok := t.acts[f.ID]; ok && owner == s {
			delete(t.acts, f.ID)
			t.g.log.Info("aiwolf: a reply was refused; the bot plays the step", "room", t.room, "agent", t.name(s.no), "code", f.Code, "err", f.Message)
			t.noteRefusal(s, f.Code+": "+f.Message)
			s.defaulted = true
		}
	case "ack":
		delete(t.acts, f.ID)
	}
}

// event takes what an event tells the agent.
func (t *table) event(s *seat, f *frame) {
	r := s.resultsOf(s.evDay)
	switch f.Kind {
	case "step":
		s.stepSeq = f.Seq
	case "night":
		s.stepSeq = f.Seq
		s.nightNo = int(f.Value)
		s.evDay = max(s.nightNo-1, 0)
	case "day":
		s.stepSeq = f.Seq
		s.dayDue = int(f.Value)
		s.evDay = int(f.Value)
	case "exile":
		r.executed = f.Seat
	case "dawn":
		// The dawn follows the new day's event: its dead are the night's.
		if len(f.Mask) > 0 && s.nightNo > 0 {
			s.resultsOf(s.nightNo - 1).attacked = f.Mask[0]
		}
	case "check":
		if f.Seat == s.no {
			r.divine = &judge{day: s.evDay, by: s.no, target: f.Target, wolf: species(f) == "WEREWOLF"}
		}
	case "grave":
		if f.Seat == s.no && f.Target != 0 {
			r.medium = &judge{day: s.evDay, by: s.no, target: f.Target, wolf: species(f) == "WEREWOLF"}
		}
	case "ballot":
		// A voter sees his ballot at once and again when the vote closes;
		// a later vote of the day (a second round) replaces it.
		if f.Target != 0 {
			r.votes = putBallot(r.votes, ballot{day: s.evDay, voter: f.Seat, target: f.Target})
		}
	case "attack_pick":
		if f.Target != 0 {
			r.attackVotes = putBallot(r.attackVotes, ballot{day: s.evDay, voter: f.Seat, target: f.Target})
		}
	}
}

// putBallot sets a voter's vote in the list, kept in seat order (the
// reference collects the votes agent by agent; wolfden's come as they
// are cast).
func putBallot(list []ballot, v ballot) []ballot {
	i := 0
	for i < len(list) && list[i].voter < v.voter {
		i++
	}
	if i < len(list) && list[i].voter == v.voter {
		list[i] = v
		return list
	}
	return slices.Insert(list, i, v)
}

// species reads a check: a role (seer_sees=role) or a result.
func species(f *frame) string {
	if f.Role != "" {
		if r, ok := roleByString[f.Role]; ok && r.Camp() == rules.Wolves && r != rules.Possessed {
			return "WEREWOLF"
		}
		return "HUMAN"
	}
	if f.Value == rules.ResultWolf || f.Value == rules.ResultNotVillage {
		return "WEREWOLF"
	}
	return "HUMAN"
}

// chat takes a message of someone who is not an agent here (a person, a
// bot): the agents' own are in the talk already. One agent seat's stream
// is read for them: the lowest that reads the channel.
func (t *table) chat(s *seat, f *frame) {
	if f.Seat > 0 && int(f.Seat) <= t.n && t.seats[f.Seat] != nil {
		return
	}
	switch f.Channel {
	case game.ChanDay:
		if t.firstAgent(func(x *seat) bool { return true }) != s {
			return
		}
		t.ensureDay(s.st.Day)
		t.talks = append(t.talks, Talk{Idx: len(t.talks), Day: t.talkDay, Turn: t.talk.turn(), Agent: t.name(f.Seat), Text: f.Text, Time: f.At})
	case game.ChanWolves:
		if t.firstAgent(func(x *seat) bool { return x.wolf() && x.alive() }) != s {
			return
		}
		t.ensureNight(s.st.Day)
		t.whispers = append(t.whispers, Talk{Idx: len(t.whispers), Day: t.whispDay, Turn: t.whisper.turn(), Agent: t.name(f.Seat), Text: f.Text, Time: f.At})
	}
}

func (t *table) firstAgent(ok func(*seat) bool) *seat {
	for _, x := range t.seats {
		if x != nil && ok(x) {
			return x
		}
	}
	return nil
}

// ensureDay starts day d's talk list.
func (t *table) ensureDay(d int) {
	if t.talkDay != d {
		t.talkDay, t.talks, t.talk = d, nil, nil
		for _, x := range t.seats {
			if x != nil {
				x.talkSeen = 0
			}
		}
	}
}

// ensureNight starts the whisper list of the night after day d (day 0's
// whisper is the first night's in wolfden).
func (t *table) ensureNight(d int) {
	if t.whispDay != d {
		t.whispDay, t.whispers, t.whisper = d, nil, nil
		for _, x := range t.seats {
			if x != nil {
				x.whisSeen = 0
			}
		}
	}
}

func (s *seat) alive() bool { return has(s.st.Alive, s.no) }
func (s *seat) wolf() bool  { return has(s.st.Wolves, s.no) }

func has(list []rules.Seat, x rules.Seat) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// free reports whether the seat is its agent's, named name, and waits
// for it (no connection, or a dead one). The gateway asks it.
func (s *seat) free(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name == name && (s.c == nil || s.c.gone()) && !s.done
}

// taken reports whether the seat is its agent's, named name, with a
// connection that seems alive.
func (s *seat) taken(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name == name && s.c != nil && !s.c.gone() && !s.done
}

func (s *seat) currentConn() *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c
}

// dropConn forgets a connection that failed.
func (s *seat) dropConn(c *conn) {
	s.mu.Lock()
	if s.c == c {
		s.c = nil
	}
	s.mu.Unlock()
	c.close("dropped")
}

// reconcile tells the actor whether the bot plays the seat: while its
// agent is not connected, is being probed, or had a reply refused in the
// step at hand. It is given back between steps, never in the middle of
// one the bot may be playing.
func (t *table) reconcile(s *seat) {
	c := s.currentConn()
	if s.defaulted && !s.st.Pending {
		s.defaulted = false
	}
	want := (c == nil && !s.waitFor) || s.probing || s.defaulted
	if s.done || t.over {
		return
	}
	switch {
	case want && !s.away:
		t.release(true) // the replies already in are the agents', not the bot's
		if t.a.SetAway(s.no, true) == nil {
			s.away = true
		}
	case !want && s.away && !s.st.Pending:
		if t.a.SetAway(s.no, false) == nil {
			s.away = false
		}
	}
}

// attach gives the seat a new connection: an agent that (re)connected
// by name. It is told the game again (INITIALIZE, and today's
// DAILY_INITIALIZE) and goes on from there; its talk history starts
// again from today's first utterance.
func (t *table) attach(s *seat, c *conn) {
	s.mu.Lock()
	old := s.c
	s.c = c
	if s.name == "" || s.name == "agent" {
		s.name = c.name
	}
	// Packets queued for the old connection are not for this one, and
	// what the old one answers, or fails, no longer counts (gen): a talk
	// round that waited for this agent asks it again, and so do its
	// actions (asked, below).
	s.mu.Unlock()
	s.queue = s.queue[:0]
	s.gen++
	s.acting = false
	t.unhold(s) // asked again on the new connection (below)
	defer t.unwait(s)
	if old != nil && old != c {
		old.close("replaced")
	}
	t.watch(s, c)
	s.probing, s.asked, s.waitFor = false, "", false
	s.inited, s.told, s.finished, s.talkSeen, s.whisSeen = false, -1, -1, 0, 0
	if s.st.Role != "" && !s.st.Night {
		s.dayDue = s.st.Day
	}
	t.flow(s)
}

// unwait takes back a talk or whisper turn the seat's agent will not
// answer on its connection (it is gone, or replaced): the round asks it
// again if it can be asked, else goes on without it.
func (t *table) unwait(s *seat) {
	for _, p := range []*phase{t.talk, t.whisper} {
		if p != nil && !p.done && p.waiting == s.no {
			p.waiting = 0
			p.budget[s.no].count++ // asked again: the question is not spent
			p.pos--
			t.advance(p)
		}
	}
}

// watch tells the table when the connection ends (a close, a ping not
// answered): the bot takes the seat at once.
func (t *table) watch(s *seat, c *conn) {
	c.afterGone(func() {
		if !t.stopped() {
			t.box.put(mail{seat: s, gone: c})
		}
	})
}

// enqueue queues a packet for the seat: the table sends it once it has
// handled the mail at hand (flushSeats), so that a notice and the packet
// queued behind it go out in one write.
func (s *seat) enqueue(o *outgoing) {
	o.gen = s.gen
	if o.req != "" && !needsReply(o.req) { // the request log has every packet
		s.t.note(&logNote{Seat: s.no, Agent: s.t.name(s.no), Name: s.name, Request: o.req, Day: o.day, Sent: time.Now().UnixMilli()})
	}
	s.queue = append(s.queue, o)
}

// flushSeats sends what is queued for the seats.
func (t *table) flushSeats() {
	for _, s := range t.seats {
		if s != nil && len(s.queue) > 0 {
			s.sendQueued()
		}
	}
}

// awaited is a request sent and not yet answered.
type awaited struct {
	rep *report
	c   *conn
	tm  *time.Timer // its time to answer (timedOut)
}

// pending reports whether the seat's last request still awaits its
// reply, or the probe after its timeout runs: what is queued behind it
// waits.
func (s *seat) pending() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.awaiting != nil || s.probeRun
}

// waitingOn is the request whose reply is awaited, if any.
func (s *seat) waitingOn() *awaited {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.awaiting
}

// await sends a request on c. Its reply (which the connection's reader
// hands to the table itself), its timeout or the connection's end is
// reported once (answer).
//
// The table sends and the reader answers: a request costs no goroutine's
// wait besides theirs (a sender goroutine per seat made a request two
// more switches, and each waited its turn behind every other goroutine
// that was ready to run).
func (s *seat) await(c *conn, rep *report) {
	a := &awaited{rep: rep, c: c}
	a.tm = time.AfterFunc(s.t.g.opts.ActionTimeout+s.t.g.opts.Acceptable, func() { s.timedOut(a) })
	c.asking.Add(1)
	c.drain(nil)
	s.mu.Lock()
	s.awaiting = a
	s.mu.Unlock()
	take := func(line string) bool { return s.answer(a, line, nil) }
	c.expect.Store(&take)
	if c.send(rep.out.body) != nil {
		c.expect.CompareAndSwap(&take, nil)
		s.answer(a, "", errGone)
	}
}

// answer reports a's outcome to the table, unless it was reported: the
// reader's reply, the timeout and the connection's end race, and the
// first wins. It reports whether this call did.
func (s *seat) answer(a *awaited, reply string, err error) bool {
	s.mu.Lock()
	if s.awaiting != a {
		s.mu.Unlock()
		return false
	}
	s.awaiting = nil
	if err == errTimeout {
		s.probeRun = true
	}
	s.mu.Unlock()
	a.tm.Stop()
	a.c.asking.Add(-1)
	a.rep.reply, a.rep.err, a.rep.latency = reply, err, time.Since(a.rep.sent)
	s.t.box.put(mail{seat: s, rep: a.rep})
	return true
}

// timedOut ends request a when its time runs out: the frames the agent
// sends from then on go to the NAME probe, which throws away whatever
// comes before the name. Nothing more is sent to the seat until the
// probe ends (pending). It runs on the timer's goroutine.
func (s *seat) timedOut(a *awaited) {
	if !s.answer(a, "", errTimeout) {
		return
	}
	a.c.expect.Store(nil)
	ok := !s.t.stopped() && a.c.probe(s.t.g.opts.ResponseTimeout)
	s.t.box.put(mail{seat: s, probe: &probeNote{c: a.c, ok: ok}})
}

// probed: the probe after a timeout ended; what waited for it goes out.
func (s *seat) probed() {
	s.mu.Lock()
	s.probeRun = false
	s.mu.Unlock()
}

// sendQueued sends what is queued, up to the first request: what comes
// after it waits for its reply.
func (s *seat) sendQueued() {
	t := s.t
	for len(s.queue) > 0 && !s.pending() && !t.asksHeld(s.queue[0]) {
		o := s.queue[0]
		s.queue = s.queue[1:]
		c := s.currentConn()
		// A notice with the next packet already queued for the same
		// connection goes out with it, in one write; FINISH with the
		// close frame behind it.
		held := len(s.queue) > 0 && !t.asksHeld(s.queue[0])
		if o.close {
			if c != nil {
				// The close handshake waits for the agent's answer: not
				// the table.
				go c.closeWith(websocket.StatusNormalClosure, "the game is over")
			}
			continue
		}
		if !needsReply(o.req) {
			if c == nil {
				continue
			}
			if o.shut {
				c.hear.Store(nil) // what it sends after the end answers nothing
			}
			if o.listen {
				s.listen(c, o)
			}
			_ = c.sendHeld(o.body, held)
			continue
		}
		rep := &report{out: o, sent: time.Now()}
		if c == nil {
			rep.err = errGone
			t.box.put(mail{seat: s, rep: rep})
			continue
		}
		s.await(c, rep)
	}
}

// asksHeld: o is a request, and the table's start holds requests until
// every seat has joined. The agents that joined first are told their
// role and day at once, as the reference tells everyone before it asks
// anyone; their replies would otherwise come in while the later seats
// are still being joined, and be handled before them.
func (t *table) asksHeld(o *outgoing) bool {
	return t.joining && needsReply(o.req)
}

func (t *table) stopped() bool {
	select {
	case <-t.ended:
		return true
	default:
		return false
	}
}
