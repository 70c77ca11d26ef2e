// Package storetest is the contract of store.Store as tests, run by every
// adapter's own tests: Run(t, storetest.Adapter{…}). What only one adapter
// has (SQLite's file lock, a killed process, a full disk; PostgreSQL's
// two servers on one database) stays in that adapter's tests.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// Adapter is what the suite needs to know of an adapter.
type Adapter struct {
	// NewDB makes a new, empty database and returns how to open a store
	// on it. Each call of open gives another store on the same data, to be
	// closed when t ends (a test may close it sooner: a second Close is
	// then ignored).
	NewDB func(t testing.TB) (open func(t testing.TB) store.Store)
	// Volatile: the data goes with the store when it is closed, so a store
	// cannot be opened again on it. The tests that close a store and read
	// what it kept from another are not run.
	Volatile bool
	// UnknownRooms: the adapter takes appends to, and reads the records of,
	// a room it was never given, instead of refusing them with
	// store.ErrNotFound. The tests of those refusals are not run.
	UnknownRooms bool
}

// Run runs the contract's tests on a.
func Run(t *testing.T, a Adapter) {
	tests := []struct {
		name string
		run  func(s suite, t *testing.T)
		skip bool
	}{
		{"RoomRoundTrip", suite.testRoomRoundTrip, false},
		{"RoomErrors", suite.testRoomErrors, false},
		{"UnknownRoomErrors", suite.testUnknownRoomErrors, a.UnknownRooms},
		{"RecordsRoundTrip", suite.testRecordsRoundTrip, false},
		{"ReopenKeepsEverything", suite.testReopenKeepsEverything, a.Volatile},
		{"AppendRefusesGapsAndDuplicates", suite.testAppendRefusesGapsAndDuplicates, false},
		{"RefusedAppendDoesNotFailOthers", suite.testRefusedAppendDoesNotFailOthers, false},
		{"ConcurrentAppendsToManyRooms", suite.testConcurrentAppendsToManyRooms, false},
		{"RoomsByStatus", suite.testRoomsByStatus, false},
		{"AppendAfterGameOver", suite.testAppendAfterGameOver, false},
		{"CancelledContextWritesNothing", suite.testCancelledContextWritesNothing, false},
		{"ClosedStoreRefusesCalls", suite.testClosedStoreRefusesCalls, false},
		{"CloseDrainsQueuedAppends", suite.testCloseDrainsQueuedAppends, a.Volatile},
		{"StartStoresTheRoomAndItsRecordsTogether", suite.testStartGame, false},
		{"ResetRoomDropsTheRecords", suite.testResetRoom, false},
		{"RoomCodeIsKeptAndReplaced", suite.testRoomCode, false},
		{"CodeClaimsHoldOneRoomEach", suite.testCodeClaims, false},
		{"CodeIsGivenToTheRematch", suite.testGiveCode, false},
		{"ExpiredCodeClaimLapses", suite.testExpireCode, false},
		{"ConcurrentClaimsOfOneCodeHaveOneWinner", suite.testConcurrentClaims, false},
		{"CodeClaimsSurviveAReopening", suite.testCodeClaimsReopen, a.Volatile},
		{"LedgerRoundTrip", suite.testLedgerRoundTrip, false},
		{"LedgerRecordsAGameOnce", suite.testLedgerRecordsOnce, false},
		{"LedgerRefusesAStaleRating", suite.testLedgerStaleRating, false},
		{"LedgerRefusesBadRows", suite.testLedgerRefuses, false},
		{"LeaderboardIsBestOrdinalFirst", suite.testLeaderboard, false},
		{"LedgerSurvivesAReopening", suite.testLedgerReopen, a.Volatile},
		{"DeletedAccountLeavesNoResultsNorRatings", suite.testLedgerDeleteAccount, false},
		{"AccountRoundTrip", suite.testAccountRoundTrip, false},
		{"AccountNameIsUniqueInAnyCase", suite.testAccountNameIsUnique, false},
		{"AccountChangesOneAtATime", suite.testAccountChanges, false},
		{"PasskeysOfAnAccount", suite.testPasskeys, false},
		{"SessionsUntilDeletedOrExpired", suite.testSessions, false},
		{"SeatLinksHoldOneAccountEach", suite.testSeatLinks, false},
		{"DeletedAccountLeavesNothing", suite.testDeleteAccount, false},
		{"AccountsSurviveAReopening", suite.testAccountsReopen, a.Volatile},
		{"ClosedStoreRefusesAccounts", suite.testClosedStoreRefusesAccounts, false},
		{"ArenaRunsAreKeptWholeNewestFirst", suite.testArenaRuns, false},
		{"ArenaStandingUpdatesTheRowsGivenAndRefusesAStaleGame", suite.testArenaStanding, false},
		{"ChatBindingsByPlatformRoomAndSeat", suite.testChatBindings, false},
	}
	for _, c := range tests {
		if c.skip {
			continue // the Adapter's field says why
		}
		t.Run(c.name, func(t *testing.T) { c.run(suite{a, a.NewDB(t)}, t) })
	}
}

// suite is one test's adapter and database.
type suite struct {
	Adapter
	open func(t testing.TB) store.Store
}

var ctx = context.Background()

// At is a time with nanoseconds, so that a lost digit shows.
func At(i int) time.Time {
	return time.Date(2025, 3, 1, 20, 0, i, 123456789, time.UTC)
}

