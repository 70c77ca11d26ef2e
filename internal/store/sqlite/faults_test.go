package sqlite

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestASecondStoreOnTheSameFileIsRefused: two servers on one database
// would each trust their own idea of its last record numbers; the second
// is refused while the first holds the file, and may open it once the
// first has closed.
func TestASecondStoreOnTheSameFileIsRefused(t *testing.T) {
	db, path := openTemp(t)
	if _, err := Open(path); !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "another --db") {
		t.Fatalf("a second open of a file in use: %v", err)
	}
	createRoom(t, db, room("r1", "open", 1))
	db.Close()
	again := open(t, path)
	defer again.Close()
	if _, err := again.Room(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
}

// readOnlyDir gives a folder the test's process cannot write to: for root,
// who writes anywhere, a tmpfs mounted read-only.
func readOnlyDir(t *testing.T, fill func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		fill(dir)
		for _, f := range []string{dir, filepath.Join(dir, "wolfden.db")} {
			if err := os.Chmod(f, 0o555); err != nil {
				t.Fatal(err)
			}
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return dir
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a tmpfs for a read-only disk: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	fill(dir)
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v: %s", err, out)
	}
	return dir
}

// TestAReadOnlyDatabaseIsSaidSoAtOpen: a database that cannot be written
// is refused at start-up in plain words, not at the first game's write.
func TestAReadOnlyDatabaseIsSaidSoAtOpen(t *testing.T) {
	dir := readOnlyDir(t, func(dir string) {
		db := open(t, filepath.Join(dir, "wolfden.db"))
		createRoom(t, db, room("r1", "open", 1))
		db.Close()
	})
	_, err := Open(filepath.Join(dir, "wolfden.db"))
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("opening a read-only database: %v", err)
	}
}

// TestAFullDiskFailsWritesUntilSpaceComesBack: on a disk that fills up,
// an append fails (and writes nothing); once space comes back the same
// append succeeds, and nothing stored before was lost.
func TestAFullDiskFailsWritesUntilSpaceComesBack(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a small tmpfs for a full disk (the test needs root): %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	db := open(t, filepath.Join(dir, "wolfden.db"))
	defer db.Close()
	createRoom(t, db, room("r1", "running", 1))
	if err := db.Append(ctx, "r1", records(1, 3)...); err != nil {
		t.Fatal(err)
	}
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 64<<10)
	for {
		if _, err := f.Write(block); err != nil {
			break // the disk is full
		}
	}
	f.Close()
	var failed error
	n := int64(4)
	for ; n < 400 && failed == nil; n++ { // the WAL has some room left
		failed = db.Append(ctx, "r1", record(n))
	}
	if failed == nil {
		t.Fatal("appends kept succeeding on a full disk")
	}
	n--
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := db.Append(ctx, "r1", record(n)); err != nil {
		t.Fatalf("the append once space came back: %v", err)
	}
	wantRecords(t, db, "r1", records(1, n))
}
