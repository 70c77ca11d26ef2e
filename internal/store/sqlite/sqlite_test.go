package sqlite

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/storetest"
)

var ctx = context.Background()

func open(t testing.TB, path string) *DB {
	t.Helper()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// openTemp opens a new database that the test closes when it ends.
func openTemp(t testing.TB) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "wolfden.db")
	db := open(t, path)
	t.Cleanup(func() { db.Close() })
	return db, path
}

var (
	room        = storetest.Room
	record      = storetest.Record
	records     = storetest.Records
	createRoom  = storetest.CreateRoom
	wantRoom    = storetest.WantRoom
	wantRecords = storetest.WantRecords
)

// adapter is the SQLite store for the contract's tests: a database is a
// file in a temporary folder.
var adapter = storetest.Adapter{
	NewDB: func(t testing.TB) func(t testing.TB) store.Store {
		path := filepath.Join(t.TempDir(), "wolfden.db")
		return func(t testing.TB) store.Store {
			db := open(t, path)
			t.Cleanup(func() { db.Close() })
			return db
		}
	},
}

func TestContract(t *testing.T) { storetest.Run(t, adapter) }

func BenchmarkAppend(b *testing.B) { storetest.BenchmarkAppend(b, adapter) }

func BenchmarkClaimCode(b *testing.B) { storetest.BenchmarkClaimCode(b, adapter) }