// Room is a room with documents, created (and updated) at At(created).
func Room(id, status string, created int) store.Room {
	return store.Room{
		ID:      id,
		Created: At(created),
		Updated: At(created),
		Status:  status,
		Config:  []byte(`{"board":"12p"}`),
		Seats:   []byte(`[{"seat":1,"token":"h1"}]`),
		Code:    "K7QX",
	}
}

// Record is record n of a game, with five events.
func Record(n int64) store.Record {
	evs := make([]rules.Event, 5)
	for i := range evs {
		evs[i] = rules.Event{Seq: int32(n*5) + int32(i), Kind: rules.EvBallot, Seat: rules.Seat(i + 1), Target: 3, To: rules.Mask(rules.Seat(i + 1))}
	}
	evs[4].Public, evs[4].Kind, evs[4].Mask = true, rules.EvVoteResult, rules.Mask(3)
	return store.Record{
		N:      n,
		At:     At(int(n)),
		Kind:   "vote",
		Body:   []byte(fmt.Sprintf(`{"seat":%d}`, n)),
		Events: evs,
		Clock:  []byte(`{"deadline":123}`),
	}
}

// Records is Record(from) … Record(to).
func Records(from, to int64) []store.Record {
	var recs []store.Record
	for n := from; n <= to; n++ {
		recs = append(recs, Record(n))
	}
	return recs
}

// CreateRoom creates r or fails the test.
func CreateRoom(t testing.TB, st store.Store, r store.Room) {
	t.Helper()
	if err := st.CreateRoom(ctx, r); err != nil {
		t.Fatal(err)
	}
}

// WantRoom checks that st holds want.
func WantRoom(t testing.TB, st store.Store, want store.Room) {
	t.Helper()
	got, err := st.Room(ctx, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("room %s:\n got %+v\nwant %+v", want.ID, got, want)
	}
}

// WantRecords checks that st holds want as the room's records.
func WantRecords(t testing.TB, st store.Store, roomID string, want []store.Record) {
	t.Helper()
	got, err := st.Records(ctx, roomID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("records of %s: got %d records, want %d\n got %+v\nwant %+v", roomID, len(got), len(want), got, want)
	}
}

func (s suite) testRoomRoundTrip(t *testing.T) {
	st := s.open(t)
	for _, r := range []store.Room{
		Room("open", store.StatusOpen, 1),
		{ID: "bare", Status: store.StatusOpen}, // zero times, no documents
		{ID: "local time", Created: At(2).In(time.FixedZone("CST", 8*3600)), Status: store.StatusRunning},
	} {
		t.Run(r.ID, func(t *testing.T) {
			CreateRoom(t, st, r)
			r.Created = r.Created.UTC() // the store answers in UTC
			WantRoom(t, st, r)

			r.Status, r.Config, r.Seats, r.Updated, r.Code = store.StatusRunning, []byte(`{"v":2}`), []byte(`[]`), At(30), "M3W9P"
			if err := st.UpdateRoom(ctx, r); err != nil {
				t.Fatal(err)
			}
			WantRoom(t, st, r)
		})
	}
}

// A room's code is stored as given, replaced by UpdateRoom, kept by a
// start and a reset, and is not unique: two rooms may hold one code (a
// code freed by a game's end names a newer room; the server tells them
// apart). It survives the store being closed and opened again.
func (s suite) testRoomCode(t *testing.T) {
	st := s.open(t)
	a, b := Room("a", store.StatusOpen, 1), Room("b", store.StatusOpen, 2)
	CreateRoom(t, st, a)
	CreateRoom(t, st, b) // the same code as a
	WantRoom(t, st, a)
	WantRoom(t, st, b)
	b.Status = store.StatusRunning
	if err := st.StartGame(ctx, b, Record(1)); err != nil {
		t.Fatal(err)
	}
	WantRoom(t, st, b)
	b.Status, b.Code = store.StatusOpen, "Z2Z2Z2"
	if err := st.ResetRoom(ctx, b); err != nil {
		t.Fatal(err)
	}
	WantRoom(t, st, b)
	a.Code = ""
	if err := st.UpdateRoom(ctx, a); err != nil {
		t.Fatal(err)
	}
	WantRoom(t, st, a)
	rooms, err := st.Rooms(ctx, store.StatusOpen)
	if err != nil {
		t.Fatal(err)
	}
	if len(rooms) != 2 || rooms[0].Code != "" || rooms[1].Code != "Z2Z2Z2" {
		t.Errorf("Rooms: got %+v, want a without a code and b with Z2Z2Z2", rooms)
	}
	if s.Volatile {
		return
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	again := s.open(t)
	WantRoom(t, again, a)
	WantRoom(t, again, b)
}

// wantError checks that err names want and wraps store.ErrNotFound or not.
func wantError(t *testing.T, err error, want string, notFound bool) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) || errors.Is(err, store.ErrNotFound) != notFound {
		t.Fatalf("got %v; want an error naming %s (ErrNotFound: %v)", err, want, notFound)
	}
}

