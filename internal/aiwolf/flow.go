package aiwolf

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
			s.told = 0
		}
	}
	if st.Over {
		if !s.done {
			s.mu.Lock()
			s.done = true
			s.mu.Unlock()
			t.over = true
			s.enqueue(t.packet(s, ReqFinish, false))
			s.closeDue = true // once the request log is stored (letGo)
		}
		return
	}
	if !st.Night && s.dayDue > s.told {
		t.dawn()
		s.told = s.dayDue
		s.enqueue(t.packet(s, ReqDailyInitialize, true))
	}
	if !st.Night && isVote(st.Step) && s.finished < st.Day {
		s.finished = st.Day
		if t.talk != nil && t.talk.day == st.Day {
			t.groupEnd(t.talk) // a group chat's agents are told its end first
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
	case req == ReqDivine && st.Day == 0 && t.matched && !t.whisperDone(0):
		// Night 0: the reference's evening whisper comes before the
		// divination, which ends wolfden's first night; asked at once, the
		// seer let day 1 begin in the middle of the wolves' whisper.
		return
	}
	s.asked = key
	o := t.packet(s, req, false)
	o.key = key
	s.acting = true
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

func isAction(req string) bool { _, ok := reqCmd[req]; return ok }

// hold takes an action reply (a VOTE, DIVINE, GUARD or ATTACK's command)
// of a matched game. The game gets it with the others of its round, once
// no other action request awaits its reply (release): a round's votes,
// or the night's divination and guard, are then one write of the store
// instead of one each. Nothing waits on them but the game: an agent is
// told nothing after its reply until the round is over, and the reference
// too collects every vote before it counts them. A web room's agent acts
// at once, on its room's timers, beside people.
func (t *table) hold(s *seat, c rules.Command) {
	if !t.matched {
		t.act(s, c)
		return
	}
	t.nextID++
	t.acts[t.nextID] = s
	t.held = append(t.held, game.Acting{Sub: s.sub, ID: t.nextID, Cmd: c})
	if c.Kind == rules.CmdVote || isVote(s.st.Step) {
		t.voteDay, t.voteAlive = s.st.Day, s.st.Alive
	}
	if t.heldStop == nil {
		// A real timer, not opts.After: the tests' clocks are the phases'.
		t.heldStop = time.AfterFunc(t.holdWait(), func() { t.box.put(mail{release: true}) }).Stop
	}
}

// holdWait bounds how long a reply is held, whatever the table's
// bookkeeping: the longest an action request can take, and a second.
func (t *table) holdWait() time.Duration {
	return t.g.opts.ActionTimeout + t.g.opts.Acceptable + time.Second
}

// release hands the held replies to the game in one call, when no seat's
// action request awaits its reply (an agent being probed or played by the
// bot does not count), or at once when forced.
func (t *table) release(force bool) {
	if len(t.held) == 0 {
		return
	}
	if !force {
		for _, s := range t.seats {
			if s != nil && !s.probing && !s.away && (s.acting || t.toVote(s)) {
				return
			}
		}
	}
	if t.heldStop != nil {
		t.heldStop()
		t.heldStop = nil
	}
	held := t.held
	t.held, t.voteAlive = t.held[:0], nil
	if err := busyRetry(func() error { return t.a.ActAll(held) }); err != nil {
		for _, h := range held {
			s := t.acts[h.ID]
			delete(t.acts, h.ID)
			if s != nil {
				s.defaulted = true
				t.reconcile(s)
			}
		}
	}
}

// toVote: a vote is held and the seat will be asked for its own in the
// same round, though its frames of the vote have not been read yet (each
// seat's frames come on their own, and the first votes may come back
// before the last seats are told the vote began).
func (t *table) toVote(s *seat) bool {
	if t.voteAlive == nil || !has(t.voteAlive, s.no) || s.done || s.currentConn() == nil {
		return false
	}
	st := &s.st
	return st.Day < t.voteDay || st.Day == t.voteDay && !st.Night && !isVote(st.Step)
}

// unhold drops the seat's held replies: its agent reconnected and is
// asked again.
func (t *table) unhold(s *seat) {
	t.held = slices.DeleteFunc(t.held, func(h game.Acting) bool {
		if h.Sub == s.sub {
			delete(t.acts, h.ID)
			return true
		}
		return false
	})
}

// reported takes a request's outcome.
func (t *table) reported(s *seat, r *report) {
	o := r.out
	if isAction(o.req) {
		s.acting = false
	}
	n := logNote{Seat: s.no, Agent: t.name(s.no), Name: s.name, Request: o.req, Day: o.day,
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
			if t.noAction(s, o.req) {
				n.Error += " (no action, as the reference)"
				return
			}
			t.g.log.Info("aiwolf: a reply was refused; the bot plays the step", "room", t.room, "agent", t.name(s.no), "request", o.req, "err", why)
			s.defaulted = true
		}
	}
}

