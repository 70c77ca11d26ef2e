package game

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// Seats 1 (villager), 2 (werewolf) and 3 (seer) are people; the rest bots.
var seenDeal = []rules.Role{rules.Villager, rules.Werewolf, rules.Seer, rules.Werewolf, rules.Werewolf, rules.Werewolf,
	rules.Witch, rules.Hunter, rules.Idiot, rules.Villager, rules.Villager, rules.Villager}

const seenBots = 0x1ff0 // seats 4 to 12

func startWaiting(t *testing.T, st store.Store) *Actor {
	t.Helper()
	cfg := Config{Board: std12(t), Seed: 5, Timers: nightTimers(), Bots: seenBots, Deal: seenDeal, CardSeen: true}
	a, err := Start(context.Background(), "r", cfg, st, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Stop)
	return a
}

// until reads sub's frames until one satisfies ok; it returns those of the
// given type read on the way, the last included if of that type.
func until(t *testing.T, sub *Sub, typ string, ok func(map[string]any) bool) [][]byte {
	t.Helper()
	var got, all [][]byte
	limit, l := time.After(5*time.Second), linesOf(sub)
	for {
		b, more := l.recv(limit)
		if !more {
			t.Fatalf("seat %d: the frame awaited did not come (%d %s frames; read %q)", sub.Seat, len(got), typ, all)
		}
		all = append(all, b)
		var f map[string]any
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		if f["type"] == typ {
			got = append(got, b)
		}
		if ok(f) {
			return got
		}
	}
}

func isType(typ string) func(map[string]any) bool {
	return func(f map[string]any) bool { return f["type"] == typ }
}

func seenCount(n int) func(map[string]any) bool {
	return func(f map[string]any) bool { return f["type"] == "seen" && f["count"] == float64(n) }
}

// told reports whether the table was told an event of kind k.
func told(a *Actor, k rules.EventKind) bool {
	ok, _ := ask(a, func() bool {
		for _, e := range a.shown.Events() {
			if e.Kind == k {
				return true
			}
		}
		return false
	})
	return ok
}

