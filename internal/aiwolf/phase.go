package aiwolf

import (
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/usertext"
	"github.com/wolfden/wolfden/rules"
)

// phase is one day's talk rounds (or one night's whisper rounds). The
// agents are shuffled once; in each round every agent with utterances
// left is asked once, in turn, each seeing what was said before it. The
// phase ends after a round of nothing but Overs, or after MaxCount.PerDay
// rounds. A person's or a bot's messages in the channel join the history
// as they come.
type phase struct {
	req     string // ReqTalk or ReqWhisper
	key     string
	day     int
	setting TalkSetting
	order   []rules.Seat
	budget  map[rules.Seat]*talker
	round   int // the turn, from 0
	pos     int
	waiting rules.Seat // asked; its reply is awaited
	anyone  bool       // someone said more than Over this round
	done    bool
	told    bool // phaseDone ran
	speech  bool // one speaker's speech turn (a board with ordered speeches)
	morning bool // day 0's morning whisper: its wolves need only be told the day

	group *group // a group-chat phase (groupchat.go), not rounds
}

func (p *phase) turn() int {
	if p == nil {
		return 0
	}
	return p.round
}

func (t *table) newPhase(req, key string, day int, set TalkSetting, seats []rules.Seat) *phase {
	p := &phase{req: req, key: key, day: day, setting: set, order: seats, budget: map[rules.Seat]*talker{}}
	t.rng.Shuffle(len(p.order), func(i, j int) { p.order[i], p.order[j] = p.order[j], p.order[i] })
	for _, x := range seats {
		b := newTalker(&set)
		p.budget[x] = &b
	}
	groupOf(p)
	return p
}

// startTalk begins (or goes on with) today's talk rounds among the living
// agents.
func (t *table) startTalk(s *seat) {
	d := s.st.Day
	t.ensureDay(d)
	if t.talk == nil {
		var seats []rules.Seat
		for _, x := range t.seats {
			if x != nil && has(s.st.Alive, x.no) {
				seats = append(seats, x.no)
			}
		}
		t.talk = t.newPhase(ReqTalk, "talk/"+itoa(d), d, t.reg.Setting.Talk, seats)
	}
	t.advance(t.talk)
}

// startSpeech gives the agent whose speech it is its TALK rounds alone.
// The phase's key names the seat: key (the day and the step's seq) is
// counted in the seat's own stream, and two seats' streams may number
// their speech steps alike.
func (t *table) startSpeech(s *seat, key string) {
	t.ensureDay(s.st.Day)
	k := "speech/" + itoa(int(s.no)) + "/" + key
	if t.talk == nil || t.talk.key != k {
		set := t.reg.Setting.Talk
		set.MaxCount.PerDay = set.MaxCount.PerAgent
		t.talk = t.newPhase(ReqTalk, k, s.st.Day, set, []rules.Seat{s.no})
		t.talk.speech, t.talk.group = true, nil
	}
	t.advance(t.talk)
}

// startWhisper begins (or goes on with) tonight's whisper among the
// living wolf agents: only with two wolves alive or more, and a
// regulation that has a whisper.
func (t *table) startWhisper(s *seat) { t.whisperPhase(s, "whisper/"+itoa(s.st.Day)) }

// whisperPhase begins (or goes on with) the whisper of key, with the
// wolves of seat s's state. Day 0 has two, as the reference's: the
// morning's (morningKey), before the day's talk, and the night's.
func (t *table) whisperPhase(s *seat, key string) {
	d := s.st.Day
	t.ensureNight(d)
	if t.whisper == nil || t.whisper.key != key {
		var seats []rules.Seat
		wolves := 0
		for _, w := range s.st.Wolves {
			if has(s.st.Alive, w) {
				wolves++
				if t.seats[w] != nil {
					seats = append(seats, w)
				}
			}
		}
		t.whisper = t.newPhase(ReqWhisper, key, d, t.reg.Setting.Whisper, seats)
		t.whisper.morning = key == morningKey
		if wolves < 2 || t.reg.Setting.Whisper.MaxCount.PerAgent == 0 {
			t.whisper.done = true
		}
	}
	t.advance(t.whisper)
}

// whisperDone: the whisper of the night after day d is over.
func (t *table) whisperDone(d int) bool {
	return t.whisper != nil && t.whisper.key == "whisper/"+itoa(d) && t.whisper.done
}

