package sqlite

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
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

// at is a time with nanoseconds, so that a lost digit shows.
func at(i int) time.Time {
	return time.Date(2025, 3, 1, 20, 0, i, 123456789, time.UTC)
}

func room(id, status string, created int) store.Room {
	return store.Room{
		ID:      id,
		Created: at(created),
		Updated: at(created),
		Status:  status,
		Config:  []byte(`{"board":"12p"}`),
		Seats:   []byte(`[{"seat":1,"token":"h1"}]`),
	}
}

// record is record n of a game, with a few events.
func record(n int64) store.Record {
	evs := make([]rules.Event, 5)
	for i := range evs {
		evs[i] = rules.Event{Seq: int32(n*5) + int32(i), Kind: rules.EvBallot, Seat: rules.Seat(i + 1), Target: 3, To: rules.Mask(rules.Seat(i + 1))}
	}
	evs[4].Public, evs[4].Kind, evs[4].Mask = true, rules.EvVoteResult, rules.Mask(3)
	return store.Record{
		N:      n,
		At:     at(int(n)),
		Kind:   "vote",
		Body:   []byte(fmt.Sprintf(`{"seat":%d}`, n)),
		Events: evs,
		Clock:  []byte(`{"deadline":123}`),
	}
}

func records(from, to int64) []store.Record {
	var recs []store.Record
	for n := from; n <= to; n++ {
		recs = append(recs, record(n))
	}
	return recs
}

func createRoom(t testing.TB, db *DB, r store.Room) {
	t.Helper()
	if err := db.CreateRoom(ctx, r); err != nil {
		t.Fatal(err)
	}
}

func wantRoom(t *testing.T, db *DB, want store.Room) {
	t.Helper()
	got, err := db.Room(ctx, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("room %s:\n got %+v\nwant %+v", want.ID, got, want)
	}
}

func wantRecords(t *testing.T, db *DB, roomID string, want []store.Record) {
	t.Helper()
	got, err := db.Records(ctx, roomID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("records of %s: got %d records, want %d\n got %+v\nwant %+v", roomID, len(got), len(want), got, want)
	}
}

func TestRoomRoundTrip(t *testing.T) {
	db, _ := openTemp(t)
	for _, r := range []store.Room{
		room("open", store.StatusOpen, 1),
		{ID: "bare", Status: store.StatusOpen}, // zero times, no documents
		{ID: "local time", Created: at(2).In(time.FixedZone("CST", 8*3600)), Status: store.StatusRunning},
	} {
		t.Run(r.ID, func(t *testing.T) {
			createRoom(t, db, r)
			r.Created = r.Created.UTC() // the store answers in UTC
			wantRoom(t, db, r)

			r.Status, r.Config, r.Seats, r.Updated = store.StatusRunning, []byte(`{"v":2}`), []byte(`[]`), at(30)
			if err := db.UpdateRoom(ctx, r); err != nil {
				t.Fatal(err)
			}
			wantRoom(t, db, r)
		})
	}
}

