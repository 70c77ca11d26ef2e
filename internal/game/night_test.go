package game

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// msg is one message a connection received: its tick (-1 for a message
// that is not the night's), its size and its frames, the tick and padding
// left out.
type msg struct {
	tick   int
	sealed bool // a night message (a tick frame opens it)
	size   int
	frames []map[string]any
}

func (m msg) has(typ, kind string) bool {
	for _, f := range m.frames {
		if f["type"] == typ && (kind == "" || f["kind"] == kind) {
			return true
		}
	}
	return false
}

// read takes the next message from a connection's queue.
func read(t *testing.T, sub *Sub, limit <-chan time.Time) (msg, bool) {
	t.Helper()
	select {
	case b := <-sub.Out:
		m := msg{tick: -1, size: len(b)}
		for _, line := range bytes.Split(b, []byte{'\n'}) {
			var f map[string]any
			if err := json.Unmarshal(line, &f); err != nil {
				t.Fatalf("seat %d: a line that is not JSON: %q", sub.Seat, line)
			}
			switch f["type"] {
			case "tick":
				m.tick, m.sealed = int(f["n"].(float64)), true
			case "pad":
			default:
				m.frames = append(m.frames, f)
			}
		}
		return m, true
	case <-limit:
		return msg{}, false
	}
}

// record reads a connection's messages until stop says so.
func record(t *testing.T, sub *Sub, within time.Duration, stop func(msg) bool) []msg {
	t.Helper()
	var out []msg
	limit := time.After(within)
	for {
		m, ok := read(t, sub, limit)
		if !ok {
			t.Errorf("seat %d: the game did not get there in %v (%d messages)", sub.Seat, within, len(out))
			return out
		}
		out = append(out, m)
		if stop(m) {
			return out
		}
	}
}

func over(m msg) bool {
	for _, f := range m.frames {
		if f["type"] == "state" && f["over"] == true {
			return true
		}
	}
	return false
}

// nightTimers tick every 10 ms on slots that are whole numbers of ticks.
func nightTimers() Timers {
	tm := fastTimers()
	tm.Setup, tm.Night, tm.Witch, tm.Tick = 40*time.Millisecond, 60*time.Millisecond, 40*time.Millisecond, 10*time.Millisecond
	return tm
}

// TestEveryConnectionGetsTheSameNight: from nightfall to dawn each seat,
// whatever its role, and a spectator receive the same messages: one at
// each tick, of NightMessage bytes, and nothing in between; every night
// event arrives inside them.
func TestEveryConnectionGetsTheSameNight(t *testing.T) {
	thiefCupid := rules.Board{Cards: []rules.Role{rules.Thief, rules.Cupid, rules.Werewolf, rules.Werewolf, rules.Seer,
		rules.Witch, rules.Guard, rules.LittleGirl, rules.Villager, rules.Villager}}
	for name, b := range map[string]rules.Board{"std-12": std12(t), "thief and cupid": thiefCupid,
		"std-12-fox": presetBoard(t, "std-12-fox", 12), "forum": presetBoard(t, "forum", 9), // forum: cupid at night 0
		"std-12-pure-white": presetBoard(t, "std-12-pure-white", 12), "std-12-bear": presetBoard(t, "std-12-bear", 12),
		"std-12-eternal": presetBoard(t, "std-12-eternal", 12), // the queen's own stage before the night step
		"std-12-warden":  presetBoard(t, "std-12-warden", 12), "std-12-miracle-merchant": presetBoard(t, "std-12-miracle-merchant", 12),
		"elders": {Cards: []rules.Role{rules.SilenceElder, rules.VoteBanElder, rules.Seer, rules.Witch, rules.Werewolf,
			rules.Werewolf, rules.Villager, rules.Villager, rules.Villager}}} {
		for seed := uint64(1); seed <= 2; seed++ {
			t.Run(fmt.Sprintf("%s seed %d", name, seed), func(t *testing.T) {
				everyConnectionGetsTheSameNight(t, b, seed)
			})
		}
	}
}