// noAction plays an illegal VOTE, DIVINE or GUARD reply of a matched
// game as the reference does: as no vote, no divination, no guard (the
// seat abstains or passes). A web room's agent seat is played by the bot
// instead (false), and so is an ATTACK, which the wolves may not pass.
func (t *table) noAction(s *seat, req string) bool {
	if !t.matched || req == ReqAttack {
		return false
	}
	for _, c := range s.st.Choices {
		if c.Cmd == "skip" {
			t.hold(s, rules.Command{Kind: rules.CmdSkip})
			return true
		}
	}
	return false
}

// target plays a VOTE/DIVINE/GUARD/ATTACK reply, or says why it cannot.
func (t *table) target(s *seat, req, reply string) string {
	name := strings.TrimSpace(reply)
	x := t.names.seat(name, t.n)
	if x == 0 {
		return fmt.Sprintf("%q names no agent of this game (%s to %s)", truncate(name, 40), t.name(1), t.name(rules.Seat(t.n)))
	}
	if x == s.no && t.matched && (req == ReqDivine || req == ReqGuard) {
		// wolfden's guard may protect himself; the reference ignores it
		return fmt.Sprintf("%s names oneself (a %s of oneself is ignored)", name, req)
	}
	c, _ := choose(&s.st)
	if c == nil || !has(c.Targets, x) {
		legal := make([]string, 0, 16)
		if c != nil {
			for _, y := range c.Targets {
				legal = append(legal, t.name(y))
			}
		}
		return fmt.Sprintf("%s may not be chosen now (legal: %s)", name, strings.Join(legal, ", "))
	}
	t.hold(s, rules.Command{Kind: reqCmd[req], Target: x})
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
	kept := s.queue[:0]
	for _, o := range s.queue {
		if o.close || !needsReply(o.req) {
			kept = append(kept, o)
		} else if isAction(o.req) {
			s.acting = false
		}
	}
	s.queue = kept
}

// packet builds a packet for seat s from what it knows. As the
// reference's, every packet of a day tells the previous day's results,
// and FINISH, a day past the last one played, tells the last day's.
func (t *table) packet(s *seat, req string, setting bool) *outgoing {
	st := &s.st
	day := st.Day
	if req == ReqFinish {
		// A vote's win ends the game in its day, an attack's at the next
		// dawn; either way the reference's FINISH is the next day's.
		day = max(st.Day, s.told+1)
	}
	in := &Info{GameID: t.gameID, Day: day, Agent: t.name(s.no)}
	// Both maps in their keys' order, in the table's scratch list: the
	// packet is written before this returns.
	order := t.byNames()
	ps := t.pairs[:0]
	for _, x := range order {
		status := "DEAD"
		if has(st.Alive, x) {
			status = "ALIVE"
		}
		ps = append(ps, pair{t.name(x), status})
	}
	me := roleByString[st.Role]
	for _, x := range order {
		// Wolves see wolves; FINISH shows everyone. An agent back after
		// the end is sent INITIALIZE first, which tells its own role only,
		// as at the start.
		r, known := st.Known[int(x)]
		switch {
		case known && (req == ReqFinish || s.wolf() && has(st.Wolves, x)):
			ps = append(ps, pair{t.name(x), roleName(roleByString[r])})
		case x == s.no:
			ps = append(ps, pair{t.name(x), roleName(me)})
		}
	}
	in.statusList, in.roleList = ps[:len(order):len(order)], ps[len(order):]
	t.pairs = ps
	if req == ReqInitialize && t.profiles != nil {
		in.Profile = t.profiles[s.no]
	}
	t.tell(s, in, s.resultsOf(day-1), req == ReqFinish)
	p := Packet{Request: req, Info: in}
	if setting || req == ReqDailyInitialize {
		set := t.reg.Setting
		p.Setting = &set
	}
	switch req {
	case ReqTalk, ReqDailyFinish:
		h := t.talkDelta(s)
		p.TalkHistory = &h
	}
	switch {
	case req == ReqWhisper || req == ReqAttack || req == ReqDailyFinish && s.wolf():
		h := t.whisperDelta(s)
		p.WhisperHistory = &h
	}
	if ph := t.phaseFor(req); ph != nil {
		if b := ph.budget[s.no]; b != nil {
			set := ph.setting
			in.RemainCount, in.RemainSkip = intp(b.count), intp(set.MaxSkip-b.skips)
			if set.MaxLength.PerAgent != nil {
				in.RemainLength = intp(b.length)
			}
		}
	}
	return &outgoing{req: req, day: st.Day, body: encodePacket(&p, t.setting)}
}

