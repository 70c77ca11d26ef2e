package game

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// heard is one frame a connection was sent, with the game's time when the
// test took it.
type heard struct {
	at    time.Time
	raw   []byte
	frame map[string]any
}

// hear takes every frame waiting on a connection, the night's ticks and
// padding left out.
func hear(t *testing.T, sub *Sub, at time.Time, into *[]heard) {
	t.Helper()
	for {
		select {
		case m := <-sub.Out:
			for _, line := range bytes.Split(m, []byte{'\n'}) {
				if bytes.HasPrefix(line, []byte(`{"type":"tick"`)) || bytes.HasPrefix(line, []byte(`{"type":"pad"`)) {
					continue
				}
				var f map[string]any
				if err := json.Unmarshal(line, &f); err != nil {
					t.Fatalf("seat %d: %q is not JSON", sub.Seat, line)
				}
				*into = append(*into, heard{at, slices.Clone(line), f})
			}
		default:
			return
		}
	}
}

func ofType(hs []heard, typ string) []heard {
	var out []heard
	for _, h := range hs {
		if h.frame["type"] == typ {
			out = append(out, h)
		}
	}
	return out
}

// forumConfig is std-9 at the forum pace on a fake clock: seat 1 the
// seer and seat 2 a villager, both people who never act (every step that
// awaits them lasts its whole timer), the other seats bots.
func forumConfig(t *testing.T, c *fakeClock) Config {
	t.Helper()
	b := presetBoard(t, "std-9", 9)
	deal := slices.Clone(b.Cards)
	i := slices.Index(deal, rules.Seer)
	deal[0], deal[i] = deal[i], deal[0]
	j := slices.Index(deal[1:], rules.Villager) + 1
	deal[1], deal[j] = deal[j], deal[1]
	tm, err := Pace("forum")
	if err != nil {
		t.Fatal(err)
	}
	tm.Tick = 30 * time.Minute // a test's nights need not beat every 10 s
	return Config{Board: b, Seed: 24, Timers: tm, Deal: deal, Bots: 0x3f8, Clock: c, KeepAlive: time.Hour}
}

