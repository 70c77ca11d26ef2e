package sqlite

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every thread of the copier process runs at copierNice: the copies take
// the processor the server leaves.
func TestTheCopierYieldsTheProcessorToTheServer(t *testing.T) {
	db, err := OpenWith(filepath.Join(t.TempDir(), "w.db"), Options{CopierProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cp := db.w.cp
	if cp == nil {
		t.Fatal("no copier process was started")
	}
	// Its first answer comes after it set its priority.
	if err := cp.checkpoint(); err != nil {
		t.Fatal(err)
	}
	for _, n := range niceness(t, cp.cmd.Process.Pid) {
		if n != copierNice {
			t.Errorf("a thread of the copier runs at niceness %d, want %d", n, copierNice)
		}
	}
}

// niceness is the niceness of each thread of process pid (proc(5): stat's
// 19th field).
func niceness(t *testing.T, pid int) []int {
	t.Helper()
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, task := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, task.Name(), "stat"))
		if err != nil {
			continue // the thread ended
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		n, err := strconv.Atoi(f[16])
		if err != nil {
			t.Fatalf("%s/%s/stat: %v", dir, task.Name(), err)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		t.Fatalf("no threads in %s", dir)
	}
	return out
}