func (s suite) testRoomErrors(t *testing.T) {
	st := s.open(t)
	CreateRoom(t, st, Room("r1", store.StatusOpen, 1))
	for _, c := range []struct {
		name     string
		call     func() error
		notFound bool
		want     string
	}{
		{"creating an existing room", func() error { return st.CreateRoom(ctx, Room("r1", store.StatusOpen, 2)) }, false, `room "r1": the room already exists`},
		{"updating a missing room", func() error { return st.UpdateRoom(ctx, Room("nope", store.StatusOver, 2)) }, true, `"nope"`},
		{"resetting a missing room", func() error { return st.ResetRoom(ctx, Room("nope", store.StatusOpen, 2)) }, true, `"nope"`},
		{"reading a missing room", func() error { _, err := st.Room(ctx, "nope"); return err }, true, `"nope"`},
		{"starting a missing room", func() error { return st.StartGame(ctx, Room("nope", store.StatusRunning, 2), Record(1)) }, true, `"nope"`},
	} {
		t.Run(c.name, func(t *testing.T) { wantError(t, c.call(), c.want, c.notFound) })
	}
	WantRoom(t, st, Room("r1", store.StatusOpen, 1))
	if _, err := st.Room(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused update or start created the room: %v", err)
	}
}

func (s suite) testUnknownRoomErrors(t *testing.T) {
	st := s.open(t)
	wantError(t, st.Append(ctx, "nope", Record(1)), `"nope"`, true)
	_, err := st.Records(ctx, "nope")
	wantError(t, err, `"nope"`, true)
}

func (s suite) testRecordsRoundTrip(t *testing.T) {
	st := s.open(t)
	CreateRoom(t, st, Room("r1", store.StatusRunning, 1))
	CreateRoom(t, st, Room("r2", store.StatusRunning, 1))
	WantRecords(t, st, "r1", nil)

	bare := store.Record{N: 4, Kind: "tick"} // no time, body, events or clock
	for _, batch := range [][]store.Record{Records(1, 1), Records(2, 3), {bare}} {
		if err := st.Append(ctx, "r1", batch...); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Append(ctx, "r2", Records(1, 2)...); err != nil {
		t.Fatal(err)
	}
	if err := st.Append(ctx, "r2"); err != nil {
		t.Fatalf("appending no record: %v", err)
	}
	WantRecords(t, st, "r1", append(Records(1, 3), bare))
	WantRecords(t, st, "r2", Records(1, 2))
}

func (s suite) testReopenKeepsEverything(t *testing.T) {
	st := s.open(t)
	CreateRoom(t, st, Room("r1", store.StatusRunning, 1))
	if err := st.Append(ctx, "r1", Records(1, 3)...); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st = s.open(t)
	WantRoom(t, st, Room("r1", store.StatusRunning, 1))
	WantRecords(t, st, "r1", Records(1, 3))
	// The numbering goes on from what the database holds.
	if err := st.Append(ctx, "r1", Record(3)); err == nil {
		t.Error("record 3 appended twice across a reopening")
	}
	if err := st.Append(ctx, "r1", Record(4)); err != nil {
		t.Fatal(err)
	}
	WantRecords(t, st, "r1", Records(1, 4))
}

func (s suite) testAppendRefusesGapsAndDuplicates(t *testing.T) {
	for _, c := range []struct {
		name string
		recs []store.Record
		want string
	}{
		{"duplicate of the last", Records(3, 3), `room "r1": record 3 is already stored (the last is 3)`},
		{"duplicate of the first", Records(1, 2), `room "r1": record 1 is already stored (the last is 3)`},
		{"gap", Records(5, 6), `room "r1": record 5 leaves a gap after the last stored record, 3`},
		{"gap inside the call", []store.Record{Record(4), Record(6)}, `room "r1": records are not consecutive: 6 follows 4`},
		{"repeat inside the call", []store.Record{Record(4), Record(4)}, `room "r1": records are not consecutive: 4 follows 4`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := s.NewDB(t)(t)
			CreateRoom(t, st, Room("r1", store.StatusRunning, 1))
			if err := st.Append(ctx, "r1", Records(1, 3)...); err != nil {
				t.Fatal(err)
			}
			err := st.Append(ctx, "r1", c.recs...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v; want an error containing %q", err, c.want)
			}
			WantRecords(t, st, "r1", Records(1, 3))
			if err := st.Append(ctx, "r1", Record(4)); err != nil {
				t.Fatalf("the right record after a refusal: %v", err)
			}
		})
	}
}

// Refused appends may share transactions with good ones, which must not
// suffer.
func (s suite) testRefusedAppendDoesNotFailOthers(t *testing.T) {
	st := s.open(t)
	const rooms = 20
	for i := range rooms {
		CreateRoom(t, st, Room(fmt.Sprint(i), store.StatusRunning, i))
	}
	var wg sync.WaitGroup
	errs := make([]error, 2*rooms)
	for i := range rooms {
		wg.Go(func() { errs[i] = st.Append(ctx, fmt.Sprint(i), Record(1)) })
		wg.Go(func() { errs[rooms+i] = st.Append(ctx, fmt.Sprint(i), Record(2), Record(3)) })
	}
	wg.Wait()
	for i := range rooms {
		// The good append may follow the bad one, which then was a gap, or
		// precede it, which then was good too.
		if errs[i] != nil {
			t.Errorf("room %d: good append failed: %v", i, errs[i])
		}
		want := Records(1, 1)
		if errs[rooms+i] == nil {
			want = Records(1, 3)
		}
		WantRecords(t, st, fmt.Sprint(i), want)
	}
}