// TestTheNightWaitsUntilEveryCardIsSeen: after the deal each connection is
// told its card and how many people of how many have confirmed, the same
// count, byte for byte, to the villager, the wolf and a spectator; the
// night does not fall until the last person confirms, and its clock
// starts then.
func TestTheNightWaitsUntilEveryCardIsSeen(t *testing.T) {
	a := startWaiting(t, memory.New())
	subs := joinSeats(t, a, 1, 2, 3, 0)
	counts := map[rules.Seat][][]byte{}
	for s, sub := range subs {
		counts[s] = append(counts[s], until(t, sub, "seen", isType("seen"))...)
	}
	var views []string
	for _, s := range []rules.Seat{1, 2, 3} {
		st := stateUntil(t, subs[s], func(st StateFrame) bool { return st.Role != "" })
		if st.Role != seenDeal[s-1].String() || !st.SeeCard || st.Night || len(st.Wolves) != 0 {
			t.Errorf("seat %d while the cards are looked at: %+v", s, st)
		}
		st.Seat, st.Role = 0, "" // the seat's own: all else is the same for every card
		views = append(views, string(encode(st)))
	}
	for i, v := range views {
		if v != views[0] {
			t.Errorf("while the cards are looked at, seat %d's state, its seat and card aside, is %s; seat 1's %s", i+1, v, views[0])
		}
	}
	id := int64(1)
	states := map[rules.Seat]map[string]any{}
	// The count comes with the answer: what is read on the way is kept.
	confirm := func(s rules.Seat) map[string]any {
		t.Helper()
		id++
		if err := a.Seen(subs[s], id); err != nil {
			t.Fatal(err)
		}
		var f map[string]any
		counts[s] = append(counts[s], until(t, subs[s], "seen", func(m map[string]any) bool {
			if m["type"] == "state" {
				states[s] = m
			}
			f = m
			return m["type"] == "ack" || m["type"] == "error"
		})...)
		return f
	}
	for i, s := range []rules.Seat{2, 1} {
		if f := confirm(s); f["type"] != "ack" {
			t.Fatalf("seat %d confirms: %v", s, f)
		}
		for x, sub := range subs {
			if len(counts[x]) < i+2 {
				counts[x] = append(counts[x], until(t, sub, "seen", seenCount(i+1))...)
			}
		}
		if told(a, rules.EvNight) || told(a, rules.EvWolfTeam) {
			t.Fatalf("the night fell (or the pack was told) with %d of 3 cards seen", i+1)
		}
	}
	if f := confirm(2); f["type"] != "ack" { // again: acknowledged, counted once
		t.Fatalf("a second confirmation: %v", f)
	}
	if st := states[1]; st == nil || st["see_card"] != nil || st["night"] != false {
		t.Fatalf("seat 1's state after confirming: %v", st)
	}
	last := time.Now()
	if f := confirm(3); f["type"] != "ack" {
		t.Fatal(f)
	}
	for x, sub := range subs {
		if len(counts[x]) < 4 {
			counts[x] = append(counts[x], until(t, sub, "seen", func(f map[string]any) bool { return f["type"] == "seen" && f["waiting"] == false })...)
		}
	}
	for x, c := range counts {
		if len(c) != 4 {
			t.Fatalf("seat %d was told %d counts, want 4: %q", x, len(c), c)
		}
		for i := range c {
			if string(c[i]) != string(counts[1][i]) {
				t.Errorf("count %d: seat %d was told %s, seat 1 %s", i, x, c[i], counts[1][i])
			}
		}
	}
	if want := `{"type":"seen","count":3,"of":3,"waiting":false}`; string(counts[2][3]) != want {
		t.Errorf("the last count: %s, want %s", counts[2][3], want)
	}
	night := stateUntil(t, subs[3], func(st StateFrame) bool { return st.Night })
	var sched time.Duration
	for _, sl := range nightSlots(&a.cfg.Board, 1, &a.cfg.Timers) {
		sched += time.Duration(sl.Dur) * time.Millisecond
	}
	if night.NightEnd < last.Add(sched).UnixMilli() {
		t.Errorf("the night ends at %d, before its schedule counted from the last confirmation (%d)",
			night.NightEnd, last.Add(sched).UnixMilli())
	}
	if f := confirm(1); f["code"] != "not_waiting" {
		t.Errorf("a confirmation once the night fell: %v", f)
	}
}