// tell puts a day's results in an info. At the end (over) the medium is
// told the last execution even when the game ended before wolfden's
// gravekeeper learns it (the night after): the reference tells it at the
// execution, and every card is shown by then anyway.
func (t *table) tell(s *seat, in *Info, r *results, over bool) {
	if r == nil {
		return
	}
	if r.executed != 0 {
		in.ExecutedAgent = t.name(r.executed)
	}
	if r.attacked != 0 {
		in.AttackedAgent = t.name(r.attacked)
	}
	in.DivineResult = t.judge(r.divine)
	med := r.medium
	if over && med == nil && r.executed != 0 && roleByString[s.st.Role] == rules.Gravekeeper {
		if role, ok := roleByString[s.st.Known[int(r.executed)]]; ok {
			med = &judge{day: in.Day - 1, by: s.no, target: r.executed, wolf: role.Camp() == rules.Wolves && role != rules.Possessed}
		}
	}
	in.MediumResult = t.judge(med)
	in.VoteList = t.votes(r.votes)
	if s.wolf() {
		in.AttackVoteList = t.votes(r.attackVotes)
	}
}

func (t *table) judge(j *judge) *Judge {
	if j == nil {
		return nil
	}
	res := "HUMAN"
	if j.wolf {
		res = "WEREWOLF"
	}
	return &Judge{Day: j.day, Agent: t.name(j.by), Target: t.name(j.target), Result: res}
}

func (t *table) votes(bs []ballot) []Vote {
	if len(bs) == 0 {
		return nil
	}
	vs := make([]Vote, len(bs))
	for i, b := range bs {
		vs[i] = Vote{Day: b.day, Agent: t.name(b.voter), Target: t.name(b.target)}
	}
	return vs
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
	// The first line holds a game's custom in-game names (by seat, from
	// 0) and profiles, if it has them: a restored game keeps them, and
	// the CSV log names the seats by them.
	Names    []string `json:"names,omitempty"`
	Profiles []string `json:"profiles,omitempty"`
}

// NoteKind is the kind of the records that hold the request log.
const NoteKind = "aiwolf"

// note adds a line to the request log.
func (t *table) note(n *logNote) {
	t.notes = append(t.notes, *n)
}

// maxHeldNotes bounds the lines a matched game holds before it stores
// them, whatever the day.
const maxHeldNotes = 4096

// flushNotes stores the request log's lines held so far. A matched game
// stores them a day at a time (once a line of the next day is in) and at
// the end (flushNotesWait): a few large writes instead of one a turn of
// the conductor (a 5-player game's commits went from 59 to 29). The
// game's commands (votes, talk, actions) are stored
// before they are acknowledged, as ever; what a crash can lose is the
// log's lines of the day in progress. A web room's table stores its
// lines each turn: at people's pace a crash then loses nothing of it.
func (t *table) flushNotes() {
	if len(t.notes) == 0 {
		return
	}
	// A late line of the day before (a reply that came after the day's
	// first broadcast) does not make a write of its own.
	if t.matched && len(t.notes) < maxHeldNotes && t.notes[len(t.notes)-1].Day <= t.notes[0].Day {
		return
	}
	if !t.matched {
		t.storeNotes()
		return
	}
	// A matched game's day goes with the game's next write (a command, a
	// message): no write of its own.
	b, _ := json.Marshal(t.notes)
	t.notes = t.notes[:0]
	_ = busyRetry(func() error { return t.a.NoteLater(NoteKind, b) })
}

// storeNotes stores the lines held now.
func (t *table) storeNotes() {
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
	t.note(&logNote{Seat: s.no, Agent: t.name(s.no), Name: s.name, Request: "refused", Day: s.st.Day,
		Sent: time.Now().UnixMilli(), Error: why})
}
