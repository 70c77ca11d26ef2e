package game

import "time"

// Schedule is tonight's schedule as every seat may know it: the beat's
// tick and when each of the night's slots opens, in order (the board's
// fixed schedule, the same whoever lives: clock.go), the past ones
// included. By day opens is nil. A chat group's night is paced on it
// (internal/chat): every living player is sent one message as each slot
// opens, so the count and the timing of what he receives at night are his
// table's, not his role's.
func (a *Actor) Schedule() (tick time.Duration, base time.Time, opens []time.Time, err error) {
	type sched struct {
		tick  time.Duration
		base  time.Time
		opens []time.Time
	}
	s, err := ask(a, func() sched {
		s := sched{tick: max(a.cfg.Timers.Tick, MinTimer), base: a.tickBase}
		if a.clk.Slots == nil || a.clk.Paused || !a.ticking {
			return s
		}
		s.opens = make([]time.Time, len(a.clk.Slots))
		at := a.clk.SlotEnd.Add(-time.Duration(a.clk.Slots[a.clk.Slot].Dur) * time.Millisecond)
		for i := a.clk.Slot; i >= 0; i-- {
			s.opens[i] = at
			if i > 0 {
				at = at.Add(-time.Duration(a.clk.Slots[i-1].Dur) * time.Millisecond)
			}
		}
		at = a.clk.SlotEnd
		for i := a.clk.Slot + 1; i < len(a.clk.Slots); i++ {
			s.opens[i] = at
			at = at.Add(time.Duration(a.clk.Slots[i].Dur) * time.Millisecond)
		}
		return s
	})
	return s.tick, s.base, s.opens, err
}
