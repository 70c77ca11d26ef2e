package aiwolf

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// newTableAt is a matched table of agents on preset, built by hand (no
// actor, no sockets): every seat has a connection; nothing was read of
// its stream yet.
func newTableAt(t *testing.T, preset string) *table {
	t.Helper()
	p, err := rules.LookupPreset(preset)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(0)
	if err != nil {
		t.Fatal(err)
	}
	g := &Gateway{opts: Options{Players: b.Players()}}
	g.opts.defaults()
	agents := map[rules.Seat]string{}
	for x := rules.Seat(1); int(x) <= b.Players(); x++ {
		agents[x] = "team" + itoa(int(x))
	}
	tb := newTable(g, Game{Room: "r", Board: b, Seed: 7}, "01J00000000000000000000000", agents)
	tb.matched = true
	for _, s := range tb.seats[1:] {
		s.c = &conn{done: make(chan struct{})}
	}
	return tb
}

// stateLine is a state frame.
func stateLine(day int, night bool, step string, turn int, alive []rules.Seat, wolves []rules.Seat, choices string) string {
	a, _ := json.Marshal(alive)
	w := ""
	if len(wolves) > 0 {
		b, _ := json.Marshal(wolves)
		w = `,"wolves":` + string(b)
	}
	pending, ch := "false", ""
	if choices != "" {
		pending, ch = "true", `,"choices":`+choices
	}
	return fmt.Sprintf(`{"type":"state","day":%d,"night":%v,"step":%q,"turn":%d,"role":"villager","alive":%s%s,"pending":%s%s}`,
		day, night, step, turn, a, w, pending, ch)
}

func seatsUpTo(n int) []rules.Seat {
	out := make([]rules.Seat, n)
	for i := range out {
		out[i] = rules.Seat(i + 1)
	}
	return out
}

// queued lists the requests queued for a seat, and empties its queue.
func queued(s *seat) []*outgoing {
	q := s.queue
	s.queue = nil
	return q
}

func hasReq(q []*outgoing, req string) *outgoing {
	for _, o := range q {
		if o.req == req {
			return o
		}
	}
	return nil
}

// TestDay0TalkAsksEveryAgentAndOneOverDoesNotEndIt: day 0's talk rounds
// begin with the first agent whose stream is read; an agent whose first
// state is not read yet is waited for, not skipped (its state says
// nothing of who lives yet), and one early Over does not end day 0 after
// a single utterance.
func TestDay0TalkAsksEveryAgentAndOneOverDoesNotEndIt(t *testing.T) {
	tb := newTableAt(t, "aiwolf-5")
	first := true
	asked := map[rules.Seat]bool{}
	for _, s := range tb.seats[1:] {
		tb.handle(&mail{seat: s, msg: []byte(stateLine(0, true, "night", 0, seatsUpTo(5), nil, ""))})
		for p := tb.talk; p != nil && !p.done && p.waiting != 0; {
			w := tb.seats[p.waiting]
			o := hasReq(queued(w), ReqTalk)
			if o == nil {
				t.Fatalf("the rounds wait on seat %d, which has no TALK", w.no)
			}
			asked[w.no] = true
			reply := wordOver
			if first { // the first to speak says Over at once
				first = false
			} else if p.round == 0 {
				reply = "hello"
			}
			tb.spoke(w, o, reply, false)
		}
		if tb.day0Done && len(asked) < 5 {
			t.Fatalf("day 0's talk ended once seats %v were asked, not all five", asked)
		}
	}
	if !tb.day0Done {
		t.Fatalf("day 0's talk did not end: %+v", tb.talk)
	}
	if len(asked) != 5 {
		t.Errorf("day 0's talk asked seats %v, not all five", asked)
	}
	if n := len(tb.talks); n < 9 { // round 1: Over and four utterances; round 2: four Overs
		t.Errorf("day 0's talk has %d entries, want 9: %+v", n, tb.talks)
	}
}

