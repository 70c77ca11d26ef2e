package sqlite

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// copierNice is the copier process's niceness. A checkpoint is about 10 ms
// of the processor, every hundred matched AIWolf games or so: at normal
// priority the copier took its share of the server's time slices, and a
// request that came meanwhile waited for a slice (docs/benchmarks.md). At
// 10 it runs when the server leaves the processor idle, and under a load
// that leaves nothing it still has about a tenth of it.
const copierNice = 10

// yieldToServer gives every thread of this process (the copier) the
// niceness copierNice: on Linux each thread has its own, and a thread
// made later takes its maker's.
func yieldToServer() {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return
	}
	for _, t := range tasks {
		if tid, err := strconv.Atoi(t.Name()); err == nil {
			_ = unix.Setpriority(unix.PRIO_PROCESS, tid, copierNice)
		}
	}
}
