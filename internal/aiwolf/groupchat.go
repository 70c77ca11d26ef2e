package aiwolf

import (
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/usertext"
	"github.com/wolfden/wolfden/rules"
)

// The group-chat mode (the reference's "freeform" communication), chosen
// for the talk and the whisper apart: a talk (whisper) setting with a
// duration. Instead of TALK requests in rounds, the phase's agents (the
// living agents; the living wolves for the whisper) are sent
// TALK_PHASE_START and then push utterances when they like, each a frame
// that answers no request. Every utterance the limits let through is
// broadcast at once to every agent of the phase as TALK_BROADCAST with
// new_talk (WHISPER_BROADCAST with new_whisper), its sender included; Over
// ends an agent's talk (what it sends after is dropped). The phase ends
// with TALK_PHASE_END once the duration has passed, or sooner once no
// agent of it has an utterance left. MaxCount.PerDay is not used;
// PerAgent and the length limits are, as in the rounds. As the
// reference does, the broadcasts do not count as telling the talk: the
// DAILY_FINISH (and a wolf's ATTACK) after the phase carries the whole
// day's talk (night's whisper) in its history.

// The group-chat requests: none is answered.
const (
	ReqTalkPhaseStart    = "TALK_PHASE_START"
	ReqTalkPhaseEnd      = "TALK_PHASE_END"
	ReqTalkBroadcast     = "TALK_BROADCAST"
	ReqWhisperPhaseStart = "WHISPER_PHASE_START"
	ReqWhisperPhaseEnd   = "WHISPER_PHASE_END"
	ReqWhisperBroadcast  = "WHISPER_BROADCAST"
)

// group is a phase's group-chat state.
type group struct {
	dur    time.Duration
	open   bool                // TALK_PHASE_START went out; the clock runs
	stop   func() bool         // the clock
	joined map[rules.Seat]int  // seat → its gen+1 when it was sent the start
	turns  map[rules.Seat]int  // utterances each agent made, Over included
	overs  map[rules.Seat]bool // said Over
	barred map[rules.Seat]bool // had an utterance refused (logged once)
}

// heard is an utterance an agent pushed during a group-chat phase.
type heard struct {
	key  string // the phase's
	gen  int    // the seat's connection it came on
	text string
	at   time.Time
}

// groupChat sets a matched game's talk and whisper durations. It
// reports whether it changed the regulation.
func (t *table) groupChat(o *Options) bool {
	if o.TalkDuration > 0 {
		t.reg.Setting.Talk.Duration = intp(int(o.TalkDuration / time.Millisecond))
	}
	if o.WhisperDuration > 0 {
		t.reg.Setting.Whisper.Duration = intp(int(o.WhisperDuration / time.Millisecond))
	}
	return o.TalkDuration > 0 || o.WhisperDuration > 0
}

// groupOf makes p a group-chat phase if its setting has a duration.
func groupOf(p *phase) {
	if d := p.setting.Duration; d != nil && *d > 0 && !p.speech {
		p.group = &group{dur: time.Duration(*d) * time.Millisecond, joined: map[rules.Seat]int{},
			turns: map[rules.Seat]int{}, overs: map[rules.Seat]bool{}, barred: map[rules.Seat]bool{}}
	}
}

// phaseFor is the phase whose budgets a request's info tells.
func (t *table) phaseFor(req string) *phase {
	switch req {
	case ReqTalk, ReqTalkPhaseStart, ReqTalkBroadcast, ReqTalkPhaseEnd:
		return t.talk
	case ReqWhisper, ReqWhisperPhaseStart, ReqWhisperBroadcast, ReqWhisperPhaseEnd:
		return t.whisper
	}
	return nil
}

// ready: the seat was told the phase's day (DAILY_INITIALIZE for the
// talk and day 0's morning whisper, DAILY_FINISH for a night's whisper),
// so its start comes after.
func (p *phase) ready(s *seat) bool {
	if p.req == ReqWhisper && !p.morning {
		return s.finished >= p.day
	}
	return s.told >= p.day
}

// groupAdvance opens the phase once every agent of it that is connected
// has been told its day (as the reference tells everyone the day before
// the phase starts), sends the start to whoever has not had it on its
// connection (an agent back in the middle of it), and ends the phase
// when nobody has an utterance left.
func (t *table) groupAdvance(p *phase) {
	gp := p.group
	if !p.done && !gp.open {
		for _, x := range p.order {
			s := t.seats[x]
			if s.currentConn() != nil && !s.done && !p.ready(s) {
				return // its own flow comes back here once it is told
			}
		}
		gp.open = true
		key := p.key
		gp.stop = t.g.opts.After(gp.dur, func() { t.box.put(mail{timeUp: key}) })
	}
	if !p.done {
		start := ReqTalkPhaseStart
		if p.req == ReqWhisper {
			start = ReqWhisperPhaseStart
		}
		for _, x := range p.order {
			s := t.seats[x]
			if s.currentConn() == nil || s.done || !p.ready(s) || gp.joined[x] == s.gen+1 {
				continue
			}
			gp.joined[x] = s.gen + 1
			o := t.packet(s, start, false)
			o.key, o.listen = p.key, true
			s.enqueue(o)
		}
		if t.groupSpent(p) {
			t.groupEnd(p)
		}
	}
	if p.done && !p.told {
		p.told = true
		t.phaseDone(p)
	}
}

// groupSpent: no agent of the phase can say anything more (an agent
// whose connection is gone is played by the bot meanwhile, which says
// nothing here).
func (t *table) groupSpent(p *phase) bool {
	for _, x := range p.order {
		s := t.seats[x]
		if p.budget[x].count > 0 && !p.group.overs[x] && s.currentConn() != nil && !s.done && has(s.st.Alive, x) {
			return false
		}
	}
	return true
}

