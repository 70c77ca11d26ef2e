package aiwolf

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// How a wolfden game reads as an AIWolf one. AIWolf's day 0 is the time
// before wolfden's first night (first_phase=night): DAILY_INITIALIZE and
// DAILY_FINISH of day 0 come at the first night, whose whisper is day 0's
// and whose check is night 0's divination. Day d is wolfden's day d:
// DAILY_INITIALIZE at dawn, TALK rounds in the free discussion, then
// DAILY_FINISH and VOTE at the exile vote; the night after day d (wolfden
// night d+1) has WHISPER rounds, then ATTACK, with DIVINE and GUARD at
// once. Info.day is the state's day, which at night is the day before.

// flow sends seat s what its latest state calls for.
func (t *table) flow(s *seat) {
	st := &s.st
	if st.Type == "" || s.done || s.currentConn() == nil {
		return
	}
	if !s.inited {
		s.inited = true
		s.enqueue(t.packet(s, ReqInitialize, true))
		if st.Night && st.Day == 0 { // the first night: day 0 is told first
			s.enqueue(t.packet(s, ReqDailyInitialize, true))
			s.told, s.res = 0, results{}
		}
	}
	if st.Over {
		if !s.done {
			s.mu.Lock()
			s.done = true
			s.mu.Unlock()
			t.over = true
			s.enqueue(t.packet(s, ReqFinish, false))
			s.enqueue(&outgoing{close: true})
		}
		return
	}
	if !st.Night && s.dayDue > s.told {
		s.told = s.dayDue
		s.enqueue(t.packet(s, ReqDailyInitialize, true))
		s.res = results{}
	}
	if !st.Night && isVote(st.Step) && s.finished < st.Day {
		s.finished = st.Day
		if t.talk != nil && t.talk.day == st.Day {
			t.talk.done = true // the day's talk is over, whoever had not finished
		}
		s.enqueue(t.packet(s, ReqDailyFinish, false))
	}
	if st.Night && st.Day == 0 && t.day0Talk() && !t.day0Done {
		// Day 0's morning whisper (13 players), then its talk, before
		// anything of the night is asked.
		if t.night0Whisper() && !t.morningDone() {
			t.startDay0Whisper(morningKey)
			return
		}
		t.startDay0(s)
		return
	}
	if st.Night && st.Day > s.finished { // a night without a vote (day 0's)
		s.finished = st.Day
		s.enqueue(t.packet(s, ReqDailyFinish, false))
	}
	if st.Night && s.wolf() && s.alive() {
		t.startWhisper(s)
	}
	if st.Night && st.Day == 0 && t.night0Whisper() && !t.whisperDone(0) {
		// AIWolf's night 0: DAILY_FINISH, the wolves' whisper, then the
		// divination. Nothing of the night is asked before the whisper
		// ends: the seer's check would end wolfden's first night (it has
		// no attack to wait for), and the whisper would run into day 1.
		t.startDay0Whisper("whisper/" + itoa(0))
		return
	}
	if !st.Pending || s.away && !s.defaulted && s.probing {
		return
	}
	key := fmt.Sprintf("%d/%d", st.Day, s.stepSeq)
	switch {
	case !st.Night && st.Step == "discussion":
		t.startTalk(s)
		if t.talk != nil && t.talk.done && s.readyFor != t.talk.key {
			s.readyFor = t.talk.key
			t.act(s, rules.Command{Kind: rules.CmdSkip})
		}
		return
	case !st.Night && st.Step == "speech" && st.Turn == s.no:
		t.startSpeech(s, key)
		return
	}
	if s.asked == key || s.away {
		return
	}
	c, req := choose(st)
	switch {
	case req == "":
		if c != nil { // a step AIWolf does not have: pass, as its timeout would
			s.asked = key
			t.act(s, rules.Command{Kind: rules.CmdSkip})
		}
		return
	case req == ReqGuard && st.Day == 0:
		// AIWolf's night 0 has only the divination: the guard passes.
		s.asked = key
		t.act(s, rules.Command{Kind: rules.CmdSkip})
		return
	case req == ReqAttack && !t.whisperDone(st.Day):
		return // the wolves whisper first
	}
	s.asked = key
	o := t.packet(s, req, false)
	o.key = key
	s.enqueue(o)
}

