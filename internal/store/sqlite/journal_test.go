package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// storedRecords counts a room's records in the database itself, not the
// journal.
func storedRecords(t *testing.T, db *DB, room string) int {
	t.Helper()
	var n int
	if err := db.db.QueryRowContext(ctx, `SELECT count(*) FROM records WHERE room_id = ?`, room).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAGamesAppendsAreJournaledAndMovedWithTheNextCommit: once the writer
// knows a room's last record, its appends take no commit; they are read
// back at once, and the next transaction (here a room's update) moves them
// into the database.
func TestAGamesAppendsAreJournaledAndMovedWithTheNextCommit(t *testing.T) {
	db, _ := openTemp(t)
	createRoom(t, db, room("r", store.StatusRunning, 1))
	if err := db.Append(ctx, "r", record(1)); err != nil {
		t.Fatal(err)
	}
	commits := db.w.commits
	for n := int64(2); n <= 11; n++ {
		if err := db.Append(ctx, "r", record(n)); err != nil {
			t.Fatal(err)
		}
	}
	if c := db.w.commits - commits; c != 0 {
		t.Errorf("ten appends took %d commits", c)
	}
	if db.w.journalWrites != 10 {
		t.Errorf("%d appends were journaled, want 10", db.w.journalWrites)
	}
	wantRecords(t, db, "r", records(1, 11))
	if n := storedRecords(t, db, "r"); n != 1 {
		t.Errorf("%d records in the database before the move, want 1", n)
	}
	// The journal checks what the database would: a duplicate, a gap.
	for _, n := range []int64{11, 13} {
		if err := db.Append(ctx, "r", record(n)); err == nil || !strings.Contains(err.Error(), `room "r"`) {
			t.Errorf("record %d after 11: got %v, want a refusal naming the room", n, err)
		}
	}
	if err := db.UpdateRoom(ctx, room("r", store.StatusRunning, 2)); err != nil {
		t.Fatal(err)
	}
	if n := storedRecords(t, db, "r"); n != 11 {
		t.Errorf("%d records in the database after the update, want 11", n)
	}
	wantRecords(t, db, "r", records(1, 11))
}

// TestAWriteMovesOnlyTheRecordsItNeeds: a room created or another room's
// update leaves a game's journaled records in the journal (moved with every
// commit, they went in a few at a time at 10,000 players, rewriting each
// game's pages at every move); a write to the room itself, its game's end,
// moves them first.
func TestAWriteMovesOnlyTheRecordsItNeeds(t *testing.T) {
	db, _ := openTemp(t)
	createRoom(t, db, room("a", store.StatusRunning, 1))
	createRoom(t, db, room("b", store.StatusRunning, 1))
	appendRange(t, db, "a", 1, 11) // the first through the writer, the rest journaled
	createRoom(t, db, room("c", store.StatusOpen, 1))
	if err := db.UpdateRoom(ctx, room("b", store.StatusOver, 2)); err != nil {
		t.Fatal(err)
	}
	if n := storedRecords(t, db, "a"); n != 1 {
		t.Errorf("after writes to other rooms, %d of room a's records are in the database, want 1 (the rest journaled)", n)
	}
	wantRecords(t, db, "a", records(1, 11))
	if err := db.UpdateRoom(ctx, room("a", store.StatusOver, 2)); err != nil {
		t.Fatal(err)
	}
	if n := storedRecords(t, db, "a"); n != 11 {
		t.Errorf("after its game's end, %d of room a's records are in the database, want 11", n)
	}
	wantRecords(t, db, "a", records(1, 11))
}

// TestAGamesEndMovesItsRoomsRecordsAlone: the end of a game moves that
// room's journaled records, not those of the other games in play (moved
// at every game's end, each game's index pages were written again at
// every other game's end); they go with the move of all.
func TestAGamesEndMovesItsRoomsRecordsAlone(t *testing.T) {
	db, _ := openTemp(t)
	for _, r := range []string{"a", "b"} {
		createRoom(t, db, room(r, store.StatusRunning, 1))
		appendRange(t, db, r, 1, 6)
	}
	if err := db.UpdateRoom(ctx, room("a", store.StatusOver, 2)); err != nil {
		t.Fatal(err)
	}
	if a, b := storedRecords(t, db, "a"), storedRecords(t, db, "b"); a != 6 || b != 1 {
		t.Errorf("after room a's game ended, the database holds %d of a's records and %d of b's, want 6 and 1", a, b)
	}
	wantRecords(t, db, "b", records(1, 6))
	if err := db.do(ctx, &op{kind: opMove}); err != nil {
		t.Fatal(err)
	}
	if b := storedRecords(t, db, "b"); b != 6 {
		t.Errorf("after the move of all, the database holds %d of b's records, want 6", b)
	}
	wantRecords(t, db, "a", records(1, 6))
	wantRecords(t, db, "b", records(1, 6))
}

// TestAJournalLeftAfterARoomsMoveIsMovedWithoutItsRecords: a room's move
// leaves its records in their file, so a process that dies then leaves a
// journal with records the database holds; the next Open moves the others
// and skips those. A reset room's old records must not come back before
// its new game's, even with nothing pending at the reset: the reset starts
// the file over.
func TestAJournalLeftAfterARoomsMoveIsMovedWithoutItsRecords(t *testing.T) {
	reopened := func(t *testing.T, path string, db *DB, want map[string]int64) {
		t.Helper()
		abandon(db)
		db, err := Open(path)
		if err != nil {
			t.Fatalf("the Open after a death: %v", err)
		}
		defer db.Close()
		for r, n := range want {
			wantRecords(t, db, r, records(1, n))
			if got := storedRecords(t, db, r); got != int(n) {
				t.Errorf("room %s: %d records in the database after the Open, want %d", r, got, n)
			}
		}
	}
	t.Run("a game's end", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "w.db")
		db := open(t, path)
		for _, r := range []string{"a", "b"} {
			createRoom(t, db, room(r, store.StatusRunning, 1))
			appendRange(t, db, r, 1, 5)
		}
		if err := db.UpdateRoom(ctx, room("a", store.StatusOver, 2)); err != nil {
			t.Fatal(err)
		}
		appendRange(t, db, "b", 6, 7)
		reopened(t, path, db, map[string]int64{"a": 5, "b": 7})
	})
	t.Run("a reset", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "w.db")
		db := open(t, path)
		createRoom(t, db, room("c", store.StatusRunning, 1))
		appendRange(t, db, "c", 1, 5)
		if err := db.UpdateRoom(ctx, room("c", store.StatusRunning, 2)); err != nil { // moves 2 to 5: none pending
			t.Fatal(err)
		}
		if err := db.ResetRoom(ctx, room("c", store.StatusOpen, 3)); err != nil {
			t.Fatal(err)
		}
		appendRange(t, db, "c", 1, 3)
		reopened(t, path, db, map[string]int64{"c": 3})
	})
}