// advance asks the next agent of the phase, or ends it.
func (t *table) advance(p *phase) {
	if p.group != nil {
		t.groupAdvance(p)
		return
	}
	for !p.done && p.waiting == 0 {
		if p.pos >= len(p.order) {
			p.pos = 0
			if !p.anyone || p.round+1 >= p.setting.MaxCount.PerDay {
				p.done = true
				break
			}
			p.round++
			p.anyone = false
		}
		x := p.order[p.pos]
		p.pos++
		s := t.seats[x]
		b := p.budget[x]
		if b.count <= 0 || p.setting.MaxLength.PerAgent != nil && b.length <= 0 || s.currentConn() == nil || s.probing || s.done {
			continue
		}
		if p.req == ReqWhisper && s.st.Type != "" && s.st.Day > p.day {
			// The night is over (its other actors were done): its whisper
			// ends rather than carry the next day.
			p.done = true
			break
		}
		if ((p.req == ReqTalk || p.morning) && s.told < p.day) || (p.req == ReqWhisper && !p.morning && (s.finished < p.day || !s.st.Night)) {
			// Its frames of the new day (night) are not read yet (on day 0,
			// maybe none at all: whether it lives is not known yet): it is
			// asked once it has been told them (its own flow comes back here).
			p.pos--
			return
		}
		if !has(s.st.Alive, x) {
			continue
		}
		// As the reference, asking spends one of the agent's utterances,
		// whatever it answers: remain_count tells what is left after it.
		b.count--
		p.waiting = x
		o := t.packet(s, p.req, false)
		o.key = p.key
		s.enqueue(o)
	}
	if p.done && !p.told {
		p.told = true
		t.phaseDone(p)
	}
}

// phaseDone lets the seats go on: the agents say they are ready (the
// discussion), end their speech, or the wolves are asked their attack.
func (t *table) phaseDone(p *phase) {
	if p.key == day0Key { // day 0 is over: DAILY_FINISH, then the night
		t.day0Done = true
		for _, s := range t.seats {
			if s != nil {
				t.flowOnce(s)
			}
		}
		return
	}
	if p.speech {
		if s := t.seats[p.order[0]]; s.readyFor != p.key {
			s.readyFor = p.key
			t.act(s, rules.Command{Kind: rules.CmdSkip})
		}
		return
	}
	night0 := p.req == ReqWhisper && p.day == 0 // it held every seat's night 0
	for _, s := range t.seats {
		if s != nil && (night0 || s.st.Pending && (p.req == ReqTalk || s.wolf())) {
			t.flowOnce(s)
		}
	}
}

// flowOnce runs flow unless it is already running for another seat's
// phase (phaseDone is reached from flow itself).
func (t *table) flowOnce(s *seat) {
	if t.inFlow {
		t.again = append(t.again, s)
		return
	}
	t.inFlow = true
	t.flow(s)
	for len(t.again) > 0 {
		x := t.again[0]
		t.again = t.again[1:]
		t.flow(x)
	}
	t.inFlow = false
}

// spoke takes an agent's TALK or WHISPER reply (failed: it gave none) and
// asks the next agent.
func (t *table) spoke(s *seat, o *outgoing, reply string, failed bool) *Talk {
	p := t.talk
	if o.req == ReqWhisper {
		p = t.whisper
	}
	if p == nil || p.key != o.key || p.waiting != s.no {
		return nil // a phase that ended meanwhile
	}
	b := p.budget[s.no]
	var u utterance
	if failed {
		b.count = 0
		u = utterance{text: wordOver, over: true}
	} else {
		// The rule of user text, by dropping (usertext.Clean): the agents
		// read the talk list and the table hears it; a text of nothing else
		// is an empty reply.
		u = b.take(&p.setting, usertext.Clean(reply), t.others(s.no))
		u.text = truncate1(u.text, game.MaxChat) // what the table hears of it
	}
	if !u.over {
		p.anyone = true
	}
	tk := Talk{Day: p.day, Turn: p.round, Agent: t.name(s.no), Text: u.text, Skip: u.skip, Over: u.over, Time: time.Now().UnixMilli()}
	ch := game.ChanDay
	if p.req == ReqWhisper {
		tk.Idx = len(t.whispers)
		t.whispers = append(t.whispers, tk)
		ch = game.ChanWolves
	} else {
		tk.Idx = len(t.talks)
		t.talks = append(t.talks, tk)
	}
	if !u.skip && !u.over && p.key != day0Key {
		t.nextID++
		id := t.nextID
		_ = busyRetry(func() error { return t.a.Chat(s.sub, id, ch, u.text) })
	}
	p.waiting = 0
	t.advance(p)
	return &tk
}

// others are the in-game names an utterance of seat x may @mention.
func (t *table) others(x rules.Seat) []string {
	out := make([]string, 0, t.n)
	for y := rules.Seat(1); int(y) <= t.n; y++ {
		if y != x {
			out = append(out, t.name(y))
		}
	}
	return out
}

func truncate1(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

func itoa(d int) string {
	return string(rune('0'+d/100%10)) + string(rune('0'+d/10%10)) + string(rune('0'+d%10))
}
