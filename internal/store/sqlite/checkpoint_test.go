package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// TestTheCheckpointerCopiesTheWALAndCommitsDoNot: no connection copies the
// WAL into the database as it commits (the writer's commits would wait for
// it); the checkpointer does, in the background, and the WAL starts over
// instead of growing with every commit.
func TestTheCheckpointerCopiesTheWALAndCommitsDoNot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	db := open(t, path)
	defer db.Close()
	for _, c := range []struct {
		name string
		conn interface {
			QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
		}
	}{{"the writer's connection", db.w.conn}, {"a reading connection", db.db}} {
		var n int
		if err := c.conn.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s checkpoints once its commit leaves %d pages in the WAL (%v); want never", c.name, n, err)
		}
	}
	size := func(p string) int64 { return fileSize(t, p) }
	before := size(path)
	createRoom(t, db, room("r", store.StatusRunning, 1))
	// Each commit alone, as one game at a time makes them (a room's
	// update: a game's appends go to the journal), writes a page or more:
	// without the checkpointer the WAL keeps them all, over 32 MiB; with
	// it, it starts over after every checkpointEvery commits or so.
	const commits, page = 8 * checkpointEvery, 4096 + 24
	for n := range commits {
		if err := db.UpdateRoom(ctx, room("r", store.StatusRunning, n+2)); err != nil {
			t.Fatal(err)
		}
	}
	if db.w.commits < commits {
		t.Fatalf("%d updates took %d commits", commits, db.w.commits)
	}
	if wal := size(path + "-wal"); wal > 3*checkpointEvery*3*page {
		t.Errorf("after %d commits the WAL is %d MiB", commits, wal>>20)
	}
	// The copies land in the database file, which grows from its size at
	// the start.
	for deadline := time.Now().Add(30 * time.Second); size(path) == before; {
		if time.Now().After(deadline) {
			t.Fatalf("after %d commits the database file is still %d bytes: nothing was copied into it", commits, before)
		}
		time.Sleep(10 * time.Millisecond) // polling the file, not waiting for a time
	}
}

// TestAStatementJournalStaysInMemory: every connection keeps its
// temporary data, among it the statement journal of a move's inserts, in
// memory; in a file it took two writes a page.
func TestAStatementJournalStaysInMemory(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer db.Close()
	for name, c := range map[string]interface {
		QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
	}{"the writer's connection": db.w.conn, "a reading connection": db.db} {
		var mode int
		if err := c.QueryRowContext(ctx, `PRAGMA temp_store`).Scan(&mode); err != nil || mode != 2 {
			t.Errorf("%s keeps temporary data in mode %d (%v); want 2, memory", name, mode, err)
		}
	}
}

// TestTheCopierProcessMakesTheCopies: with a copier process, the
// checkpoints' copies (and their fsyncs) are that process's: the database
// file grows and the WAL starts over as without it. A copier that dies is
// done without: this process copies from then on, and no write fails.
// Close ends the copier.
func TestTheCopierProcessMakesTheCopies(t *testing.T) {
	for _, dies := range []bool{false, true} {
		name := map[bool]string{false: "its copies", true: "its death"}[dies]
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "w.db")
			db, err := OpenWith(path, Options{CopierProcess: true})
			if err != nil {
				t.Fatal(err)
			}
			cp := db.w.cp
			if cp == nil {
				db.Close()
				t.Fatal("no copier process was started")
			}
			if dies {
				if err := cp.cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
			}
			size := func(p string) int64 { return fileSize(t, p) }
			before := size(path)
			createRoom(t, db, room("r", store.StatusRunning, 1))
			const commits = 4 * checkpointEvery
			for n := range commits {
				if err := db.UpdateRoom(ctx, room("r", store.StatusRunning, n+2)); err != nil {
					t.Fatalf("update %d: %v", n, err)
				}
			}
			for deadline := time.Now().Add(30 * time.Second); size(path) == before; {
				if time.Now().After(deadline) {
					t.Fatalf("after %d commits the database file is still %d bytes: nothing was copied into it", commits, before)
				}
				time.Sleep(10 * time.Millisecond) // polling the file, not waiting for a time
			}
			if wal := size(path + "-wal"); wal > 3*checkpointEvery*3*(4096+24) {
				t.Errorf("after %d commits the WAL is %d MiB: it did not start over", commits, wal>>20)
			}
			cp.mu.Lock()
			made, dead := cp.made, cp.dead
			cp.mu.Unlock()
			switch {
			case !dies && (made == 0 || dead):
				t.Errorf("the copier made %d checkpoints (failed: %v), want some and no failure", made, dead)
			case dies && (made != 0 || !dead):
				t.Errorf("a killed copier made %d checkpoints (failed: %v), want none and a failure", made, dead)
			}
			if got, err := db.Room(ctx, "r"); err != nil || !got.Updated.Equal(room("r", store.StatusRunning, commits+1).Updated) {
				t.Errorf("the room reads back as of %v (%v), not as of its last update", got.Updated, err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if cp.cmd.ProcessState == nil {
				t.Error("the copier process still runs after Close")
			}
		})
	}
}

// fileSize is the size of the file at p.
func fileSize(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
