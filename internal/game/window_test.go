package game

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// TestTheDaysWindowsLieOnTheGamesGrid: a window ends at the first point
// of the grid (base, base+every, …) after the instant it holds, whatever
// that instant is within it.
func TestTheDaysWindowsLieOnTheGamesGrid(t *testing.T) {
	base := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	for _, c := range []struct {
		name  string
		after time.Duration // now - base
		want  time.Duration // the window's end - base
	}{
		{"at the grid's start", 0, 5 * ms},
		{"within the first window", 3 * ms, 5 * ms},
		{"just before its end", 5*ms - 1, 5 * ms},
		{"on a point of the grid: the next window", 5 * ms, 10 * ms},
		{"far on", 1234567 * ms, 1234570 * ms},
	} {
		if got := windowEnd(base, base.Add(c.after), 5*ms).Sub(base); got != c.want {
			t.Errorf("%s: the window ends at +%v, want +%v", c.name, got, c.want)
		}
	}
}

// dayActor is deliverActor's game by day with a window of an hour whose
// grid starts now: nothing goes out unless the test ends a window.
func dayActor(t *testing.T) (a *Actor, wolf, villager *Sub) {
	t.Helper()
	a, subs := deliverActor(t, 0)
	if a.ticking {
		t.Fatal("the game is in its night's beat")
	}
	a.cfg.Gather, a.born = time.Hour, time.Now()
	for _, sub := range subs {
		switch r := a.live.Role(sub.Seat); {
		case sub.Seat == rules.NoSeat:
		case r == rules.Werewolf && wolf == nil:
			wolf = sub
		case r == rules.Villager && villager == nil:
			villager = sub
		}
	}
	if wolf == nil || villager == nil {
		t.Fatal("no wolf or no villager in the deal")
	}
	return a, wolf, villager
}

// sent is what a connection has been handed so far.
func sent(sub *Sub) [][]byte {
	var out [][]byte
	for len(sub.Out) > 0 {
		out = append(out, <-sub.Out)
	}
	return out
}

// TestByDayEveryConnectionIsSentAtTheWindowsEnd: frames queued by day wait
// for the end of their window, then every connection with something new
// gets it in one message, at the same instant.
func TestByDayEveryConnectionIsSentAtTheWindowsEnd(t *testing.T) {
	a, wolf, _ := dayActor(t)
	private, public := []byte(`{"type":"error","code":"not_now"}`), []byte(`{"type":"event","seq":99}`)
	a.queue(wolf, private)
	a.out()
	for sub := range a.subs {
		a.queue(sub, public)
	}
	a.out()
	for sub := range a.subs {
		if m := sent(sub); len(m) > 0 {
			t.Fatalf("seat %d was sent %q before the window's end", sub.Seat, m)
		}
	}
	if want := a.born.Add(time.Hour); !a.gatherAt.Equal(want) {
		t.Fatalf("the window ends at %v, want %v (the grid's)", a.gatherAt, want)
	}
	a.gatherAt = time.Now() // the window has ended
	a.out()
	for sub := range a.subs {
		want := string(public)
		if sub == wolf {
			want = string(private) + "\n" + want
		}
		if m := sent(sub); len(m) != 1 || string(m[0]) != want {
			t.Fatalf("seat %d (%s) was sent %q, want one message %q", sub.Seat, a.live.Role(sub.Seat), m, want)
		}
	}
}

// TestAChangeAfterTheWindowsEndWaitsForItsOwnWindow: the end of a window
// passed while the actor was busy (its timer had not fired). A change
// made then goes out at the end of its own window, for every seat alike,
// whether or not another seat had a private frame waiting from the window
// before: a villager cannot tell from when the day's news reach him that a
// wolf was answered something.
func TestAChangeAfterTheWindowsEndWaitsForItsOwnWindow(t *testing.T) {
	for _, c := range []struct {
		name         string
		wolfAnswered bool
	}{
		{"the wolf had an answer waiting", true},
		{"nothing was waiting", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, wolf, villager := dayActor(t)
			private, public := []byte(`{"type":"error","code":"not_now"}`), []byte(`{"type":"event","seq":99}`)
			if c.wolfAnswered {
				a.queue(wolf, private)
				a.out()
			}
			// The window's end passes; then a change comes in, as run hands it.
			ended := time.Now()
			a.born = ended.Add(-time.Hour)
			if c.wolfAnswered {
				a.gatherAt = ended
			}
			a.handle(func() {
				for sub := range a.subs {
					a.queue(sub, public)
				}
			})
			a.out()
			got := sent(wolf)
			if c.wolfAnswered && (len(got) != 1 || !bytes.Equal(got[0], private)) {
				t.Fatalf("the wolf was sent %q, want his answer alone at the end of its window", got)
			}
			if !c.wolfAnswered && len(got) != 0 {
				t.Fatalf("the wolf was sent %q before the change's window ended", got)
			}
			if got := sent(villager); len(got) != 0 {
				t.Fatalf("the villager was sent %q before the change's window ended", got)
			}
			if want := ended.Add(time.Hour); !a.gatherAt.Equal(want) {
				t.Fatalf("the change's window ends at %v, want %v", a.gatherAt, want)
			}
			a.gatherAt = time.Now()
			a.out()
			for _, sub := range []*Sub{wolf, villager} {
				if m := sent(sub); len(m) != 1 || !bytes.Equal(m[0], public) {
					t.Fatalf("seat %d (%s) was sent %q at the change's window's end, want %q", sub.Seat, a.live.Role(sub.Seat), m, public)
				}
			}
		})
	}
}

// TestAStoppedGameSendsWhatWaitsInTheWindow: what a connection was to be
// sent at the window's end is in its queue when the actor is done, for its
// writer to send before closing.
func TestAStoppedGameSendsWhatWaitsInTheWindow(t *testing.T) {
	cfg := Config{Board: std12(t), Seed: 3, Timers: fastTimers(), CardSeen: true, Gather: time.Hour}
	a, err := Start(context.Background(), "r", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sub := NewSub(1, 64, nil)
	if err := a.Join(sub, 0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Status(); err != nil { // the join's commit is done
		t.Fatal(err)
	}
	if m := sent(sub); len(m) != 0 {
		t.Fatalf("sent %q before the window's end", m)
	}
	a.Stop()
	<-a.Done()
	m := sent(sub)
	if len(m) != 1 || !bytes.Contains(m[0], []byte(`"type":"state"`)) {
		t.Fatalf("after the stop the connection holds %q, want one message with its state", m)
	}
}