// TestAnAppendIsWrittenByItsCaller: a game's appends to the journal go
// out on its own goroutine, not through the writer's queue (whose answers
// wake each caller behind everything runnable); and the move that comes
// due after flushEvery of them is asked of the writer at once, and made.
func TestAnAppendIsWrittenByItsCaller(t *testing.T) {
	db, _ := openTemp(t)
	createRoom(t, db, room("r", store.StatusRunning, 1))
	if err := db.Append(ctx, "r", record(1)); err != nil { // the first: the writer learns the room's last record
		t.Fatal(err)
	}
	for n := int64(2); n <= flushEvery+1; n++ {
		db.w.mu.Lock()
		db.w.flushTimer.Stop() // the second's timer (flushAfter) moves nothing meanwhile
		db.w.mu.Unlock()
		if err := db.Append(ctx, "r", record(n)); err != nil {
			t.Fatal(err)
		}
	}
	db.w.mu.Lock()
	direct, asked, pending := db.w.directWrites, db.w.moveAsked, db.w.pend.count
	db.w.mu.Unlock()
	if direct != flushEvery {
		t.Errorf("%d of %d appends were written by their callers", direct, flushEvery)
	}
	if !asked && pending != 0 {
		t.Errorf("%d records pending and no move asked", pending)
	}
	for deadline := time.Now().Add(10 * time.Second); storedRecords(t, db, "r") != flushEvery+1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d records in the database, want %d", storedRecords(t, db, "r"), flushEvery+1)
		}
	}
	wantRecords(t, db, "r", records(1, flushEvery+1))
}

