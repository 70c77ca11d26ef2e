package game

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// answered sends sub's seat's hello ids (Answer), then a seen request
// (sync) whose answer follows theirs, and returns the ids acked before it.
func answered(t *testing.T, a *Actor, sub *Sub, ids []int64, sync int64) []int64 {
	t.Helper()
	if err := a.Answer(sub, ids); err != nil {
		t.Fatal(err)
	}
	if err := a.Seen(sub, sync); err != nil {
		t.Fatal(err)
	}
	var acked []int64
	until(t, sub, "", func(f map[string]any) bool {
		id, _ := f["id"].(float64)
		if int64(id) == sync {
			return true
		}
		if f["type"] == "ack" {
			acked = append(acked, int64(id))
		}
		return false
	})
	return acked
}

// TestAnAnswerTellsASeatOnlyOfItsOwnTakenRequests: a request the game took
// (here a seat's confirmation of its card) is acked again when a later
// connection of the same seat names it, also after a restore from the
// records; an id the seat never sent, and the same id named by another
// seat or a spectator, are not.
func TestAnAnswerTellsASeatOnlyOfItsOwnTakenRequests(t *testing.T) {
	st := memory.New()
	a := startWaiting(t, st)
	first := NewSub(1, 1<<12, nil)
	if err := a.Join(first, 0, 0); err != nil {
		t.Fatal(err)
	}
	const taken, never = 9001, 9002
	if err := a.Seen(first, taken); err != nil {
		t.Fatal(err)
	}
	until(t, first, "ack", func(f map[string]any) bool { return f["type"] == "ack" })
	a.Leave(first)
	check := func(a *Actor, when string) {
		for _, c := range []struct {
			seat rules.Seat
			want []int64
		}{{1, []int64{taken}}, {3, nil}, {0, nil}} {
			sub := NewSub(c.seat, 1<<12, nil)
			if err := a.Join(sub, 0, 0); err != nil {
				t.Fatal(err)
			}
			got := answered(t, a, sub, []int64{taken, never}, 1)
			if len(got) != len(c.want) || (len(got) == 1 && got[0] != c.want[0]) {
				t.Errorf("%s: seat %d naming [%d %d] was acked %v, want %v", when, c.seat, taken, never, got, c.want)
			}
			a.Leave(sub)
		}
	}
	check(a, "on the same actor")
	a.Stop()
	recs, err := st.Records(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Restore("r", a.cfg, st, recs, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	check(b, "restored")
}

// TestAWriteOfAGameThatIsAnothersStopsItWithoutAWord: a write the store
// refuses because the game is another process's now (Hooks.Lost) neither
// stalls the game nor tells its players anything (no word of a full disk);
// nothing more is stored, and a connection that joins is sent to connect
// again (ErrMoved).
func TestAWriteOfAGameThatIsAnothersStopsItWithoutAWord(t *testing.T) {
	st := memory.New()
	errFenced := errors.New("fenced: the lease is another node's")
	stalled, failed := 0, 0
	lost := make(chan struct{}, 1)
	hooks := Hooks{Stalled: func(bool) { stalled++ }, WriteFailed: func(error) { failed++ },
		Lost: func(err error) bool {
			if !errors.Is(err, errFenced) {
				return false
			}
			select {
			case lost <- struct{}{}:
			default:
			}
			return true
		}}
	cfg := Config{Board: std12(t), Seed: 5, Timers: nightTimers(), Bots: seenBots, Deal: seenDeal, CardSeen: true}
	a, err := Start(context.Background(), "r", cfg, st, hooks, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	sub := NewSub(1, 1<<12, nil)
	if err := a.Join(sub, 0, 0); err != nil {
		t.Fatal(err)
	}
	st.FailWrites(errFenced)
	if err := a.Seen(sub, 7); err != nil { // a write, refused
		t.Fatal(err)
	}
	<-lost
	if err := a.Join(NewSub(3, 16, nil), 0, 0); !errors.Is(err, ErrMoved) {
		t.Fatalf("a join after the fenced write: %v, want ErrMoved", err)
	}
	for l := linesOf(sub); ; {
		b, ok := l.try()
		if !ok {
			break
		}
		var f map[string]any
		_ = json.Unmarshal(b, &f)
		if f["type"] == "error" || f["type"] == "ack" {
			t.Fatalf("the player was told %s", b)
		}
	}
	if stalled != 0 || failed != 0 { // read after the join: the actor is done with the write
		t.Fatalf("the fenced write stalled the game %d times, was reported failed %d times", stalled, failed)
	}
}