func everyConnectionGetsTheSameNight(t *testing.T, b rules.Board, seed uint64) {
	n := b.Players()
	cfg := Config{Board: b, Seed: seed, Timers: nightTimers(), Bots: (1<<uint(n+1) - 1) &^ 1}
	a, err := Start(context.Background(), "same", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := []*Sub{NewSub(0, 1<<14, nil)}
	for s := 1; s <= n; s++ {
		subs = append(subs, NewSub(rules.Seat(s), 1<<14, nil))
	}
	for _, sub := range subs {
		if err := a.Join(sub, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	logs := make([][]msg, len(subs))
	done := make(chan int)
	for i, sub := range subs {
		go func() { logs[i] = record(t, sub, 60*time.Second, over); done <- i }()
	}
	for range subs {
		<-done
	}
	type beat struct{ tick, size int }
	beats := func(log []msg) (out []beat) {
		for _, m := range log {
			if m.tick >= 0 {
				out = append(out, beat{m.tick, m.size})
			}
		}
		return out
	}
	// The connections joined one after the other, as the first night ran:
	// they are compared from the first tick all of them had.
	from := 0
	for _, log := range logs {
		if b := beats(log); len(b) > 0 {
			from = max(from, b[0].tick)
		}
	}
	since := func(b []beat) []beat {
		for len(b) > 0 && b[0].tick < from {
			b = b[1:]
		}
		return b
	}
	want := since(beats(logs[0]))
	if len(want) == 0 {
		t.Fatal("no night message was sent")
	}
	for i, log := range logs {
		if got := since(beats(log)); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("seat %d's night messages differ from the spectator's:\n%v\n%v", subs[i].Seat, got, want)
		}
		night := false
		for _, m := range log {
			// the dawn's, the night's last, holds all that waits: a multiple of the size
			if m.sealed && m.size != NightMessage && (!m.has("event", "day") || m.size%NightMessage != 0) {
				t.Errorf("seat %d: a night message of %d bytes", subs[i].Seat, m.size)
			}
			if m.has("event", "night") {
				night = true
			}
			if night && !m.sealed {
				t.Errorf("seat %d: a message outside the night's beat between nightfall and dawn: %v", subs[i].Seat, m.frames)
			}
			if m.has("event", "day") {
				night = false
			}
		}
	}
}

// TestTheWolvesAttackLineComesAtTheEndOfTheirSlot: whether the witch will
// wake (her card dealt) or not (her card left in the middle by the thief),
// the wolves are told their attack at the end of their own slot, not at
// the start of the witch's or at dawn.
func TestTheWolvesAttackLineComesAtTheEndOfTheirSlot(t *testing.T) {
	cards := []rules.Role{rules.Thief, rules.Werewolf, rules.Werewolf, rules.Seer, rules.Villager, rules.Villager,
		rules.Witch, rules.Villager}
	deals := map[string][]rules.Role{
		"the witch wakes":         {rules.Thief, rules.Werewolf, rules.Werewolf, rules.Seer, rules.Villager, rules.Witch, rules.Villager, rules.Villager},
		"her card is the thief's": {rules.Thief, rules.Werewolf, rules.Werewolf, rules.Seer, rules.Villager, rules.Villager, rules.Witch, rules.Villager},
	}
	tm := nightTimers()
	tm.Setup, tm.Night, tm.Witch = 100*time.Millisecond, 100*time.Millisecond, 400*time.Millisecond
	for name, deal := range deals {
		t.Run(name, func(t *testing.T) {
			// The thief is a person who lets his time run out: the middle stays as dealt.
			cfg := Config{Board: rules.Board{Cards: cards}, Seed: 5, Timers: tm, Deal: deal, Bots: 0x7c} // seats 2-6
			a, err := Start(context.Background(), "line", cfg, memory.New(), Hooks{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Stop()
			subs := joinSeats(t, a, 1, 2) // the thief and a wolf
			log := record(t, subs[2], 30*time.Second, func(m msg) bool { return m.has("event", "day") })
			at := -1
			for _, m := range log {
				if m.has("event", "attack") {
					at = m.tick
				}
			}
			end, dawn := int((tm.Setup+tm.Night)/tm.Tick), int((tm.Setup+tm.Night+tm.Witch)/tm.Tick)
			if at < end || at >= dawn {
				t.Fatalf("the attack line came at tick %d; the wolves' slot ends at tick %d and dawn is at %d", at, end, dawn)
			}
		})
	}
}

// TestTheLittleGirlReadsTheWolvesInTheWitchsSlot: the night is resolved
// early (the witch's card lies in the middle), yet what the wolves write in
// the witch's slot still reaches the little girl, writer hidden.
func TestTheLittleGirlReadsTheWolvesInTheWitchsSlot(t *testing.T) {
	cards := []rules.Role{rules.Thief, rules.Werewolf, rules.LittleGirl, rules.Seer, rules.Villager, rules.Villager,
		rules.Witch, rules.Villager}
	tm := nightTimers()
	tm.Setup, tm.Night, tm.Witch = 50*time.Millisecond, 50*time.Millisecond, 5*time.Second
	cfg := Config{Board: rules.Board{Cards: cards}, Seed: 5, Timers: tm, Deal: cards, Bots: 1 << 4}
	a, err := Start(context.Background(), "girl", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := joinSeats(t, a, 1, 2, 3, 4, 5, 6)
	// The wolf lets his time run out; his attack line opens the witch's slot.
	record(t, subs[2], 10*time.Second, func(m msg) bool { return m.has("event", "attack") })
	if err := a.Chat(subs[2], 1, ChanWolves, "nobody saw"); err != nil {
		t.Fatal(err)
	}
	log := record(t, subs[3], 10*time.Second, func(m msg) bool { return m.has("chat", "") || m.has("event", "day") })
	last := log[len(log)-1]
	if !last.has("chat", "") {
		t.Fatal("the little girl did not read what the wolf wrote in the witch's slot")
	}
	for _, f := range last.frames {
		if f["type"] == "chat" && (f["seat"] != 0.0 || f["text"] != "nobody saw") {
			t.Fatalf("the little girl read %v", f)
		}
	}
}

// joinSeats connects one connection to each of the seats.
func joinSeats(t *testing.T, a *Actor, seats ...rules.Seat) map[rules.Seat]*Sub {
	t.Helper()
	subs := map[rules.Seat]*Sub{}
	for _, s := range seats {
		subs[s] = NewSub(s, 4096, nil)
		if err := a.Join(subs[s], 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	return subs
}

// answer reads until the answer to a request (ack or error) arrives.
func answer(t *testing.T, sub *Sub) map[string]any {
	t.Helper()
	limit, l := time.After(5*time.Second), linesOf(sub)
	for {
		b, ok := l.recv(limit)
		if !ok {
			t.Fatalf("seat %d: no answer", sub.Seat)
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		if m["type"] == "ack" || m["type"] == "error" {
			return m
		}
	}
}

// play drives a game of people until stop holds: each awaited seat sends
// what choose says, again when the table is not yet there.
func play(t *testing.T, a *Actor, subs map[rules.Seat]*Sub, stop func(rules.Step, rules.Seat) bool,
	choose func(rules.Step, rules.Seat) rules.Command) {
	t.Helper()
	id := int64(1000)
	for i := 0; i < 500; i++ {
		type now struct {
			st   rules.Step
			turn rules.Seat
			pend uint32
		}
		n, _ := ask(a, func() now { st, turn := a.live.Step(); return now{st, turn, a.live.Pending()} })
		if stop(n.st, n.turn) {
			return
		}
		if n.pend == 0 {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		s := rules.Seat(lowBit(n.pend))
		id++
		if err := a.Act(subs[s], id, choose(n.st, s)); err != nil {
			t.Fatal(err)
		}
		if f := answer(t, subs[s]); f["type"] == "error" && f["code"] != "not_now" {
			t.Fatalf("seat %d at %v: %v", s, n.st, f)
		} else if f["type"] == "error" {
			time.Sleep(5 * time.Millisecond)
		}
	}
	t.Fatal("the game did not get there")
}

// state reads the seat's states until one satisfies ok.
func stateUntil(t *testing.T, sub *Sub, ok func(StateFrame) bool) StateFrame {
	t.Helper()
	limit, l := time.After(5*time.Second), linesOf(sub)
	for {
		b, got := l.recv(limit)
		if !got {
			t.Fatalf("seat %d: no such state", sub.Seat)
		}
		var st StateFrame
		if json.Unmarshal(b, &st) == nil && st.Type == "state" && ok(st) {
			return st
		}
	}
}

// TestTheDeadChannelWaitsForTheLastTasks: a hunter killed at night is
// dead at dawn, but joins the dead players' channel only once he has shot
// and spoken his last words: until then nothing written there reaches him
// and he may not write there.
func TestTheDeadChannelWaitsForTheLastTasks(t *testing.T) {
	b := rules.Board{Cards: []rules.Role{rules.Werewolf, rules.Hunter, rules.Villager, rules.Villager, rules.Villager, rules.Seer}}
	for name, v := range map[string]string{"first_phase": "day", "sheriff": "none", "last_words": "all"} {
		if err := b.Options.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	tm := fastTimers()
	tm.Speech, tm.Vote, tm.Other, tm.Night, tm.Tick = time.Minute, time.Minute, time.Minute, 300*time.Millisecond, 10*time.Millisecond
	a, err := Start(context.Background(), "dead", Config{Board: b, Seed: 1, Timers: tm, Deal: b.Cards}, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := joinSeats(t, a, 1, 2, 3, 4, 5, 6)
	// Day 1 exiles seat 3; that night the wolf kills the hunter.
	choose := func(st rules.Step, s rules.Seat) rules.Command {
		switch {
		case st == rules.StepVote:
			return rules.Command{Kind: rules.CmdVote, Target: 3}
		case st == rules.StepNight && s == 1:
			return rules.Command{Kind: rules.CmdAttack, Target: 2}
		}
		return rules.Command{Kind: rules.CmdSkip}
	}
	play(t, a, subs, func(st rules.Step, turn rules.Seat) bool { return st == rules.StepSkill && turn == 2 }, choose)
	stateUntil(t, subs[2], func(st StateFrame) bool { return st.Step == "skill" && st.Pending })
	if err := a.Chat(subs[3], 1, ChanDead, "shoot 1"); err != nil {
		t.Fatal(err)
	}
	if f := answer(t, subs[3]); f["type"] != "ack" {
		t.Fatalf("the exiled villager could not write to the dead: %v", f)
	}
	if err := a.Chat(subs[2], 2, ChanDead, "who?"); err != nil {
		t.Fatal(err)
	}
	if f := answer(t, subs[2]); f["code"] != "channel" {
		t.Fatalf("the hunter wrote to the dead before shooting: %v", f)
	}
	if !quiet(subs[2], "chat") {
		t.Fatal("the dead's advice reached the hunter before his shot")
	}
	play(t, a, subs, func(st rules.Step, turn rules.Seat) bool {
		return !(st == rules.StepSkill || st == rules.StepLastWords) || turn != 2
	}, choose)
	st, _ := ask(a, func() StateFrame { return a.state(2) })
	if !strings.Contains(fmt.Sprint(st.Channels), ChanDead) {
		t.Fatalf("the hunter, his tasks done, may not write to the dead: %+v", st)
	}
	if err := a.Chat(subs[3], 3, ChanDead, "welcome"); err != nil {
		t.Fatal(err)
	}
	if f := next(t, subs[2], "chat"); f["text"] != "welcome" {
		t.Fatalf("the hunter, his tasks done, read %v", f)
	}
}

// TestAPanicStopsOnlyItsGame: a game whose actor panics stops with a clear
// message to its players; another game goes on.
func TestAPanicStopsOnlyItsGame(t *testing.T) {
	failed := make(chan error, 1)
	tm := fastTimers()
	tm.Speech, tm.Vote, tm.Other = time.Minute, time.Minute, time.Minute
	cfg := Config{Board: std12(t), Seed: 1, Timers: tm}
	bad, err := Start(context.Background(), "bad", cfg, memory.New(), Hooks{Failed: func(err error) { failed <- err }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	good, err := Start(context.Background(), "good", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer good.Stop()
	sub := NewSub(1, 4096, nil)
	if err := bad.Join(sub, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := bad.send(func() { panic("a bug") }); err != nil {
		t.Fatal(err)
	}
	<-bad.Done()
	if err := <-failed; !strings.Contains(err.Error(), "a bug") {
		t.Fatalf("the failure hook got %v", err)
	}
	if f := next(t, sub, "error"); f["code"] != "internal" {
		t.Fatalf("the players were told %v", f)
	}
	if _, err := good.Status(); err != nil {
		t.Fatalf("the other game stopped too: %v", err)
	}
}

// TestResumingSendsHistoryInPages: a connection that resumes a game with a
// long history gets it in messages of about PageSize, not in one.
func TestResumingSendsHistoryInPages(t *testing.T) {
	b := rules.Board{Cards: []rules.Role{rules.Werewolf, rules.Villager, rules.Villager, rules.Villager, rules.Seer}}
	for name, v := range map[string]string{"first_phase": "day", "sheriff": "none"} {
		if err := b.Options.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	tm := fastTimers()
	tm.Speech = time.Minute
	a, err := Start(context.Background(), "pages", Config{Board: b, Seed: 1, Timers: tm, Deal: b.Cards}, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	talker := NewSub(2, 4096, nil)
	if err := a.Join(talker, 0, 0); err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("话", MaxChat)
	for i := range 200 {
		if err := a.Chat(talker, int64(i+1), ChanDay, text); err != nil {
			t.Fatal(err)
		}
		if f := answer(t, talker); f["type"] != "ack" {
			t.Fatalf("chat %d: %v", i, f)
		}
	}
	late := NewSub(3, 4096, nil)
	if err := a.Join(late, 0, 0); err != nil {
		t.Fatal(err)
	}
	chats, limit := 0, time.After(5*time.Second)
	for chats < 200 {
		m, ok := read(t, late, limit)
		if !ok {
			t.Fatalf("%d of 200 messages resumed", chats)
		}
		if m.size > PageSize {
			t.Fatalf("a resuming message of %d bytes (pages are %d)", m.size, PageSize)
		}
		for _, f := range m.frames {
			if f["type"] == "chat" {
				chats++
			}
		}
	}
}

// TestTheLargestFramesFitANightMessage: a night message must hold any one
// frame the night can have, or a frame would wait for good: the longest
// chat message (every character escaped) and a state frame of a full table
// with eight kinds of command open at once on every seat (a seat has at
// most six today: a wolf speaking for sheriff), every card known and every
// call.
func TestTheLargestFramesFitANightMessage(t *testing.T) {
	head := encode(TickFrame{Type: "tick", N: 1 << 30})
	chat := encode(ChatFrame{Type: "chat", Seq: 1 << 30, Channel: ChanWolves, Seat: rules.MaxSeats,
		Text: strings.Repeat("<", MaxChat), At: 1 << 50})
	all := make([]rules.Seat, rules.MaxSeats)
	for i := range all {
		all[i] = rules.Seat(i + 1)
	}
	var roles []string
	long := ""
	for _, r := range rules.Roles() {
		roles = append(roles, r.String())
		if len(r.String()) > len(long) {
			long = r.String()
		}
	}
	st := StateFrame{Type: "state", Seat: rules.MaxSeats, Role: long, Day: 1 << 20, Night: true, Step: "sheriff_pk_vote",
		Turn: rules.MaxSeats, Alive: all, Sheriff: rules.MaxSeats, Known: map[int]string{}, Wolves: all, Lovers: all[:2],
		Pending: true, Deadline: 1 << 50, NightEnd: 1 << 50, Paused: true, Bot: true,
		Channels: []string{ChanDay, ChanWolves, ChanLovers, ChanDead}}
	for s := range all {
		st.Known[s+1] = long
	}
	for k := rules.CmdKind(1); k <= 8; k++ {
		st.Choices = append(st.Choices, ChoiceJSON{Cmd: k.String(), Targets: all, NoTarget: true, Value: 127, Pick: -1})
	}
	st.Choices[0].Roles = roles
	for range 16 {
		st.Calls = append(st.Calls, CallJSON{Key: "role.close", Role: long})
	}
	for name, f := range map[string][]byte{"chat": chat, "state": encode(st)} {
		if n := len(head) + 1 + len(f) + padMin; n > NightMessage {
			t.Errorf("the largest %s frame needs %d bytes; a night message has %d", name, n, NightMessage)
		}
	}
}

// TestNightZeroIsANightForEverySeat: with first_phase=day, cupid links the
// lovers before day 1, at night 0. Only cupid is told his step; the others
// and a spectator see a night, as on any night, so nobody learns that a
// cupid (or a thief) is in play and awake.
func TestNightZeroIsANightForEverySeat(t *testing.T) {
	b := presetBoard(t, "forum", 9)
	deal := []rules.Role{rules.Villager, rules.Seer, rules.Werewolf, rules.Cupid, rules.Witch, rules.Hunter,
		rules.Werewolf, rules.Guard, rules.Villager}
	tm := nightTimers()
	tm.Setup = time.Minute
	a, err := Start(context.Background(), "zero", Config{Board: b, Seed: 1, Timers: tm, Deal: deal}, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	for _, s := range []rules.Seat{0, 1, 3, 4} {
		sub := NewSub(s, 4096, nil)
		if err := a.Join(sub, 0, 0); err != nil {
			t.Fatal(err)
		}
		st := stateUntil(t, sub, func(StateFrame) bool { return true })
		switch {
		case s == 4 && (st.Step != "cupid" || !st.Pending):
			t.Errorf("cupid is not woken at night 0: %+v", st)
		case s != 4 && (!st.Night || st.Step != "" || st.Pending):
			t.Errorf("seat %d sees night 0 as %+v: it must be a night with no step", s, st)
		case s != 4 && st.NightEnd == 0:
			t.Errorf("seat %d is not told when night 0 ends", s)
		}
	}
}

// BenchmarkNightTick: one tick of a twelve-seat game and a spectator, each
// connection with a few frames waiting (what the beat costs the actor).
func BenchmarkNightTick(b *testing.B) {
	a := newActor("bench", Config{Timers: DefaultTimers}, nil, Hooks{}, nil, nil, nil)
	subs := make([]*Sub, 13)
	for i := range subs {
		subs[i] = NewSub(rules.Seat(i), 1, nil)
		a.subs[subs[i]] = struct{}{}
	}
	ev := encode(EventFrame{Type: "event", Seq: 42, Kind: "attack_pick", Seat: 3, Target: 7})
	b.ReportAllocs()
	for b.Loop() {
		for _, sub := range subs {
			sub.frames = append(sub.frames, ev, ev, ev)
		}
		a.tickN++
		a.tick()
		for _, sub := range subs {
			Recycle(<-sub.Out) // as the server's writer does
		}
	}
}

// TestARecycledNightMessageIsAsNew: a night message made in a buffer that
// held another one (its bytes left behind) is byte for byte the one a new
// buffer gives; only the night's messages are taken back.
func TestARecycledNightMessageIsAsNew(t *testing.T) {
	a := newActor("recycle", Config{Timers: DefaultTimers}, nil, Hooks{}, nil, nil, nil)
	head := encode(TickFrame{Type: "tick", N: 3})
	frames := [][]byte{encode(AckFrame{Type: "ack", ID: 9}), encode(ErrorFrame{Type: "error", Code: "x", Message: "y"})}
	fresh := func() []byte {
		sub := NewSub(1, 1, nil)
		sub.frames = append(sub.frames, frames...)
		return a.pack(sub, head, NightMessage, false)
	}
	want := bytes.Clone(fresh())
	for range 50 {
		dirty := bytes.Repeat([]byte{'X'}, NightMessage)
		copy(dirty, head)
		Recycle(dirty[:len(head)+10])
		if got := fresh(); !bytes.Equal(got, want) {
			t.Fatalf("a message from a used buffer differs:\n%q\nwant\n%q", got, want)
		}
	}
	day := make([]byte, 0, NightMessage)
	day = append(day, `{"type":"state"}`...)
	Recycle(day) // not a night message: kept as it is
	if string(day) != `{"type":"state"}` {
		t.Fatal("a day message was taken back")
	}
}

// TestAJoinAtNightIsAnsweredAtOnce: a connection that joins at night gets
// its state in a night message at once, not at the next tick (here a
// minute away): a table reaches the game as it starts.
func TestAJoinAtNightIsAnsweredAtOnce(t *testing.T) {
	tm := nightTimers()
	tm.Night, tm.Tick = time.Minute, time.Minute
	a, err := Start(context.Background(), "join", Config{Board: std12(t), Seed: 2, Timers: tm}, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	for _, s := range []rules.Seat{0, 1, 5} {
		sub := NewSub(s, 64, nil)
		if err := a.Join(sub, 0, 0); err != nil {
			t.Fatal(err)
		}
		m, ok := read(t, sub, time.After(5*time.Second))
		if !ok {
			t.Fatalf("seat %d: nothing at its join before the next tick", s)
		}
		if !m.sealed || m.size != NightMessage || !m.has("state", "") {
			t.Fatalf("seat %d's first message: tick %d, %d bytes, frames %v", s, m.tick, m.size, m.frames)
		}
	}
}

// TestTheNightShotHasASlotEveryNight: under night_shot=in_night the slot in
// which a shooter killed tonight fires is on every night's schedule of a
// board with a hunter, whether anyone dies or not: the dawn comes at the
// same time, and the table cannot time the hunter's death.
func TestTheNightShotHasASlotEveryNight(t *testing.T) {
	forum := presetBoard(t, "forum", 9)
	tm := nightTimers()
	for night := 1; night <= 3; night++ {
		slots := nightSlots(&forum, night, &tm)
		if last := slots[len(slots)-1]; last.Step != rules.StepNightShot || last.Dur != tm.Other.Milliseconds() {
			t.Fatalf("night %d: the forum's schedule %v does not end with the night shot's slot", night, slots)
		}
	}
	dawnShot := forum
	dawnShot.Options[rules.OptNightShot] = rules.NightShotDawn
	for _, b := range []rules.Board{std12(t), dawnShot} {
		for _, sl := range nightSlots(&b, 2, &tm) {
			if sl.Step == rules.StepNightShot {
				t.Fatalf("a board that shoots at dawn has a night shot slot: %v", nightSlots(&b, 2, &tm))
			}
		}
	}
}

// TestDawnReachesEveryConnectionInTheSameTick: the wolves write late in
// the night, more than the ticks left can carry. Dawn still reaches every
// connection — the wolves', the little girl's who reads them, a
// sleeper's, a spectator's — in the same tick and in messages of the same
// size, and none of them is sent a tick after it: neither the wolves' dawn
// nor the number of ticks tells that anything was said.
func TestDawnReachesEveryConnectionInTheSameTick(t *testing.T) {
	cards := []rules.Role{rules.Werewolf, rules.Werewolf, rules.LittleGirl, rules.Seer, rules.Witch,
		rules.Villager, rules.Villager, rules.Villager}
	tm := nightTimers()
	tm.Setup, tm.Night, tm.Witch = 50*time.Millisecond, 50*time.Millisecond, 300*time.Millisecond
	// The wolves are people who let their time run out; the rest are bots.
	cfg := Config{Board: rules.Board{Cards: cards}, Seed: 3, Timers: tm, Deal: cards, Bots: 0x1f8}
	a, err := Start(context.Background(), "dawn", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := joinSeats(t, a, 1, 2, 3, 4, 6)
	subs[0] = NewSub(0, 4096, nil)
	if err := a.Join(subs[0], 0, 0); err != nil {
		t.Fatal(err)
	}
	// The attack line ends the wolves' slot; the witch's has 30 ticks left.
	record(t, subs[1], 10*time.Second, func(m msg) bool { return m.has("event", "attack") })
	long := strings.Repeat("<", MaxChat) // 6 bytes each once escaped: one message a tick
	const said = 60
	for i := range said {
		if err := a.Chat(subs[rules.Seat(1+i%2)], int64(i+1), ChanWolves, long); err != nil {
			t.Fatal(err)
		}
	}
	type dawn struct{ tick, size, after int }
	got := map[rules.Seat]dawn{}
	for s, sub := range subs {
		d := dawn{tick: -1}
		chats, refused := 0, 0
		for _, m := range record(t, sub, 20*time.Second, func(m msg) bool { return m.has("event", "day") }) {
			for _, f := range m.frames {
				if f["type"] == "chat" {
					chats++
				}
				if f["type"] == "error" && f["code"] == "channel" {
					refused++
				}
			}
			if m.has("event", "day") {
				d.tick, d.size = m.tick, m.size
			}
		}
		// what follows the dawn's message: further ticks, up to the first message of the day
		limit := time.After(20 * time.Second)
		for {
			m, ok := read(t, sub, limit)
			if !ok {
				t.Fatalf("seat %d: nothing came after the dawn", s)
			}
			for _, f := range m.frames {
				if f["type"] == "chat" {
					chats++
				}
			}
			if !m.sealed {
				break
			}
			d.after++
		}
		if s == 1 && (refused > 0 || chats < said) {
			t.Fatalf("the wolf's messages did not all go out at night (%d read, %d refused): too slow a machine for this test", chats, refused)
		}
		got[s] = d
	}
	want := got[0]
	if want.tick < 0 || want.size%NightMessage != 0 {
		t.Fatalf("the spectator's dawn: %+v", want)
	}
	for s, d := range got {
		if d != want {
			t.Errorf("seat %d: dawn at tick %d in %d bytes, then %d more ticks; the spectator's: tick %d, %d bytes, %d more ticks",
				s, d.tick, d.size, d.after, want.tick, want.size, want.after)
		}
		if d.after != 0 {
			t.Errorf("seat %d was sent %d ticks after the dawn", s, d.after)
		}
	}
}
