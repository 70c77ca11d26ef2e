package sqlite

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/internal/store"
)

// A reserved ID is one no room has, in the database or the journal; its
// game's opening reads nothing, once; a room made another way ends the
// reservation.
func TestAReservedRoomIDIsOpenedWithoutARead(t *testing.T) {
	db, _ := openTemp(t)
	createRoom(t, db, room("stored", store.StatusOpen, 1))
	if err := db.OpenGame(ctx, room("journaled", store.StatusRunning, 1), records(1, 1)...); err != nil {
		t.Fatal(err)
	}
	free, err := db.ReserveRoomIDs(ctx, []string{"stored", "journaled", "a", "b"})
	if err != nil || fmt.Sprint(free) != "[a b]" {
		t.Fatalf("reserved %v (%v), want [a b]: the others are taken", free, err)
	}

	reads := db.w.idReads.Load()
	if err := db.OpenGame(ctx, room("a", store.StatusRunning, 2), records(1, 2)...); err != nil {
		t.Fatal(err)
	}
	if n := db.w.idReads.Load() - reads; n != 0 {
		t.Errorf("the opening of a reserved ID read %d times whether it is taken, want none", n)
	}
	wantRoom(t, db, room("a", store.StatusRunning, 2))
	wantRecords(t, db, "a", records(1, 2))

	for _, c := range []struct {
		name string
		id   string
		make func() error
	}{
		{"opened already", "a", nil},
		{"made by CreateRoom since", "b", func() error { return db.CreateRoom(ctx, room("b", store.StatusOpen, 3)) }},
	} {
		if c.make != nil {
			if err := c.make(); err != nil {
				t.Fatal(err)
			}
		}
		reads := db.w.idReads.Load()
		err := db.OpenGame(ctx, room(c.id, store.StatusRunning, 4), records(1, 1)...)
		if err == nil || !strings.Contains(err.Error(), "already exists") {
			t.Errorf("%s: opening %s again: %v, want an error saying it already exists", c.name, c.id, err)
		}
		if n := db.w.idReads.Load() - reads; n != 1 {
			t.Errorf("%s: the opening read %d times whether its ID is taken, want once: its reservation is over", c.name, n)
		}
	}
}
