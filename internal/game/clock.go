package game

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/wolfden/wolfden/rules"
)

// Timers are the moderator's clocks, one per kind of step. When one runs
// out every seat still awaited takes the default (abstain, skip).
type Timers struct {
	Setup  time.Duration // night 1: the thief, cupid
	Night  time.Duration // the wolves, seer, guard… who all act at once
	Witch  time.Duration
	Speech time.Duration // speeches, campaign and PK speeches, last words
	Vote   time.Duration // every vote
	Other  time.Duration // sign-up, withdraw, order, shots, badge, scapegoat, ally
	Bot    time.Duration // how long a bot waits before it acts, so people can follow
}

// DefaultTimers suit people playing from their phones.
var DefaultTimers = Timers{
	Setup: 20 * time.Second, Night: 40 * time.Second, Witch: 20 * time.Second,
	Speech: 90 * time.Second, Vote: 20 * time.Second, Other: 20 * time.Second,
	Bot: 1500 * time.Millisecond,
}

// TimerNames are the names of the timers in a room's settings.
var TimerNames = []string{"setup", "night", "witch", "speech", "vote", "other", "bot"}

func (t *Timers) field(name string) *time.Duration {
	switch name {
	case "setup":
		return &t.Setup
	case "night":
		return &t.Night
	case "witch":
		return &t.Witch
	case "speech":
		return &t.Speech
	case "vote":
		return &t.Vote
	case "other":
		return &t.Other
	case "bot":
		return &t.Bot
	}
	return nil
}

// Limits of a timer: below a few milliseconds the server does nothing but
// time out; above an hour a room is surely a typo.
const (
	MinTimer = 5 * time.Millisecond
	MaxTimer = time.Hour
)

// Set changes one timer from its name and a Go duration ("45s", "200ms").
func (t *Timers) Set(name, value string) error {
	f := t.field(name)
	if f == nil {
		return fmt.Errorf("unknown timer %q (timers: %v)", name, TimerNames)
	}
	d, err := time.ParseDuration(value)
	if err != nil {
		return fmt.Errorf("timer %s: %q is not a duration such as \"30s\"", name, value)
	}
	low := MinTimer
	if name == "bot" {
		low = 0
	}
	if d < low || d > MaxTimer {
		return fmt.Errorf("timer %s: %v is out of range (%v to %v)", name, d, low, MaxTimer)
	}
	*f = d
	return nil
}

// Map lists the timers by name, as Set reads them.
func (t Timers) Map() map[string]string {
	m := map[string]string{}
	for _, n := range TimerNames {
		m[n] = t.field(n).String()
	}
	return m
}

// forStep is the time a day step (or one turn of it) is given.
func (t *Timers) forStep(s rules.Step) time.Duration {
	switch s {
	case rules.StepCampaign, rules.StepSheriffPK, rules.StepSpeech, rules.StepPK,
		rules.StepLastWords, rules.StepDiscussion:
		return t.Speech
	case rules.StepElect, rules.StepElectPK, rules.StepSheriffVote, rules.StepSheriffPKVote,
		rules.StepVote, rules.StepPKVote, rules.StepSeqVote, rules.StepMobVote:
		return t.Vote
	case rules.StepThief, rules.StepCupid:
		return t.Setup
	case rules.StepNight:
		return t.Night
	case rules.StepWitch:
		return t.Witch
	}
	return t.Other
}

// A night is told on a fixed schedule: one slot for each stage the board
// can have tonight (the thief and cupid on night 1, everyone else at once,
// the witch), each as long as its timer, whether its role is alive, in
// play, quick or slow. The table learns nothing from when things happen.
type slot struct {
	Step rules.Step `json:"step"`
	Dur  int64      `json:"dur"` // milliseconds
}

func nightSlots(b *rules.Board, night int, t *Timers) []slot {
	first := night == 1 && b.Options[rules.OptFirstPhase] == rules.FirstNight
	var out []slot
	if first && slices.Contains(b.Cards, rules.Thief) {
		out = append(out, slot{rules.StepThief, t.Setup.Milliseconds()})
	}
	if first && slices.Contains(b.Cards, rules.Cupid) {
		out = append(out, slot{rules.StepCupid, t.Setup.Milliseconds()})
	}
	out = append(out, slot{rules.StepNight, t.Night.Milliseconds()})
	if slices.Contains(b.Cards, rules.Witch) {
		out = append(out, slot{rules.StepWitch, t.Witch.Milliseconds()})
	}
	return out
}

// clock is the actor's timing: what the table has been told, tonight's
// schedule, the running deadline. It is stored with every record so that a
// restart resumes the game at the same point with the same time left.
type clock struct {
	Released int       // events of the log the table has been told
	Slots    []slot    // tonight's schedule; nil by day
	Slot     int       // the running slot
	SlotEnd  time.Time // when it ends
	StepMark int       // by day: the last step event told, whose deadline runs
	Deadline time.Time // by day: when the running step times out
	Paused   bool
	PausedAt time.Time
	Away     uint32 // players gone for a whole step, played by bots until they return
}

// storedClock is a clock with its times as milliseconds left, counted from
// when it was stored (or paused): a game resumes with the time it had.
type storedClock struct {
	Released int    `json:"released"`
	Slots    []slot `json:"slots,omitempty"`
	Slot     int    `json:"slot,omitempty"`
	SlotLeft int64  `json:"slot_left,omitempty"`
	StepMark int    `json:"step_mark,omitempty"`
	Left     int64  `json:"left,omitempty"`
	Paused   bool   `json:"paused,omitempty"`
	Away     uint32 `json:"away,omitempty"`
}

func (c *clock) store(now time.Time) storedClock {
	ref := now
	if c.Paused {
		ref = c.PausedAt
	}
	left := func(t time.Time) int64 {
		if t.IsZero() {
			return 0
		}
		return max(t.Sub(ref).Milliseconds(), 1) // 0 means "no deadline"
	}
	return storedClock{Released: c.Released, Slots: c.Slots, Slot: c.Slot, SlotLeft: left(c.SlotEnd),
		StepMark: c.StepMark, Left: left(c.Deadline), Paused: c.Paused, Away: c.Away}
}

func (s *storedClock) load(now time.Time) clock {
	at := func(ms int64) time.Time {
		if ms == 0 {
			return time.Time{}
		}
		return now.Add(time.Duration(ms) * time.Millisecond)
	}
	c := clock{Released: s.Released, Slots: s.Slots, Slot: s.Slot, SlotEnd: at(s.SlotLeft),
		StepMark: s.StepMark, Deadline: at(s.Left), Paused: s.Paused, Away: s.Away}
	if c.Paused {
		c.PausedAt = now
	}
	return c
}

var errClock = errors.New("game: the stored clock does not fit the log")

func (s *storedClock) check(events int) error {
	if s.Released < 0 || s.Released > events || s.StepMark < 0 || s.StepMark > events ||
		(s.Slots != nil && (s.Slot < 0 || s.Slot >= len(s.Slots))) {
		return errClock
	}
	return nil
}