// day0Talk: a matched game has day 0's talk rounds, in the first night.
// Everyone at its table is an agent and hears all of it; the talk is in
// the request log (and the CSV), not in the game's day channel, which is
// closed at night. A web room has none: its people could not hear it.
func (t *table) day0Talk() bool { return t.matched }

// startDay0 begins (or goes on with) day 0's talk rounds.
func (t *table) startDay0(s *seat) {
	t.ensureDay(0)
	if t.talk == nil {
		var seats []rules.Seat
		for _, x := range t.seats {
			if x != nil && has(s.st.Alive, x.no) {
				seats = append(seats, x.no)
			}
		}
		t.talk = t.newPhase(ReqTalk, day0Key, 0, t.reg.Setting.Talk, seats)
	}
	t.advance(t.talk)
}

const day0Key = "talk/day0"

// night0Whisper: a matched game's regulation has day 0's whispers (13
// players): the morning's, which holds the day's talk, and the night's,
// which holds the night's other requests (flow).
func (t *table) night0Whisper() bool {
	return t.matched && t.reg.Setting.Whisper.MaxCount.PerAgent > 0
}

const morningKey = "whisper/day0"

// morningDone: day 0's morning whisper is over.
func (t *table) morningDone() bool {
	w := t.whisper
	return w != nil && t.whispDay == 0 && (w.key != morningKey || w.done)
}

// startDay0Whisper begins (or goes on with) one of day 0's whispers from
// a wolf's state, once one was read; until then a wolf's own flow comes
// back here.
func (t *table) startDay0Whisper(key string) {
	for _, w := range t.seats {
		if w != nil && w.st.Night && w.st.Day == 0 && w.wolf() && w.alive() {
			t.whisperPhase(w, key)
			return
		}
	}
}

// choose is the AIWolf request for the seat's choices, and the choice.
func choose(st *frame) (*game.ChoiceJSON, string) {
	var skip *game.ChoiceJSON
	for i := range st.Choices {
		c := &st.Choices[i]
		switch c.Cmd {
		case "vote":
			return c, ReqVote
		case "check":
			return c, ReqDivine
		case "protect":
			return c, ReqGuard
		case "attack":
			return c, ReqAttack
		case "skip":
			skip = c
		}
	}
	return skip, ""
}

func isVote(step string) bool { return step == "vote" || step == "pk_vote" }

var reqCmd = map[string]rules.CmdKind{ReqVote: rules.CmdVote, ReqDivine: rules.CmdCheck, ReqGuard: rules.CmdProtect, ReqAttack: rules.CmdAttack}

// act sends a command on the seat; a refusal (an error frame with its id)
// hands the step to the bot.
func (t *table) act(s *seat, c rules.Command) {
	t.nextID++
	t.acts[t.nextID] = s
	id := t.nextID
	if err := busyRetry(func() error { return t.a.Act(s.sub, id, c) }); err != nil {
		delete(t.acts, t.nextID)
		s.defaulted = true
	}
}

