package game

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// arrival is an event or a state a seat received: when, in which message
// (counted from 1), and, for a state at night, the dawn it announces.
type arrival struct {
	at       time.Time
	msg      int
	f        EventFrame
	nightEnd int64 // unix ms
}

// watch records when a seat receives each event and each state until the
// game is over.
func watch(t *testing.T, sub *Sub) []arrival {
	t.Helper()
	var out []arrival
	limit := time.After(60 * time.Second)
	for msg := 1; ; msg++ {
		var m []byte
		select {
		case m = <-sub.Out:
		case <-limit:
			t.Fatal("the game did not end")
		}
		at := time.Now()
		for _, b := range bytes.Split(m, []byte{'\n'}) {
			var f EventFrame
			if bytes.HasPrefix(b, []byte(`{"type":"pad"`)) {
				continue
			}
			if err := json.Unmarshal(b, &f); err != nil {
				t.Fatal(err)
			}
			switch f.Type {
			case "event":
				out = append(out, arrival{at: at, msg: msg, f: f})
			case "state":
				var st StateFrame
				_ = json.Unmarshal(b, &st)
				out = append(out, arrival{at: at, msg: msg, f: f, nightEnd: st.NightEnd})
				if st.Over {
					return out
				}
			}
		}
	}
}

// TestNightsAreToldOnAFixedSchedule: bots act at once, yet a sleeping
// seat hears nothing between nightfall and the end of the night's last
// slot, the witch is woken no sooner than the end of the wolves' slot, and
// (night_order=wolves_first) the seer no sooner than the end of the witch's.
// How quickly others act, who is dead, who is not in play: none of it
// changes when anything is told.
func TestNightsAreToldOnAFixedSchedule(t *testing.T) {
	const night, witch = 120 * time.Millisecond, 80 * time.Millisecond
	tm := fastTimers()
	tm.Night, tm.Witch = night, witch
	deal := []rules.Role{rules.Villager, rules.Witch, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Werewolf,
		rules.Seer, rules.Hunter, rules.Idiot, rules.Villager, rules.Villager, rules.Villager}
	cfg := Config{Board: std12(t), Seed: 3, Timers: tm, Bots: 0x1ffe, Deal: deal}
	a, err := Start(context.Background(), "r", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	villager, witchSub, seerSub := NewSub(1, 4096, nil), NewSub(2, 4096, nil), NewSub(7, 4096, nil)
	for _, sub := range []*Sub{villager, witchSub, seerSub} {
		if err := a.Join(sub, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	witchEvs, seerEvs := make(chan []arrival), make(chan []arrival)
	go func() { witchEvs <- watch(t, witchSub) }()
	go func() { seerEvs <- watch(t, seerSub) }()
	evs := watch(t, villager)
	// Times are the actor's schedule, the dawn each seat is told at
	// nightfall (night_end): a frame cannot arrive before it was sent, so
	// however late a loaded machine reads, a frame sent early is seen early.
	// (A millisecond for night_end's rounding.)
	dawnOf := func(evs []arrival, i int) time.Time {
		for _, x := range evs[i:] {
			if x.nightEnd > 0 {
				return time.UnixMilli(x.nightEnd - 1)
			}
		}
		t.Fatalf("no state after nightfall told the dawn")
		return time.Time{}
	}
	nights := 0
	for i, e := range evs {
		if e.f.Kind != "night" {
			continue
		}
		nights++
		dawn := dawnOf(evs, i)
		// The night of std-12 has three slots: everyone at once, the witch,
		// the seer.
		// Nothing — no event, no new state — reaches a sleeper before both
		// are over, but what came in nightfall's own message.
		for _, x := range evs[i+1:] {
			if x.msg == e.msg {
				continue
			}
			if x.at.Before(dawn) {
				t.Errorf("night %d: the sleeping villager got a %s %q %v before the dawn the night was told to end at %+v",
					e.f.Value, x.f.Type, x.f.Kind, dawn.Sub(x.at), x.f)
			}
			break
		}
	}
	if nights == 0 {
		t.Fatal("no night was played")
	}
	wevs := <-witchEvs
	woken := 0
	var wolvesEnd time.Time
	for i, e := range wevs {
		switch {
		case e.f.Kind == "night":
			wolvesEnd = dawnOf(wevs, i).Add(-2 * witch) // the witch's slot, then the seer's as long
		case e.f.Kind == "witch_told":
			woken++
			if e.at.Before(wolvesEnd) {
				t.Errorf("the witch was woken %v before the end of the wolves' %v", wolvesEnd.Sub(e.at), night)
			}
		}
	}
	if woken == 0 {
		t.Fatal("the witch was never woken")
	}
	sevs := <-seerEvs
	checks := 0
	var witchEnd time.Time
	for i, e := range sevs {
		switch {
		case e.f.Kind == "night":
			witchEnd = dawnOf(sevs, i).Add(-witch) // the seer's slot is the night's last
		case e.f.Kind == "check":
			checks++
			if e.at.Before(witchEnd) {
				t.Errorf("the seer checked %v before the end of the witch's slot", witchEnd.Sub(e.at))
			}
		}
	}
	if checks == 0 {
		t.Fatal("the seer never checked")
	}
}

// TestNobodyActsWhileTheTableLagsBehind: the wolves' time runs out and,
// the witch's card lying unused in the middle, the game is already at dawn
// while the table is still in the witch's slot. The timed-out wolf must
// not act (his command would land in the day) and the answer must be the
// one every sleeper gets.
func TestNobodyActsWhileTheTableLagsBehind(t *testing.T) {
	cards := []rules.Role{rules.Thief, rules.Werewolf, rules.Werewolf, rules.Seer, rules.Villager, rules.Villager,
		rules.Witch, rules.Villager} // the last two lie in the middle
	b := rules.Board{Cards: cards}
	tm := fastTimers()
	tm.Setup, tm.Night, tm.Witch = 100*time.Millisecond, 100*time.Millisecond, 3*time.Second
	cfg := Config{Board: b, Seed: 2, Timers: tm, Deal: cards, Bots: 1<<3 | 1<<4 | 1<<5 | 1<<6}
	a, err := Start(context.Background(), "lag", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	thief, wolf := NewSub(1, 4096, nil), NewSub(2, 4096, nil)
	for _, s := range []*Sub{thief, wolf} {
		if err := a.Join(s, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(600 * time.Millisecond) // both slots are over; the witch's runs until 3.2 s
	for _, c := range []rules.Command{{Kind: rules.CmdSkip}, {Kind: rules.CmdAttack, Target: 4}, {Kind: rules.CmdRun}} {
		if err := a.Act(wolf, 7, c); err != nil {
			t.Fatal(err)
		}
		f := next(t, wolf, "error")
		if f["code"] != "not_now" || f["message"] != "you cannot act now" {
			t.Fatalf("%v in the lag: %v", c, f)
		}
	}
}