// A write that SQLite refuses, rather than the store's own checks, fails its
// whole transaction: the others in it must be committed all the same.
func TestFailedTransactionFailsOnlyTheWriteAtFault(t *testing.T) {
	db, _ := openTemp(t)
	for _, id := range []string{"r1", "r2", "r3"} {
		createRoom(t, db, room(id, store.StatusRunning, 1))
	}
	if err := db.Append(ctx, "r2", record(1)); err != nil {
		t.Fatal(err)
	}
	// A writer run by the test, to choose the batch, which believes r2 to
	// be empty as it would if another process had appended to it.
	w, err := newWriter(ctx, db.db)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	w.last["r2"] = 0
	run := func(ops ...*op) {
		for _, o := range ops {
			o.done = make(chan error, 1)
		}
		w.run(ops)
	}
	var batch []*op
	for _, id := range []string{"r1", "r2", "r3"} {
		o, err := appendOp(id, records(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		batch = append(batch, o)
	}
	run(batch...)
	for _, o := range batch {
		err := <-o.done
		if o.roomID == "r2" {
			if err == nil || !strings.Contains(err.Error(), `room "r2"`) {
				t.Errorf("r2: got %v, want an error naming the room", err)
			}
		} else if err != nil {
			t.Errorf("%s: %v", o.roomID, err)
		}
		wantRecords(t, db, o.roomID, records(1, 1))
	}

	// The writer has learnt r2's true number from the failure.
	o, err := appendOp("r2", records(2, 2))
	if err != nil {
		t.Fatal(err)
	}
	run(o)
	if err := <-o.done; err != nil {
		t.Fatal(err)
	}
	wantRecords(t, db, "r2", records(1, 2))
}

const helperEnv = "WOLFDEN_SQLITE_HELPER_DB"

// TestHelperAppendThenWait is the child of TestKilledProcessKeepsAppendedRecord.
func TestHelperAppendThenWait(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("run by TestKilledProcessKeepsAppendedRecord")
	}
	db := open(t, path)
	createRoom(t, db, room("r1", store.StatusRunning, 1))
	if err := db.Append(ctx, "r1", records(1, 2)...); err != nil {
		t.Fatal(err)
	}
	// The room's last record is known now: these go to the journal.
	for n := int64(3); n <= 4; n++ {
		if err := db.Append(ctx, "r1", record(n)); err != nil {
			t.Fatal(err)
		}
	}
	if db.w.journalWrites != 2 {
		t.Fatalf("%d appends were journaled, want 2", db.w.journalWrites)
	}
	os.Stdout.WriteString("ok\n")
	time.Sleep(time.Minute) // to be killed, with the store open
}

func TestKilledProcessKeepsAppendedRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	path := filepath.Join(t.TempDir(), "wolfden.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAppendThenWait$")
	cmd.Env = append(os.Environ(), helperEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()

	var ok bool
	for lines := bufio.NewScanner(out); !ok && lines.Scan(); {
		ok = lines.Text() == "ok"
	}
	if !ok {
		t.Fatal(`the child ended without printing "ok"`)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the child was not killed")
	}

	db := open(t, path)
	defer db.Close()
	wantRecords(t, db, "r1", records(1, 4))
}

// TestClaimsAreMigratedFromTheRooms: a file from before the claims gets
// one for each live room's code, the newer room's where two shared one; a
// finished room's code is left free.
func TestClaimsAreMigratedFromTheRooms(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wolfden.db")
	if err := open(t, path).Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	// Back to the schema before claims, with rooms as it left them.
	downTo(t, raw, 4)
	for _, q := range []string{
		`DROP TABLE codes`,
		`DELETE FROM goose_db_version WHERE version_id >= 3`,
		`INSERT INTO rooms (id, created, status, code) VALUES
			('old', 1, 'open', 'K7QX'), ('new', 2, 'running', 'K7QX'),
			('over', 3, 'over', 'M3W9P'), ('none', 4, 'open', ''), ('bare', NULL, 'open', 'Z2Z2')`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	db := open(t, path)
	defer db.Close()
	storetest.WantCode(t, db, "K7QX", "new")
	storetest.WantCode(t, db, "M3W9P", "")
	storetest.WantCode(t, db, "Z2Z2", "bare")
}

// TestRecordsAreMigratedToARowidTable: a file whose records are a WITHOUT
// ROWID table (before migration 4) keeps every record, and its rooms go on
// appending and refusing a duplicate, on the rowid table with its key in
// an index.
func TestRecordsAreMigratedToARowidTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wolfden.db")
	db := open(t, path)
	createRoom(t, db, room("r1", "running", 1))
	createRoom(t, db, room("r2", "running", 2))
	for _, a := range []struct {
		room string
		recs []store.Record
	}{{"r1", records(1, 3)}, {"r2", records(1, 2)}} {
		if err := db.Append(ctx, a.room, a.recs...); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	// Back to the schema of migration 1, with the records in it.
	downTo(t, raw, 4)
	for _, q := range []string{
		`CREATE TABLE records_old (
			room_id TEXT NOT NULL REFERENCES rooms (id), n INTEGER NOT NULL, at INTEGER,
			kind TEXT NOT NULL, body BLOB, events BLOB, clock BLOB,
			PRIMARY KEY (room_id, n)) WITHOUT ROWID`,
		`INSERT INTO records_old SELECT room_id, n, at, kind, body, events, clock FROM records`,
		`DROP TABLE records`,
		`ALTER TABLE records_old RENAME TO records`,
		`DELETE FROM goose_db_version WHERE version_id >= 4`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()

	db = open(t, path)
	defer db.Close()
	wantRecords(t, db, "r1", records(1, 3))
	wantRecords(t, db, "r2", records(1, 2))
	if err := db.Append(ctx, "r1", record(4)); err != nil {
		t.Fatal(err)
	}
	if err := db.Append(ctx, "r2", record(2)); err == nil {
		t.Fatal("a duplicate record was stored after the migration")
	}
	if _, err := db.db.ExecContext(ctx, `INSERT INTO records (room_id, n, kind) VALUES ('r2', 1, 'x')`); err == nil {
		t.Fatal("the records' key is not unique after the migration")
	}
	wantRecords(t, db, "r1", records(1, 4))
	var schema string
	if err := db.db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE name = 'records'`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToUpper(schema), "WITHOUT ROWID") {
		t.Fatalf("records is still a WITHOUT ROWID table: %s", schema)
	}
}

// downTo undoes the migrations after version v, so that a test can take a
// file back to an older schema however many migrations came since.
func downTo(t *testing.T, db *sql.DB, v int64) {
	t.Helper()
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(context.Background(), v); err != nil {
		t.Fatalf("migrations down to %d: %v", v, err)
	}
}

// TestWritesMadeAtOnceShareACommit: on one core, twenty games whose rooms
// change at the same moment are committed in a few transactions, not
// twenty: the writer lets the others queue their writes before it commits
// the first (a caller's send wakes it ahead of them). (Appends go to the
// journal and commit nothing: TestAGamesAppendsAreJournaledAndMovedWithTheNextCommit.)
func TestWritesMadeAtOnceShareACommit(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	db, _ := openTemp(t)
	const games = 20
	for i := range games {
		createRoom(t, db, room(fmt.Sprintf("g%d", i), store.StatusRunning, 1))
	}
	before := db.w.commits
	start := make(chan struct{})
	errs := make(chan error, games)
	for i := range games {
		go func() {
			<-start
			errs <- db.UpdateRoom(context.Background(), room(fmt.Sprintf("g%d", i), store.StatusOver, 2))
		}()
	}
	close(start)
	for range games {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if n := db.w.commits - before; n > 3 {
		t.Fatalf("%d writes made at once took %d commits", games, n)
	}
}

// TestAGamesOpeningIsJournaled: a room opened with its game's start
// (OpenGame) is written to the journal by its caller, with no
// transaction, and reads as CreateRoom then StartGame would have left it;
// its game's end stores the room with its records; a refused opening
// stores nothing.
func TestAGamesOpeningIsJournaled(t *testing.T) {
	db, path := openTemp(t)
	older := room("r0", store.StatusRunning, 1)
	createRoom(t, db, older)
	r := room("r1", store.StatusRunning, 2)
	before, direct := db.w.commits, db.w.directWrites
	if err := db.OpenGame(ctx, r, records(1, 2)...); err != nil {
		t.Fatal(err)
	}
	if n := db.w.commits - before; n != 0 || db.w.directWrites != direct+1 {
		t.Errorf("the opening took %d commits and %d writes of the journal by its caller, want none and one", n, db.w.directWrites-direct)
	}
	wantRoom(t, db, r)
	wantRecords(t, db, "r1", records(1, 2))
	if rooms, err := db.Rooms(ctx, store.StatusRunning); err != nil || fmt.Sprint(roomIDs(rooms)) != "[r0 r1]" {
		t.Errorf("the running rooms: %v %v, want r0 and r1", roomIDs(rooms), err)
	}
	if err := db.Append(ctx, "r1", record(3)); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		room store.Room
		recs []store.Record
		want string
	}{
		{"a room opened in the journal", room("r1", store.StatusRunning, 3), records(1, 1), "already exists"},
		{"a room in the database", room("r0", store.StatusRunning, 3), records(1, 1), "already exists"},
		{"records that do not start the game", room("r2", store.StatusRunning, 3), records(2, 3), "gap"},
		{"no records", room("r3", store.StatusRunning, 3), nil, "first record"},
	} {
		err := db.OpenGame(ctx, c.room, c.recs...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if _, err := db.Room(ctx, "r2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused opening left its room: %v", err)
	}
	wantRoom(t, db, r)
	wantRecords(t, db, "r1", records(1, 3))

	// The game's end stores the room, then its records, then the change.
	over := r
	over.Status, over.Updated = store.StatusOver, storetest.At(4)
	if err := db.UpdateRoom(ctx, over); err != nil {
		t.Fatal(err)
	}
	var status string
	if err := db.queryRow(ctx, `SELECT status FROM rooms WHERE id = 'r1'`).Scan(&status); err != nil || status != store.StatusOver {
		t.Errorf("after its game's end the database holds room r1 as %q (%v), want %q", status, err, store.StatusOver)
	}
	if n := storedRecords(t, db, "r1"); n != 3 {
		t.Errorf("after its game's end the database holds %d of r1's records, want 3", n)
	}

	// Stored, not only remembered: the file read again has them.
	db.Close()
	db2 := open(t, path)
	defer db2.Close()
	wantRoom(t, db2, over)
	wantRecords(t, db2, "r1", records(1, 3))
}

// TestAJournaledOpeningOutlivesTheProcess: a process that dies leaves its
// games' openings in the journal, and the next Open stores them with
// their records; a room its game's end stored (the entry stays in its
// file until the move of all) keeps what the database holds.
func TestAJournaledOpeningOutlivesTheProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	db := open(t, path)
	for i, id := range []string{"a", "b"} {
		if err := db.OpenGame(ctx, room(id, store.StatusRunning, i+1), record(1)); err != nil {
			t.Fatal(err)
		}
		appendRange(t, db, id, 2, 4)
	}
	over := room("b", store.StatusOver, 2)
	over.Updated = storetest.At(5)
	if err := db.UpdateRoom(ctx, over); err != nil {
		t.Fatal(err)
	}
	appendRange(t, db, "a", 5, 6)
	// The last opening's write cut short after its room: it never was.
	if err := db.OpenGame(ctx, room("c", store.StatusRunning, 6), record(1)); err != nil {
		t.Fatal(err)
	}
	jf := db.w.j.files[db.w.j.active]
	abandon(db)
	if err := os.Truncate(jf.name, jf.size-3); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatalf("the Open after a death: %v", err)
	}
	defer db.Close()
	for _, c := range []struct {
		room store.Room
		n    int64
	}{{room("a", store.StatusRunning, 1), 6}, {over, 4}} {
		wantRoom(t, db, c.room)
		wantRecords(t, db, c.room.ID, records(1, c.n))
		if got := storedRecords(t, db, c.room.ID); got != int(c.n) {
			t.Errorf("room %s: %d records in the database after the Open, want %d", c.room.ID, got, c.n)
		}
	}
	if _, err := db.Room(ctx, "c"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an opening cut short left its room: %v", err)
	}
}

// TestAnOpenedRoomIsReadWhileItsMoveCommits: a reader never misses a room
// opened in the journal, nor lists it twice, while the move that stores
// it commits.
func TestAnOpenedRoomIsReadWhileItsMoveCommits(t *testing.T) {
	db, _ := openTemp(t)
	r := room("r", store.StatusRunning, 1)
	if err := db.OpenGame(ctx, r, record(1)); err != nil {
		t.Fatal(err)
	}
	read := make(chan string, 1)
	err := duringACommit(t, db, false, func() {
		db.w.pend.mu.Lock()
		_, opened := db.w.pend.opened["r"]
		gen := db.w.pend.gen
		db.w.pend.mu.Unlock()
		if opened || gen%2 == 0 {
			t.Errorf("inside the move's transaction the room is still in the journal's memory (%v), or no move is under way (gen %d)", opened, gen)
		}
		go func() {
			got, err := db.Room(ctx, "r")
			rooms, err2 := db.Rooms(ctx, store.StatusRunning)
			read <- fmt.Sprint(got.ID, " ", err, " ", roomIDs(rooms), " ", err2)
		}()
		time.Sleep(5 * time.Millisecond) // the reader is under way
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := <-read; got != "r <nil> [r] <nil>" {
		t.Errorf("read during the move: %s, want room r, listed once", got)
	}
}

func roomIDs(rooms []store.Room) []string {
	var ids []string
	for _, r := range rooms {
		ids = append(ids, r.ID)
	}
	return ids
}

// TestTheWALIsWrittenBackEveryFewCommits: every writebackEvery commits the
// writer has the system start writing the WAL to the disk, so that the
// checkpoint's fsync, which holds the process while it waits, finds it
// written (checkpoint.go).
func TestTheWALIsWrittenBackEveryFewCommits(t *testing.T) {
	if !canWriteback {
		t.Skip("sync_file_range(2) is Linux's")
	}
	db, path := openTemp(t)
	for i := range writebackEvery + 1 {
		createRoom(t, db, room(fmt.Sprintf("g%d", i), store.StatusOpen, 1))
	}
	if db.w.wal == nil || db.w.wal.Name() != path+"-wal" {
		t.Fatalf("after %d commits the writer has not opened the WAL", writebackEvery+1)
	}
	if db.w.wroteBack == 0 || db.w.commits-db.w.wroteBack >= writebackEvery {
		t.Errorf("last writeback at commit %d of %d, want one in the last %d", db.w.wroteBack, db.w.commits, writebackEvery)
	}
	if err := startWriteback(db.w.wal); err != nil {
		t.Errorf("the WAL's writeback: %v", err)
	}
}
