package game

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// next reads frames until one of the given type arrives.
func next(t *testing.T, sub *Sub, typ string) map[string]any {
	t.Helper()
	limit, l := time.After(5*time.Second), linesOf(sub)
	for {
		b, ok := l.recv(limit)
		if !ok {
			t.Fatalf("seat %d: no %s frame", sub.Seat, typ)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m["type"] == typ {
			return m
		}
	}
}

// quiet reports whether no frame of the type is queued.
func quiet(sub *Sub, typ string) bool {
	l := linesOf(sub)
	for {
		b, ok := l.try()
		if !ok {
			return true
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		if m["type"] == typ {
			return false
		}
	}
}

func TestChatChannelsAtNight(t *testing.T) {
	b := rules.Board{Cards: []rules.Role{rules.Werewolf, rules.Werewolf, rules.LittleGirl, rules.Villager, rules.Villager, rules.Seer}}
	tm := fastTimers()
	tm.Night = time.Minute // the night stays while the test talks
	cfg := Config{Board: b, Seed: 1, Timers: tm, Deal: b.Cards, Bots: 1<<5 | 1<<6}
	a, err := Start(context.Background(), "chat", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := map[rules.Seat]*Sub{}
	for s := rules.Seat(1); s <= 4; s++ {
		subs[s] = NewSub(s, 1024, nil)
		if err := a.Join(subs[s], 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Chat(subs[1], 1, ChanWolves, "bite 4?"); err != nil {
		t.Fatal(err)
	}
	if f := next(t, subs[1], "ack"); f["id"] != 1.0 {
		t.Fatalf("ack %v", f)
	}
	mate := next(t, subs[2], "chat")
	if mate["seat"] != 1.0 || mate["text"] != "bite 4?" || mate["channel"] != ChanWolves {
		t.Fatalf("the wolf mate read %v", mate)
	}
	spy := next(t, subs[3], "chat")
	if spy["seat"] != 0.0 || spy["text"] != "bite 4?" {
		t.Fatalf("the little girl read %v: the writer must be hidden", spy)
	}
	if !quiet(subs[4], "chat") {
		t.Fatal("a villager read the wolves' channel")
	}
	// Refusals are the same whatever the reason.
	for _, tc := range []struct {
		seat rules.Seat
		ch   string
	}{{4, ChanWolves}, {3, ChanWolves}, {1, ChanDay}, {4, ChanDead}, {4, ChanLovers}, {1, "nonsense"}} {
		if err := a.Chat(subs[tc.seat], 9, tc.ch, "x"); err != nil {
			t.Fatal(err)
		}
		f := next(t, subs[tc.seat], "error")
		if f["code"] != "channel" || f["message"] != ErrChannel.Error() {
			t.Errorf("seat %d writing to %s: %v", tc.seat, tc.ch, f)
		}
	}
	// A reconnecting wolf gets the message again, numbered as before.
	again := NewSub(2, 1024, nil)
	if err := a.Join(again, 0, 0); err != nil {
		t.Fatal(err)
	}
	if f := next(t, again, "chat"); f["seq"] != 1.0 || f["text"] != "bite 4?" {
		t.Fatalf("resumed chat %v", f)
	}
	again2 := NewSub(2, 1024, nil)
	if err := a.Join(again2, 0, 1); err != nil {
		t.Fatal(err)
	}
	if !quiet(again2, "chat") {
		t.Fatal("a chat already held was sent again")
	}
	// A writer that cannot be refused (a language model) has the characters
	// the rule of user text forbids dropped; a text of nothing else is refused.
	if err := a.Chat(subs[1], 2, ChanWolves, "\u202ebite\x1b[2J\n5"); err != nil {
		t.Fatal(err)
	}
	if mate := next(t, subs[2], "chat"); mate["text"] != "bite[2J 5" {
		t.Fatalf("the wolf mate read %v", mate)
	}
	if err := a.Chat(subs[1], 3, ChanWolves, "\x00\ufeff"); err != nil {
		t.Fatal(err)
	}
	if f := next(t, subs[1], "error"); f["code"] != "text" || f["id"] != 3.0 {
		t.Fatalf("a chat of control characters only: %v", f)
	}
}

// TestAbsentPlayerIsPlayedByABot: a seat nobody connects to times out once,
// then a bot plays it; the game ends without waiting out every timer.
func TestAbsentPlayerIsPlayedByABot(t *testing.T) {
	tm := fastTimers()
	tm.Speech, tm.Vote, tm.Other = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	// Slots long enough for a bot to act in on a loaded machine: a bot
	// late for its slot times out too, and would be counted here.
	tm.Night, tm.Witch = 200*time.Millisecond, 150*time.Millisecond
	st := memory.New()
	cfg := Config{Board: std12(t), Seed: 11, Timers: tm, Bots: 0x1ffe &^ (1 << 1)} // seat 1 is a person
	a, err := Start(context.Background(), "away", cfg, st, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	spec := NewSub(0, 4096, nil)
	if err := a.Join(spec, 0, 0); err != nil {
		t.Fatal(err)
	}
	untilOver(t, spec, 30*time.Second)
	recs, _ := st.Records(context.Background(), "away")
	timeouts := 0
	for _, r := range recs {
		if r.Kind == "timeout" {
			timeouts++
		}
	}
	if timeouts != 1 {
		t.Fatalf("%d timeouts: after the first, a bot should play the absent seat", timeouts)
	}
}

// TestASlowConnectionIsDropped: a connection that does not read is
// disconnected when its queue is full; the game does not wait for it.
func TestASlowConnectionIsDropped(t *testing.T) {
	kicked := make(chan struct{})
	cfg := Config{Board: std12(t), Seed: 4, Timers: fastTimers(), Bots: 0x1ffe}
	a, err := Start(context.Background(), "slow", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	slow := NewSub(0, 2, func() { close(kicked) }) // room for two frames, never read
	fast := NewSub(0, 4096, nil)
	if err := a.Join(slow, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := a.Join(fast, 0, 0); err != nil {
		t.Fatal(err)
	}
	select {
	case <-kicked:
	case <-time.After(10 * time.Second):
		t.Fatal("the slow connection was not dropped")
	}
	untilOver(t, fast, 20*time.Second) // and the game went on to its end
}

// TestLastWordsAreSpokenInTheDayChannel: an exiled player may write to the
// day channel during his last words (遗言), and not after.
func TestLastWordsAreSpokenInTheDayChannel(t *testing.T) {
	b := rules.Board{Cards: []rules.Role{rules.Werewolf, rules.Villager, rules.Villager, rules.Villager, rules.Seer}}
	for name, v := range map[string]string{"first_phase": "day", "sheriff": "none", "last_words": "all"} {
		if err := b.Options.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	tm := fastTimers()
	tm.Speech, tm.Vote, tm.Other = time.Minute, time.Minute, time.Minute
	a, err := Start(context.Background(), "lw", Config{Board: b, Seed: 1, Timers: tm, Deal: b.Cards}, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := map[rules.Seat]*Sub{}
	for s := rules.Seat(1); s <= 5; s++ {
		subs[s] = NewSub(s, 4096, nil)
		if err := a.Join(subs[s], 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	// Everyone passes and votes for seat 2 until seat 2 gives his last words.
	id := int64(0)
	for i := 0; ; i++ {
		type now struct {
			st   rules.Step
			turn rules.Seat
			pend uint32
		}
		n, _ := ask(a, func() now { st, turn := a.live.Step(); return now{st, turn, a.live.Pending()} })
		st, turn, pend := n.st, n.turn, n.pend
		if st == rules.StepLastWords && turn == 2 {
			break
		}
		if i == 200 || pend == 0 {
			t.Fatalf("no last words for seat 2 (step %v, turn %d)", st, turn)
		}
		s := rules.Seat(lowBit(pend))
		c := rules.Command{Kind: rules.CmdSkip}
		if st == rules.StepVote {
			c = rules.Command{Kind: rules.CmdVote, Target: 2}
		}
		id++
		if err := a.Act(subs[s], id, c); err != nil {
			t.Fatal(err)
		}
		if f := next(t, subs[s], "ack"); f["id"] != float64(id) {
			t.Fatalf("ack %v for %d", f, id)
		}
	}
	if err := a.Chat(subs[2], 100, ChanDay, "I was the villager!"); err != nil {
		t.Fatal(err)
	}
	next(t, subs[2], "ack")
	if f := next(t, subs[4], "chat"); f["seat"] != 2.0 || f["text"] != "I was the villager!" {
		t.Fatalf("the table read %v", f)
	}
	if err := a.Act(subs[2], 101, rules.Command{Kind: rules.CmdSkip}); err != nil { // the last words end
		t.Fatal(err)
	}
	next(t, subs[2], "ack")
	if err := a.Chat(subs[2], 102, ChanDay, "one more thing"); err != nil {
		t.Fatal(err)
	}
	if f := next(t, subs[2], "error"); f["code"] != "channel" {
		t.Fatalf("the dead wrote after his last words: %v", f)
	}
}

// TestTheSilencedMayNotSpeak: by day the player the silence elder
// (禁言长老) silenced may not write to the day channel, another living
// player may; at his last words he may.
func TestTheSilencedMayNotSpeak(t *testing.T) {
	var a Actor
	v := rules.View{Seat: 3, Players: 8, Day: 1, Step: rules.StepSpeech, Turn: 4, Alive: 0b111111110, Silenced: 3}
	if _, ok := a.audience(&v, ChanDay); ok {
		t.Fatal("the silenced seat 3 may write to the day channel")
	}
	v.Seat = 4
	if _, ok := a.audience(&v, ChanDay); !ok {
		t.Fatal("seat 4, not silenced, may not write to the day channel")
	}
	v.Seat, v.Step, v.Turn = 3, rules.StepLastWords, 3
	if _, ok := a.audience(&v, ChanDay); !ok {
		t.Fatal("the silenced seat 3 may not speak his last words")
	}
}

// TestSiblingsChannelIsTheSistersAlone: on a night the sisters meet
// (ROLES-MORE-2.md 姐妹), their channel is open to them and read by them
// alone: a villager and a wolf may not write to it and read nothing of it,
// and only the sisters' state lists it.
func TestSiblingsChannelIsTheSistersAlone(t *testing.T) {
	b := rules.Board{Cards: []rules.Role{rules.Sister, rules.Sister, rules.Villager, rules.Werewolf, rules.Werewolf, rules.Seer, rules.Villager}}
	tm := fastTimers()
	tm.Night = time.Minute // the night stays while the test talks
	cfg := Config{Board: b, Seed: 1, Timers: tm, Deal: b.Cards, Bots: 1<<5 | 1<<6 | 1<<7}
	a, err := Start(context.Background(), "siblings", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := map[rules.Seat]*Sub{}
	for s := rules.Seat(1); s <= 4; s++ {
		subs[s] = NewSub(s, 1024, nil)
		if err := a.Join(subs[s], 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	for s := rules.Seat(1); s <= 4; s++ {
		st := next(t, subs[s], "state")
		for !st["night"].(bool) {
			st = next(t, subs[s], "state")
		}
		chans, _ := st["channels"].([]any)
		listed := false
		for _, c := range chans {
			listed = listed || c == ChanSiblings
		}
		if listed != (s <= 2) {
			t.Fatalf("seat %d (%v) is offered the siblings' channel: %v", s, cfg.Deal[s-1], listed)
		}
	}
	if err := a.Chat(subs[1], 1, ChanSiblings, "I am 1"); err != nil {
		t.Fatal(err)
	}
	if f := next(t, subs[1], "ack"); f["id"] != 1.0 {
		t.Fatalf("ack %v", f)
	}
	if m := next(t, subs[2], "chat"); m["seat"] != 1.0 || m["text"] != "I am 1" || m["channel"] != ChanSiblings {
		t.Fatalf("the other sister read %v", m)
	}
	for _, s := range []rules.Seat{3, 4} {
		if !quiet(subs[s], "chat") {
			t.Fatalf("seat %d (%v) read the sisters' channel", s, cfg.Deal[s-1])
		}
		if err := a.Chat(subs[s], 9, ChanSiblings, "x"); err != nil {
			t.Fatal(err)
		}
		if f := next(t, subs[s], "error"); f["code"] != "channel" || f["message"] != ErrChannel.Error() {
			t.Errorf("seat %d writing to the siblings' channel: %v", s, f)
		}
	}
}

// TestNewlywedsChannelIsTheCouplesAlone: from night 2 the ghost bride and
// her groom (鬼魂新娘) confer: their channel is open to the two of them and
// read by them alone, not by the witness nor anyone else; on night 1,
// before they meet, and by day it is closed.
func TestNewlywedsChannelIsTheCouplesAlone(t *testing.T) {
	deal := []rules.Role{rules.Seer, rules.Witch, rules.Villager, rules.GhostBride, rules.Villager,
		rules.Werewolf, rules.Werewolf, rules.Villager, rules.Villager}
	var o rules.Options
	o[rules.OptLastWords] = 3 // none
	g, err := rules.New(rules.Board{Cards: deal, Options: o}, 1, deal)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []rules.Command{{Seat: 4, Kind: rules.CmdGroom, Target: 5}, {Seat: 4, Kind: rules.CmdWitness, Target: 8}} {
		if err := g.Do(c); err != nil {
			t.Fatal(err)
		}
	}
	var a Actor
	open := func(s rules.Seat) (chat, bool) {
		v := g.View(s)
		return a.audience(&v, ChanNewlyweds)
	}
	for s := rules.Seat(1); s <= 9; s++ {
		if _, ok := open(s); ok {
			t.Fatalf("night 1: seat %d may write to the newlyweds' channel", s)
		}
	}
	for g.NightNumber() < 2 {
		if _, ok := open(4); ok && !g.Night() {
			t.Fatal("by day the bride may write to the newlyweds' channel")
		}
		g.Timeout()
	}
	for s := rules.Seat(1); s <= 9; s++ {
		c, ok := open(s)
		if ok != (s == 4 || s == 5) {
			t.Fatalf("night 2: seat %d (%v) may write to the newlyweds' channel: %v", s, deal[s-1], ok)
		}
		if ok && c.To != 1<<4|1<<5 {
			t.Fatalf("night 2: seat %d writes to %b, want the couple", s, c.To)
		}
	}
}
