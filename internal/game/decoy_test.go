package game

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// messageWith reads sub's messages until one holds the frame want, and
// returns that message whole.
func messageWith(t *testing.T, sub *Sub, want string) []byte {
	t.Helper()
	limit := time.After(10 * time.Second)
	for {
		select {
		case m := <-sub.Out:
			for _, line := range bytes.Split(m, []byte{'\n'}) {
				if string(line) == want {
					return m
				}
			}
		case <-limit:
			t.Fatalf("seat %d was not sent %s", sub.Seat, want)
		}
	}
}

// awake waits until seat s's state (read whole from its messages) says it
// is awaited at night.
func awake(t *testing.T, sub *Sub) {
	t.Helper()
	limit := time.After(10 * time.Second)
	for {
		select {
		case m := <-sub.Out:
			for _, line := range bytes.Split(m, []byte{'\n'}) {
				var st StateFrame
				if json.Unmarshal(line, &st) == nil && st.Type == "state" && st.Night && st.Pending {
					return
				}
			}
		case <-limit:
			t.Fatalf("seat %d was not woken", sub.Seat)
		}
	}
}

// TestADecoyIsAnsweredAsARealCommandAndChangesNothing: at night the seer
// checks a seat while a villager taps a decoy: each gets the same ack,
// byte for byte, in a night message of the same size; the decoy is
// stored nowhere and changes nothing in the game.
func TestADecoyIsAnsweredAsARealCommandAndChangesNothing(t *testing.T) {
	tm := nightTimers()
	tm.Night, tm.Speech, tm.Vote, tm.Other = time.Hour, time.Hour, time.Hour, time.Hour // nothing times out meanwhile
	deal := []rules.Role{rules.Villager, rules.Werewolf, rules.Seer, rules.Werewolf, rules.Werewolf, rules.Werewolf,
		rules.Witch, rules.Hunter, rules.Idiot, rules.Villager, rules.Villager, rules.Villager}
	st := memory.New()
	b := std12(t)
	b.Options[rules.OptNightOrder] = rules.SeerFirst                              // the seer wakes in the night step, which does not time out
	cfg := Config{Board: b, Seed: 5, Timers: tm, Bots: 0x1ff0 | 1<<2, Deal: deal} // people: seats 1 and 3
	a, err := Start(context.Background(), "r", cfg, st, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	villager, seer, spectator := NewSub(1, 4096, nil), NewSub(3, 4096, nil), NewSub(0, 4096, nil)
	for _, sub := range []*Sub{villager, seer, spectator} {
		if err := a.Join(sub, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	awake(t, seer)
	if err := a.Act(seer, 42, rules.Command{Kind: rules.CmdCheck, Target: 2}); err != nil {
		t.Fatal(err)
	}
	for range 5 { // taps as a phone sends them, the last one answered with the real command's id
		if err := a.Decoy(villager, 40); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Decoy(villager, 42); err != nil {
		t.Fatal(err)
	}
	ack := `{"type":"ack","id":42}`
	real, decoy := messageWith(t, seer, ack), messageWith(t, villager, ack)
	if len(real) != NightMessage || len(decoy) != NightMessage || !Sealed(real) || !Sealed(decoy) {
		t.Errorf("the answers' messages: the real command's %d bytes, the decoy's %d, want both %d and sealed",
			len(real), len(decoy), NightMessage)
	}
	if err := a.Decoy(spectator, 7); err != nil {
		t.Fatal(err)
	}
	if m := messageWith(t, spectator, `{"type":"error","id":7,"code":"spectator","message":"spectators cannot act"}`); len(m) != NightMessage {
		t.Errorf("the spectator's refusal came in a message of %d bytes", len(m))
	}
	recs, err := st.Records(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if strings.Contains(r.Kind, "decoy") || (r.Kind != "start" && r.Kind != "tick" && r.Kind != "cmd") {
			t.Errorf("record %d of kind %q", r.N, r.Kind)
		}
		var body cmdBody
		if r.Kind == "cmd" && json.Unmarshal(r.Body, &body) == nil && body.Seat == 1 {
			t.Errorf("record %d holds a command of the villager, who only tapped decoys: %s", r.N, r.Body)
		}
	}
	events, _ := ask(a, func() []rules.Event { return append([]rules.Event(nil), a.live.Events()...) })
	for _, e := range events {
		if e.Seat == 1 && e.Kind != rules.EvRole {
			t.Errorf("the game holds an event of the villager's: %v", e)
		}
	}
}
