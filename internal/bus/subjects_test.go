package bus

import (
	"errors"
	"testing"
)

// TestSubjectsOfAGame: the subjects a game uses, and room ids and seats
// that would make a subject match more than one game or seat refused.
func TestSubjectsOfAGame(t *testing.T) {
	must := func(s string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for got, want := range map[string]string{
		must(Commands("01JABC")): "wolfden.room.01JABC.cmd",
		must(Room("01JABC")):     "wolfden.room.01JABC.all",
		must(Seat("01JABC", 12)): "wolfden.room.01JABC.seat.12",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	for _, room := range []string{"", "a.b", "*", ">", "a b", "a*"} {
		if _, err := Room(room); !errors.Is(err, ErrSubject) {
			t.Errorf("room %q: %v", room, err)
		}
	}
	if _, err := Seat("r1", 0); !errors.Is(err, ErrSubject) {
		t.Errorf("seat 0: %v", err)
	}
}
