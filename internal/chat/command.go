package chat

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// command is a parsed line of a user of the table's group, or of one of
// its players in private.
func (t *table) command(ctx context.Context, m Incoming, p parsed) {
	reply := func(key string, args map[string]string) { t.b.reply(ctx, m, t.lang, key, args) }
	switch p.word {
	case wordJoin:
		t.join1(ctx, m)
		return
	case wordLeave:
		t.leave(ctx, m)
		return
	case wordLink:
		t.link(ctx, m)
		return
	case wordStart, wordPause, wordResume, wordExtend, wordRedCard, wordReplace, wordLang:
		if m.User != t.host {
			reply("chat.bad.not_host", nil)
			return
		}
		t.hostCommand(ctx, m, p)
		return
	}
	seat, ok := t.byUser[m.User]
	_, pend := t.pendingOf(m.User)
	switch {
	case !ok && !pend:
		reply("chat.bad.not_player", nil)
	case m.Group != "":
		reply("chat.bad.group_act", nil)
	case !t.started || t.seats[seat] == nil:
		reply("chat.bad.not_started", nil)
	case p.seat != 0 && p.seat != seat:
		reply("chat.bad.other_seat", map[string]string{"seat": strconv.Itoa(int(seat)), "target": strconv.Itoa(int(p.seat))})
	case t.seats[seat].away || t.seats[seat].sub == nil:
		reply("chat.bad.not_player", nil)
	case p.word == wordDecoy:
		s := t.seats[seat]
		if err := t.actor.Decoy(s.sub, s.ask(false)); err != nil {
			reply("chat.bad.refused", map[string]string{"reason": err.Error()})
		}
	default:
		t.act(ctx, m, t.seats[seat], p)
	}
}

// act turns a seat's parsed command into the game's, checked against the
// choices its state offers: a clear line for what it does not.
func (t *table) act(ctx context.Context, m Incoming, s *stream, p parsed) {
	reply := func(key string, args map[string]string) { t.b.reply(ctx, m, t.lang, key, args) }
	st := &s.st
	var ch *wire.ChoiceJSON
	if p.cmd == rules.CmdNone { // a bare number: the only kind of choice with targets
		for i := range st.Choices {
			c := &st.Choices[i]
			if len(c.Targets) > 0 && c.Pick == 0 && c.Cmd != rules.CmdClaim.String() {
				if ch != nil {
					reply("chat.bad.command", map[string]string{"text": clip(m.Text)})
					return
				}
				ch = c
			}
		}
		if ch == nil {
			reply("chat.bad.not_now", map[string]string{"cmd": clip(m.Text)})
			return
		}
		p.cmd, _ = rules.ParseCmd(ch.Cmd)
	} else {
		for i := range st.Choices {
			if st.Choices[i].Cmd == p.cmd.String() {
				ch = &st.Choices[i]
			}
		}
		if ch == nil || st.Over || st.Paused {
			reply("chat.bad.not_now", map[string]string{"cmd": verb(t.lang, p.cmd.String())})
			return
		}
	}
	c := rules.Command{Seat: s.seat, Kind: p.cmd}
	bad := func() {
		reply("chat.bad.args", map[string]string{"text": clip(m.Text), "targets": seatList(t.lang, ch.Targets)})
	}
	switch {
	case ch.Pick != 0:
		if len(p.args) == 0 || (ch.Pick > 0 && len(p.args) != int(ch.Pick)) {
			bad()
			return
		}
		for _, a := range p.args {
			if !slices.Contains(ch.Targets, rules.Seat(a)) {
				bad()
				return
			}
			c.Mask |= 1 << uint(a)
		}
	case len(ch.Targets) > 0 || ch.NoTarget:
		switch {
		case len(p.args) == 1 && p.args[0] == 0 && ch.NoTarget:
		case len(p.args) == 1 && slices.Contains(ch.Targets, rules.Seat(p.args[0])):
			c.Target = rules.Seat(p.args[0])
		case len(p.args) == 0 && ch.NoTarget && len(ch.Targets) == 0:
		default:
			bad()
			return
		}
	case p.cmd == rules.CmdOrder || p.cmd == rules.CmdTake:
		lo, hi := 0, 1
		if p.cmd == rules.CmdTake {
			lo, hi = 1, len(ch.Roles)
		}
		if len(p.args) != 1 || p.args[0] < lo || p.args[0] > hi {
			reply("chat.bad.args", map[string]string{"text": clip(m.Text), "targets": strconv.Itoa(lo) + "–" + strconv.Itoa(hi)})
			return
		}
		c.Value = int8(p.args[0])
	default:
		if len(p.args) > 0 {
			bad()
			return
		}
		c.Value = ch.Value
	}
	if err := t.actor.Act(s.sub, s.ask(false), c); err != nil {
		reply("chat.bad.refused", map[string]string{"reason": err.Error()})
	}
}

