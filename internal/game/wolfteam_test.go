package game

import (
	"context"

	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// A std-12 table whose wolves are seats 1 to 4: seats 1 and 2 are people,
// 3 and 4 the server's bots, like everyone else.
var mixedDeal = []rules.Role{rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Seer, rules.Witch,
	rules.Hunter, rules.Idiot, rules.Villager, rules.Villager, rules.Villager, rules.Villager}

// wolfSeat is a connection of a person of the mixed team, read as the
// night goes on.
type wolfSeat struct {
	t     *testing.T
	sub   *Sub
	id    int64
	seen  []map[string]any // every frame so far
	limit <-chan time.Time
}

// until reads the seat's frames until ok holds for one of them (new or
// already read), and returns it.
func (w *wolfSeat) until(what string, ok func(map[string]any) bool) map[string]any {
	w.t.Helper()
	for _, f := range w.seen {
		if ok(f) {
			return f
		}
	}
	for {
		m, got := read(w.t, w.sub, w.limit)
		if !got {
			w.t.Fatalf("seat %d: no %s", w.sub.Seat, what)
		}
		from := len(w.seen)
		w.seen = append(w.seen, m.frames...)
		for _, f := range w.seen[from:] {
			if ok(f) {
				return f
			}
		}
	}
}

// attack sends a pick and waits for its answer: it must be accepted.
func (w *wolfSeat) attack(a *Actor, target rules.Seat) {
	w.t.Helper()
	w.id++
	id := w.id
	if err := a.Act(w.sub, id, rules.Command{Kind: rules.CmdAttack, Target: target}); err != nil {
		w.t.Fatal(err)
	}
	f := w.until("answer", func(f map[string]any) bool {
		return (f["type"] == "ack" || f["type"] == "error") && f["id"] == float64(id)
	})
	if f["type"] != "ack" {
		w.t.Fatalf("seat %d's pick of %d was refused: %v", w.sub.Seat, target, f)
	}
}

func event(kind string, seat rules.Seat) func(map[string]any) bool {
	return func(f map[string]any) bool {
		return f["type"] == "event" && f["kind"] == kind && (seat == 0 || f["seat"] == float64(seat))
	}
}

// mixedTeam starts the table and connects the two people.
func mixedTeam(t *testing.T, night time.Duration, unpaced bool) (*Actor, *wolfSeat, *wolfSeat) {
	tm := nightTimers()
	tm.Night, tm.Bot = night, 20*time.Millisecond
	cfg := Config{Board: std12(t), Seed: 3, Timers: tm, Deal: mixedDeal, Bots: 0x1ff8, // seats 3-12
		Unpaced: unpaced}
	a, err := Start(context.Background(), "mixed", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Stop)
	subs := joinSeats(t, a, 1, 2)
	limit := time.After(30 * time.Second)
	return a, &wolfSeat{t: t, sub: subs[1], limit: limit}, &wolfSeat{t: t, sub: subs[2], id: 100, limit: limit}
}

// other is a living villager seat that is not t.
func other(t rules.Seat) rules.Seat {
	for s := rules.Seat(9); s <= 12; s++ {
		if s != t {
			return s
		}
	}
	return 0
}

// TestMixedWolvesTakeThePeoplesLatePick: two people and two bots in one
// wolf team. The bots do not pick within a second and keep to it: they
// wait, pick when a quarter of the slot is left, and when the people then
// agree on someone else, late in the slot, the attack is the people's
// target, by four picks to none, not a draw between two and two.
func TestMixedWolvesTakeThePeoplesLatePick(t *testing.T) {
	const night = 800 * time.Millisecond
	a, w1, w2 := mixedTeam(t, night, false)
	w1.until("night", event("night", 0))
	woke := time.Now()
	// The holder (seat 3) keeps the step open; seat 4 waits for the people
	// until a quarter of the slot is left.
	bot := w1.until("bot's pick", event("attack_pick", 4))
	if d := time.Since(woke); d < night/2 {
		t.Fatalf("the bot picked %v into a slot of %v, before the people had", d, night)
	}
	if _, ok := first(w1.seen, event("attack_pick", 3)); ok {
		t.Fatal("the holder picked before the slot ended")
	}
	target := other(rules.Seat(bot["target"].(float64)))
	w1.attack(a, target)
	w2.attack(a, target)
	att := w1.until("attack line", event("attack", 0))
	if att["target"] != float64(target) || att["drawn"] == true {
		t.Fatalf("the people agreed on %d; the attack line is %v", target, att)
	}
	for s := rules.Seat(1); s <= 4; s++ {
		picks := picksOf(w1.seen, s)
		if len(picks) == 0 || picks[len(picks)-1] != target {
			t.Errorf("seat %d's picks were %v; the people's was %d", s, picks, target)
		}
	}
}

// TestAPersonOfAMixedTeamMayChangeHisPick: the people pick, then change
// their minds before the slot ends: the server takes the change (it
// refused it while the table no longer awaited them), the bots follow, and
// the new pick is the attack.
func TestAPersonOfAMixedTeamMayChangeHisPick(t *testing.T) {
	const night = 800 * time.Millisecond
	a, w1, w2 := mixedTeam(t, night, false)
	w1.until("night", event("night", 0))
	w1.until("choices", func(f map[string]any) bool { return f["type"] == "state" && f["pending"] == true })
	w1.attack(a, 9)
	w2.attack(a, 9)
	w1.until("bot following", func(f map[string]any) bool {
		return event("attack_pick", 4)(f) && f["target"] == 9.0
	})
	// Not awaited any more, the people are still offered the attack.
	w1.until("the attack offered again", func(f map[string]any) bool {
		if f["type"] != "state" || f["pending"] == true {
			return false
		}
		cs, _ := f["choices"].([]any)
		for _, c := range cs {
			if c.(map[string]any)["cmd"] == "attack" {
				return true
			}
		}
		return false
	})
	w1.attack(a, 10)
	w2.attack(a, 10)
	att := w1.until("attack line", event("attack", 0))
	if att["target"] != 10.0 || att["drawn"] == true {
		t.Fatalf("the people changed to 10; the attack line is %v (picks %v %v %v %v)", att,
			picksOf(w1.seen, 1), picksOf(w1.seen, 2), picksOf(w1.seen, 3), picksOf(w1.seen, 4))
	}
	// Once the slot is over, a pick is refused like any other act at night.
	w1.id++
	if err := a.Act(w1.sub, w1.id, rules.Command{Kind: rules.CmdAttack, Target: 11}); err != nil {
		t.Fatal(err)
	}
	id := w1.id
	f := w1.until("answer", func(f map[string]any) bool { return f["id"] == float64(id) })
	if f["type"] != "error" || f["code"] != "not_now" {
		t.Fatalf("a pick after the slot: %v", f)
	}
}

// TestAnUnpacedMixedTeamEndsItsSlotOnceEveryoneHasPicked: at a table of
// programs (a model's seat in an arena game) the bots of a mixed team pick
// once the programs have, and the night goes on: nobody there may change
// his mind at leisure, and no schedule hides when the slot ends, so the
// holder does not keep it open for its whole timer (an hour here).
func TestAnUnpacedMixedTeamEndsItsSlotOnceEveryoneHasPicked(t *testing.T) {
	a, w1, w2 := mixedTeam(t, MaxTimer, true)
	w1.until("night", event("night", 0))
	w1.until("choices", func(f map[string]any) bool { return f["type"] == "state" && f["pending"] == true })
	w1.attack(a, 9)
	w2.attack(a, 9)
	att := w1.until("attack line", event("attack", 0))
	if att["target"] != 9.0 || att["drawn"] == true {
		t.Fatalf("the programs agreed on 9; the attack line is %v (picks %v %v)", att,
			picksOf(w1.seen, 3), picksOf(w1.seen, 4))
	}
}

func first(fs []map[string]any, ok func(map[string]any) bool) (map[string]any, bool) {
	for _, f := range fs {
		if ok(f) {
			return f, true
		}
	}
	return nil, false
}

func picksOf(fs []map[string]any, s rules.Seat) []rules.Seat {
	var out []rules.Seat
	for _, f := range fs {
		if event("attack_pick", s)(f) {
			t, _ := f["target"].(float64)
			out = append(out, rules.Seat(t))
		}
	}
	return out
}
