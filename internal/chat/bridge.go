package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// Options configure a bridge.
type Options struct {
	Log *slog.Logger
	// Lang is a new group's language (i18n.Languages); "" takes the
	// catalogue's default, 简体中文.
	Lang string
	// Preset is the board of "狼人杀 开局" without one; "" takes std-9.
	Preset string
	// PerMinute bounds the lines one user may send the bridge a minute
	// (as many at once); 0 takes DefaultPerMinute.
	PerMinute int
	// Room, if set, adjusts every room before it is opened (tests: a seed,
	// short timers).
	Room func(*Open)
}

// DefaultPerMinute is Options.PerMinute's default: a player sends a few
// commands a phase; a flood is a script or a stuck key.
const DefaultPerMinute = 30

// DefaultPreset is the board of a game opened without one.
const DefaultPreset = "std-9"

// A Bridge plays the games of one platform's groups: it turns what users
// send into the rooms' requests and their seats' commands, and the seats'
// and spectators' streams into messages (docs/chat.md).
type Bridge struct {
	p     Platform
	rooms Rooms
	st    store.Chat
	o     Options
	log   *slog.Logger
	lim   *limiter

	mu      sync.Mutex
	ctx     context.Context   // Run's, for the readers
	tables  map[string]*table // by room
	byGroup map[string]*table
	wg      sync.WaitGroup
}

// New makes a bridge of platform p on the server's rooms; st keeps its
// bindings.
func New(p Platform, rooms Rooms, st store.Chat, o Options) *Bridge {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Lang == "" {
		o.Lang = i18n.Languages[0]
	}
	if o.Preset == "" {
		o.Preset = DefaultPreset
	}
	if o.PerMinute == 0 {
		o.PerMinute = DefaultPerMinute
	}
	return &Bridge{p: p, rooms: rooms, st: st, o: o, log: o.Log.With("chat", p.Name()),
		lim: newLimiter(o.PerMinute), tables: map[string]*table{}, byGroup: map[string]*table{}}
}

// Platform is the bridge's platform.
func (b *Bridge) Platform() Platform { return b.p }