// say sends a player's free text to the channel he may write to: the
// wolves' at night, the lovers', the dead's; false when he has none.
func (t *table) say(ctx context.Context, m Incoming) bool {
	seat, ok := t.byUser[m.User]
	if !ok || !t.started {
		return false
	}
	s := t.seats[seat]
	if s == nil || s.sub == nil || len(s.st.Channels) == 0 {
		return false
	}
	ch := s.st.Channels[0]
	for _, c := range s.st.Channels {
		if c != game.ChanDay {
			ch = c
			break
		}
	}
	if err := t.actor.Chat(s.sub, s.ask(true), ch, m.Text); err != nil {
		t.b.reply(ctx, m, t.lang, "chat.bad.refused", map[string]string{"reason": err.Error()})
	}
	return true
}

func (t *table) pendingOf(user string) (rules.Seat, bool) {
	for s, p := range t.pending {
		if p.user == user {
			return s, true
		}
	}
	return 0, false
}

// join1 seats a user of the group.
func (t *table) join1(ctx context.Context, m Incoming) {
	reply := func(key string, args map[string]string) { t.b.reply(ctx, m, t.lang, key, args) }
	switch {
	case m.Group == "":
		reply("chat.bad.private", nil)
		return
	case t.started:
		reply("chat.bad.started", nil)
		return
	}
	if s, ok := t.pendingOf(m.User); ok {
		reply("chat.joined.already", map[string]string{"seat": strconv.Itoa(int(s))})
		return
	}
	seat, tok, err := t.b.rooms.Join(ctx, t.room, t.b.p.Name()+":"+m.User, nick(m))
	if err != nil {
		reply("chat.bad.room", map[string]string{"reason": err.Error()})
		return
	}
	t.pending[seat] = &pending{user: m.User, name: nick(m), token: tok}
	_ = t.save(ctx, seat)
	t.group1(ctx, "chat.joined", map[string]string{"name": nick(m), "seat": strconv.Itoa(int(seat)),
		"count": strconv.Itoa(len(t.pending)), "players": strconv.Itoa(t.players())})
	t.dm(ctx, m.User, "chat.joined.private", map[string]string{"seat": strconv.Itoa(int(seat)),
		"link": t.b.rooms.SeatLink(t.room, seat, tok)})
}

// leave gives back a seat before the start.
func (t *table) leave(ctx context.Context, m Incoming) {
	s, ok := t.pendingOf(m.User)
	switch {
	case t.started:
		t.b.reply(ctx, m, t.lang, "chat.bad.started", nil)
		return
	case !ok:
		t.b.reply(ctx, m, t.lang, "chat.bad.not_player", nil)
		return
	}
	p := t.pending[s]
	if err := t.b.rooms.Leave(ctx, t.room, p.token); err != nil {
		t.b.reply(ctx, m, t.lang, "chat.bad.room", map[string]string{"reason": err.Error()})
		return
	}
	delete(t.pending, s)
	// The binding goes with the seat: an empty row is no user's.
	_ = t.b.st.PutChatBinding(ctx, storeGone(t, s))
	t.group1(ctx, "chat.left", map[string]string{"name": p.name, "seat": strconv.Itoa(int(s))})
}

// link sends a player his seat's web page again, privately.
func (t *table) link(ctx context.Context, m Incoming) {
	for s, p := range t.pending {
		if p.user == m.User && p.token != "" {
			t.dm(ctx, m.User, "chat.joined.private", map[string]string{"seat": strconv.Itoa(int(s)),
				"link": t.b.rooms.SeatLink(t.room, s, p.token)})
			return
		}
	}
	if s, ok := t.byUser[m.User]; ok && t.tokens[s] != "" {
		t.dm(ctx, m.User, "chat.joined.private", map[string]string{"seat": strconv.Itoa(int(s)),
			"link": t.b.rooms.SeatLink(t.room, s, t.tokens[s])})
		return
	}
	t.b.reply(ctx, m, t.lang, "chat.bad.not_player", nil)
}