func TestRoomErrors(t *testing.T) {
	db, _ := openTemp(t)
	createRoom(t, db, room("r1", store.StatusOpen, 1))
	for _, c := range []struct {
		name     string
		call     func() error
		notFound bool
		want     string
	}{
		{"creating an existing room", func() error { return db.CreateRoom(ctx, room("r1", store.StatusOpen, 2)) }, false, `room "r1": the room already exists`},
		{"updating a missing room", func() error { return db.UpdateRoom(ctx, room("nope", store.StatusOver, 2)) }, true, `"nope"`},
		{"reading a missing room", func() error { _, err := db.Room(ctx, "nope"); return err }, true, `"nope"`},
		{"reading a missing room's records", func() error { _, err := db.Records(ctx, "nope"); return err }, true, `"nope"`},
		{"appending to a missing room", func() error { return db.Append(ctx, "nope", record(1)) }, true, `"nope"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, store.ErrNotFound) != c.notFound {
				t.Fatalf("got %v; want an error naming %s (ErrNotFound: %v)", err, c.want, c.notFound)
			}
		})
	}
	wantRoom(t, db, room("r1", store.StatusOpen, 1))
}

func TestRecordsRoundTrip(t *testing.T) {
	db, _ := openTemp(t)
	createRoom(t, db, room("r1", store.StatusRunning, 1))
	createRoom(t, db, room("r2", store.StatusRunning, 1))
	wantRecords(t, db, "r1", nil)

	bare := store.Record{N: 4, Kind: "tick"} // no time, body, events or clock
	for _, batch := range [][]store.Record{records(1, 1), records(2, 3), {bare}} {
		if err := db.Append(ctx, "r1", batch...); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Append(ctx, "r2", records(1, 2)...); err != nil {
		t.Fatal(err)
	}
	wantRecords(t, db, "r1", append(records(1, 3), bare))
	wantRecords(t, db, "r2", records(1, 2))
}

func TestReopenKeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wolfden.db")
	db := open(t, path)
	createRoom(t, db, room("r1", store.StatusRunning, 1))
	if err := db.Append(ctx, "r1", records(1, 3)...); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = open(t, path)
	defer db.Close()
	wantRoom(t, db, room("r1", store.StatusRunning, 1))
	wantRecords(t, db, "r1", records(1, 3))
	// The numbering goes on from what the file holds.
	if err := db.Append(ctx, "r1", record(3)); err == nil {
		t.Error("record 3 appended twice across a reopening")
	}
	if err := db.Append(ctx, "r1", record(4)); err != nil {
		t.Fatal(err)
	}
	wantRecords(t, db, "r1", records(1, 4))
}

func TestAppendRefusesGapsAndDuplicates(t *testing.T) {
	for _, c := range []struct {
		name string
		recs []store.Record
		want string
	}{
		{"duplicate of the last", records(3, 3), `room "r1": record 3 is already stored (the last is 3)`},
		{"duplicate of the first", records(1, 2), `room "r1": record 1 is already stored (the last is 3)`},
		{"gap", records(5, 6), `room "r1": record 5 leaves a gap after the last stored record, 3`},
		{"gap inside the call", []store.Record{record(4), record(6)}, `room "r1": records are not consecutive: 6 follows 4`},
		{"repeat inside the call", []store.Record{record(4), record(4)}, `room "r1": records are not consecutive: 4 follows 4`},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, _ := openTemp(t)
			createRoom(t, db, room("r1", store.StatusRunning, 1))
			if err := db.Append(ctx, "r1", records(1, 3)...); err != nil {
				t.Fatal(err)
			}
			err := db.Append(ctx, "r1", c.recs...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v; want an error containing %q", err, c.want)
			}
			wantRecords(t, db, "r1", records(1, 3))
			if err := db.Append(ctx, "r1", record(4)); err != nil {
				t.Fatalf("the right record after a refusal: %v", err)
			}
		})
	}
}

// Refused appends share transactions with good ones, which must not suffer.
func TestRefusedAppendDoesNotFailOthers(t *testing.T) {
	db, _ := openTemp(t)
	const rooms = 20
	for i := range rooms {
		createRoom(t, db, room(fmt.Sprint(i), store.StatusRunning, i))
	}
	var wg sync.WaitGroup
	errs := make([]error, 2*rooms)
	for i := range rooms {
		wg.Go(func() { errs[i] = db.Append(ctx, fmt.Sprint(i), record(1)) })
		wg.Go(func() { errs[rooms+i] = db.Append(ctx, fmt.Sprint(i), record(2), record(3)) })
	}
	wg.Wait()
	for i := range rooms {
		// The good append may follow the bad one, which then was a gap, or
		// precede it, which then was good too.
		if errs[i] != nil {
			t.Errorf("room %d: good append failed: %v", i, errs[i])
		}
		want := records(1, 1)
		if errs[rooms+i] == nil {
			want = records(1, 3)
		}
		wantRecords(t, db, fmt.Sprint(i), want)
	}
}

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

func TestConcurrentAppendsToManyRooms(t *testing.T) {
	db, _ := openTemp(t)
	const rooms, appends = 50, 40
	for i := range rooms {
		createRoom(t, db, room(fmt.Sprint(i), store.StatusRunning, i))
	}
	var wg sync.WaitGroup
	for i := range rooms {
		wg.Go(func() {
			for n := int64(1); n <= appends; n++ {
				if err := db.Append(ctx, fmt.Sprint(i), record(n)); err != nil {
					t.Errorf("room %d, record %d: %v", i, n, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for i := range rooms {
		wantRecords(t, db, fmt.Sprint(i), records(1, appends))
	}
}

func TestRoomsByStatus(t *testing.T) {
	db, _ := openTemp(t)
	// Created out of order, to see the listing sort by age.
	for _, r := range []store.Room{
		room("c", store.StatusOpen, 3),
		room("a", store.StatusOpen, 1),
		room("x", store.StatusRunning, 2),
		room("b", store.StatusOpen, 2),
		room("y", store.StatusOver, 1),
	} {
		createRoom(t, db, r)
	}
	for _, c := range []struct {
		status string
		want   []string
	}{
		{store.StatusOpen, []string{"a", "b", "c"}},
		{store.StatusRunning, []string{"x"}},
		{store.StatusOver, []string{"y"}},
		{"unknown", nil},
	} {
		t.Run(c.status, func(t *testing.T) {
			rooms, err := db.Rooms(ctx, c.status)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range rooms {
				ids = append(ids, r.ID)
				if r.Status != c.status {
					t.Errorf("room %s has status %s", r.ID, r.Status)
				}
			}
			if !reflect.DeepEqual(ids, c.want) {
				t.Errorf("got %v, want %v", ids, c.want)
			}
		})
	}
}

func TestAppendAfterGameOver(t *testing.T) {
	db, _ := openTemp(t)
	r := room("r1", store.StatusRunning, 1)
	createRoom(t, db, r)
	if err := db.Append(ctx, "r1", records(1, 2)...); err != nil {
		t.Fatal(err)
	}
	r.Status = store.StatusOver
	if err := db.UpdateRoom(ctx, r); err != nil {
		t.Fatal(err)
	}
	// The store forgets a finished room's numbering, and must read it back.
	if err := db.Append(ctx, "r1", record(2)); err == nil {
		t.Error("record 2 appended twice")
	}
	if err := db.Append(ctx, "r1", record(3)); err != nil {
		t.Fatal(err)
	}
	wantRecords(t, db, "r1", records(1, 3))
}

func TestAppendWithCancelledContextWritesNothing(t *testing.T) {
	db, _ := openTemp(t)
	createRoom(t, db, room("r1", store.StatusRunning, 1))
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := db.Append(cancelled, "r1", record(1)); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	wantRecords(t, db, "r1", nil)
}

func TestClosedStoreRefusesCalls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wolfden.db")
	db := open(t, path)
	createRoom(t, db, room("r1", store.StatusRunning, 1))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"Append", func() error { return db.Append(ctx, "r1", record(1)) }},
		{"CreateRoom", func() error { return db.CreateRoom(ctx, room("r2", store.StatusOpen, 1)) }},
		{"UpdateRoom", func() error { return db.UpdateRoom(ctx, room("r1", store.StatusOver, 1)) }},
		{"Room", func() error { _, err := db.Room(ctx, "r1"); return err }},
		{"Rooms", func() error { _, err := db.Rooms(ctx, store.StatusOpen); return err }},
		{"Records", func() error { _, err := db.Records(ctx, "r1"); return err }},
		{"Close", db.Close},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); !errors.Is(err, ErrClosed) {
				t.Errorf("got %v, want ErrClosed", err)
			}
		})
	}
	db = open(t, path)
	defer db.Close()
	wantRecords(t, db, "r1", nil)
}

// Appends racing Close are either committed or refused, never lost.
func TestCloseDrainsQueuedAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wolfden.db")
	db := open(t, path)
	const rooms = 50
	for i := range rooms {
		createRoom(t, db, room(fmt.Sprint(i), store.StatusRunning, i))
	}
	var wg sync.WaitGroup
	errs := make([]error, rooms)
	for i := range rooms {
		wg.Go(func() { errs[i] = db.Append(ctx, fmt.Sprint(i), record(1)) })
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	db = open(t, path)
	defer db.Close()
	for i, err := range errs {
		want := records(1, 1)
		if err != nil {
			if !errors.Is(err, ErrClosed) {
				t.Errorf("room %d: %v", i, err)
			}
			want = nil
		}
		wantRecords(t, db, fmt.Sprint(i), want)
	}
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
	wantRecords(t, db, "r1", records(1, 2))
}

// BenchmarkAppend appends one record of five events at a time, each
// goroutine to a room of its own, as games in play do.
func BenchmarkAppend(b *testing.B) {
	db, _ := openTemp(b)
	var rooms atomic.Int64
	// Many games wait on the store at once, which is what group commit is for.
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprint(rooms.Add(1))
		if err := db.CreateRoom(ctx, room(id, store.StatusRunning, 1)); err != nil {
			b.Error(err)
			return
		}
		for n := int64(1); pb.Next(); n++ {
			if err := db.Append(ctx, id, record(n)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
}

// TestAStartStoresTheRoomAndItsRecordsTogether: a game's first records and
// its room's change to running are stored together or not at all; a
// refused start (a record that does not follow, a room that does not
// exist) leaves the room as it was, while the starts beside it in the same
// transaction are stored.
func TestAStartStoresTheRoomAndItsRecordsTogether(t *testing.T) {
	db, _ := openTemp(t)
	for _, id := range []string{"good", "gap"} {
		createRoom(t, db, room(id, store.StatusOpen, 1))
	}
	running := func(id string) store.Room {
		r := room(id, store.StatusRunning, 1)
		r.Updated = at(2)
		return r
	}
	errs := make(chan error, 3)
	go func() { errs <- db.StartGame(ctx, running("good"), records(1, 2)...) }()
	go func() { errs <- db.StartGame(ctx, running("gap"), records(2, 3)...) }()
	go func() { errs <- db.StartGame(ctx, running("nowhere"), records(1, 1)...) }()
	failed := 0
	for range 3 {
		if <-errs != nil {
			failed++
		}
	}
	if failed != 2 {
		t.Fatalf("%d of 3 starts failed; want the 2 at fault", failed)
	}
	wantRoom(t, db, running("good"))
	wantRecords(t, db, "good", records(1, 2))
	wantRoom(t, db, room("gap", store.StatusOpen, 1))
	wantRecords(t, db, "gap", nil)
	if err := db.StartGame(ctx, running("gap"), nil...); err == nil {
		t.Fatal("a start without a record was stored")
	}
}
