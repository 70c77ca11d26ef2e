package game

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// keepAliveGame starts a std-12 game whose seat 1 is a villager and seat 3
// a werewolf, both people (the others bots), with a keep-alive every 10 ms.
func keepAliveGame(t *testing.T, tm Timers) (a *Actor, villager, wolf *Sub) {
	t.Helper()
	deal := []rules.Role{rules.Villager, rules.Witch, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Werewolf,
		rules.Seer, rules.Hunter, rules.Idiot, rules.Villager, rules.Villager, rules.Villager}
	cfg := Config{Board: std12(t), Seed: 5, Timers: tm, Bots: 0x1ffe &^ (1<<1 | 1<<3), Deal: deal,
		KeepAlive: 10 * time.Millisecond}
	a, err := Start(context.Background(), "r", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Stop)
	villager, wolf = NewSub(1, 1<<16, nil), NewSub(3, 1<<16, nil)
	for _, sub := range []*Sub{villager, wolf} {
		if err := a.Join(sub, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	return a, villager, wolf
}

// alives lists, message by message, whether each was the keep-alive; the
// keep-alive must be a message of its own, never joined to another.
func alives(t *testing.T, msgs [][]byte) []bool {
	t.Helper()
	out := make([]bool, len(msgs))
	for i, m := range msgs {
		out[i] = bytes.Equal(m, AliveFrame)
		if !out[i] && bytes.Contains(m, AliveFrame) {
			t.Fatalf("a keep-alive was joined to another frame: %q", m)
		}
	}
	return out
}

func drain(sub *Sub) [][]byte {
	var out [][]byte
	for {
		select {
		case m := <-sub.Out:
			out = append(out, m)
		default:
			return append(out, sub.Spilled()...)
		}
	}
}

// TestTheKeepAliveIsTheSameForEverySeat: by day a villager and a werewolf
// are sent the same keep-alive, the same bytes, as many times, at the
// same instants (one step of the actor sends it to every connection: once
// the actor has stopped, both have had exactly as many); by night there is
// none, only the beat's ticks.
func TestTheKeepAliveIsTheSameForEverySeat(t *testing.T) {
	t.Run("by day", func(t *testing.T) {
		tm := fastTimers()
		tm.Setup = time.Hour // the cards are dealt; the first night is an hour away
		a, villager, wolf := keepAliveGame(t, tm)
		var got [][]byte
		n := 0
		deadline := time.After(30 * time.Second)
		for n < 5 {
			select {
			case m := <-wolf.Out:
				got = append(got, m)
				if bytes.Equal(m, AliveFrame) {
					n++
				}
			case <-deadline:
				t.Fatalf("the werewolf got %d keep-alives in 30 s", n)
			}
		}
		a.Stop()
		got = append(got, drain(wolf)...)
		other := drain(villager)
		count := func(xs []bool) (c int) {
			for _, x := range xs {
				if x {
					c++
				}
			}
			return c
		}
		w, v := count(alives(t, got)), count(alives(t, other))
		if w != v || w < 5 {
			t.Fatalf("the werewolf was sent %d keep-alives, the villager %d: they must be sent to all at once", w, v)
		}
	})
	t.Run("not by night", func(t *testing.T) {
		tm := fastTimers()
		tm.Setup, tm.Night, tm.Tick = 5*time.Millisecond, time.Hour, 5*time.Millisecond
		_, _, wolf := keepAliveGame(t, tm)
		ticks := 0
		deadline := time.After(30 * time.Second)
		for ticks < 30 {
			var m []byte
			select {
			case m = <-wolf.Out:
			case <-deadline:
				t.Fatalf("%d ticks in 30 s", ticks)
			}
			switch {
			case Sealed(m):
				ticks++
			case ticks > 0 && bytes.Equal(m, AliveFrame):
				t.Fatalf("a keep-alive came at night, after tick %d: the night sends nothing between its ticks", ticks)
			}
		}
	})
}

// TestAPublicEventPutsTheKeepAliveOff: by day a public event, sent to
// every connection at once, puts the next keep-alive a period after it; a
// frame for one connection alone leaves it where it was, so that when the
// keep-alives go depends on the public events only.
func TestAPublicEventPutsTheKeepAliveOff(t *testing.T) {
	for _, tc := range []struct {
		name  string
		do    func(a *Actor, sub *Sub) error
		moved bool
	}{
		{name: "a red card (public)", do: func(a *Actor, _ *Sub) error { return a.RedCard(3) }, moved: true},
		{name: "a refusal to one connection", do: func(a *Actor, sub *Sub) error {
			return a.Refuse(sub, ErrorFrame{Code: "bad_frame", Message: "x"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The first day's speeches are an hour long: the table waits,
			// and only the test makes the game change.
			b := rules.Board{Cards: []rules.Role{rules.Werewolf, rules.Villager, rules.Villager, rules.Villager, rules.Seer}}
			for name, v := range map[string]string{"first_phase": "day", "sheriff": "none"} {
				if err := b.Options.Set(name, v); err != nil {
					t.Fatal(err)
				}
			}
			every := time.Hour
			tm := Timers{Setup: time.Hour, Night: time.Hour, Witch: time.Hour, Speech: time.Hour, Vote: time.Hour, Other: time.Hour}
			a, err := Start(context.Background(), "alive", Config{Board: b, Seed: 1, Timers: tm, Deal: b.Cards, KeepAlive: every},
				memory.New(), Hooks{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Stop()
			sub := NewSub(2, 1<<10, nil)
			if err := a.Join(sub, 0, 0); err != nil {
				t.Fatal(err)
			}
			aliveAt := func() time.Time {
				at, err := ask(a, func() time.Time { return a.aliveAt })
				if err != nil {
					t.Fatal(err)
				}
				return at
			}
			before := aliveAt()
			start := time.Now()
			if err := tc.do(a, sub); err != nil {
				t.Fatal(err)
			}
			after := aliveAt() // the actor has committed the act before it answers this
			if before.IsZero() || after.IsZero() {
				t.Fatalf("no keep-alive due by day (%v, then %v)", before, after)
			}
			if tc.moved {
				if after.Before(start.Add(every)) {
					t.Errorf("the next keep-alive is due at %v, before a period after the public event (%v)", after, start.Add(every))
				}
			} else if !after.Equal(before) {
				t.Errorf("the next keep-alive moved from %v to %v", before, after)
			}
		})
	}
}
