package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/internal/narrate"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// QueueSize is the number of messages waiting for one of the bridge's
// streams, as for a WebSocket connection.
const QueueSize = 1024

// A table is one group's game: its room, its host, its seats' users, and
// a stream per seat (the seat's private frames, sent to its user) and one
// for the group (the spectators' frames). Its lock guards all of it; the
// streams' readers and the bridge's handling of lines take it.
type table struct {
	b        *Bridge
	mu       sync.Mutex
	room     string
	group    string
	lang     string
	opened   time.Time
	preset   string
	host     string // the 法官's user id
	hostName string
	hostTok  string
	n        int // players, once known

	actor   *game.Actor
	started bool
	over    bool
	spec    *stream                 // the group's
	seats   map[rules.Seat]*stream  // the players'
	byUser  map[string]rules.Seat   // user → seat
	pending map[rules.Seat]*pending // the seats taken before the start
	night   nightPace
	tokens  map[rules.Seat]string // the seats' credentials (for /link), stored with their bindings
	gen     int                   // bumped at each detach: a reader of an older generation stops
}

// pending is a seat of a room not started: who holds it.
type pending struct {
	user, name, token string
}

// A stream is one Sub of the game the bridge reads: a seat's or the
// spectators' (seat 0).
type stream struct {
	seat       rules.Seat
	user, name string
	sub        *game.Sub
	st         wire.StateFrame
	have       bool           // st is set
	lines      []line         // told, not yet sent
	events     int            // the last event number sent
	chats      int            // the last chat number sent
	evSeq      int            // the last event number received
	chatSeq    int            // the last chat number received
	prompt     string         // digest of the last prompt sent
	tick       int            // the last night tick read
	away       bool           // the host handed the seat to a bot
	ids        int64          // requests sent
	asked      map[int64]bool // requests whose answer the user waits for: true for his talk, acked silently
	urgentFrom int            // the lines before this one hold talk to send now, even at night
	roleTold   bool           // his card was sent
	done       bool           // the stream told the game's end
}

// A line is one rendered frame and the stream numbers it brings the
// stream to once sent.
type line struct {
	text         string
	events, chat int
	urgent       bool // a night's reminder: sent at once, like his channel's talk
}

func newTable(b *Bridge, room, group, lang string) *table {
	return &table{b: b, room: room, group: group, lang: lang, opened: time.Now(),
		seats: map[rules.Seat]*stream{}, byUser: map[string]rules.Seat{}, pending: map[rules.Seat]*pending{}}
}

// restoreTable rebuilds a table from its stored bindings.
func restoreTable(b *Bridge, bs []store.ChatBinding) *table {
	var t *table
	for _, x := range bs {
		if x.Seat == 0 {
			t = newTable(b, x.Room, x.Group, x.Lang)
			t.tokens = map[rules.Seat]string{}
			t.host, t.hostName, t.hostTok, t.preset = x.User, x.Name, x.Token, x.Prompt
			t.spec = &stream{events: x.Events, chats: x.Chats}
		}
	}
	if t == nil {
		return nil
	}
	for _, x := range bs {
		if x.Seat == 0 {
			continue
		}
		s := rules.Seat(x.Seat)
		if x.User == "" { // a seat given back
			continue
		}
		t.byUser[x.User] = s
		t.seats[s] = &stream{seat: s, user: x.User, name: x.Name, events: x.Events, chats: x.Chats,
			prompt: x.Prompt, away: x.Away, roleTold: x.Events > 0}
		t.tokens[s] = x.Token
	}
	return t
}

// ended reports whether the table's game is over (its group is free,
// even before the bridge forgets it).
func (t *table) ended() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.over
}

func (t *table) hasUser(u string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.byUser[u]
	if !ok {
		_, ok = t.pendingOf(u)
	}
	return ok
}

func (t *table) narrator() narrate.Narrator { return narrate.Narrator{Lang: t.lang} }

// text is a catalogue line in the table's language.
func (t *table) text(key string, args map[string]string) string { return i18n.Text(t.lang, key, args) }

