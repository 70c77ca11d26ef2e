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
		must(Commands("01JABC")):    "wolfden.room.01JABC.cmd",
		must(Conn("01JABC", "c12")): "wolfden.room.01JABC.conn.c12",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	for _, room := range []string{"", "a.b", "*", ">", "a b", "a*"} {
		if _, err := Commands(room); !errors.Is(err, ErrSubject) {
			t.Errorf("room %q: %v", room, err)
		}
	}
	for _, conn := range []string{"", "a.b", "*", ">"} {
		if _, err := Conn("r1", conn); !errors.Is(err, ErrSubject) {
			t.Errorf("connection %q: %v", conn, err)
		}
	}
}
