package game

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// Forum pace (版杀, docs/server.md): steps that last hours, reminders as a
// deadline nears, the host's extension of a deadline, and deadlines that a
// restart keeps as they were told.

// DefaultRemind: an hour, then ten minutes, before each deadline. A stage
// shorter than an offset is not reminded at that offset, so a room at the
// standard pace is reminded of nothing.
var DefaultRemind = []time.Duration{time.Hour, 10 * time.Minute}

// MaxRemind bounds a room's reminders.
const MaxRemind = 4

// ParseRemind reads a room's reminders: Go durations separated by commas
// ("1h,10m"); "" takes DefaultRemind; "off" reminds of nothing.
func ParseRemind(s string) ([]time.Duration, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "":
		return DefaultRemind, nil
	case "off":
		return []time.Duration{}, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > MaxRemind {
		return nil, fmt.Errorf("remind: %d reminders; at most %d", len(parts), MaxRemind)
	}
	out := make([]time.Duration, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		d, err := time.ParseDuration(p)
		if err != nil {
			return nil, fmt.Errorf("remind: %q is not a duration such as \"10m\" (or \"off\")", p)
		}
		if d < time.Second || d > MaxPhase {
			return nil, fmt.Errorf("remind: %v is out of range (1s to %s)", d, short(MaxPhase))
		}
		if slices.Contains(out, d) {
			return nil, fmt.Errorf("remind: %v is given twice", d)
		}
		out = append(out, d)
	}
	return out, nil
}

// RemindText writes reminders back as ParseRemind reads them.
func RemindText(ds []time.Duration) string {
	if len(ds) == 0 {
		return "off"
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.String()
	}
	return strings.Join(parts, ",")
}

func (a *Actor) remindOffsets() []time.Duration {
	if a.cfg.Remind == nil {
		return DefaultRemind
	}
	return a.cfg.Remind
}

// remindDue is the deadline the reminders count down to: at night the
// running stage's end, which the board's schedule fixes whoever is awake
// or acts; by day the running step's, while it awaits someone.
func (a *Actor) remindDue() time.Time {
	if over, _ := a.shown.Over(); over || a.clk.Paused || a.stalled || a.clk.Gate || a.cfg.Unpaced {
		return time.Time{}
	}
	if a.clk.Slots != nil {
		return a.clk.SlotEnd
	}
	if a.live.Pending() == 0 || !a.caughtUp() {
		return time.Time{}
	}
	return a.clk.Deadline
}

// remind queues the reminders now due. A new deadline starts afresh, the
// offsets it is already within counted as done: a reminder is sent only
// when a stage is longer than its offset. What was sent is part of the
// clock, stored, so a restart does not send it again.
func (a *Actor) remind(now time.Time) {
	due := a.remindDue()
	if due.IsZero() {
		return
	}
	offs := a.remindOffsets()
	if !due.Equal(a.clk.RemindFor) {
		a.clk.RemindFor, a.clk.Reminded = due, 0
		for i, o := range offs {
			if !now.Before(due.Add(-o)) {
				a.clk.Reminded |= 1 << i
			}
		}
		return
	}
	for i, o := range offs {
		if a.clk.Reminded&(1<<i) != 0 || now.Before(due.Add(-o)) {
			continue
		}
		a.clk.Reminded |= 1 << i
		f := wire.RemindFrame{Type: "remind", Deadline: unixMs(due), Left: o.Milliseconds(), Night: a.clk.Slots != nil}
		if a.clk.Slots == nil {
			f.Seats = a.called()
		}
		a.notices = append(a.notices, encode(f))
	}
}

// nextRemind is when the next reminder is due (zero: none).
func (a *Actor) nextRemind() time.Time {
	due := a.remindDue()
	if due.IsZero() || !due.Equal(a.clk.RemindFor) {
		return time.Time{}
	}
	var next time.Time
	for i, o := range a.remindOffsets() {
		if t := due.Add(-o); a.clk.Reminded&(1<<i) == 0 && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	return next
}

// called is whom the running day step calls on, as the table was told
// when it began: the seat whose turn it is, or the step's public mask.
func (a *Actor) called() []rules.Seat {
	ev := a.shown.Events()
	if a.clk.StepMark < 1 || a.clk.StepMark > len(ev) {
		return nil
	}
	e := ev[a.clk.StepMark-1]
	if e.Kind != rules.EvStep || !e.Public {
		return nil
	}
	if e.Seat != rules.NoSeat {
		return []rules.Seat{e.Seat}
	}
	return rules.Seats(e.Mask)
}

// sendNotices hands every connection the reminders and announcements
// made since the last write, once that write is stored.
func (a *Actor) sendNotices() {
	for _, n := range a.notices {
		for sub := range a.subs {
			a.queue(sub, n)
		}
	}
	a.notices = a.notices[:0]
}

// MinExtend is the least an extension gives.
const MinExtend = time.Minute

// Extend gives the running step (at night: the running stage, so the dawn
// comes as much later for every seat) d more, at the host's word. It is
// announced to every connection at once.
func (a *Actor) Extend(d time.Duration) error {
	if d < MinExtend || d > MaxPhase {
		return fmt.Errorf("extend: %v is out of range (%v to %s)", d, MinExtend, short(MaxPhase))
	}
	return a.do(func() error {
		if over, _ := a.shown.Over(); over {
			return errors.New("the game is over")
		}
		if a.stalled {
			return ErrStalled
		}
		if a.clk.Gate {
			return errors.New("the game waits for the cards to be seen: there is no deadline to extend")
		}
		at := &a.clk.Deadline
		if a.clk.Slots != nil {
			at = &a.clk.SlotEnd
		}
		if at.IsZero() {
			return errors.New("there is no deadline to extend")
		}
		*at = at.Add(d)
		a.record("extend", extendBody{By: d.Milliseconds()})
		a.notices = append(a.notices, encode(wire.ExtendFrame{Type: "extend", By: d.Milliseconds()}))
		a.settle()
		a.commit()
		return nil
	})
}

type extendBody struct {
	By int64 `json:"by"` // ms
}

// resumeAt is the instant a stored clock's times count from. A game whose
// running stage is an hour or longer keeps its deadlines as the table was
// told them ("截止 20:00"), however long the server was down; a shorter
// one, or a paused one, resumes with the time it had left, so that a
// restart does not eat a quick game's seconds.
func (s *storedClock) resumeAt(now time.Time, t *Timers, shown *rules.Game) time.Time {
	if s.Paused || s.At <= 0 {
		return now
	}
	var stage time.Duration
	if s.Slots != nil {
		stage = time.Duration(s.Slots[s.Slot].Dur) * time.Millisecond
	} else {
		st, _ := shown.Step()
		stage = t.forStep(st)
	}
	if stage < time.Hour {
		return now
	}
	if at := time.UnixMilli(s.At); at.Before(now) {
		return at
	}
	return now
}