// group1 sends the group one line.
func (t *table) group1(ctx context.Context, key string, args map[string]string) {
	t.b.send(ctx, Target{Group: t.group}, Message{Text: t.text(key, args)})
}

// dm sends a user one line.
func (t *table) dm(ctx context.Context, user, key string, args map[string]string) {
	t.b.send(ctx, Target{User: user}, Message{Text: t.text(key, args)})
}

func (t *table) players() int {
	if t.n == 0 {
		if p, err := rules.LookupPreset(t.preset); err == nil {
			if b, err := p.Board(0); err == nil {
				t.n = b.Players()
			}
		}
	}
	return t.n
}

// save stores seat's binding (0: the group's).
func (t *table) save(ctx context.Context, seat rules.Seat) error {
	x := store.ChatBinding{Platform: t.b.p.Name(), Room: t.room, Seat: int(seat), Group: t.group}
	if seat == 0 {
		x.User, x.Name, x.Lang, x.Token, x.Prompt = t.host, t.hostName, t.lang, t.hostTok, t.preset
		if t.spec != nil {
			x.Events, x.Chats = t.spec.events, t.spec.chats
		}
	} else if s := t.seats[seat]; s != nil {
		x.User, x.Name, x.Events, x.Chats, x.Prompt, x.Away = s.user, s.name, s.events, s.chats, s.prompt, s.away
		x.Token = t.tokens[seat]
	} else if p := t.pending[seat]; p != nil {
		x.User, x.Name, x.Token = p.user, p.name, p.token
	}
	err := t.b.st.PutChatBinding(ctx, x)
	if err != nil {
		t.b.log.Warn("chat: a binding was not stored", "room", t.room, "seat", seat, "err", err)
	}
	return err
}

// resume takes up a stored table: a started game's streams, from where
// they were sent.
func (t *table) resume(ctx context.Context) error {
	a, err := t.b.rooms.Actor(ctx, t.room)
	if err != nil {
		// Not started: the seats taken are the stored ones.
		for s, x := range t.seats {
			t.pending[s] = &pending{user: x.user, name: x.name, token: t.tokens[s]}
		}
		t.seats = map[rules.Seat]*stream{}
		return nil
	}
	t.actor, t.started = a, true
	return t.attach()
}

// attach joins the game on every stream, each from what it was sent.
func (t *table) attach() error {
	t.gen++
	if t.spec == nil {
		t.spec = &stream{}
	}
	all := []*stream{t.spec}
	for _, s := range t.seats {
		if !s.away {
			all = append(all, s)
		}
	}
	t.watch(t.actor) // first: a game that stops before it is joined ends too
	for _, s := range all {
		if err := t.join(s); err != nil {
			return err
		}
	}
	return nil
}

