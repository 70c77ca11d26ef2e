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
	Setup time.Duration // night 1: the thief, cupid
	Night time.Duration // the wolves, seer, guard… who all act at once
	Witch time.Duration
	// Check is the checkers' slot after the witch (night_order=wolves_first);
	// zero: as long as the witch's, one role's call like hers.
	Check  time.Duration
	Speech time.Duration // speeches, campaign and PK speeches, last words
	Vote   time.Duration // every vote
	Other  time.Duration // sign-up, withdraw, order, shots, badge, scapegoat, ally
	Bot    time.Duration // how long a bot waits before it acts, so people can follow
	// Tick is the beat of the night: from nightfall to dawn every
	// connection gets one message of NightMessage bytes per tick, and
	// nothing else.
	Tick time.Duration
}

// DefaultTimers suit people playing from their phones.
var DefaultTimers = Timers{
	Setup: 20 * time.Second, Night: 40 * time.Second, Witch: 20 * time.Second,
	Speech: 90 * time.Second, Vote: 20 * time.Second, Other: 20 * time.Second,
	Bot: 1500 * time.Millisecond, Tick: 500 * time.Millisecond,
}

// TimerNames are the names of the timers in a room's settings.
var TimerNames = []string{"setup", "night", "witch", "check", "speech", "vote", "other", "bot", "tick"}

func (t *Timers) field(name string) *time.Duration {
	switch name {
	case "setup":
		return &t.Setup
	case "night":
		return &t.Night
	case "witch":
		return &t.Witch
	case "check":
		return &t.Check
	case "speech":
		return &t.Speech
	case "vote":
		return &t.Vote
	case "other":
		return &t.Other
	case "bot":
		return &t.Bot
	case "tick":
		return &t.Tick
	}
	return nil
}

// Limits of a timer: below a few milliseconds the server does nothing but
// time out. A step may last up to MaxPhase, so that a forum game (版杀)
// gives a day 24h and a night 12h; the bot's pause and the night's beat
// are the table's rhythm, not a phase, and above MaxTimer they are surely
// a typo.
const (
	MinTimer = 5 * time.Millisecond
	MaxTimer = time.Hour
	MaxPhase = 72 * time.Hour
)

// maxOf is the longest a timer may be.
func maxOf(name string) time.Duration {
	if name == "bot" || name == "tick" {
		return MaxTimer
	}
	return MaxPhase
}

// TimersOf is DefaultTimers with the named timers set ("40s"), as a room
// keeps them.
func TimersOf(m map[string]string) (Timers, error) {
	t := DefaultTimers
	for k, v := range m {
		if err := t.Set(k, v); err != nil {
			return t, err
		}
	}
	return t, nil
}

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
	if hi := maxOf(name); d > hi {
		return fmt.Errorf("timer %s: %v is longer than the longest a %s timer may be, %s", name, d, name, short(hi))
	}
	if d < low {
		return fmt.Errorf("timer %s: %v is shorter than the shortest a %s timer may be, %v", name, d, name, low)
	}
	*f = d
	return nil
}

// short writes a whole number of hours as "72h", not "72h0m0s".
func short(d time.Duration) string {
	if d%time.Hour == 0 {
		return fmt.Sprintf("%dh", d/time.Hour)
	}
	return d.String()
}

// Map lists the timers by name, as Set reads them.
func (t Timers) Map() map[string]string {
	m := map[string]string{}
	for _, n := range TimerNames {
		m[n] = t.field(n).String()
	}
	if t.Check == 0 { // as the witch's: a copy of the map (a rematch, a remade room) keeps it so
		delete(m, "check")
	}
	return m
}

// check is the checkers' slot: Check, or the witch's.
func (t *Timers) check() time.Duration {
	if t.Check == 0 {
		return t.Witch
	}
	return t.Check
}

