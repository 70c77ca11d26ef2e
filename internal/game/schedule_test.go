package game

import (
	"context"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
)

// TestTheScheduleIsTheNightsSlotsForEverySeat: at night the schedule
// lists the board's slots (std-9 with wolves_first: the night, the witch's,
// the checkers'), opening one slot's length apart from the beat's base and
// ending when the state's night ends; by day it lists none.
func TestTheScheduleIsTheNightsSlotsForEverySeat(t *testing.T) {
	b := presetBoard(t, "std-9", 9)
	tm := nightTimers()
	cfg := Config{Board: b, Seed: 9, Timers: tm, Bots: (1<<10 - 1) &^ 1}
	a, err := Start(context.Background(), "sched", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	sub := NewSub(3, 1<<14, nil)
	if err := a.Join(sub, 0, 0); err != nil {
		t.Fatal(err)
	}
	st := stateUntil(t, sub, func(s StateFrame) bool { return s.Night && s.NightEnd > 0 })
	tick, base, opens, err := a.Schedule()
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{tm.Night, tm.Witch, tm.check()}
	if tick != tm.Tick || len(opens) != len(want) {
		t.Fatalf("tick %v, %d slots; want %v, %d", tick, len(opens), tm.Tick, len(want))
	}
	if d := opens[0].Sub(base); d < 0 || d > tm.Tick {
		t.Errorf("the first slot opens %v after the beat's base", d)
	}
	for i := 1; i < len(opens); i++ {
		if d := opens[i].Sub(opens[i-1]); d != want[i-1] {
			t.Errorf("slot %d opens %v after slot %d, want %v", i, d, i-1, want[i-1])
		}
	}
	if end := opens[len(opens)-1].Add(want[len(want)-1]); end.UnixMilli() != st.NightEnd {
		t.Errorf("the last slot ends at %d, the state's night at %d", end.UnixMilli(), st.NightEnd)
	}
	stateUntil(t, sub, func(s StateFrame) bool { return !s.Night && s.Day > 0 })
	if _, _, opens, err := a.Schedule(); err != nil || opens != nil {
		t.Errorf("by day the schedule is %v, %v", opens, err)
	}
}