func (s suite) testConcurrentAppendsToManyRooms(t *testing.T) {
	st := s.open(t)
	const rooms, appends = 50, 40
	for i := range rooms {
		CreateRoom(t, st, Room(fmt.Sprint(i), store.StatusRunning, i))
	}
	var wg sync.WaitGroup
	for i := range rooms {
		wg.Go(func() {
			for n := int64(1); n <= appends; n++ {
				if err := st.Append(ctx, fmt.Sprint(i), Record(n)); err != nil {
					t.Errorf("room %d, record %d: %v", i, n, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for i := range rooms {
		WantRecords(t, st, fmt.Sprint(i), Records(1, appends))
	}
}

func (s suite) testRoomsByStatus(t *testing.T) {
	st := s.open(t)
	// Created out of order, to see the listing sort by age (and by ID for
	// rooms of the same age).
	for _, r := range []store.Room{
		Room("c", store.StatusOpen, 3),
		Room("a", store.StatusOpen, 1),
		Room("x", store.StatusRunning, 2),
		Room("b2", store.StatusOpen, 2),
		Room("b1", store.StatusOpen, 2),
		Room("y", store.StatusOver, 1),
	} {
		CreateRoom(t, st, r)
	}
	for _, c := range []struct {
		status string
		want   []string
	}{
		{store.StatusOpen, []string{"a", "b1", "b2", "c"}},
		{store.StatusRunning, []string{"x"}},
		{store.StatusOver, []string{"y"}},
		{"unknown", nil},
	} {
		t.Run(c.status, func(t *testing.T) {
			rooms, err := st.Rooms(ctx, c.status)
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

func (s suite) testAppendAfterGameOver(t *testing.T) {
	st := s.open(t)
	r := Room("r1", store.StatusRunning, 1)
	CreateRoom(t, st, r)
	if err := st.Append(ctx, "r1", Records(1, 2)...); err != nil {
		t.Fatal(err)
	}
	r.Status = store.StatusOver
	if err := st.UpdateRoom(ctx, r); err != nil {
		t.Fatal(err)
	}
	// A store may forget a finished room's numbering, and must read it back.
	if err := st.Append(ctx, "r1", Record(2)); err == nil {
		t.Error("record 2 appended twice")
	}
	if err := st.Append(ctx, "r1", Record(3)); err != nil {
		t.Fatal(err)
	}
	WantRecords(t, st, "r1", Records(1, 3))
}

func (s suite) testCancelledContextWritesNothing(t *testing.T) {
	st := s.open(t)
	CreateRoom(t, st, Room("r1", store.StatusOpen, 1))
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	running := Room("r1", store.StatusRunning, 2)
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"Append", func() error { return st.Append(cancelled, "r1", Record(1)) }},
		{"StartGame", func() error { return st.StartGame(cancelled, running, Record(1)) }},
		{"UpdateRoom", func() error { return st.UpdateRoom(cancelled, running) }},
		{"ResetRoom", func() error { return st.ResetRoom(cancelled, running) }},
		{"CreateRoom", func() error { return st.CreateRoom(cancelled, Room("r2", store.StatusOpen, 1)) }},
		{"ClaimCode", func() error { return st.ClaimCode(cancelled, "K7QX", "r1") }},
		{"GiveCode", func() error { return st.GiveCode(cancelled, "K7QX", "r0", "r1") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
		})
	}
	WantRoom(t, st, Room("r1", store.StatusOpen, 1))
	WantRecords(t, st, "r1", nil)
	if _, err := st.Room(ctx, "r2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a cancelled CreateRoom: %v", err)
	}
	WantCode(t, st, "K7QX", "")
}

func (s suite) testClosedStoreRefusesCalls(t *testing.T) {
	st := s.open(t)
	CreateRoom(t, st, Room("r1", store.StatusRunning, 1))
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"Append", func() error { return st.Append(ctx, "r1", Record(1)) }},
		{"StartGame", func() error { return st.StartGame(ctx, Room("r1", store.StatusRunning, 1), Record(1)) }},
		{"ResetRoom", func() error { return st.ResetRoom(ctx, Room("r1", store.StatusOpen, 1)) }},
		{"CreateRoom", func() error { return st.CreateRoom(ctx, Room("r2", store.StatusOpen, 1)) }},
		{"UpdateRoom", func() error { return st.UpdateRoom(ctx, Room("r1", store.StatusOver, 1)) }},
		{"Room", func() error { _, err := st.Room(ctx, "r1"); return err }},
		{"Rooms", func() error { _, err := st.Rooms(ctx, store.StatusOpen); return err }},
		{"Records", func() error { _, err := st.Records(ctx, "r1"); return err }},
		{"ClaimCode", func() error { return st.ClaimCode(ctx, "K7QX", "r1") }},
		{"GiveCode", func() error { return st.GiveCode(ctx, "K7QX", "r1", "r2") }},
		{"ExpireCode", func() error { return st.ExpireCode(ctx, "K7QX", "r1", 0) }},
		{"FreeCode", func() error { return st.FreeCode(ctx, "K7QX", "r1") }},
		{"CodeRoom", func() error { _, err := st.CodeRoom(ctx, "K7QX"); return err }},
		{"Close", st.Close},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); !errors.Is(err, store.ErrClosed) {
				t.Errorf("got %v, want store.ErrClosed", err)
			}
		})
	}
	if !s.Volatile {
		WantRecords(t, s.open(t), "r1", nil)
	}
}

// Appends racing Close are either committed or refused, never lost.
func (s suite) testCloseDrainsQueuedAppends(t *testing.T) {
	st := s.open(t)
	const rooms = 50
	for i := range rooms {
		CreateRoom(t, st, Room(fmt.Sprint(i), store.StatusRunning, i))
	}
	var wg sync.WaitGroup
	errs := make([]error, rooms)
	for i := range rooms {
		wg.Go(func() { errs[i] = st.Append(ctx, fmt.Sprint(i), Record(1)) })
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	st = s.open(t)
	for i, err := range errs {
		want := Records(1, 1)
		if err != nil {
			if !errors.Is(err, store.ErrClosed) {
				t.Errorf("room %d: %v", i, err)
			}
			want = nil
		}
		WantRecords(t, st, fmt.Sprint(i), want)
	}
}

// A game's first records and its room's change to running are stored
// together or not at all; a refused start (a record that does not follow, a
// room that does not exist) leaves the room as it was, while the starts
// beside it, perhaps in the same transaction, are stored.
func (s suite) testStartGame(t *testing.T) {
	st := s.open(t)
	for _, id := range []string{"good", "gap"} {
		CreateRoom(t, st, Room(id, store.StatusOpen, 1))
	}
	running := func(id string) store.Room {
		r := Room(id, store.StatusRunning, 1)
		r.Updated = At(2)
		return r
	}
	errs := make(chan error, 3)
	go func() { errs <- st.StartGame(ctx, running("good"), Records(1, 2)...) }()
	go func() { errs <- st.StartGame(ctx, running("gap"), Records(2, 3)...) }()
	go func() { errs <- st.StartGame(ctx, running("nowhere"), Records(1, 1)...) }()
	failed := 0
	for range 3 {
		if <-errs != nil {
			failed++
		}
	}
	if failed != 2 {
		t.Fatalf("%d of 3 starts failed; want the 2 at fault", failed)
	}
	WantRoom(t, st, running("good"))
	WantRecords(t, st, "good", Records(1, 2))
	WantRoom(t, st, Room("gap", store.StatusOpen, 1))
	WantRecords(t, st, "gap", nil)
	if err := st.StartGame(ctx, running("gap"), nil...); err == nil {
		t.Fatal("a start without a record was stored")
	}
	WantRoom(t, st, Room("gap", store.StatusOpen, 1))
	// A start after the game's records does not follow them either.
	if err := st.StartGame(ctx, running("good"), Records(2, 3)...); err == nil || !strings.Contains(err.Error(), "record 2 is already stored") {
		t.Fatalf("a second start over a game's records: %v", err)
	}
	WantRecords(t, st, "good", Records(1, 2))
}

// ResetRoom changes the room and drops its records together: the room
// waits again, and its next game is numbered from 1.
func (s suite) testResetRoom(t *testing.T) {
	st := s.open(t)
	CreateRoom(t, st, Room("r1", store.StatusOpen, 1))
	CreateRoom(t, st, Room("r2", store.StatusRunning, 1))
	if err := st.StartGame(ctx, Room("r1", store.StatusRunning, 1), Records(1, 3)...); err != nil {
		t.Fatal(err)
	}
	if err := st.Append(ctx, "r2", Records(1, 2)...); err != nil {
		t.Fatal(err)
	}
	waiting := Room("r1", store.StatusOpen, 1)
	waiting.Updated, waiting.Seats = At(5), []byte(`[]`)
	if err := st.ResetRoom(ctx, waiting); err != nil {
		t.Fatal(err)
	}
	WantRoom(t, st, waiting)
	WantRecords(t, st, "r1", nil)
	WantRecords(t, st, "r2", Records(1, 2)) // another room keeps its own
	if err := st.Append(ctx, "r1", Record(4)); err == nil {
		t.Error("the old numbering went on after a reset")
	}
	if err := st.StartGame(ctx, Room("r1", store.StatusRunning, 1), Records(1, 1)...); err != nil {
		t.Fatal(err)
	}
	WantRecords(t, st, "r1", Records(1, 1))
}

// BenchmarkAppend appends one record of five events at a time, each
// goroutine to a room of its own, as games in play do; it reports the
// appends a second.
func BenchmarkAppend(b *testing.B, a Adapter) {
	st := a.NewDB(b)(b)
	var rooms atomic.Int64
	// Many games wait on the store at once, which is what group commit is for.
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprint(rooms.Add(1))
		if err := st.CreateRoom(ctx, Room(id, store.StatusRunning, 1)); err != nil {
			b.Error(err)
			return
		}
		for n := int64(1); pb.Next(); n++ {
			if err := st.Append(ctx, id, Record(n)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
}

// WantCode checks that code leads to room ("": to none, ErrNotFound).
func WantCode(t testing.TB, st store.Store, code, room string) {
	t.Helper()
	got, err := st.CodeRoom(ctx, code)
	switch {
	case room == "" && !errors.Is(err, store.ErrNotFound):
		t.Errorf("code %s: room %q, %v; want none (ErrNotFound)", code, got, err)
	case room != "" && (err != nil || got != room):
		t.Errorf("code %s: room %q, %v; want room %q", code, got, err, room)
	}
}

// wantTaken checks that err is ErrCodeTaken naming the code.
func wantTaken(t testing.TB, err error, code string) {
	t.Helper()
	if !errors.Is(err, store.ErrCodeTaken) || !strings.Contains(err.Error(), code) {
		t.Errorf("got %v; want ErrCodeTaken naming %s", err, code)
	}
}

// A code's claim names one room: another room's claim is refused until
// the holder frees it, a room that does not hold it cannot free it, and a
// call without its code or room says so.
func (s suite) testCodeClaims(t *testing.T) {
	st := s.open(t)
	WantCode(t, st, "K7QX", "")
	if err := st.ClaimCode(ctx, "K7QX", "a"); err != nil {
		t.Fatal(err)
	}
	WantCode(t, st, "K7QX", "a")
	if err := st.ClaimCode(ctx, "K7QX", "a"); err != nil {
		t.Errorf("claimed again by its holder: %v", err)
	}
	wantTaken(t, st.ClaimCode(ctx, "K7QX", "b"), "K7QX")
	if err := st.ClaimCode(ctx, "M3W9P", "b"); err != nil { // another code, another room
		t.Fatal(err)
	}
	if err := st.FreeCode(ctx, "K7QX", "b"); err != nil {
		t.Errorf("freeing a code another room holds: %v, want nil (nothing done)", err)
	}
	WantCode(t, st, "K7QX", "a")
	if err := st.FreeCode(ctx, "K7QX", "a"); err != nil {
		t.Fatal(err)
	}
	WantCode(t, st, "K7QX", "")
	WantCode(t, st, "M3W9P", "b")
	if err := st.ClaimCode(ctx, "K7QX", "b"); err != nil {
		t.Errorf("claiming a freed code: %v", err)
	}
	WantCode(t, st, "K7QX", "b")
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"ClaimCode without a code", "no room code", st.ClaimCode(ctx, "", "a")},
		{"ClaimCode without a room", "no room given", st.ClaimCode(ctx, "Z2Z2", "")},
		{"GiveCode without a room", "no room given", st.GiveCode(ctx, "K7QX", "b", "")},
		{"ExpireCode without a code", "no room code", st.ExpireCode(ctx, "", "b", 0)},
		{"FreeCode without a room", "no room given", st.FreeCode(ctx, "K7QX", "")},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) || errors.Is(c.err, store.ErrCodeTaken) {
			t.Errorf("%s: %v, want an error saying %q", c.name, c.err, c.want)
		}
	}
	WantCode(t, st, "K7QX", "b")
	WantCode(t, st, "Z2Z2", "")
}

// A finished room hands its code to its rematch, even once its claim is
// lapsing, but not a code another room holds; a room with no claim of the
// code claims it.
func (s suite) testGiveCode(t *testing.T) {
	st := s.open(t)
	if err := st.ClaimCode(ctx, "K7QX", "a"); err != nil {
		t.Fatal(err)
	}
	if err := st.ExpireCode(ctx, "K7QX", "a", time.Hour); err != nil { // its game is over: it lingers
		t.Fatal(err)
	}
	if err := st.GiveCode(ctx, "K7QX", "a", "a2"); err != nil {
		t.Fatal(err)
	}
	WantCode(t, st, "K7QX", "a2")
	if err := st.GiveCode(ctx, "K7QX", "a", "a2"); err != nil {
		t.Errorf("given twice: %v", err)
	}
	wantTaken(t, st.GiveCode(ctx, "K7QX", "a", "a3"), "K7QX")
	wantTaken(t, st.ClaimCode(ctx, "K7QX", "a"), "K7QX")
	if err := st.FreeCode(ctx, "K7QX", "a"); err != nil {
		t.Fatal(err)
	}
	WantCode(t, st, "K7QX", "a2") // the former holder frees nothing
	// The rematch's claim is live, without an end: a lapse set before the
	// hand-over does not follow it.
	if err := st.ClaimCode(ctx, "Z2Z2", "b"); err != nil {
		t.Fatal(err)
	}
	if err := st.ExpireCode(ctx, "Z2Z2", "b", 0); err != nil {
		t.Fatal(err)
	}
	if err := st.GiveCode(ctx, "Z2Z2", "b", "b2"); err != nil {
		t.Errorf("a lapsed claim nobody took since, given: %v", err)
	}
	WantCode(t, st, "Z2Z2", "b2")
	if err := st.GiveCode(ctx, "M3W9P", "c", "c2"); err != nil {
		t.Errorf("giving a code nobody holds: %v", err)
	}
	WantCode(t, st, "M3W9P", "c2")
}

// A finished room's claim lasts while it lingers, then lapses: the code
// leads nowhere and another room may claim it, which the former holder
// can then neither give nor free.
func (s suite) testExpireCode(t *testing.T) {
	st := s.open(t)
	if err := st.ExpireCode(ctx, "K7QX", "a", 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expiring a code nobody holds: %v, want ErrNotFound", err)
	}
	for _, c := range []string{"K7QX", "M3W9P"} {
		if err := st.ClaimCode(ctx, c, "a"); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.ExpireCode(ctx, "K7QX", "b", 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expiring another room's code: %v, want ErrNotFound", err)
	}
	if err := st.ExpireCode(ctx, "K7QX", "a", time.Hour); err != nil {
		t.Fatal(err)
	}
	WantCode(t, st, "K7QX", "a")
	wantTaken(t, st.ClaimCode(ctx, "K7QX", "b"), "K7QX")
	if err := st.ExpireCode(ctx, "K7QX", "a", 0); err != nil {
		t.Fatal(err)
	}
	WantCode(t, st, "K7QX", "")
	WantCode(t, st, "M3W9P", "a")
	if err := st.ClaimCode(ctx, "K7QX", "b"); err != nil {
		t.Fatalf("claiming a lapsed code: %v", err)
	}
	WantCode(t, st, "K7QX", "b")
	wantTaken(t, st.GiveCode(ctx, "K7QX", "a", "a2"), "K7QX")
	if err := st.FreeCode(ctx, "K7QX", "a"); err != nil {
		t.Fatal(err)
	}
	WantCode(t, st, "K7QX", "b")
	// Claimed again by its holder, a lapsing claim is live again.
	if err := st.ExpireCode(ctx, "M3W9P", "a", 0); err != nil {
		t.Fatal(err)
	}
	if err := st.ClaimCode(ctx, "M3W9P", "a"); err != nil {
		t.Fatal(err)
	}
	WantCode(t, st, "M3W9P", "a")
}

// Rooms claiming one code at once, each code fought over by several:
// exactly one room wins each, the others are told it is taken, and the
// code leads to the winner.
func (s suite) testConcurrentClaims(t *testing.T) {
	st := s.open(t)
	const codes, rooms = 20, 8
	var wins [codes]atomic.Int32
	var winner [codes][rooms]bool
	var wg sync.WaitGroup
	for c := range codes {
		for r := range rooms {
			wg.Go(func() {
				code := fmt.Sprintf("C%03d", c)
				switch err := st.ClaimCode(ctx, code, fmt.Sprint(r)); {
				case err == nil:
					wins[c].Add(1)
					winner[c][r] = true
				case errors.Is(err, store.ErrCodeTaken):
				default:
					t.Errorf("code %s, room %d: %v", code, r, err)
				}
			})
		}
	}
	wg.Wait()
	for c := range codes {
		if n := wins[c].Load(); n != 1 {
			t.Errorf("code C%03d: %d rooms claimed it, want 1", c, n)
			continue
		}
		for r := range rooms {
			if winner[c][r] {
				WantCode(t, st, fmt.Sprintf("C%03d", c), fmt.Sprint(r))
			}
		}
	}
}

// The claims, and when they lapse, are kept by the store.
func (s suite) testCodeClaimsReopen(t *testing.T) {
	st := s.open(t)
	for _, c := range []struct{ code, room string }{{"K7QX", "a"}, {"M3W9P", "b"}, {"Z2Z2", "c"}} {
		if err := st.ClaimCode(ctx, c.code, c.room); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.ExpireCode(ctx, "M3W9P", "b", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := st.ExpireCode(ctx, "Z2Z2", "c", 0); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st = s.open(t)
	WantCode(t, st, "K7QX", "a")
	WantCode(t, st, "M3W9P", "b")
	WantCode(t, st, "Z2Z2", "")
	wantTaken(t, st.ClaimCode(ctx, "M3W9P", "d"), "M3W9P")
}

// BenchmarkClaimCode measures a room creation's claim of its code, one
// caller at a time (rooms are created one request each), and a look-up.
func BenchmarkClaimCode(b *testing.B, a Adapter) {
	st := a.NewDB(b)(b)
	b.Run("claim", func(b *testing.B) {
		for i := range b.N {
			if err := st.ClaimCode(ctx, fmt.Sprintf("C%07d", i), fmt.Sprint(i)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("look-up", func(b *testing.B) {
		for i := range b.N {
			if _, err := st.CodeRoom(ctx, fmt.Sprintf("C%07d", i%1000)); err != nil && !errors.Is(err, store.ErrNotFound) {
				b.Fatal(err)
			}
		}
	})
}

// arenaRun is a run's rows: a program on two sides each.
func arenaRun(run string, at int, programs ...string) []store.ArenaRating {
	var out []store.ArenaRating
	for i, p := range programs {
		for j, side := range []string{"village", "wolf"} {
			out = append(out, store.ArenaRating{Run: run, At: At(at), Board: "std-12", Seed: 1<<63 + uint64(at), Games: 2000,
				Program: p, Side: side, Mu: 25.5 + float64(i) + float64(j)/3, Sigma: 1.0 / 3, Played: 1990 - i, Wins: 1000 + j,
				Tokens: float64(i) * 1234.5, Seconds: float64(i) / 7})
		}
	}
	return out
}

func (s suite) testArenaRuns(t *testing.T) {
	st := s.open(t)
	ar, ok := st.(store.Arena)
	if !ok {
		t.Fatalf("%T does not keep arena ratings (store.Arena)", st)
	}
	if got, err := ar.ArenaRatings(ctx, 5); err != nil || len(got) != 0 {
		t.Fatalf("an empty store lists %v, %v", got, err)
	}
	older, newer, newest := arenaRun("a", 1, "smart", "random"), arenaRun("b", 2, "llm:m", "smart"), arenaRun("c", 3, "random", "smart")
	for _, run := range [][]store.ArenaRating{newer, older, newest} {
		if err := ar.AddArenaRun(ctx, run); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ar.ArenaRatings(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := append(slices.Clone(newest), newer...); !reflect.DeepEqual(got, want) {
		t.Errorf("the 2 latest runs:\n got %+v\nwant %+v", got, want)
	}
	bad := []struct {
		name string
		rows []store.ArenaRating
		want string
	}{
		{"again", arenaRun("a", 1, "smart"), "already stored"},
		{"empty", nil, "no rating"},
		{"twice", append(arenaRun("d", 4, "smart"), arenaRun("d", 4, "smart")...), "given twice"},
		{"mixed", append(arenaRun("e", 5, "smart"), arenaRun("f", 5, "random")...), "not of the run"},
	}
	for _, c := range bad {
		if err := ar.AddArenaRun(ctx, c.rows); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want %q", c.name, err, c.want)
		}
	}
	if all, err := ar.ArenaRatings(ctx, 10); err != nil || len(all) != 12 {
		t.Errorf("after the refusals: %d rows (%v); want the 3 runs' 12", len(all), err)
	}
	if s.Volatile {
		return
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := s.open(t).(store.Arena).ArenaRatings(ctx, 2)
	if err != nil || !reflect.DeepEqual(again, got) {
		t.Errorf("after a reopening: %+v, %v", again, err)
	}
}

func (s suite) testArenaStanding(t *testing.T) {
	st := s.open(t)
	ar := st.(store.Arena)
	if games, got, err := ar.ArenaStanding(ctx, "aiwolf-5", []string{"kanolab"}); err != nil || games != 0 || len(got) != 0 {
		t.Fatalf("an empty store's standing: %d games, %v, %v", games, got, err)
	}
	other := arenaRun("a", 1, "smart", "random")
	if err := ar.AddArenaRun(ctx, other); err != nil {
		t.Fatal(err)
	}
	// rows are a standing after games games, at at.
	rows := func(games, at int, rs ...store.ArenaRating) []store.ArenaRating {
		for i := range rs {
			rs[i].Run, rs[i].Board, rs[i].Seed, rs[i].Games, rs[i].At = "aiwolf-5", "aiwolf-5", 0, games, At(at)
		}
		return rs
	}
	kv, kw := arenaRun("", 0, "kanolab")[0], arenaRun("", 0, "kanolab")[1]
	sw := arenaRun("", 0, "x", "sample")[3]
	if err := ar.UpdateArenaStanding(ctx, rows(1, 2, kv, kw)); err != nil {
		t.Fatal(err)
	}
	kv.Mu, kv.Played = 30, 2
	if err := ar.UpdateArenaStanding(ctx, rows(2, 3, kv, sw)); err != nil {
		t.Fatal(err)
	}
	// The row the second game left alone keeps its figures and takes the
	// run's games and time; rows stay in the order they were added.
	want := rows(2, 3, kv, kw, sw)
	for _, c := range []struct {
		name  string
		rows  []store.ArenaRating
		wants string
	}{
		{"the same game again", rows(2, 4, kv), store.ErrStaleRating.Error()},
		{"a game skipped", rows(4, 4, kv), store.ErrStaleRating.Error()},
		{"a row given twice", rows(3, 4, kv, kv), "given twice"},
	} {
		if err := ar.UpdateArenaStanding(ctx, c.rows); err == nil || !strings.Contains(err.Error(), c.wants) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.wants)
		}
	}
	if err := ar.UpdateArenaStanding(ctx, rows(2, 4, kv)); !errors.Is(err, store.ErrStaleRating) {
		t.Errorf("a stale update: %v is not store.ErrStaleRating", err)
	}
	runs := append(slices.Clone(want), other...) // newest first
	check := func(when string, ar store.Arena) {
		t.Helper()
		if got, err := ar.ArenaRun(ctx, "aiwolf-5"); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the run:\n got %+v, %v\nwant %+v", when, got, err, want)
		}
		if games, got, err := ar.ArenaStanding(ctx, "aiwolf-5", []string{"sample", "nobody"}); err != nil || games != 2 || !reflect.DeepEqual(got, want[2:]) {
			t.Errorf("%s: the standing of sample: %d games, %+v, %v", when, games, got, err)
		}
		if all, err := ar.ArenaRatings(ctx, 10); err != nil || !reflect.DeepEqual(all, runs) {
			t.Errorf("%s: the runs: %+v, %v", when, all, err)
		}
	}
	check("after two games", ar)

	// A run stored whole (as standings were before they were updated in
	// place) goes on from its rows' games.
	whole := arenaRun("aiwolf-13", 5, "old")
	if err := ar.AddArenaRun(ctx, whole); err != nil {
		t.Fatal(err)
	}
	next := whole[1]
	next.Games, next.At, next.Wins = 2001, At(6), 7
	if err := ar.UpdateArenaStanding(ctx, []store.ArenaRating{next}); err != nil {
		t.Fatal(err)
	}
	first := whole[0]
	first.Games, first.At = 2001, At(6)
	if got, err := ar.ArenaRun(ctx, "aiwolf-13"); err != nil || !reflect.DeepEqual(got, []store.ArenaRating{first, next}) {
		t.Errorf("a run stored whole, then updated:\n got %+v, %v", got, err)
	}
	runs = append([]store.ArenaRating{first, next}, runs...)
	check("after a run stored whole was updated", ar)
	if s.Volatile {
		return
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	check("after a reopening", s.open(t).(store.Arena))
}