// The paces of a room (docs/server.md): its timers, before the timers the
// room's creator gives. Standard is DefaultTimers, for people playing from
// their phones; quick is a judge at a table (a std-12 night of 55 s:
// the pack's 25, the witch's 15, the seer's 15); relaxed gives beginners
// time to think.
var paces = map[string]Timers{
	"quick": {Setup: 15 * time.Second, Night: 25 * time.Second, Witch: 15 * time.Second,
		Speech: 60 * time.Second, Vote: 15 * time.Second, Other: 15 * time.Second,
		Bot: DefaultTimers.Bot, Tick: DefaultTimers.Tick},
	"standard": DefaultTimers,
	"relaxed": {Setup: 30 * time.Second, Night: 60 * time.Second, Witch: 30 * time.Second,
		Speech: 120 * time.Second, Vote: 30 * time.Second, Other: 30 * time.Second,
		Bot: DefaultTimers.Bot, Tick: DefaultTimers.Tick},
	"forum": {Setup: 2 * time.Hour, Night: 9 * time.Hour, Witch: 3 * time.Hour,
		Speech: 20 * time.Hour, Vote: 4 * time.Hour, Other: 2 * time.Hour,
		Bot: DefaultTimers.Bot, Tick: 10 * time.Second},
}

// PaceNames are the paces a room may take, quickest first.
var PaceNames = []string{"quick", "standard", "relaxed", "forum"}

// Pace is the timers of the named pace.
func Pace(name string) (Timers, error) {
	t, ok := paces[name]
	if !ok {
		return t, fmt.Errorf("unknown pace %q (paces: %v)", name, PaceNames)
	}
	return t, nil
}

// PaceSeconds is every pace's timers in seconds, by timer name (the check
// slot left out: it is the witch's), as the create page shows them
// (GET /api/options "paces").
func PaceSeconds() map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for name, t := range paces {
		m := map[string]float64{}
		for _, n := range TimerNames {
			if n != "check" {
				m[n] = t.field(n).Seconds()
			}
		}
		out[name] = m
	}
	return out
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
	case rules.StepThief, rules.StepCupid, rules.StepNightmare, rules.StepMagician, rules.StepEclipse, rules.StepBride,
		rules.StepMerchant, rules.StepLucky, rules.StepWarden, rules.StepTrade:
		return t.Setup
	case rules.StepNight:
		return t.Night
	case rules.StepWitch:
		return t.Witch
	case rules.StepCheck:
		return t.check()
	case rules.StepMasquerade:
		return t.Witch
	}
	return t.Other
}

// A night is told on a fixed schedule: one slot for each stage the board
// can have tonight (the thief and cupid on night 1 — or on night 0, before
// day 1, with first_phase=day —, everyone else at once, the witch, the
// checkers under night_order=wolves_first), each as
// long as its timer, whether its role is alive, in play, quick or slow. The
// table learns nothing from when things happen.
type slot struct {
	Step rules.Step `json:"step"`
	Dur  int64      `json:"dur"` // milliseconds
}

