package game

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/rules"
)

// TestTheWebKnowsTheDefaultTimers: web/src/lib/enums.js TIMERS copies
// DefaultTimers, because the create page shows them before a room exists
// and sends only the timers changed from them: a default that differs
// would send nothing for a timer set to the web's value, and the room
// would run the server's. The tick is not offered on the page.
func TestTheWebKnowsTheDefaultTimers(t *testing.T) {
	src, err := os.ReadFile("../../web/src/lib/enums.js")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)export const TIMERS = \[(.*?)\];`).FindSubmatch(src)
	if block == nil {
		t.Fatal("no TIMERS in web/src/lib/enums.js")
	}
	entries := regexp.MustCompile(`\[\s*'(\w+)'\s*,\s*([0-9.]+)\s*\]`).FindAllSubmatch(block[1], -1)
	var names []string
	for _, m := range entries {
		name, secs := string(m[1]), string(m[2])
		names = append(names, name)
		want := DefaultTimers
		f := want.field(name)
		if f == nil {
			t.Errorf("the web's timer %q is not one of clock.go's %v", name, TimerNames)
			continue
		}
		d, err := time.ParseDuration(secs + "s")
		if err != nil {
			t.Errorf("the web's timer %s: %q is not a number of seconds", name, secs)
			continue
		}
		if d != *f {
			t.Errorf("the web's default for timer %s is %v, clock.go's %v", name, d, *f)
		}
	}
	// Neither the tick nor the checkers' slot (as long as the witch's unless
	// set through the API) is offered on the page.
	offered := slices.DeleteFunc(slices.Clone(TimerNames), func(n string) bool { return n == "tick" || n == "check" })
	slices.Sort(names)
	slices.Sort(offered)
	if !slices.Equal(names, offered) {
		t.Errorf("the web's TIMERS name %v, want each of clock.go's %v once", names, offered)
	}
}

// TestAQuickStd12NightLastsAtMost75Seconds: at the quick pace a std-12
// night (night_order=wolves_first: the pack, the witch, the seer) lasts at
// most 75 s from 天黑请闭眼 to 天亮了, read from the schedule the actor
// announces (its slots, which every connection is paced on), not from a
// clock; every night alike, the first with its setup stages too.
func TestAQuickStd12NightLastsAtMost75Seconds(t *testing.T) {
	quick, err := Pace("quick")
	if err != nil {
		t.Fatal(err)
	}
	for _, preset := range []string{"std-12", "std-9"} {
		b := presetBoard(t, preset, 0)
		for night := 1; night <= 3; night++ {
			var total int64
			var steps []rules.Step
			for _, s := range nightSlots(&b, night, &quick) {
				total += s.Dur
				steps = append(steps, s.Step)
			}
			if total > 75_000 {
				t.Errorf("%s night %d at the quick pace lasts %d ms (%v), more than 75 s", preset, night, total, steps)
			}
			if want := []rules.Step{rules.StepNight, rules.StepWitch, rules.StepCheck}; !slices.Equal(steps, want) {
				t.Errorf("%s night %d: slots %v, want %v (守卫/狼人 → 女巫 → 预言家)", preset, night, steps, want)
			}
		}
	}
}

// TestTheCheckersSlotFollowsTheNightOrder: under wolves_first a board with a
// checker has the checkers' slot after the witch's, as long as the check
// timer (the witch's unless set); under seer_first, and on a board without
// a checker, it has none.
func TestTheCheckersSlotFollowsTheNightOrder(t *testing.T) {
	tm := DefaultTimers
	b := presetBoard(t, "std-12-psychic", 0)
	slots := nightSlots(&b, 2, &tm)
	if n := len(slots); n != 3 || slots[2].Step != rules.StepCheck || slots[2].Dur != tm.Witch.Milliseconds() {
		t.Fatalf("std-12-psychic under wolves_first: slots %v, want the checkers' last, as long as the witch's", slots)
	}
	// Every checker brings the slot: the pure white (纯白之女) is the only
	// checker of std-12-pure-white, whose night would wait for her forever.
	pw := presetBoard(t, "std-12-pure-white", 0)
	if sl := nightSlots(&pw, 2, &tm); sl[len(sl)-1].Step != rules.StepCheck {
		t.Fatalf("std-12-pure-white under wolves_first: slots %v, want the checkers' last", sl)
	}
	if err := tm.Set("check", "7s"); err != nil {
		t.Fatal(err)
	}
	if got := nightSlots(&b, 2, &tm)[2].Dur; got != 7000 {
		t.Fatalf("check=7s gives a slot of %d ms", got)
	}
	if got := tm.Map()["check"]; got != "7s" {
		t.Fatalf("Map names check %q", got)
	}
	b.Options[rules.OptNightOrder] = rules.SeerFirst
	for _, sl := range nightSlots(&b, 2, &tm) {
		if sl.Step == rules.StepCheck {
			t.Fatalf("seer_first has the checkers' slot: %v", nightSlots(&b, 2, &tm))
		}
	}
	c := presetBoard(t, "classic", 10)
	c.Options[rules.OptNightOrder] = rules.WolvesFirst
	c.Cards = slices.DeleteFunc(c.Cards, func(r rules.Role) bool { return r == rules.Seer })
	for _, sl := range nightSlots(&c, 2, &tm) {
		if sl.Step == rules.StepCheck {
			t.Fatalf("a board without a checker has the checkers' slot")
		}
	}
}

// TestPaces: the three paces, quickest first; an unknown one is named in
// its refusal.
func TestPaces(t *testing.T) {
	var prev Timers
	for i, name := range PaceNames {
		p, err := Pace(name)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && (p.Night <= prev.Night || p.Witch <= prev.Witch || p.Speech <= prev.Speech || p.Vote <= prev.Vote) {
			t.Errorf("pace %s is not slower than the one before it: %+v after %+v", name, p, prev)
		}
		prev = p
	}
	if s, _ := Pace("standard"); s != DefaultTimers {
		t.Errorf("the standard pace %+v is not the default timers %+v", s, DefaultTimers)
	}
	if _, err := Pace("brisk"); err == nil || !strings.Contains(err.Error(), `"brisk"`) {
		t.Errorf("an unknown pace: %v", err)
	}
}

// TestTimersTakeHours: a step's timer takes hours (a forum day of 24h, a
// night of 12h) up to MaxPhase; the bot's pause and the beat stay within
// MaxTimer; a refusal names the timer and the bound, and leaves the timers
// as they were.
func TestTimersTakeHours(t *testing.T) {
	for _, c := range []struct {
		name, value string
		want        string // "" accepted, else a part of the error
	}{
		{"speech", "24h", ""},
		{"night", "12h", ""},
		{"vote", "72h", ""},
		{"speech", "73h", "timer speech: 73h0m0s is longer than the longest a speech timer may be, 72h"},
		{"night", "100h", "timer night"},
		{"bot", "2h", "timer bot: 2h0m0s is longer than the longest a bot timer may be, 1h"},
		{"tick", "90m", "timer tick"},
		{"witch", "1ms", "shorter than the shortest a witch timer may be"},
		{"speech", "a day", `timer speech: "a day" is not a duration`},
	} {
		tm := DefaultTimers
		err := tm.Set(c.name, c.value)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s=%s: %v", c.name, c.value, err)
		case c.want == "" && tm.field(c.name).String() != mustDur(t, c.value).String():
			t.Errorf("%s=%s gave %v", c.name, c.value, *tm.field(c.name))
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s=%s: error %v, want one containing %q", c.name, c.value, err, c.want)
		case c.want != "" && tm != DefaultTimers:
			t.Errorf("%s=%s was refused but changed the timers: %+v", c.name, c.value, tm)
		}
	}
	back, err := TimersOf(map[string]string{"speech": "24h", "night": "12h"})
	if err != nil || back.Speech != 24*time.Hour || back.Night != 12*time.Hour {
		t.Fatalf("TimersOf(24h, 12h) = %+v, %v", back, err)
	}
	if again, err := TimersOf(back.Map()); err != nil || again != back {
		t.Fatalf("hour-long timers do not survive their map: %+v, %v", again, err)
	}
}

func mustDur(t *testing.T, s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestTheMasqueradesSlotFromNightTwo: a board with the masquerade (假面) has
// his slot from night 2, after the checkers', as long as the witch's,
// whether he lives or not (the schedule reads the board); not on night 1.
func TestTheMasqueradesSlotFromNightTwo(t *testing.T) {
	tm := DefaultTimers
	b := presetBoard(t, "std-12-masquerade", 0)
	var one, two []rules.Step
	for _, s := range nightSlots(&b, 1, &tm) {
		one = append(one, s.Step)
	}
	slots := nightSlots(&b, 2, &tm)
	for _, s := range slots {
		two = append(two, s.Step)
	}
	if want := []rules.Step{rules.StepNight, rules.StepWitch, rules.StepCheck}; !slices.Equal(one, want) {
		t.Errorf("night 1: slots %v, want %v", one, want)
	}
	if want := []rules.Step{rules.StepNight, rules.StepWitch, rules.StepCheck, rules.StepMasquerade}; !slices.Equal(two, want) {
		t.Errorf("night 2: slots %v, want %v", two, want)
	}
	if d := slots[len(slots)-1].Dur; d != tm.Witch.Milliseconds() {
		t.Errorf("the masquerade's slot lasts %d ms, want the witch's %d", d, tm.Witch.Milliseconds())
	}
}