// watch waits for the game's actor to stop. The bridge stops before the
// server's games do (Server.Stop), so an actor that stops while the bridge
// runs ended its game for good without an end (the host aborted it, it
// failed): the group is told, and may open another.
func (t *table) watch(a *game.Actor) {
	ctx := t.b.ctx
	t.b.wg.Add(1)
	go func() {
		defer t.b.wg.Done()
		select {
		case <-a.Done():
		case <-ctx.Done():
			return
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.over || t.actor != a || ctx.Err() != nil {
			return
		}
		t.over = true
		t.group1(ctx, "chat.aborted", nil)
		t.detach()
		if err := t.b.st.DeleteChatRoom(ctx, t.b.p.Name(), t.room); err != nil {
			t.b.log.Warn("chat: an ended game's bindings", "room", t.room, "err", err)
		}
		go t.b.forget(t)
	}()
}

// join attaches one stream from what it was sent and starts its reader.
func (t *table) join(s *stream) error {
	gen := t.gen
	s.lines, s.evSeq, s.chatSeq, s.urgentFrom, s.done = nil, s.events, s.chats, 0, false
	var sub *game.Sub
	sub = game.NewSub(s.seat, QueueSize, func() {
		// Too slow to read (the platform stalled): join again from what
		// was sent, as a web client reconnects.
		go func() {
			for wait := 100 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
				t.mu.Lock()
				if t.gen != gen || s.sub != sub || t.over {
					t.mu.Unlock()
					return
				}
				err := t.join(s)
				t.mu.Unlock()
				if err == nil {
					return
				}
				select { // the game is busy or stalled: again a little later
				case <-time.After(wait):
				case <-t.b.ctx.Done():
					return
				}
			}
		}()
	})
	if err := t.actor.Join(sub, s.events, s.chats); err != nil {
		return err
	}
	s.sub = sub
	ctx := t.b.ctx
	t.b.wg.Add(1)
	go func() {
		defer t.b.wg.Done()
		for {
			select {
			case msg, ok := <-sub.Out:
				if !ok {
					return
				}
				t.mu.Lock()
				if t.gen != gen || s.sub != sub {
					t.mu.Unlock()
					return
				}
				t.take(ctx, s, msg)
				done := s.done
				t.mu.Unlock()
				game.Recycle(msg)
				if done {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return nil
}

// detach leaves the game on every stream.
func (t *table) detach() {
	t.gen++
	if t.actor == nil {
		return
	}
	for _, s := range t.all() {
		if s.sub != nil {
			t.actor.Leave(s.sub)
			s.sub = nil
		}
	}
}

func (t *table) all() []*stream {
	out := []*stream{}
	if t.spec != nil {
		out = append(out, t.spec)
	}
	for s := rules.Seat(1); s <= rules.MaxSeats; s++ {
		if x := t.seats[s]; x != nil {
			out = append(out, x)
		}
	}
	return out
}

// head is what take reads of every frame first.
type head struct {
	Type string `json:"type"`
	N    int    `json:"n"`
	ID   int64  `json:"id"`
}

// take reads one message of a stream: its frames, then what they make
// the bridge send.
func (t *table) take(ctx context.Context, s *stream, msg []byte) {
	for _, f := range bytes.Split(msg, []byte{'\n'}) {
		var h head
		if len(f) == 0 || json.Unmarshal(f, &h) != nil {
			continue
		}
		switch h.Type {
		case "tick":
			if h.N >= 0 {
				s.tick = h.N
			}
		case "event":
			var e wire.EventFrame
			if json.Unmarshal(f, &e) == nil && e.Seq > s.evSeq {
				s.evSeq = e.Seq
				s.lines = append(s.lines, line{text: t.narrator().Event(&e), events: e.Seq})
			}
		case "chat":
			var c wire.ChatFrame
			if json.Unmarshal(f, &c) == nil && c.Seq > s.chatSeq {
				s.chatSeq = c.Seq
				if s.seat == 0 && c.Channel != game.ChanDay {
					continue
				}
				s.lines = append(s.lines, line{text: t.chatLine(&c), chat: c.Seq})
				if s.seat > 0 && s.st.Night && slices.Contains(s.st.Channels, c.Channel) {
					// His own channel at night (the wolves'): he is awake
					// and talking; holding it until dawn would end the talk.
					s.urgentFrom = len(s.lines)
				}
			}
		case "state":
			var st wire.StateFrame
			if json.Unmarshal(f, &st) == nil {
				s.st, s.have = st, true
			}
		case "remind":
			var r wire.RemindFrame
			if json.Unmarshal(f, &r) == nil {
				t.remind(s, &r)
			}
		case "extend":
			var x wire.ExtendFrame
			if json.Unmarshal(f, &x) == nil {
				t.extended(s, &x)
			}
		case "ack", "error":
			t.answer(ctx, s, f, h)
		}
	}
	t.after(ctx, s)
}

// remind passes on a reminder of the deadline (forum pace). By night the
// frame is the same for every seat, and so is what is done with it: every
// living player is sent it at once, whether or not he owes an action (a
// reminder to those who owe one only would tell them apart by its count),
// and the group nothing. By day the group is told the seats the step
// calls on (public), and privately each of them who still owes his act.
func (t *table) remind(s *stream, r *wire.RemindFrame) {
	when := t.deadline(time.UnixMilli(r.Deadline))
	switch {
	case r.Night && s.seat > 0 && slices.Contains(s.st.Alive, s.seat):
		s.lines = append(s.lines, line{text: i18n.Text(t.lang, "ui.remind", map[string]string{"deadline": when}), urgent: true})
		s.urgentFrom = len(s.lines)
	case r.Night:
	case s.seat == 0 && len(r.Seats) > 0:
		seats := make([]string, len(r.Seats))
		for i, x := range r.Seats {
			seats[i] = strconv.Itoa(int(x))
		}
		s.lines = append(s.lines, line{text: i18n.Text(t.lang, "ui.remind.seats", map[string]string{"seats": strings.Join(seats, ", "), "deadline": when})})
	case s.seat > 0 && s.st.Pending && slices.Contains(r.Seats, s.seat):
		s.lines = append(s.lines, line{text: i18n.Text(t.lang, "ui.remind", map[string]string{"deadline": when})})
	}
}

// extended passes on the host's extension of the deadline, whoever gave
// it (a chat command or the web page): to the group (at night, with the
// dawn, as everything), and at night at once to every living player, the
// same line to each, as the reminders.
func (t *table) extended(s *stream, x *wire.ExtendFrame) {
	l := line{text: i18n.Text(t.lang, "ui.extended", map[string]string{"left": t.left(time.Duration(x.By) * time.Millisecond)})}
	switch {
	case s.seat == 0:
		s.lines = append(s.lines, l)
	case s.st.Night && slices.Contains(s.st.Alive, s.seat):
		l.urgent = true
		s.lines = append(s.lines, l)
		s.urgentFrom = len(s.lines)
	}
}

// chatLine renders a chat message.
func (t *table) chatLine(c *wire.ChatFrame) string {
	text := sanitize(c.Text)
	if c.Channel == game.ChanDay {
		return t.text("chat.day", map[string]string{"seat": strconv.Itoa(int(c.Seat)), "text": text})
	}
	ch := i18n.Text(t.lang, "ui.channel."+c.Channel, nil)
	if c.Seat == 0 {
		return t.text("chat.channel.anon", map[string]string{"channel": ch, "text": text})
	}
	return t.text("chat.channel", map[string]string{"channel": ch, "seat": strconv.Itoa(int(c.Seat)), "text": text})
}

// answer tells the user how the game took his request.
func (t *table) answer(ctx context.Context, s *stream, f []byte, h head) {
	talk, ok := s.asked[h.ID]
	if !ok || s.user == "" {
		return
	}
	delete(s.asked, h.ID)
	if h.Type == "ack" {
		if !talk {
			t.dm(ctx, s.user, "chat.ack", nil)
		}
		return
	}
	var e wire.ErrorFrame
	_ = json.Unmarshal(f, &e)
	t.dm(ctx, s.user, "chat.bad.refused", map[string]string{"reason": e.Message})
}

// ask numbers a request of the seat's user; its answer is told him.
func (s *stream) ask(talk bool) int64 {
	if s.asked == nil {
		s.asked = map[int64]bool{}
	}
	s.ids++
	s.asked[s.ids] = talk
	return s.ids
}

// after sends what a stream's frames made due.
func (t *table) after(ctx context.Context, s *stream) {
	if !s.have || s.done {
		return
	}
	night := s.st.Night && !s.st.Over
	switch {
	case s.seat == 0 && !night:
		t.flushGroup(ctx)
	case s.seat == 0:
	case !night:
		t.flush(ctx, s, !s.st.Over)
	case s.urgentFrom > 0:
		t.flushUrgent(ctx, s)
	}
	if s.st.Over {
		// Each stream ends once it has told its end: the game is over for
		// the table when every one has.
		s.done = true
		if s.sub != nil {
			t.actor.Leave(s.sub)
		}
		t.endIfDone(ctx)
		return
	}
	t.pace(ctx)
}

// flushGroup sends the group what the spectators' stream told.
func (t *table) flushGroup(ctx context.Context) {
	s := t.spec
	if len(s.lines) == 0 {
		return
	}
	if t.b.send(ctx, Target{Group: t.group}, Message{Text: joinLines(s.lines)}) {
		t.sent(ctx, s, s.lines)
		s.lines = nil
	}
}

// flush sends a seat's user his lines, with his prompt if it changed (or
// always, when force).
func (t *table) flush(ctx context.Context, s *stream, withPrompt bool) {
	m := Message{Text: joinText(t.roleLine(s), joinLines(s.lines))}
	digest := ""
	if withPrompt {
		var p Message
		p, digest = t.promptOf(s)
		if digest != "" && digest != s.prompt {
			m.Text = joinText(m.Text, p.Text)
			m.Buttons = p.Buttons
		} else {
			digest = ""
		}
	}
	if m.Text == "" {
		return
	}
	if t.b.send(ctx, Target{User: s.user}, m) {
		if digest != "" {
			s.prompt = digest
		}
		s.roleTold = s.roleTold || s.st.Role != ""
		t.sent(ctx, s, s.lines)
		s.lines, s.urgentFrom = nil, 0
	}
}

// flushUrgent sends a seat his own channel's messages at night, alone.
func (t *table) flushUrgent(ctx context.Context, s *stream) {
	var out, keep []line
	for i, l := range s.lines {
		if i < s.urgentFrom && (l.chat > 0 || l.urgent) {
			out = append(out, l)
		} else {
			keep = append(keep, l)
		}
	}
	s.urgentFrom = 0
	if len(out) == 0 {
		return
	}
	if t.b.send(ctx, Target{User: s.user}, Message{Text: joinLines(out)}) {
		// Only the chat number advances: the events held stay held (their
		// number is the events', counted apart), and every message before
		// these was among them.
		s.lines = keep
		t.sent(ctx, s, out)
	}
}

// roleLine tells a player his card (and his fellow wolves) the first time
// he is sent anything; "" once told.
func (t *table) roleLine(s *stream) string {
	if s.roleTold || s.st.Role == "" {
		return ""
	}
	l := t.text("chat.role", map[string]string{"role": t.narrator().Role(s.st.Role)})
	if len(s.st.Wolves) > 0 {
		l = joinText(l, t.text("chat.wolves", map[string]string{"mask": seatList(t.lang, s.st.Wolves)}))
	}
	return l
}

// sent records how far a stream was sent.
func (t *table) sent(ctx context.Context, s *stream, ls []line) {
	for _, l := range ls {
		s.events, s.chats = max(s.events, l.events), max(s.chats, l.chat)
	}
	_ = t.save(ctx, s.seat)
}

func joinLines(ls []line) string {
	var b []byte
	for i, l := range ls {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, l.text...)
	}
	return string(b)
}

func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// endIfDone closes a finished game once every stream has told its end:
// the group is told, the bindings dropped.
func (t *table) endIfDone(ctx context.Context) {
	if t.over {
		return
	}
	for _, s := range t.live() {
		if !s.done {
			return
		}
	}
	t.over = true
	t.group1(ctx, "chat.over", nil)
	t.detach()
	if err := t.b.st.DeleteChatRoom(ctx, t.b.p.Name(), t.room); err != nil {
		t.b.log.Warn("chat: a finished game's bindings", "room", t.room, "err", err)
	}
	go t.b.forget(t)
}

// sanitize keeps a player's text from posing as the judge's own lines: it
// is quoted on one line.
func sanitize(s string) string {
	b := []rune{}
	for _, r := range s {
		if r == '\n' || r == '\r' {
			r = ' '
		}
		b = append(b, r)
	}
	return string(b)
}

// storeGone is the binding of a seat given back before the start.
func storeGone(t *table, s rules.Seat) store.ChatBinding {
	return store.ChatBinding{Platform: t.b.p.Name(), Room: t.room, Seat: int(s), Group: t.group}
}