// hostCommand is one of the 法官's.
func (t *table) hostCommand(ctx context.Context, m Incoming, p parsed) {
	reply := func(key string, args map[string]string) { t.b.reply(ctx, m, t.lang, key, args) }
	fail := func(err error) { reply("chat.bad.room", map[string]string{"reason": err.Error()}) }
	seatArg := func() (rules.Seat, bool) {
		if len(p.args) != 1 || !seatOK(p.args[0], t.players()) {
			n := ""
			if len(p.args) > 0 {
				n = strconv.Itoa(p.args[0])
			}
			reply("chat.bad.seat", map[string]string{"seat": n})
			return 0, false
		}
		return rules.Seat(p.args[0]), true
	}
	if p.word != wordStart && p.word != wordLang && !t.started {
		reply("chat.bad.not_started", nil)
		return
	}
	switch p.word {
	case wordStart:
		if t.started {
			reply("chat.bad.started", nil)
			return
		}
		t.start(ctx, m)
	case wordPause, wordResume:
		if err := t.b.rooms.Pause(ctx, t.room, t.hostTok, p.word == wordPause); err != nil {
			fail(err)
			return
		}
		key := map[string]string{wordPause: "chat.paused", wordResume: "chat.resumed"}[p.word]
		t.group1(ctx, key, nil)
	case wordExtend:
		mins := 10
		if len(p.args) == 1 && p.args[0] > 0 {
			mins = p.args[0]
		} else if len(p.args) > 0 {
			reply("chat.bad.args", map[string]string{"text": clip(m.Text), "targets": "1–99"})
			return
		}
		// The game tells everyone (its extend frame: table.extended).
		if err := t.b.rooms.Extend(ctx, t.room, t.hostTok, time.Duration(mins)*time.Minute); err != nil {
			fail(err)
		}
	case wordRedCard:
		s, ok := seatArg()
		if !ok {
			return
		}
		if err := t.b.rooms.RedCard(ctx, t.room, t.hostTok, s); err != nil {
			fail(err)
			return
		}
		t.group1(ctx, "chat.red_card", map[string]string{"seat": strconv.Itoa(int(s))})
	case wordReplace:
		s, ok := seatArg()
		if !ok {
			return
		}
		// The bridge stops being the seat's client: the game hands a seat
		// nobody is connected to to a bot at its next timeout, as for a
		// web player who left.
		if x := t.seats[s]; x != nil && !x.away {
			x.away = true
			if x.sub != nil {
				t.actor.Leave(x.sub)
				x.sub = nil
			}
			_ = t.save(ctx, s)
		}
		t.group1(ctx, "chat.away", map[string]string{"seat": strconv.Itoa(int(s))})
	case wordLang:
		lang, err := i18n.Match(strings.TrimSpace(p.rest))
		if err != nil {
			reply("chat.bad.lang", map[string]string{"text": clip(p.rest)})
			return
		}
		t.lang = lang
		_ = t.save(ctx, 0)
		t.group1(ctx, "chat.lang.set", nil)
	}
}

// start deals the game: bots take the empty seats; each seated user's
// stream starts.
func (t *table) start(ctx context.Context, m Incoming) {
	if err := t.b.rooms.Start(ctx, t.room, t.hostTok); err != nil {
		t.b.reply(ctx, m, t.lang, "chat.bad.room", map[string]string{"reason": err.Error()})
		return
	}
	a, err := t.b.rooms.Actor(ctx, t.room)
	if err != nil {
		t.b.reply(ctx, m, t.lang, "chat.bad.room", map[string]string{"reason": err.Error()})
		return
	}
	t.actor, t.started = a, true
	t.tokens = map[rules.Seat]string{}
	for s, p := range t.pending {
		t.seats[s] = &stream{seat: s, user: p.user, name: p.name}
		t.byUser[p.user] = s
		t.tokens[s] = p.token
	}
	t.pending = map[rules.Seat]*pending{}
	t.group1(ctx, "chat.started", nil)
	if err := t.attach(); err != nil {
		t.b.log.Warn("chat: a started game cannot be joined", "room", t.room, "err", err)
	}
}
