package game

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// TestAFullDiskPausesTheGameUntilItCanSave: when the store refuses writes
// the game does not stop: it pauses (nothing more is told, nobody may act
// or join), its players are told why, and it goes on by itself once a write
// succeeds, to its end, with the stored log the whole game.
func TestAFullDiskPausesTheGameUntilItCanSave(t *testing.T) {
	st := memory.New()
	stalls := make(chan bool, 8)
	failed := make(chan error, 64)
	hooks := Hooks{Stalled: func(on bool) { stalls <- on }, WriteFailed: func(err error) { failed <- err }}
	cfg := Config{Board: std12(t), Seed: 9, Timers: nightTimers(), Bots: 0x1ffe}
	a, err := Start(context.Background(), "full", cfg, st, hooks, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	spec := NewSub(0, 1<<14, nil)
	if err := a.Join(spec, 0, 0); err != nil {
		t.Fatal(err)
	}
	errFull := errors.New("disk full")
	st.FailWrites(errFull)
	notice := next(t, spec, "error")
	if notice["code"] != "store" || notice["message"] != ErrStalled.Error() {
		t.Fatalf("the players were told %v", notice)
	}
	if on := <-stalls; !on {
		t.Fatal("the game did not say it stalled")
	}
	if err := <-failed; !errors.Is(err, errFull) {
		t.Fatalf("the failed write was reported as %v", err)
	}
	// While it cannot save, nothing is told and nobody joins.
	if err := a.Join(NewSub(1, 16, nil), 0, 0); !errors.Is(err, ErrStalled) {
		t.Fatalf("a join while the store fails: %v", err)
	}
	held, _ := st.Records(context.Background(), "full")
	<-failed // it tried again, and failed again
	if !quiet(spec, "event") {
		t.Fatal("an event was told while the game could not save it")
	}
	st.FailWrites(nil)
	if on := <-stalls; on {
		t.Fatal("the game did not say it goes on")
	}
	frames := untilOver(t, spec, 60*time.Second)
	recs, _ := st.Records(context.Background(), "full")
	if len(recs) <= len(held) {
		t.Fatalf("%d records after the disk came back, %d before", len(recs), len(held))
	}
	events, _, err := Log(recs)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.Replay(cfg.Board, cfg.Seed, events)
	if err != nil {
		t.Fatal(err)
	}
	if over, _ := g.Over(); !over {
		t.Fatal("the stored log does not hold the end of the game")
	}
	public := 0
	for _, e := range events {
		if e.Public {
			public++
		}
	}
	told := 0 // the spectator's stream is numbered: its last number counts what it was told
	for _, f := range frames {
		if f["type"] == "event" {
			told = int(f["seq"].(float64))
		}
	}
	if told != public {
		t.Fatalf("the spectator was told %d events; the stored log has %d public ones", told, public)
	}
}
