package gcfloor

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// The percent puts the goal at the floor while the live heap is small, and
// is GOGC's once the live heap is past half the floor.
func TestPercentReachesTheFloorAndNeverGoesBelowGOGC(t *testing.T) {
	for _, c := range []struct {
		name        string
		floor, live uint64
		base, want  int
	}{
		{"a small heap grows to the floor", 64 << 20, 4 << 20, 100, 1500},
		{"half the floor: GOGC already reaches it", 64 << 20, 32 << 20, 100, 100},
		{"a large heap: GOGC", 64 << 20, 1 << 30, 100, 100},
		{"a higher GOGC stays", 64 << 20, 4 << 20, 2000, 2000},
		{"an empty heap counts as 1 MiB", 64 << 20, 0, 100, 6300},
	} {
		if got := Percent(c.floor, c.live, c.base); got != c.want {
			t.Errorf("%s: Percent(%d, %d, %d) = %d, want %d", c.name, c.floor, c.live, c.base, got, c.want)
		}
	}
}

// Keep raises the percent after each collection while the live heap is
// small, and Keep(0) gives GOGC back.
func TestKeepRaisesThePercentAfterACollection(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	Keep(Default)
	// Keep sets it at once; a collection's finalizer sets it again, on the
	// finalizer's goroutine: the test waits for that state.
	debug.SetGCPercent(100)
	got := 100
	for i := 0; i < 100 && got <= 100; i++ {
		runtime.GC()
		runtime.Gosched()
		got = debug.SetGCPercent(100)
		debug.SetGCPercent(got)
	}
	Keep(0)
	if got <= 100 {
		t.Errorf("after a collection with a small heap the percent is %d; want above 100", got)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("after Keep(0) the percent is %d; want GOGC's 100", p)
	}
}
