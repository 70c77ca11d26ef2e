package game

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

type arrival struct {
	at time.Time
	f  EventFrame
}

// watch records when a seat receives each event and each state until the
// game is over.
func watch(t *testing.T, sub *Sub) []arrival {
	t.Helper()
	var out []arrival
	limit, l := time.After(60*time.Second), linesOf(sub)
	for {
		b, ok := l.recv(limit)
		if !ok {
			t.Fatal("the game did not end")
		}
		var f EventFrame
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		if f.Type == "event" || f.Type == "state" {
			out = append(out, arrival{time.Now(), f})
		}
		if f.Type == "state" {
			var st StateFrame
			_ = json.Unmarshal(b, &st)
			if st.Over {
				return out
			}
		}
	}
}

// TestNightsAreToldOnAFixedSchedule: bots act at once, yet a sleeping
// seat hears nothing between nightfall and the end of the night's last
// slot, and the witch is woken no sooner than the end of the wolves' slot.
// How quickly others act, who is dead, who is not in play: none of it
// changes when anything is told.
func TestNightsAreToldOnAFixedSchedule(t *testing.T) {
	const night, witch = 120 * time.Millisecond, 80 * time.Millisecond
	// Frames are read a little after they are queued (the store's write, the
	// race detector, the scheduler): arrivals are compared with that slack.
	const jitter = 40 * time.Millisecond // a loaded machine (the race detector, other packages' tests) reads late
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
	villager, witchSub := NewSub(1, 4096, nil), NewSub(2, 4096, nil)
	if err := a.Join(villager, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := a.Join(witchSub, 0, 0); err != nil {
		t.Fatal(err)
	}
	witchEvs := make(chan []arrival)
	go func() { witchEvs <- watch(t, witchSub) }()
	evs := watch(t, villager)
	nights := 0
	for i, e := range evs {
		if e.f.Kind != "night" {
			continue
		}
		nights++
		// The night of std-12 has two slots: everyone at once, then the witch.
		// Nothing — no event, no new state — reaches a sleeper before both
		// are over, but what came in nightfall's own message.
		for _, x := range evs[i+1:] {
			gap := x.at.Sub(e.at)
			if gap < 5*time.Millisecond {
				continue
			}
			if gap < night+witch-jitter {
				t.Errorf("night %d: the sleeping villager got a %s %q %v after nightfall, before the night's %v were over %+v",
					e.f.Value, x.f.Type, x.f.Kind, gap, night+witch, x.f)
			}
			break
		}
	}
	if nights == 0 {
		t.Fatal("no night was played")
	}
	var fell time.Time
	woken := 0
	for _, e := range <-witchEvs {
		switch {
		case e.f.Kind == "night":
			fell = e.at
		case e.f.Kind == "witch_told":
			woken++
			if gap := e.at.Sub(fell); gap < night-jitter {
				t.Errorf("the witch was woken %v after nightfall, before the wolves' %v were over", gap, night)
			}
		}
	}
	if woken == 0 {
		t.Fatal("the witch was never woken")
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
