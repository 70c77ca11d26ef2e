package game

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

func fastTimers() Timers {
	return Timers{Setup: 20 * time.Millisecond, Night: 30 * time.Millisecond, Witch: 20 * time.Millisecond,
		Speech: 20 * time.Millisecond, Vote: 20 * time.Millisecond, Other: 20 * time.Millisecond}
}

func std12(t *testing.T) rules.Board { t.Helper(); return presetBoard(t, "std-12", 12) }

// presetBoard is a preset's board for so many players.
func presetBoard(t *testing.T, name string, players int) rules.Board {
	t.Helper()
	p, err := rules.LookupPreset(name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(players)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// untilOver reads a connection's frames until the state says the game is over.
func untilOver(t *testing.T, sub *Sub, limit time.Duration) []map[string]any {
	t.Helper()
	var out []map[string]any
	deadline, l := time.After(limit), linesOf(sub)
	for {
		b, ok := l.recv(deadline)
		if !ok {
			t.Fatalf("the game did not end in %v (%d frames)", limit, len(out))
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
		if m["type"] == "state" && m["over"] == true {
			return out
		}
	}
}

func TestBotsPlayAWholeGame(t *testing.T) {
	st := memory.New()
	over := make(chan rules.Camp, 1)
	cfg := Config{Board: std12(t), Seed: 7, Timers: fastTimers(), Bots: 0x1ffe}
	a, err := Start(context.Background(), "r1", cfg, st, Hooks{Over: func(w rules.Camp) { over <- w }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	spec := NewSub(0, 4096, nil)
	if err := a.Join(spec, 0, 0); err != nil {
		t.Fatal(err)
	}
	frames := untilOver(t, spec, 20*time.Second)
	w := <-over
	if w == rules.NoCamp {
		t.Fatal("no winner")
	}
	recs, _ := st.Records(context.Background(), "r1")
	if len(recs) < 10 {
		t.Fatalf("only %d records stored", len(recs))
	}
	t.Logf("%d frames, %d records, winner %v", len(frames), len(recs), w)
}

// TestRestoreReportsAGameThatEndedBeforeTheCrash: the end was stored but the
// server died before marking the room; the restart reports it.
func TestRestoreReportsAGameThatEndedBeforeTheCrash(t *testing.T) {
	st := memory.New()
	cfg := Config{Board: std12(t), Seed: 7, Timers: fastTimers(), Bots: 0x1ffe}
	over := make(chan rules.Camp, 2)
	a, err := Start(context.Background(), "r1", cfg, st, Hooks{Over: func(w rules.Camp) { over <- w }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := <-over
	a.Stop()
	recs, _ := st.Records(context.Background(), "r1")
	b, err := Restore("r1", cfg, st, recs, Hooks{Over: func(w rules.Camp) { over <- w }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	select {
	case w2 := <-over:
		if w2 != w {
			t.Fatalf("restored winner %v, was %v", w2, w)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the restored game did not report its end")
	}
}

// stuck is a store whose writes after the first wait until it is released.
type stuck struct {
	*memory.Store
	writes atomic.Int32
	hold   chan struct{}
}

func (s *stuck) Append(ctx context.Context, id string, recs ...store.Record) error {
	if s.writes.Add(1) > 1 {
		<-s.hold
	}
	return s.Store.Append(ctx, id, recs...)
}

// TestCallersDoNotWaitForAStuckGame: while a game waits on its store, the
// host's acts and the room's summary answer "busy" in a bounded time.
func TestCallersDoNotWaitForAStuckGame(t *testing.T) {
	defer func(d time.Duration) { askWait = d }(askWait)
	askWait = 50 * time.Millisecond
	st := &stuck{Store: memory.New(), hold: make(chan struct{})}
	tm := fastTimers()
	tm.Night, tm.Witch = time.Hour, time.Hour
	a, err := Start(context.Background(), "stuck", Config{Board: std12(t), Seed: 1, Timers: tm}, st, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Pause(true); !errors.Is(err, ErrBusy) {
		t.Fatalf("pausing a stuck game: %v", err)
	}
	if _, err := a.Status(); !errors.Is(err, ErrBusy) {
		t.Fatalf("the summary of a stuck game: %v", err)
	}
	close(st.hold)
	a.Stop()
}

// TestSeatLevelsPickEachSeatsBot: a seat with its own level plays at it,
// the others at the table's; a level no bot has is refused at the start.
func TestSeatLevelsPickEachSeatsBot(t *testing.T) {
	c := Config{Level: bot.Smart, SeatLevels: []bot.Level{bot.Random, "", bot.Smart}}
	for s, want := range map[rules.Seat]bot.Level{1: bot.Random, 2: bot.Smart, 3: bot.Smart, 4: bot.Smart} {
		if got := c.levelOf(s); got != want {
			t.Errorf("seat %d plays at %q, want %q", s, got, want)
		}
	}
	cfg := Config{Board: std12(t), Seed: 1, Timers: fastTimers(), Bots: 0x1ffe, SeatLevels: []bot.Level{"", "genius"}}
	if _, err := Start(context.Background(), "r", cfg, memory.New(), Hooks{}, nil); err == nil || err.Error() != `game: seat 2: unknown bot level "genius"` {
		t.Errorf("error %v", err)
	}
}

// TestAStoppedActorsGameIsWhatItsRecordsReplay: Ended hands over the
// game a stopped actor leaves, in place of reading its records back and
// replaying them (the agents' standings): it must be that replay, event
// for event, with the last record's time; while the actor runs, it has
// none to give.
func TestAStoppedActorsGameIsWhatItsRecordsReplay(t *testing.T) {
	st := memory.New()
	over := make(chan rules.Camp, 1)
	cfg := Config{Board: std12(t), Seed: 7, Timers: fastTimers(), Bots: 0x1ffe, Unpaced: true}
	a, err := Start(context.Background(), "r1", cfg, st, Hooks{Over: func(w rules.Camp) { over <- w }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	if _, _, ok := a.Ended(); ok {
		t.Fatal("a running actor gave its game as ended")
	}
	<-over
	if err := a.NoteWait("aiwolf", []byte(`"after the end"`)); err != nil { // a record with no event, after the end
		t.Fatal(err)
	}
	a.Stop()
	g, at, ok := a.Ended()
	if !ok {
		t.Fatal("a stopped actor with everything stored gave no game")
	}
	recs, err := st.Records(context.Background(), "r1")
	if err != nil {
		t.Fatal(err)
	}
	var events []rules.Event
	for _, r := range recs {
		events = append(events, r.Events...)
	}
	replayed, err := rules.Replay(cfg.Board, cfg.Seed, events)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.Events(), replayed.Events()) {
		t.Fatalf("the actor's game has %d events, its records' replay %d", len(g.Events()), len(replayed.Events()))
	}
	if last := recs[len(recs)-1]; !at.Equal(last.At) || last.Kind != "aiwolf" {
		t.Fatalf("the game ended at %v; its last record (%s) is of %v", at, last.Kind, last.At)
	}
	// The same game restored after a restart, and stopped: its time is
	// still its last record's.
	b, err := Restore("r1", cfg, st, recs, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Stop()
	recs, _ = st.Records(context.Background(), "r1")
	if g, at, ok := b.Ended(); !ok || len(g.Events()) != len(replayed.Events()) || !at.Equal(recs[len(recs)-1].At) {
		t.Fatalf("restored and stopped: ok %v, %d events (want %d), ended at %v (its last record: %v)",
			ok, len(g.Events()), len(replayed.Events()), at, recs[len(recs)-1].At)
	}
}