// TestNight0WhisperComesBeforeTheDivination: AIWolf's night 0 on 13
// players is DAILY_FINISH, the wolves' whisper, then DIVINE. The seer's
// check would end wolfden's first night (no attack holds it), so it is
// not asked before the whisper ends, and the whisper's packets carry day
// 0. A whisper the night outlives all the same (the seer's seat played
// by the bot) ends at dawn rather than carry day 1. (What the wolves hear
// of each other: TestNight0WhisperIsHeardOnDay0, with the game.)
func TestNight0WhisperComesBeforeTheDivination(t *testing.T) {
	wolves := []rules.Seat{11, 12, 13}
	night := func(tb *table, s *seat) {
		var w []rules.Seat
		ch := ""
		if has(wolves, s.no) {
			w = wolves
		}
		if s.no == 1 {
			ch = `[{"cmd":"check","targets":[2,3,4,5,6,7,8,9,10,11,12,13]}]`
		}
		tb.handle(&mail{seat: s, msg: []byte(stateLine(0, true, "night", 0, seatsUpTo(13), w, ch))})
	}
	newNight := func() *table {
		tb := newTableAt(t, "aiwolf-13")
		tb.day0Done = true
		for _, s := range tb.seats[1:] {
			s.inited, s.told = true, 0
		}
		return tb
	}
	tb := newNight()
	night(tb, tb.seats[1]) // the seer first
	if q := queued(tb.seats[1]); hasReq(q, ReqDivine) != nil || hasReq(q, ReqDailyFinish) == nil {
		t.Fatalf("the seer, before the wolves' whisper: %v", reqs(q))
	}
	for _, s := range tb.seats[2:] {
		night(tb, s)
	}
	asked := 0
	for p := tb.whisper; p != nil && !p.done; asked++ {
		if p.waiting == 0 || asked > 3 {
			t.Fatalf("the whisper waits on nobody: %+v", p)
		}
		w := tb.seats[p.waiting]
		o := hasReq(queued(w), ReqWhisper)
		if o == nil {
			t.Fatalf("the whisper waits on seat %d, which has no WHISPER", w.no)
		}
		var pk Packet
		if err := json.Unmarshal(o.body, &pk); err != nil {
			t.Fatal(err)
		}
		if pk.Info.Day != 0 {
			t.Errorf("night 0's WHISPER carries day %d", pk.Info.Day)
		}
		if q := queued(tb.seats[1]); hasReq(q, ReqDivine) != nil {
			t.Fatalf("the seer was asked DIVINE during the whisper")
		}
		tb.spoke(w, o, wordOver, false)
	}
	if asked != 3 {
		t.Errorf("night 0's whisper asked %d wolves, want 3", asked)
	}
	if q := queued(tb.seats[1]); hasReq(q, ReqDivine) == nil {
		t.Fatalf("the seer was not asked DIVINE once the whisper ended: %v", reqs(q))
	}

	// The night ends (the bot checked for the seer) while the wolves whisper.
	tb = newNight()
	for _, s := range tb.seats[1:] {
		night(tb, s)
	}
	p := tb.whisper
	if p == nil || p.waiting == 0 {
		t.Fatalf("no whisper: %+v", p)
	}
	w := tb.seats[p.waiting]
	o := hasReq(queued(w), ReqWhisper)
	for _, s := range tb.seats[1:] {
		var ws []rules.Seat
		if has(wolves, s.no) {
			ws = wolves
		}
		tb.handle(&mail{seat: s, msg: []byte(`{"type":"event","seq":90,"kind":"day","value":1}` + "\n" +
			stateLine(1, false, "discussion", 0, seatsUpTo(13), ws, ""))})
	}
	tb.spoke(w, o, wordOver, false)
	for _, s := range tb.seats[11:] {
		for _, o := range queued(s) {
			if o.req == ReqWhisper {
				t.Errorf("%s was asked WHISPER after day 1's dawn (day %d)", AgentName(s.no), o.day)
			}
		}
	}
	if !p.done {
		t.Errorf("night 0's whisper goes on into day 1")
	}
}

func reqs(q []*outgoing) []string {
	var out []string
	for _, o := range q {
		out = append(out, o.req)
	}
	return out
}

// TestEachSpeakerOfAWebRoomIsAskedToTalk: a speech's TALK phase is keyed
// by the seat's step; two seats' streams may number their speech steps
// alike (each counts its own events), and the next speaker must still be
// asked, not taken for the speaker whose phase ended.
func TestEachSpeakerOfAWebRoomIsAskedToTalk(t *testing.T) {
	tb := dawnTable(t)
	tb.matched = false
	speech := func(s *seat, seq int) {
		tb.handle(&mail{seat: s, msg: []byte(fmt.Sprintf(`{"type":"event","seq":%d,"kind":"day","value":1}`, seq-1) + "\n" +
			fmt.Sprintf(`{"type":"event","seq":%d,"kind":"step","value":1,"seat":%d}`, seq, s.no) + "\n" +
			stateLine(1, false, "speech", int(s.no), seatsUpTo(5), nil, `[{"cmd":"skip","no_target":true}]`))})
	}
	first, next := tb.seats[1], tb.seats[2]
	speech(first, 40)
	if hasReq(queued(first), ReqTalk) == nil {
		t.Fatalf("seat 1 was not asked to talk in its speech")
	}
	// Its speech ends (phaseDone readied it: the actor is not here).
	tb.talk.done, tb.talk.told = true, true
	first.readyFor = tb.talk.key
	speech(next, 40) // the same seq, in seat 2's own stream
	if hasReq(queued(next), ReqTalk) == nil {
		t.Fatalf("seat 2 was not asked to talk in its speech (phase %q)", tb.talk.key)
	}
}