// duringACommit runs during while the writer is inside a transaction
// that moves the journal's records, and makes the transaction fail if
// fail is set.
func duringACommit(t *testing.T, db *DB, fail bool, during func()) error {
	t.Helper()
	in, out := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- db.do(ctx, &op{kind: opFunc, fn: func(context.Context, *sql.Tx) (error, error) {
			close(in)
			<-out
			if fail {
				return nil, errors.New("the disk is gone")
			}
			return nil, nil
		}})
	}()
	<-in
	func() {
		defer close(out) // even if during fails the test
		during()
	}()
	return <-done
}

// abandon leaves db as a process's death would: nothing moved, the
// files as they are, the lock let go so that the next Open may take it.
func abandon(db *DB) {
	db.w.flushTimer.Stop()
	db.w.j.close()
	db.lock.release()
}

// appendRange appends records from to to, one at a time.
func appendRange(t *testing.T, db *DB, room string, from, to int64) {
	t.Helper()
	for n := from; n <= to; n++ {
		if err := db.Append(ctx, room, record(n)); err != nil {
			t.Fatal(err)
		}
	}
}

// appendBounded appends, failing the test if the append waits for the
// writer's transaction (its context ends first).
func appendBounded(t *testing.T, db *DB, room string, n int64) {
	t.Helper()
	bounded, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.Append(bounded, room, record(n)); err != nil {
		t.Fatalf("an append while the writer commits: %v", err)
	}
}

