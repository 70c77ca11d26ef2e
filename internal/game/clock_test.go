package game

import (
	"os"
	"regexp"
	"slices"
	"testing"
	"time"
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
	offered := slices.DeleteFunc(slices.Clone(TimerNames), func(n string) bool { return n == "tick" })
	slices.Sort(names)
	slices.Sort(offered)
	if !slices.Equal(names, offered) {
		t.Errorf("the web's TIMERS name %v, want each of clock.go's %v once", names, offered)
	}
}
