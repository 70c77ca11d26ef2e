// Package gcfloor keeps the garbage collector's heap goal at a floor.
//
// The Go collector starts a cycle each time the heap has grown by GOGC
// percent of what the last cycle left live, and at least every 4 MB. A
// server whose live heap is a few MB (a handful of games) therefore
// collects every few MB it allocates, and spends about a tenth of its CPU
// there (docs/benchmarks.md, AIWolf). Raising the goal to a floor while
// the live heap is small makes those cycles several times rarer; once the
// live heap is large enough, the floor no longer matters and GOGC governs
// as usual. Unlike a ballast (a large unused allocation), it leaves the
// heap figures as they are.
package gcfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Default is the floor the server keeps: a heap of up to 64 MiB between
// collections, a few times what a small server holds live.
const Default = 64 << 20

var (
	mu    sync.Mutex
	floor uint64
	base  int // the GC percent set before Keep: the least it sets
)

// Keep makes every collection set the next one's goal to at least floor
// bytes of heap. It does nothing when the operator tunes the collector
// (GOGC or GOMEMLIMIT set) or GOGC is off; Keep(0) stops it.
func Keep(bytes uint64) {
	mu.Lock()
	defer mu.Unlock()
	if floor == 0 && bytes > 0 {
		if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
			return
		}
		base = debug.SetGCPercent(100)
		debug.SetGCPercent(base)
		if base < 0 {
			return
		}
		floor = bytes
		arm()
		adjustLocked()
		return
	}
	if bytes == 0 && floor > 0 {
		debug.SetGCPercent(base)
	}
	floor = bytes
}

// sentinel's finalizer runs once after each collection: it adjusts the
// percent to the live heap of the cycle just ended, and arms itself again.
type sentinel struct{ _ [16]byte }

func arm() { runtime.SetFinalizer(new(sentinel), finalize) }

func finalize(*sentinel) {
	mu.Lock()
	on := floor > 0
	mu.Unlock()
	if on {
		adjust()
		arm()
	}
}

var live = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// adjust sets the percent that puts the next goal at the floor, or GOGC's
// when that is higher.
func adjust() {
	mu.Lock()
	defer mu.Unlock()
	adjustLocked()
}

func adjustLocked() {
	if floor == 0 {
		return
	}
	metrics.Read(live)
	debug.SetGCPercent(Percent(floor, live[0].Value.Uint64(), base))
}

// Percent is the GC percent that makes a heap of live bytes grow to floor
// before the next collection, and never less than base.
func Percent(floor, live uint64, base int) int {
	live = max(live, 1<<20) // a cycle leaves at least this much in a server
	p := int(min(floor/live, 1000))*100 - 100
	return max(p, base)
}