func nightSlots(b *rules.Board, night int, t *Timers) []slot {
	first := night == 0 || (night == 1 && b.Options[rules.OptFirstPhase] == rules.FirstNight)
	var out []slot
	// The nightmare, then the magician, act in stages of their own before
	// everyone else, every real night of a board that holds the card,
	// whoever is alive (ROLES-MORE.md night order).
	if night > 0 && slices.Contains(b.Cards, rules.Nightmare) {
		out = append(out, slot{rules.StepNightmare, t.Setup.Milliseconds()})
	}
	if night > 0 && slices.Contains(b.Cards, rules.EclipseWolfQueen) { // 蚀时狼妃: after the nightmare
		out = append(out, slot{rules.StepEclipse, t.Setup.Milliseconds()})
	}
	if night > 0 && slices.Contains(b.Cards, rules.Magician) {
		out = append(out, slot{rules.StepMagician, t.Setup.Milliseconds()})
	}
	// The miracle merchant and his lucky one (ROLES-MORE-2.md §5 group 4):
	// both slots every real night of a board with the card, given or not,
	// used or not: their end would tell the table the gift was given.
	if night > 0 && slices.Contains(b.Cards, rules.MiracleMerchant) {
		out = append(out, slot{rules.StepMerchant, t.Setup.Milliseconds()}, slot{rules.StepLucky, t.Setup.Milliseconds()})
	}
	if first && slices.Contains(b.Cards, rules.Thief) {
		out = append(out, slot{rules.StepThief, t.Setup.Milliseconds()})
	}
	if first && slices.Contains(b.Cards, rules.Cupid) {
		out = append(out, slot{rules.StepCupid, t.Setup.Milliseconds()})
	}
	if first && slices.Contains(b.Cards, rules.GhostBride) { // her groom and witness too (鬼魂新娘)
		out = append(out, slot{rules.StepBride, t.Setup.Milliseconds()})
	}
	if night == 0 { // only the setup stages
		return out
	}
	// The warden, then the two he names (§5 group 6), from night 2, whether
	// he names anyone or not.
	if night >= 2 && slices.Contains(b.Cards, rules.Warden) {
		out = append(out, slot{rules.StepWarden, t.Setup.Milliseconds()}, slot{rules.StepTrade, t.Setup.Milliseconds()})
	}
	out = append(out, slot{rules.StepNight, t.Night.Milliseconds()})
	if slices.Contains(b.Cards, rules.Witch) {
		out = append(out, slot{rules.StepWitch, t.Witch.Milliseconds()})
	}
	// night_order=wolves_first: the checkers wake after the witch, in a
	// slot of their own.
	if b.Options[rules.OptNightOrder] == rules.WolvesFirst &&
		slices.ContainsFunc(b.Cards, rules.Role.LateCheck) {
		out = append(out, slot{rules.StepCheck, t.check().Milliseconds()})
	}
	// The masquerade's step (假面), from night 2, whether he lives or not.
	if night >= 2 && slices.Contains(b.Cards, rules.Masquerade) {
		out = append(out, slot{rules.StepMasquerade, t.Witch.Milliseconds()})
	}
	// night_shot=in_night: a shooter killed tonight fires before the dawn.
	// The slot is on every night's schedule of a board with a shooter, so
	// its length says nothing of who died.
	if b.Options[rules.OptNightShot] == rules.NightShotInNight &&
		(slices.Contains(b.Cards, rules.Hunter) || slices.Contains(b.Cards, rules.WolfKing)) {
		out = append(out, slot{rules.StepNightShot, t.Other.Milliseconds()})
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
	Marks    []mark    // tonight: when the events not yet told are told
	Paused   bool
	PausedAt time.Time
	Away     uint32 // players gone for a whole step, played by bots until they return
	Gate     bool   // after the deal: waiting for the cards to be seen (seen.go)
	Seen     uint32 // the seats that confirmed seeing their card
	// The reminders (forum.go): RemindFor is the deadline they were sent
	// for, Reminded the offsets (bit i: Config.Remind[i]) done with.
	RemindFor time.Time
	Reminded  uint32
}

// A mark says that the log up to event Upto is told once the schedule
// reaches slot Slot (len(Slots): dawn). Each night event is told by the
// slot it was made in, never by where the live game has got to: the
// wolves' attack line comes at the end of their slot whether or not the
// witch will wake.
type mark struct {
	Upto int `json:"upto"`
	Slot int `json:"slot"`
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
	Marks    []mark `json:"marks,omitempty"`
	Paused   bool   `json:"paused,omitempty"`
	Away     uint32 `json:"away,omitempty"`
	Gate     bool   `json:"gate,omitempty"`
	Seen     uint32 `json:"seen,omitempty"`
	// RemindLeft and Reminded: the reminders' deadline and those sent.
	RemindLeft int64  `json:"remind_left,omitempty"`
	Reminded   uint32 `json:"reminded,omitempty"`
	// At is when the clock was stored (unix ms): a game whose running stage
	// is hour-long resumes on its deadlines as they were told, not with the
	// time it had left (forum.go).
	At int64 `json:"at,omitempty"`
}

func (c *clock) store(now time.Time) storedClock {
	// Counted from a whole millisecond, At: a deadline resumed from At
	// (forum.go) is the very millisecond the table was told.
	now = now.Truncate(time.Millisecond)
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
		StepMark: c.StepMark, Left: left(c.Deadline), Marks: c.Marks, Paused: c.Paused, Away: c.Away,
		Gate: c.Gate, Seen: c.Seen, RemindLeft: left(c.RemindFor), Reminded: c.Reminded, At: now.UnixMilli()}
}