// TestAppendsGoOnWhileAMoveCommits: while a transaction moves the
// journal's records, the games' appends go to the journal's other file,
// and are read back at once; they move with the next transaction.
func TestAppendsGoOnWhileAMoveCommits(t *testing.T) {
	db, _ := openTemp(t)
	createRoom(t, db, room("r", store.StatusRunning, 1))
	appendRange(t, db, "r", 1, 4)
	err := duringACommit(t, db, false, func() {
		for n := int64(5); n <= 7; n++ {
			appendBounded(t, db, "r", n)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := storedRecords(t, db, "r"); n != 4 {
		t.Errorf("%d records in the database after the move, want 4 (5 to 7 came during it)", n)
	}
	wantRecords(t, db, "r", records(1, 7))
	if err := db.UpdateRoom(ctx, room("r", store.StatusRunning, 2)); err != nil {
		t.Fatal(err)
	}
	if n := storedRecords(t, db, "r"); n != 7 {
		t.Errorf("%d records in the database after the next move, want 7", n)
	}
	appendBounded(t, db, "r", 8) // the moved file is the spare again
	wantRecords(t, db, "r", records(1, 8))
}

// TestAFailedMoveLeavesBothFilesToTheNext: a move that fails leaves its
// records pending and in their file, and the appends made during it in
// the other; the next move takes both. A process that dies in between
// leaves both files, and the next Open moves them in order.
func TestAFailedMoveLeavesBothFilesToTheNext(t *testing.T) {
	for _, death := range []bool{false, true} {
		t.Run(fmt.Sprintf("death=%v", death), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "w.db")
			db := open(t, path)
			createRoom(t, db, room("r", store.StatusRunning, 1))
			appendRange(t, db, "r", 1, 4)
			err := duringACommit(t, db, true, func() {
				for n := int64(5); n <= 6; n++ {
					appendBounded(t, db, "r", n)
				}
			})
			if err == nil {
				t.Fatal("the failed transaction's caller had no error")
			}
			appendBounded(t, db, "r", 7)
			wantRecords(t, db, "r", records(1, 7))
			if n := storedRecords(t, db, "r"); n != 1 {
				t.Errorf("%d records in the database after the failed move, want 1", n)
			}
			if death {
				abandon(db)
				db = open(t, path)
			} else if err := db.UpdateRoom(ctx, room("r", store.StatusRunning, 2)); err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if n := storedRecords(t, db, "r"); n != 7 {
				t.Errorf("%d records in the database after the next move, want 7", n)
			}
			if err := db.Append(ctx, "r", record(8)); err != nil { // after an Open, the writer learns the last record
				t.Fatal(err)
			}
			for n := int64(9); n <= 10; n++ { // a file to take the appends during a move again
				if err := duringACommit(t, db, false, func() { appendBounded(t, db, "r", n) }); err != nil {
					t.Fatal(err)
				}
			}
			wantRecords(t, db, "r", records(1, 10))
		})
	}
}

// TestAResetRoomDropsItsJournaledRecords: a reset moves the journal's
// records and drops them with the others.
func TestAResetRoomDropsItsJournaledRecords(t *testing.T) {
	db, _ := openTemp(t)
	createRoom(t, db, room("r", store.StatusRunning, 1))
	for n := int64(1); n <= 3; n++ {
		if err := db.Append(ctx, "r", record(n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.ResetRoom(ctx, room("r", store.StatusOpen, 2)); err != nil {
		t.Fatal(err)
	}
	wantRecords(t, db, "r", nil)
	if err := db.Append(ctx, "r", record(1)); err != nil {
		t.Fatal(err)
	}
	wantRecords(t, db, "r", records(1, 1))
}

// TestAJournalLeftAtACrashIsMovedOnce: a journal left by a process that
// died is moved at the next Open, whole entries only (the last one cut
// short never had an answer); one whose move was committed before the
// death (the file had not started over) is not moved twice; a journal of
// another database is refused at Open, naming the file.
func TestAJournalLeftAtACrashIsMovedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	db := open(t, path)
	createRoom(t, db, room("r", store.StatusRunning, 1))
	for n := int64(1); n <= 4; n++ {
		if err := db.Append(ctx, "r", record(n)); err != nil {
			t.Fatal(err)
		}
	}
	left, err := os.ReadFile(path + ".records") // records 2 to 4, as a death would leave them
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil { // moves them: the file starts over
		t.Fatal(err)
	}
	leave := func(b []byte) {
		t.Helper()
		if err := os.WriteFile(path+".records", b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// Moved already (its epoch is the database's): dropped.
	leave(left)
	db = open(t, path)
	wantRecords(t, db, "r", records(1, 4))
	for n := int64(5); n <= 7; n++ {
		if err := db.Append(ctx, "r", record(n)); err != nil {
			t.Fatal(err)
		}
	}
	left, err = os.ReadFile(path + ".records")
	if err != nil {
		t.Fatal(err)
	}
	abandon(db)

	// Not moved yet, its last entry cut short: records 5 and 6 are moved.
	leave(left[:len(left)-3])
	db = open(t, path)
	wantRecords(t, db, "r", records(1, 6))
	if n := storedRecords(t, db, "r"); n != 6 {
		t.Errorf("%d records in the database after the Open, want 6", n)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// Of an epoch this database never had.
	other := append([]byte(journalMagic), 99, 0, 0, 0, 0, 0, 0, 0)
	leave(other)
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), path+".records") {
		t.Errorf("a journal of another database: got %v, want an error naming it", err)
	}
}

// TestAnEntryReadsBackAsWritten: every field of a record, an empty body
// and a nil one told apart, as the database tells them apart.
func TestAnEntryReadsBackAsWritten(t *testing.T) {
	r := record(7)
	for _, c := range []struct {
		name        string
		body, clock []byte
	}{{"nil", nil, nil}, {"empty", []byte{}, []byte{}}, {"full", []byte(`{"a":1}`), []byte{1, 2}}} {
		r.Body, r.Clock = c.body, c.clock
		b := appendEntry(nil, "room", r, []byte("ev"))
		room, got, rest, ok := decodeEntry(b)
		if !ok || len(rest) != 0 || room != "room" || got.rec.N != 7 || !got.rec.At.Equal(r.At) || got.rec.Kind != r.Kind ||
			string(got.events) != "ev" || (got.rec.Body == nil) != (c.body == nil) || string(got.rec.Body) != string(c.body) ||
			(got.rec.Clock == nil) != (c.clock == nil) || string(got.rec.Clock) != string(c.clock) {
			t.Errorf("%s: read back %q %+v (ok %v)", c.name, room, got, ok)
		}
		for cut := range len(b) {
			if _, _, _, ok := decodeEntry(b[:cut]); ok {
				t.Errorf("%s: an entry cut to %d of its %d bytes was read", c.name, cut, len(b))
			}
		}
	}
}

// TestAMoveCountsThePagesItFills: towards the next checkpoint, a move of
// the journal's records counts about the pages they fill, not a write a
// record (checkpointEvery).
func TestAMoveCountsThePagesItFills(t *testing.T) {
	db, _ := openTemp(t)
	createRoom(t, db, room("r", store.StatusRunning, 1))
	appendRange(t, db, "r", 1, 300)
	db.w.mu.Lock()
	before := db.w.sinceKick
	db.w.mu.Unlock()
	if err := db.UpdateRoom(ctx, room("r", store.StatusOver, 2)); err != nil { // moves records 2 to 300
		t.Fatal(err)
	}
	db.w.mu.Lock()
	counted := db.w.sinceKick - before
	db.w.mu.Unlock()
	size := 0
	for _, r := range records(2, 300) {
		size += len(r.Kind) + len(r.Body) + len(store.AppendEvents(nil, r.Events)) + len(r.Clock) + recordOverhead
	}
	if want := size/pageSize + 2 + 1; counted != want { // and the update, one write
		t.Errorf("the move of 299 records of %d bytes and an update counted %d writes, want %d", size, counted, want)
	}
}

// TestARoomEntryReadsBackAsWritten: a room opened in the journal reads
// back with every field, a nil Config told from an empty one, the zero
// time kept.
func TestARoomEntryReadsBackAsWritten(t *testing.T) {
	full := room("room", store.StatusRunning, 3)
	bare := store.Room{ID: "bare", Status: store.StatusOpen, Seats: []byte{}}
	for _, r := range []store.Room{full, bare} {
		b := appendRoomEntry(nil, r)
		id, got, rest, ok := decodeEntry(b)
		if !ok || len(rest) != 0 || id != r.ID || got.room == nil || got.rec.N != 0 {
			t.Fatalf("%s: read back %q %+v (ok %v)", r.ID, id, got, ok)
		}
		g := *got.room
		if g.ID != r.ID || !g.Created.Equal(r.Created) || !g.Updated.Equal(r.Updated) || g.Status != r.Status || g.Code != r.Code ||
			string(g.Config) != string(r.Config) || (g.Config == nil) != (r.Config == nil) ||
			string(g.Seats) != string(r.Seats) || (g.Seats == nil) != (r.Seats == nil) {
			t.Errorf("read back %+v, want %+v", g, r)
		}
		for cut := range len(b) {
			if _, _, _, ok := decodeEntry(b[:cut]); ok {
				t.Errorf("%s: an entry cut to %d of its %d bytes was read", r.ID, cut, len(b))
			}
		}
	}
}

// BenchmarkMove: a move of flushEvery journaled records of 64 games into
// the database, which holds up the appends made meanwhile.
func BenchmarkMove(b *testing.B) {
	db, _ := openTemp(b)
	const games = 64
	next := make([]int64, games)
	for g := range games {
		createRoom(b, db, room(fmt.Sprintf("g%d", g), store.StatusRunning, 1))
	}
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		for i := range flushEvery - 1 {
			g := i % games
			next[g]++
			if err := db.Append(ctx, fmt.Sprintf("g%d", g), record(next[g])); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		if err := db.UpdateRoom(ctx, room("g0", store.StatusRunning, 2)); err != nil {
			b.Fatal(err)
		}
	}
}

// A journaled record's body and clock are copied (the caller reuses its
// buffers), and a nil one stays nil: it is stored as NULL.
func TestJournalCopiesKeepNil(t *testing.T) {
	body, clock := []byte("body"), []byte{}
	for _, c := range []struct{ a, b []byte }{{body, clock}, {nil, body}, {body, nil}, {nil, nil}} {
		a, b := cloneBoth(c.a, c.b)
		if (a == nil) != (c.a == nil) || (b == nil) != (c.b == nil) || string(a) != string(c.a) || string(b) != string(c.b) {
			t.Errorf("cloneBoth(%q, %q) = %q, %q", c.a, c.b, a, b)
		}
		if len(a) > 0 && &a[0] == &c.a[0] || len(b) > 0 && &b[0] == &c.b[0] {
			t.Errorf("cloneBoth(%q, %q) shares the caller's buffer", c.a, c.b)
		}
		if cap(a) != len(a) {
			t.Errorf("the body's copy has room to grow into the clock's (cap %d)", cap(a))
		}
	}
}