// TestAForumGameRunsToItsEndWithItsReminders: a std-9 game at the forum
// pace (a night of 12 hours, a day's speech 20) played to its end on a
// fake clock. Every stage longer than an hour is reminded of an hour and
// ten minutes before its deadline; at night the reminder is the same
// frame, at the same tick, for the seer, a villager and a spectator; by
// day it names the seats the step calls on, the same for all.
func TestAForumGameRunsToItsEndWithItsReminders(t *testing.T) {
	c := newFakeClock()
	a, err := Start(context.Background(), "forum", forumConfig(t, c), memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := joinSeats(t, a, 0, 1, 2)
	got := map[rules.Seat]*[]heard{0: {}, 1: {}, 2: {}}
	start := c.Now()
	for i := 0; ; i++ {
		if i > 200000 {
			t.Fatal("the game does not end")
		}
		for s, sub := range subs {
			hear(t, sub, c.Now(), got[s])
		}
		if over, _ := ask(a, func() bool { o, _ := a.shown.Over(); return o }); over {
			break
		}
		if !c.step(t, a) {
			t.Fatal("the game waits for nothing")
		}
	}
	for s, sub := range subs {
		hear(t, sub, c.Now(), got[s])
	}
	took := c.Now().Sub(start)
	if took < 48*time.Hour {
		t.Fatalf("a forum game of people who never act ended after %v", took)
	}
	rem := map[rules.Seat][]heard{}
	for s := range got {
		rem[s] = ofType(*got[s], "remind")
	}
	var nights, days int
	for _, r := range rem[0] {
		due := time.UnixMilli(int64(r.frame["deadline"].(float64)))
		left := time.Duration(r.frame["left"].(float64)) * time.Millisecond
		if left != time.Hour && left != 10*time.Minute {
			t.Errorf("a reminder %v before its deadline: %s", left, r.raw)
		}
		// Sent at its offset: taken no later than the tick (or the day's
		// instant) that carried it.
		if r.at.Before(due.Add(-left)) || r.at.After(due.Add(-left).Add(30*time.Minute)) {
			t.Errorf("the reminder %s was sent at %v, its due %v", r.raw, r.at, due.Add(-left))
		}
		if r.frame["night"] == true {
			nights++
			if r.frame["seats"] != nil {
				t.Errorf("a night's reminder names seats: %s", r.raw)
			}
		} else {
			days++
			if r.frame["seats"] == nil {
				t.Errorf("a day's reminder names nobody: %s", r.raw)
			}
		}
	}
	if nights < 4 || days < 4 {
		t.Fatalf("%d night and %d day reminders in a game of %v", nights, days, took)
	}
	// Every connection, whatever its role, hears the same reminders at
	// the same instants, byte for byte.
	for _, s := range []rules.Seat{1, 2} {
		if len(rem[s]) != len(rem[0]) {
			t.Fatalf("seat %d heard %d reminders, the spectator %d", s, len(rem[s]), len(rem[0]))
		}
		for k := range rem[0] {
			if !bytes.Equal(rem[s][k].raw, rem[0][k].raw) || !rem[s][k].at.Equal(rem[0][k].at) {
				t.Fatalf("reminder %d: seat %d heard %s at %v, the spectator %s at %v", k, s,
					rem[s][k].raw, rem[s][k].at, rem[0][k].raw, rem[0][k].at)
			}
		}
	}
	t.Logf("the game took %v of fake time: %d night and %d day reminders", took, nights, days)
}

// TestANightsDeadlinesAreTheSameForEverySeat: at night at the forum pace
// every seat's state, the seer's, a villager's and a spectator's, names
// the same dawn, which stays put all night while the bots act; a sleeper's
// deadline is that dawn.
func TestANightsDeadlinesAreTheSameForEverySeat(t *testing.T) {
	c := newFakeClock()
	a, err := Start(context.Background(), "forum", forumConfig(t, c), memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := joinSeats(t, a, 0, 1, 2)
	dawn := map[int]int64{} // night (the day before it) → its dawn
	seen := 0
	for n := 0; n < 400 && len(dawn) < 2; n++ {
		c.step(t, a)
		for s, sub := range subs {
			var hs []heard
			hear(t, sub, c.Now(), &hs)
			for _, h := range ofType(hs, "state") {
				var st StateFrame
				if err := json.Unmarshal(h.raw, &st); err != nil {
					t.Fatal(err)
				}
				if !st.Night || st.Over {
					continue
				}
				seen++
				if d, ok := dawn[st.Day]; !ok {
					dawn[st.Day] = st.NightEnd
				} else if d != st.NightEnd {
					t.Fatalf("seat %d: night after day %d: dawn %d, told %d before", s, st.Day, st.NightEnd, d)
				}
				if s == 2 && st.Deadline != st.NightEnd {
					t.Fatalf("the sleeping villager's deadline %d is not the dawn %d", st.Deadline, st.NightEnd)
				}
			}
		}
	}
	if len(dawn) < 2 || seen < 6 {
		t.Fatalf("%d nights and %d night states seen", len(dawn), seen)
	}
}

// lastState is the last state frame among hs.
func lastState(t *testing.T, hs []heard) (StateFrame, bool) {
	t.Helper()
	var st StateFrame
	ok := false
	for _, h := range ofType(hs, "state") {
		if err := json.Unmarshal(h.raw, &st); err != nil {
			t.Fatal(err)
		}
		ok = true
	}
	return st, ok
}

// TestARestartInAForumNightKeepsItsDeadlines: the server stops three hours
// into a 12-hour night and is down for 40 minutes; the game resumes with
// the deadlines the table was told (截止 08:00 stays 08:00), not with the
// time it had left, and a reminder sent before the stop is not sent again.
func TestARestartInAForumNightKeepsItsDeadlines(t *testing.T) {
	c := newFakeClock()
	st := memory.New()
	cfg := forumConfig(t, c)
	a, err := Start(context.Background(), "forum", cfg, st, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	subs := joinSeats(t, a, 1)
	var before []heard
	var night StateFrame
	for n := 0; n < 400; n++ {
		c.step(t, a)
		hear(t, subs[1], c.Now(), &before)
		s, ok := lastState(t, before)
		// The first night (15 hours on std-9: the wolves' 9, the witch's 3,
		// the checkers' 3), three hours in.
		if ok && s.Night && time.UnixMilli(s.NightEnd).Sub(c.Now()) <= 12*time.Hour {
			night = s
			break
		}
	}
	if night.Type == "" {
		t.Fatal("the seer never got three hours into the night")
	}
	a.Stop()
	c.advance(c.Now().Add(40 * time.Minute))
	recs, err := st.Records(context.Background(), "forum")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Restore("forum", cfg, st, recs, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	sub := NewSub(1, 4096, nil)
	if err := b.Join(sub, 0, 0); err != nil {
		t.Fatal(err)
	}
	var after []heard
	for n := 0; n < 50; n++ {
		c.settled(t, b)
		hear(t, sub, c.Now(), &after)
		if s, ok := lastState(t, after); ok && s.Night {
			if s.NightEnd != night.NightEnd || s.Deadline != night.Deadline {
				t.Fatalf("after the restart: dawn %v, deadline %v; before: dawn %v, deadline %v",
					time.UnixMilli(s.NightEnd), time.UnixMilli(s.Deadline),
					time.UnixMilli(night.NightEnd), time.UnixMilli(night.Deadline))
			}
			break
		}
		c.step(t, b)
	}
	if _, ok := lastState(t, after); !ok {
		t.Fatal("no state after the restart")
	}
	// Run on to the dawn: each reminder of the night reaches the seer once.
	for n := 0; n < 400; n++ {
		c.step(t, b)
		hear(t, sub, c.Now(), &after)
		if s, ok := lastState(t, after); ok && !s.Night {
			break
		}
	}
	sent := map[string]int{}
	for _, h := range ofType(append(before, after...), "remind") {
		sent[string(h.raw)]++
	}
	if len(sent) < 2 {
		t.Fatalf("the night's reminders: %v", sent)
	}
	for r, n := range sent {
		if n != 1 {
			t.Errorf("%s was sent %d times", r, n)
		}
	}
}

// TestTheHostExtendsADeadline: by day the running step's deadline moves
// by the extension; at night the running stage's end, so the dawn, moves
// for every seat alike; every connection is told of it by the same frame.
// An extension out of range is refused and changes nothing.
func TestTheHostExtendsADeadline(t *testing.T) {
	c := newFakeClock()
	a, err := Start(context.Background(), "forum", forumConfig(t, c), memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := joinSeats(t, a, 0, 1, 2)
	got := map[rules.Seat]*[]heard{0: {}, 1: {}, 2: {}}
	hearAll := func() {
		for s, sub := range subs {
			hear(t, sub, c.Now(), got[s])
		}
	}
	for _, bad := range []time.Duration{0, time.Second, -time.Hour, 73 * time.Hour} {
		if err := a.Extend(bad); err == nil {
			t.Errorf("an extension of %v was taken", bad)
		}
	}
	for _, night := range []bool{true, false} {
		var before [3]StateFrame
		for n := 0; ; n++ {
			if n > 400 {
				t.Fatalf("no state with night=%v", night)
			}
			c.step(t, a)
			hearAll()
			ok := true
			for s := range before {
				st, has := lastState(t, *got[rules.Seat(s)])
				before[s], ok = st, ok && has && st.Night == night && st.Deadline != 0
			}
			if ok && (night || before[1].Pending) {
				break
			}
		}
		if err := a.Extend(2 * time.Hour); err != nil {
			t.Fatal(err)
		}
		var ext [3][]heard
		for n := 0; n < 10 && len(ext[0]) == 0; n++ { // at night the next tick carries it
			c.step(t, a)
			hearAll()
			for s := range ext {
				ext[s] = ofType(*got[rules.Seat(s)], "extend")
			}
		}
		for s := range ext {
			if len(ext[s]) != len(ext[0]) || len(ext[s]) == 0 || !bytes.Equal(ext[s][len(ext[s])-1].raw, []byte(`{"type":"extend","by":7200000}`)) ||
				!ext[s][len(ext[s])-1].at.Equal(ext[0][len(ext[0])-1].at) {
				t.Fatalf("night=%v: seat %d was told of the extension %v, the spectator %v", night, s, ext[s], ext[0])
			}
		}
		for s := range before {
			after, _ := lastState(t, *got[rules.Seat(s)])
			if after.Deadline-before[s].Deadline != (2 * time.Hour).Milliseconds() {
				t.Errorf("night=%v: seat %d's deadline moved from %v to %v", night, s,
					time.UnixMilli(before[s].Deadline), time.UnixMilli(after.Deadline))
			}
			if night && after.NightEnd-before[s].NightEnd != (2*time.Hour).Milliseconds() {
				t.Errorf("seat %d's dawn moved from %v to %v", s, time.UnixMilli(before[s].NightEnd), time.UnixMilli(after.NightEnd))
			}
		}
		for s := range got {
			*got[s] = nil
		}
	}
}

// TestAnHourLongNightLooksTheSameFromEverySeat: the night-traffic rule at
// the forum pace, on a fake clock, over a whole game: from nightfall to
// dawn every connection, each of the nine seats (the seer and a villager
// who never act, bots) and a spectator, is sent one message at each tick,
// of NightMessage bytes, the same ticks at the same instants for all; the
// night's reminders travel inside them.
func TestAnHourLongNightLooksTheSameFromEverySeat(t *testing.T) {
	c := newFakeClock()
	a, err := Start(context.Background(), "forum", forumConfig(t, c), memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	subs := []*Sub{NewSub(0, 1<<14, nil)}
	for s := 1; s <= 9; s++ {
		subs = append(subs, NewSub(rules.Seat(s), 1<<14, nil))
	}
	for _, sub := range subs {
		if err := a.Join(sub, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	type beat struct {
		at         time.Time
		tick, size int
	}
	beats := make([][]beat, len(subs))
	reminders := make([]int, len(subs))
	take := func() {
		for i, sub := range subs {
			for {
				if len(sub.Out) == 0 {
					break
				}
				m, _ := read(t, sub, nil)
				if m.sealed {
					beats[i] = append(beats[i], beat{c.Now(), m.tick, m.size})
					if m.size != NightMessage && (!m.has("event", "day") || m.size%NightMessage != 0) {
						t.Fatalf("seat %d: a night message of %d bytes", sub.Seat, m.size)
					}
				}
				if m.has("remind", "") {
					if !m.sealed {
						for _, f := range m.frames {
							if f["type"] == "remind" && f["night"] == true {
								t.Fatalf("seat %d: a night's reminder outside the beat", sub.Seat)
							}
						}
					} else {
						reminders[i]++
					}
				}
			}
		}
	}
	for i := 0; ; i++ {
		if i > 200000 {
			t.Fatal("the game does not end")
		}
		take()
		if over, _ := ask(a, func() bool { o, _ := a.shown.Over(); return o }); over {
			break
		}
		c.step(t, a)
	}
	take()
	if len(beats[0]) < 40 || reminders[0] < 4 {
		t.Fatalf("%d night messages, %d of them with reminders", len(beats[0]), reminders[0])
	}
	for i := range subs {
		if fmt.Sprint(beats[i]) != fmt.Sprint(beats[0]) || reminders[i] != reminders[0] {
			for j := range beats[i] {
				if j < len(beats[0]) && beats[i][j] != beats[0][j] {
					t.Logf("seat %d's night message %d: %v; the spectator's: %v", subs[i].Seat, j, beats[i][j], beats[0][j])
					break
				}
			}
			t.Errorf("seat %d's nights differ from the spectator's (%d and %d messages, %d and %d reminders)",
				subs[i].Seat, len(beats[i]), len(beats[0]), reminders[i], reminders[0])
		}
	}
}