func (s *storedClock) load(now time.Time) clock {
	at := func(ms int64) time.Time {
		if ms == 0 {
			return time.Time{}
		}
		return now.Add(time.Duration(ms) * time.Millisecond)
	}
	c := clock{Released: s.Released, Slots: s.Slots, Slot: s.Slot, SlotEnd: at(s.SlotLeft),
		StepMark: s.StepMark, Deadline: at(s.Left), Marks: s.Marks, Paused: s.Paused, Away: s.Away,
		Gate: s.Gate, Seen: s.Seen, RemindFor: at(s.RemindLeft), Reminded: s.Reminded}
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
	for i, m := range s.Marks {
		if s.Slots == nil || m.Upto < s.Released || m.Upto > events || m.Slot < 0 || m.Slot > len(s.Slots) ||
			(i > 0 && (m.Upto <= s.Marks[i-1].Upto || m.Slot <= s.Marks[i-1].Slot)) {
			return errClock
		}
	}
	return nil
}

// slotFor is the slot of tonight's schedule in which step st is told:
// dawn (len(Slots)) for a step the schedule does not hold.
func (c *clock) slotFor(st rules.Step) int {
	for i, s := range c.Slots {
		if s.Step == st {
			return i
		}
	}
	return len(c.Slots)
}

// opens is the slot an event belongs to when it starts a stage of the night
// (a role woken, the witch told her victim, the day), or -1: such an event
// and everything after it wait for that slot.
func (c *clock) opens(e *rules.Event) int {
	switch e.Kind {
	case rules.EvExtraCards:
		return c.slotFor(rules.StepThief)
	case rules.EvWolfTeam:
		return c.slotFor(rules.StepNight)
	case rules.EvWitchTold:
		return c.slotFor(rules.StepWitch)
	case rules.EvStep:
		switch st := rules.Step(e.Value); st {
		case rules.StepThief, rules.StepCupid, rules.StepNight, rules.StepWitch, rules.StepNightShot,
			rules.StepNightmare, rules.StepMagician, rules.StepCheck, rules.StepEclipse, rules.StepMasquerade, rules.StepBride,
			rules.StepMerchant, rules.StepLucky, rules.StepWarden, rules.StepTrade:
			return c.slotFor(st)
		}
	case rules.EvDay:
		return len(c.Slots)
	}
	return -1
}

// plan marks when the events from index from on are told: at slot r at the
// earliest (the slot after the one they were made in), later for those
// that open a later stage.
func (c *clock) plan(ev []rules.Event, from, r int) {
	from = max(from, c.Released)
	if n := len(c.Marks); n > 0 {
		from, r = max(from, c.Marks[n-1].Upto), max(r, c.Marks[n-1].Slot)
	}
	for i := from; i < len(ev); i++ {
		r = max(r, c.opens(&ev[i]))
		if n := len(c.Marks); n > 0 && c.Marks[n-1].Slot == r {
			c.Marks[n-1].Upto = i + 1
		} else {
			c.Marks = append(c.Marks, mark{Upto: i + 1, Slot: r})
		}
	}
}