// reported takes a request's outcome.
func (t *table) reported(s *seat, r *report) {
	o := r.out
	n := logNote{Seat: s.no, Agent: AgentName(s.no), Name: s.name, Request: o.req, Day: o.day,
		Sent: r.sent.UnixMilli(), Micros: r.latency.Microseconds(), Reply: truncate(r.reply, 2*game.MaxChat)}
	defer func() { t.note(&n) }()
	if o.gen != s.gen { // asked on a connection the agent has left
		n.Error = "stale: the agent reconnected (" + errString(r.err) + ")"
		return
	}
	if r.err != nil {
		n.Error = r.err.Error()
		if r.err == errTimeout {
			s.probing = true
		} else if c := s.currentConn(); c != nil && c.gone() {
			s.dropConn(c)
		}
		t.purge(s)
		s.asked = ""
		switch o.req {
		case ReqTalk, ReqWhisper:
			t.spoke(s, o, "", true)
		default:
			s.defaulted = true
		}
		return
	}
	switch o.req {
	case ReqTalk, ReqWhisper:
		n.Talk = t.spoke(s, o, r.reply, false)
	case ReqVote, ReqDivine, ReqGuard, ReqAttack:
		if s.asked != o.key || !s.st.Pending { // the step ended meanwhile
			n.Error = "the step had ended"
			return
		}
		if why := t.target(s, o.req, r.reply); why != "" {
			n.Error = why
			t.g.log.Info("aiwolf: a reply was refused; the bot plays the step", "room", t.room, "agent", AgentName(s.no), "request", o.req, "err", why)
			s.defaulted = true
		}
	}
}

// target plays a VOTE/DIVINE/GUARD/ATTACK reply, or says why it cannot.
func (t *table) target(s *seat, req, reply string) string {
	name := strings.TrimSpace(reply)
	x := seatOf(name, t.n)
	if x == 0 {
		return fmt.Sprintf("%q names no agent of this game (Agent[01] to %s)", truncate(name, 40), AgentName(rules.Seat(t.n)))
	}
	c, _ := choose(&s.st)
	if c == nil || !has(c.Targets, x) {
		legal := make([]string, 0, 16)
		if c != nil {
			for _, y := range c.Targets {
				legal = append(legal, AgentName(y))
			}
		}
		return fmt.Sprintf("%s may not be chosen now (legal: %s)", name, strings.Join(legal, ", "))
	}
	t.act(s, rules.Command{Kind: reqCmd[req], Target: x})
	return ""
}