// Run resumes the stored games, connects the platform and plays until ctx
// ends; it returns ctx's error then, or the platform's fatal one.
func (b *Bridge) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b.mu.Lock()
	b.ctx = ctx
	b.mu.Unlock()
	if err := b.restore(ctx); err != nil {
		return err
	}
	in := make(chan Incoming, 64)
	perr := make(chan error, 1)
	go func() { perr <- b.p.Run(ctx, in) }()
	platformDone := false
	defer func() {
		cancel()
		if !platformDone { // the platform's connection is closed when Run returns
			<-perr
		}
		b.detachAll()
		b.wg.Wait()
	}()
	for {
		select {
		case m := <-in:
			b.handle(ctx, m)
		case err := <-perr:
			platformDone = true
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err == nil {
				err = errors.New("the platform's connection ended")
			}
			return fmt.Errorf("chat %s: %w", b.p.Name(), err)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// restore takes up the stored games: each group's room, each user's seat,
// and how far each was sent.
func (b *Bridge) restore(ctx context.Context) error {
	bs, err := b.st.ChatBindings(ctx, b.p.Name())
	if err != nil {
		return fmt.Errorf("chat %s: the stored games: %w", b.p.Name(), err)
	}
	byRoom := map[string][]store.ChatBinding{}
	var order []string
	for _, x := range bs {
		if _, ok := byRoom[x.Room]; !ok {
			order = append(order, x.Room)
		}
		byRoom[x.Room] = append(byRoom[x.Room], x)
	}
	for _, room := range order {
		t := restoreTable(b, byRoom[room])
		if t == nil {
			b.log.Warn("chat: a stored room without its group; dropped", "room", room)
			_ = b.st.DeleteChatRoom(ctx, b.p.Name(), room)
			continue
		}
		b.mu.Lock()
		b.tables[room], b.byGroup[t.group] = t, t
		b.mu.Unlock()
		t.mu.Lock()
		err := t.resume(ctx)
		t.mu.Unlock()
		if err != nil {
			b.log.Warn("chat: a stored game cannot resume", "room", room, "err", err)
		}
	}
	return nil
}

func (b *Bridge) detachAll() {
	b.mu.Lock()
	ts := make([]*table, 0, len(b.tables))
	for _, t := range b.tables {
		ts = append(ts, t)
	}
	b.mu.Unlock()
	for _, t := range ts {
		t.mu.Lock()
		t.detach()
		t.mu.Unlock()
	}
}

// forget drops a finished table.
func (b *Bridge) forget(t *table) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tables[t.room] == t {
		delete(b.tables, t.room)
	}
	if b.byGroup[t.group] == t {
		delete(b.byGroup, t.group)
	}
}

// tableOf is the game of a group, or the game a user holds a seat of (in
// a private chat): the newest if he holds several.
func (b *Bridge) tableOf(m Incoming) *table {
	b.mu.Lock()
	defer b.mu.Unlock()
	if m.Group != "" {
		if t := b.byGroup[m.Group]; t != nil && !t.ended() {
			return t
		}
		return nil
	}
	var found *table
	for _, t := range b.tables {
		if !t.ended() && t.hasUser(m.User) && (found == nil || t.opened.After(found.opened)) {
			found = t
		}
	}
	return found
}

// MaxText bounds a message's text, in characters: the platforms refuse
// longer ones (Telegram at 4,096, QQ clients fold them). A longer text (a
// long game's backlog after a restart) goes as several messages, cut
// between lines, the buttons with the last.
const MaxText = 3000

// send delivers a message, logging a failure: the caller keeps what was
// not sent, to send it with the next message.
func (b *Bridge) send(ctx context.Context, to Target, m Message) bool {
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for _, part := range split(m) {
		if err := b.p.Send(sctx, to, part); err != nil {
			b.log.Warn("chat: a message was not sent", "group", to.Group, "private", to.Private(), "err", err)
			return false
		}
	}
	return true
}

// split cuts a message whose text is longer than MaxText.
func split(m Message) []Message {
	if utf8.RuneCountInString(m.Text) <= MaxText {
		return []Message{m}
	}
	var out []Message
	var cur []string
	n := 0
	for _, l := range strings.Split(m.Text, "\n") {
		r := []rune(l)
		for len(r) > MaxText { // one line longer than a message: cut it
			if len(cur) > 0 {
				out, cur, n = append(out, Message{Text: strings.Join(cur, "\n")}), nil, 0
			}
			out = append(out, Message{Text: string(r[:MaxText])})
			r = r[MaxText:]
		}
		if n+len(r)+1 > MaxText && len(cur) > 0 {
			out, cur, n = append(out, Message{Text: strings.Join(cur, "\n")}), nil, 0
		}
		cur, n = append(cur, string(r)), n+len(r)+1
	}
	out = append(out, Message{Text: strings.Join(cur, "\n")})
	last := &out[len(out)-1]
	last.Buttons, last.Mention = m.Buttons, m.Mention
	return out
}

// reply answers the sender where he wrote.
func (b *Bridge) reply(ctx context.Context, m Incoming, lang, key string, args map[string]string) {
	to := Target{Group: m.Group}
	if m.Group == "" {
		to = Target{User: m.User}
	}
	b.send(ctx, to, Message{Text: i18n.Text(lang, key, args)})
}

// handle is one line a user sent.
func (b *Bridge) handle(ctx context.Context, m Incoming) {
	t := b.tableOf(m)
	lang := b.o.Lang
	if t != nil {
		lang = t.lang
	}
	p, ok := parse(m.Text)
	slash := strings.HasPrefix(strings.TrimSpace(m.Text), "/")
	// The group's own talk is not for the judge, nor counted against
	// anyone: a line that is no command, a bare number, a seat's command
	// where no game is played.
	if m.Group != "" && !slash && (!ok || p.word == "" && (p.cmd == rules.CmdNone || t == nil)) {
		return
	}
	if !b.lim.allow(b.p.Name() + "\x00" + m.User) {
		if b.lim.warn(b.p.Name() + "\x00" + m.User) {
			b.reply(ctx, m, lang, "chat.bad.flood", nil)
		}
		return
	}
	if !ok {
		// What a player writes privately is his channel's talk, if he
		// has one now; a slash starts a command, never talk.
		if t != nil && !slash {
			t.mu.Lock()
			done := t.say(ctx, m)
			t.mu.Unlock()
			if done {
				return
			}
		}
		b.reply(ctx, m, lang, "chat.bad.command", map[string]string{"text": clip(m.Text)})
		return
	}
	switch p.word {
	case wordHelp:
		b.reply(ctx, m, lang, "chat.help", nil)
		if t != nil && t.host == m.User {
			b.reply(ctx, m, lang, "chat.help.host", nil)
		}
		return
	case wordNewGame:
		b.open(ctx, m, p, lang)
		return
	}
	if t == nil {
		key := "chat.bad.no_game"
		if m.Group == "" {
			key = "chat.bad.not_player"
		}
		b.reply(ctx, m, lang, key, nil)
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.command(ctx, m, p)
}

// clip shortens a user's text quoted back to him.
func clip(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// open starts a group's room: the sender is its host.
func (b *Bridge) open(ctx context.Context, m Incoming, p parsed, lang string) {
	if m.Group == "" {
		b.reply(ctx, m, lang, "chat.bad.private", nil)
		return
	}
	b.mu.Lock()
	old := b.byGroup[m.Group]
	busy := old != nil && !old.ended()
	b.mu.Unlock()
	if busy {
		b.reply(ctx, m, lang, "chat.bad.open", nil)
		return
	}
	o := Open{Preset: p.rest, Name: nick(m), User: b.p.Name() + ":" + m.User}
	if o.Preset == "" {
		o.Preset = b.o.Preset
	}
	if b.o.Room != nil {
		b.o.Room(&o)
	}
	room, host, err := b.rooms.Open(ctx, o)
	if err != nil {
		b.reply(ctx, m, lang, "chat.bad.room", map[string]string{"reason": err.Error()})
		return
	}
	t := newTable(b, room, m.Group, lang)
	t.host, t.hostTok, t.hostName, t.preset = m.User, host, nick(m), o.Preset
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.save(ctx, 0); err != nil {
		b.reply(ctx, m, lang, "chat.bad.room", map[string]string{"reason": err.Error()})
		return
	}
	b.mu.Lock()
	b.tables[room], b.byGroup[m.Group] = t, t
	b.mu.Unlock()
	t.group1(ctx, "chat.opened", map[string]string{"name": t.hostName, "preset": presetName(lang, o.Preset),
		"players": fmt.Sprint(t.players())})
}

// nick is a user's name for his seat.
func nick(m Incoming) string {
	r := []rune(m.Name)
	if len(r) == 0 {
		r = []rune(m.User)
	}
	if len(r) > 20 {
		r = r[:20]
	}
	return string(r)
}

func presetName(lang, p string) string {
	if s := i18n.Text(lang, "preset."+p, nil); s != "preset."+p {
		return s
	}
	return p
}

// seatOK reports whether s is a seat number of a game of n players.
func seatOK(s, n int) bool { return s >= 1 && s <= n && s <= rules.MaxSeats }