// TestTheWaitForCardsSurvivesARestart: the confirmations are stored; a
// game restored in the middle of the wait still waits for the others.
func TestTheWaitForCardsSurvivesARestart(t *testing.T) {
	st := memory.New()
	a := startWaiting(t, st)
	subs := joinSeats(t, a, 1, 3)
	for i, s := range []rules.Seat{1, 3} {
		if err := a.Seen(subs[s], int64(i+1)); err != nil {
			t.Fatal(err)
		}
		if f := answer(t, subs[s]); f["type"] != "ack" {
			t.Fatal(f)
		}
	}
	a.Stop()
	recs, err := st.Records(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Restore("r", a.cfg, st, recs, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	again := joinSeats(t, b, 1, 2)
	got := until(t, again[2], "seen", isType("seen"))
	if want := `{"type":"seen","count":2,"of":3,"waiting":true}`; string(got[0]) != want {
		t.Fatalf("after a restart: %s, want %s", got[0], want)
	}
	if st := stateUntil(t, again[2], func(StateFrame) bool { return true }); !st.SeeCard || st.Night {
		t.Errorf("seat 2 after the restart: %+v", st)
	}
	if st := stateUntil(t, again[1], func(StateFrame) bool { return true }); st.SeeCard {
		t.Errorf("seat 1, who confirmed before the restart, is asked again: %+v", st)
	}
	if told(b, rules.EvNight) {
		t.Fatal("the night fell at the restart")
	}
	if err := b.Seen(again[2], 9); err != nil {
		t.Fatal(err)
	}
	stateUntil(t, again[1], func(st StateFrame) bool { return st.Night })
}

// TestTheHostMayEndTheWait: the night falls at the host's word, with cards
// still unconfirmed; the wait cannot be ended twice.
func TestTheHostMayEndTheWait(t *testing.T) {
	a := startWaiting(t, memory.New())
	subs := joinSeats(t, a, 1)
	if err := a.SkipSeen(); err != nil {
		t.Fatal(err)
	}
	stateUntil(t, subs[1], func(st StateFrame) bool { return st.Night && !st.SeeCard })
	if err := a.SkipSeen(); !errors.Is(err, ErrNotWaiting) {
		t.Fatalf("a second skip: %v", err)
	}
}

// TestNoWaitUnlessAsked: an online room (CardSeen off) and a table of bots
// only go to the night at once and are told no count.
func TestNoWaitUnlessAsked(t *testing.T) {
	for name, cfg := range map[string]Config{
		"online":    {Board: std12(t), Seed: 5, Timers: nightTimers(), Bots: seenBots, Deal: seenDeal},
		"bots only": {Board: std12(t), Seed: 5, Timers: nightTimers(), Bots: 0x1ffe, Deal: seenDeal, CardSeen: true},
	} {
		t.Run(name, func(t *testing.T) {
			a, err := Start(context.Background(), "r", cfg, memory.New(), Hooks{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Stop()
			sub := joinSeats(t, a, 0)[0]
			if seen := until(t, sub, "seen", func(f map[string]any) bool { return f["type"] == "event" && f["kind"] == "night" }); len(seen) != 0 {
				t.Errorf("told %q", seen)
			}
		})
	}
}

// TestTheWaitHoldsWhateverComesFirst: whatever follows the deal — night 1,
// a thief's extra cards, a first day, a sheriff's election before the
// first night — the table is told the deal only, until the card is seen.
func TestTheWaitHoldsWhateverComesFirst(t *testing.T) {
	thief := rules.Board{Cards: []rules.Role{rules.Thief, rules.Werewolf, rules.Werewolf, rules.Seer, rules.Witch, rules.Villager,
		rules.Villager, rules.Villager, rules.Villager}}
	day, elect := std12(t), std12(t)
	if err := day.Options.Set("first_phase", "day"); err != nil {
		t.Fatal(err)
	}
	if err := elect.Options.Set("sheriff", "before_first_night"); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]rules.Board{"night first": std12(t), "thief": thief, "day first": day, "election first": elect} {
		t.Run(name, func(t *testing.T) {
			bots := uint32(1)<<uint(b.Players()+1) - 4 // everyone but seat 1
			cfg := Config{Board: b, Seed: 9, Timers: nightTimers(), Bots: bots, CardSeen: true}
			a, err := Start(context.Background(), "r", cfg, memory.New(), Hooks{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Stop()
			sub := joinSeats(t, a, 1)[1]
			until(t, sub, "seen", isType("seen"))
			beyond := func() int {
				n, _ := ask(a, func() int {
					k := 0
					for _, e := range a.shown.Events() {
						if e.Kind != rules.EvGameStart && e.Kind != rules.EvRole {
							k++
						}
					}
					return k
				})
				return n
			}
			if n := beyond(); n != 0 {
				t.Fatalf("the table was told %d events beyond the deal before the card was seen", n)
			}
			if err := a.Seen(sub, 1); err != nil {
				t.Fatal(err)
			}
			until(t, sub, "seen", func(f map[string]any) bool { return f["type"] == "seen" && f["waiting"] == false })
			if n := beyond(); n == 0 {
				t.Fatal("nothing beyond the deal was told once the card was seen")
			}
		})
	}
}