// groupEnd ends a group-chat phase: its agents are sent the end.
func (t *table) groupEnd(p *phase) {
	gp := p.group
	if gp == nil || p.done {
		return
	}
	p.done = true
	if gp.stop != nil {
		gp.stop()
	}
	end := ReqTalkPhaseEnd
	if p.req == ReqWhisper {
		end = ReqWhisperPhaseEnd
	}
	for _, x := range p.order {
		s := t.seats[x]
		if gp.joined[x] == s.gen+1 && s.currentConn() != nil && !s.done {
			o := t.packet(s, end, false)
			o.key, o.shut = p.key, true
			s.enqueue(o)
		}
	}
}

// dawn ends a group-chat whisper that the night's end cut short (a night
// with no attack waits for no whisper): the wolves are told its end
// before the day.
func (t *table) dawn() {
	if p := t.whisper; p != nil && p.group != nil && !p.done {
		t.groupEnd(p)
		p.told = true
	}
}

// groupResume goes on with the open group-chat phases after any mail: a
// connection that ended may leave nobody with anything to say.
func (t *table) groupResume() {
	for _, p := range []*phase{t.talk, t.whisper} {
		if p != nil && p.group != nil && !p.told {
			t.groupAdvance(p)
		}
	}
}

// timeUp ends the phase whose duration has passed.
func (t *table) timeUp(key string) {
	for _, p := range []*phase{t.talk, t.whisper} {
		if p != nil && p.key == key && p.group != nil && !p.done {
			t.groupEnd(p)
			t.groupAdvance(p)
		}
	}
}

// pushed takes an utterance an agent pushed: the limits as in the
// rounds, then the broadcast to every agent of the phase.
func (t *table) pushed(s *seat, h *heard) {
	n := logNote{Seat: s.no, Agent: t.name(s.no), Name: s.name, Day: s.st.Day, Sent: h.at.UnixMilli(),
		Reply: truncate(h.text, 2*game.MaxChat)}
	var p *phase
	for _, q := range []*phase{t.talk, t.whisper} {
		if q != nil && q.key == h.key && q.group != nil {
			p = q
		}
	}
	text := strings.TrimSpace(h.text)
	switch {
	case h.gen != s.gen || text == "":
		return // a frame of a connection the agent has left; nothing said
	case p == nil || p.done:
		n.Request, n.Error = "pushed", "the phase had ended"
		t.note(&n)
		return
	}
	n.Request = p.req
	gp, b := p.group, p.budget[s.no]
	switch {
	case b == nil:
		n.Error = "not an agent of this phase"
	case gp.overs[s.no]:
		n.Error = "it had said Over"
	case text != wordOver && (b.count <= 0 || p.setting.MaxLength.PerAgent != nil && b.length <= 0):
		n.Error = "no utterance left"
	}
	if n.Error != "" {
		// Logged once a phase: an agent that keeps sending would fill
		// the request log with its refusals.
		if b != nil && !gp.barred[s.no] {
			gp.barred[s.no] = true
			t.note(&n)
		}
		return
	}
	u := b.take(&p.setting, usertext.Clean(text), t.others(s.no))
	if !u.over && !u.skip {
		b.count-- // no request asked for it, as in the rounds: the utterance spends it
	}
	u.text = truncate1(u.text, game.MaxChat)
	if u.over {
		gp.overs[s.no] = true
	}
	tk := Talk{Day: p.day, Turn: gp.turns[s.no], Agent: t.name(s.no), Text: u.text, Skip: u.skip, Over: u.over, Time: h.at.UnixMilli()}
	gp.turns[s.no]++
	ch, bc := game.ChanDay, ReqTalkBroadcast
	if p.req == ReqWhisper {
		tk.Idx = len(t.whispers)
		t.whispers = append(t.whispers, tk)
		ch, bc = game.ChanWolves, ReqWhisperBroadcast
	} else {
		tk.Idx = len(t.talks)
		t.talks = append(t.talks, tk)
	}
	n.Talk = &tk
	t.note(&n)
	if !u.skip && !u.over && p.key != day0Key {
		t.nextID++
		id := t.nextID
		_ = busyRetry(func() error { return t.a.Chat(s.sub, id, ch, u.text) })
	}
	for _, x := range p.order {
		r := t.seats[x]
		if gp.joined[x] == r.gen+1 && r.currentConn() != nil && !r.done {
			o := t.packet(r, bc, false)
			o.body = withNew(o.body, p.req, &tk)
			r.enqueue(o)
		}
	}
	if t.groupSpent(p) {
		t.groupEnd(p)
		t.groupAdvance(p)
	}
}

// withNew adds new_talk (new_whisper) to an encoded packet.
func withNew(body []byte, req string, tk *Talk) []byte {
	key := `,"new_talk":`
	if req == ReqWhisper {
		key = `,"new_whisper":`
	}
	one := appendTalks(nil, []Talk{*tk}) // [{…}]
	b := append(body[:len(body)-1:len(body)-1], key...)
	b = append(b, one[1:len(one)-1]...)
	return append(b, '}')
}

// listen makes the frames the agent sends on c from now on utterances
// of the group-chat phase that o starts, until its end (sendQueued): the
// connection's reader hands each to the table. Frames already read, and
// not taken by a request, are utterances too.
func (s *seat) listen(c *conn, o *outgoing) {
	key, gen := o.key, o.gen
	hear := func(text string) {
		s.t.box.put(mail{seat: s, push: &heard{key: key, gen: gen, text: text, at: time.Now()}})
	}
	c.hear.Store(&hear)
	c.drain(hear)
}
