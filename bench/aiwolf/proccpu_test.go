package aiwolf

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// TestTheServersCPUCountsItsChildren: a server's helper process (SQLite's
// checkpoint copier) works for it, so the server's CPU time is its own and
// its running children's.
func TestTheServersCPUCountsItsChildren(t *testing.T) {
	child := exec.Command("sh", "-c", `i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; exec sleep 60`)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { child.Process.Kill(); child.Wait() }()
	ticks := func(pid int) int64 {
		t.Helper()
		f, err := procStat(pid)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		return u + s
	}
	// Wait for the child to have spent its CPU: it sleeps once done.
	for {
		f, err := procStat(child.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		if f[0] == "S" && ticks(child.Process.Pid) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond) // polling the child's state
	}
	own := ticks(os.Getpid())
	kid := ticks(child.Process.Pid)
	total, err := procCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Duration(own+kid) * 10 * time.Millisecond; total < want {
		t.Errorf("the CPU time is %v, less than the process's own and its child's, %v", total, want)
	}
}