func errString(err error) string {
	if err == nil {
		return "answered"
	}
	return err.Error()
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// purge fails the requests still queued for a seat whose agent failed
// one: the bot plays them.
func (t *table) purge(s *seat) {
	s.mu.Lock()
	kept := s.queue[:0]
	for _, o := range s.queue {
		if o.close || !needsReply(o.req) {
			kept = append(kept, o)
		}
	}
	s.queue = kept
	s.mu.Unlock()
}

// packet builds a packet for seat s from what it knows.
func (t *table) packet(s *seat, req string, setting bool) *outgoing {
	st := &s.st
	in := &Info{GameID: t.gameID, Day: st.Day, Agent: AgentName(s.no),
		StatusMap: map[string]string{}, RoleMap: map[string]string{}}
	for x := rules.Seat(1); int(x) <= t.n; x++ {
		in.StatusMap[AgentName(x)] = map[bool]string{true: "ALIVE", false: "DEAD"}[has(st.Alive, x)]
	}
	me := roleByString[st.Role]
	in.RoleMap[AgentName(s.no)] = roleName(me)
	for x, r := range st.Known {
		role := roleByString[r]
		// Wolves see wolves; at the end everyone is shown.
		if st.Over || (s.wolf() && has(st.Wolves, rules.Seat(x))) {
			in.RoleMap[AgentName(rules.Seat(x))] = roleName(role)
		}
	}
	if req == ReqDailyInitialize {
		if s.res.executed != 0 {
			in.ExecutedAgent = AgentName(s.res.executed)
		}
		if s.res.attacked != 0 {
			in.AttackedAgent = AgentName(s.res.attacked)
		}
		in.DivineResult, in.MediumResult = s.res.divine, s.res.medium
		in.VoteList = s.res.votes
		if s.wolf() {
			in.AttackVoteList = s.res.attackVotes
		}
	}
	p := Packet{Request: req, Info: in}
	if setting || req == ReqDailyInitialize {
		set := t.reg.Setting
		p.Setting = &set
	}
	switch req {
	case ReqTalk, ReqDailyFinish:
		p.TalkHistory = t.talkDelta(s)
	}
	switch req {
	case ReqWhisper, ReqAttack:
		p.WhisperHistory = t.whisperDelta(s)
	case ReqDailyFinish:
		if s.wolf() {
			p.WhisperHistory = t.whisperDelta(s)
		}
	case ReqFinish:
		// the whole role map: st.Known holds every card once over
	}
	if req == ReqTalk || req == ReqWhisper {
		ph := t.talk
		if req == ReqWhisper {
			ph = t.whisper
		}
		if ph != nil {
			if b := ph.budget[s.no]; b != nil {
				set := ph.setting
				in.RemainCount, in.RemainSkip = intp(b.count), intp(set.MaxSkip-b.skips)
				if set.MaxLength.PerAgent != nil {
					in.RemainLength = intp(b.length)
				}
			}
		}
	}
	return &outgoing{req: req, day: st.Day, body: encodePacket(&p, t.setting)}
}

func (t *table) talkDelta(s *seat) []Talk {
	if t.talkDay != s.st.Day {
		return []Talk{}
	}
	d := append([]Talk{}, t.talks[min(s.talkSeen, len(t.talks)):]...)
	s.talkSeen = len(t.talks)
	return d
}

func (t *table) whisperDelta(s *seat) []Talk {
	if t.whispDay != s.st.Day {
		return []Talk{}
	}
	d := append([]Talk{}, t.whispers[min(s.whisSeen, len(t.whispers)):]...)
	s.whisSeen = len(t.whispers)
	return d
}

// logNote is one line of the game's request log (stored with its
// records, kind "aiwolf"): the request, when it went out, the reply and
// how long it took, or why it failed.
type logNote struct {
	Seat    rules.Seat `json:"seat"`
	Agent   string     `json:"agent"`
	Name    string     `json:"name"`
	Request string     `json:"request"`
	Day     int        `json:"day"`
	Sent    int64      `json:"sent"`              // unix ms
	Micros  int64      `json:"latency_us"`        // the reply's latency
	Reply   string     `json:"reply,omitempty"`   // as the agent sent it
	Talk    *Talk      `json:"talk,omitempty"`    // what a TALK or WHISPER reply became under the limits
	Error   string     `json:"error,omitempty"`   // a refusal, a timeout, a lost connection
	GameID  string     `json:"game_id,omitempty"` // the first line of a game names it
}

// NoteKind is the kind of the records that hold the request log.
const NoteKind = "aiwolf"

// note adds a line to the request log. Lines are stored in batches, one
// record per turn of the conductor (flushNotes): a broadcast to thirteen
// agents is one message to the game, not thirteen.
func (t *table) note(n *logNote) {
	t.notes = append(t.notes, *n)
}

func (t *table) flushNotes() {
	if len(t.notes) == 0 {
		return
	}
	b, _ := json.Marshal(t.notes)
	t.notes = t.notes[:0]
	_ = busyRetry(func() error { return t.a.Note(NoteKind, b) })
}

// flushNotesWait stores the last lines before the game may stop.
func (t *table) flushNotesWait() {
	if len(t.notes) == 0 {
		return
	}
	b, _ := json.Marshal(t.notes)
	t.notes = t.notes[:0]
	_ = busyRetry(func() error { return t.a.NoteWait(NoteKind, b) })
}

// busyRetry sends to the game again while its queue is full: a reply, a
// talk or a log line must not be lost to a burst. The game drains its
// queue in microseconds; a game that stays full for a second is stuck,
// and the error stands.
func busyRetry(f func() error) error {
	err := f()
	for i := 0; errors.Is(err, game.ErrBusy) && i < 1000; i++ {
		time.Sleep(time.Millisecond)
		err = f()
	}
	return err
}

func (t *table) noteRefusal(s *seat, why string) {
	t.note(&logNote{Seat: s.no, Agent: AgentName(s.no), Name: s.name, Request: "refused", Day: s.st.Day,
		Sent: time.Now().UnixMilli(), Error: why})
}
