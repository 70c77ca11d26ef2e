package aiwolf

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// dawnTable is a 5-agent table at day 1's discussion, built by hand (no
// actor, no sockets): every seat has a connection and was told day 0.
func dawnTable(t *testing.T) *table {
	t.Helper()
	p, err := rules.LookupPreset("aiwolf-5")
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(5)
	if err != nil {
		t.Fatal(err)
	}
	g := &Gateway{opts: Options{Players: 5}}
	g.opts.defaults()
	agents := map[rules.Seat]string{}
	for x := rules.Seat(1); x <= 5; x++ {
		agents[x] = "team" + itoa(int(x))
	}
	tb := newTable(g, Game{Room: "r", Board: b, Seed: 7}, "id", agents)
	tb.matched, tb.day0Done = true, true
	for _, s := range tb.seats[1:] {
		s.c = &conn{done: make(chan struct{})}
		s.inited, s.told, s.finished = true, 0, 0
		s.st = frame{Type: "state", Day: 0, Night: true, Alive: []rules.Seat{1, 2, 3, 4, 5}}
	}
	return tb
}

// dayFrames are a seat's frames at day 1's dawn: the day event, then its
// state in the discussion.
func dayFrames(pending bool) []byte {
	p := "false"
	if pending {
		p = "true"
	}
	return []byte(`{"type":"event","seq":9,"kind":"day","value":1}` + "\n" +
		`{"type":"state","day":1,"step":"discussion","pending":` + p + `,"alive":[1,2,3,4,5]}`)
}

// answerOver replies Over for whoever the talk rounds wait on, until they
// wait on nobody.
func answerOver(tb *table) {
	for p := tb.talk; p != nil && !p.done && p.waiting != 0; {
		s := tb.seats[p.waiting]
		o := s.queue[len(s.queue)-1]
		tb.spoke(s, o, wordOver, false)
	}
}

// TestTalkRoundsGoOnPastASeatToldTheDayAfterTheBotReadiedIt: the rounds
// stop at a seat whose day is not told yet; when its frames come, its step
// is no longer pending (the bot played its discussion while it was away),
// and the rounds must still ask it, not wait for the game's backstop
// timer (the hang of TestMisbehavioursAgainstTheGateway).
func TestTalkRoundsGoOnPastASeatToldTheDayAfterTheBotReadiedIt(t *testing.T) {
	tb := dawnTable(t)
	late := tb.seats[5]
	for _, s := range tb.seats[1:5] { // their day frames come first
		tb.handle(&mail{seat: s, msg: dayFrames(true)})
		answerOver(tb)
	}
	p := tb.talk
	if p == nil || p.done || p.waiting != 0 || p.order[p.pos] != late.no {
		t.Fatalf("the rounds should stand at seat %d, not told day 1: %+v", late.no, p)
	}
	// Seat 5's frames: day 1, and its discussion already readied by the bot.
	tb.handle(&mail{seat: late, msg: dayFrames(false)})
	if p.waiting != late.no {
		t.Fatalf("seat %d was told day 1 but the rounds do not ask it (waiting on %d, pos %d)", late.no, p.waiting, p.pos)
	}
	if q := late.queue; len(q) == 0 || q[len(q)-1].req != ReqTalk || q[len(q)-1].key != p.key {
		t.Errorf("seat %d's last packet is not the round's TALK: %d queued", late.no, len(q))
	}
}
