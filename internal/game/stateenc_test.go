package game

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

func checkStateEncoding(t *testing.T, f wire.StateFrame) {
	t.Helper()
	want, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendState(nil, &f); string(got) != string(want) {
		t.Fatalf("appendState:\n got %s\nwant %s", got, want)
	}
}

// TestStateEncodingIsMarshals: appendState writes what json.Marshal writes,
// for frames with every field set or left out, odd strings, map keys that
// sort differently as text, random frames, and every state of a played game.
func TestStateEncodingIsMarshals(t *testing.T) {
	checkStateEncoding(t, wire.StateFrame{})
	checkStateEncoding(t, wire.StateFrame{Alive: []rules.Seat{}, Known: map[int]string{}, Choices: []wire.ChoiceJSON{}})
	odd := []string{"", "a<b>&c", `q"uote\`, "狼人杀", "\u2028", "tab\t", string([]byte{0xff, 'x'}), "é"}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return odd[r.IntN(len(odd))] }
	seats := func() []rules.Seat {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []rules.Seat{}
		}
		return []rules.Seat{rules.Seat(r.IntN(20)), rules.Seat(r.IntN(20) - 5)}
	}
	for range 2000 {
		f := wire.StateFrame{Type: pick(), Seat: rules.Seat(r.IntN(30) - 3), Role: pick(), Day: r.IntN(20) - 1, Night: r.IntN(2) == 0,
			Step: pick(), Turn: rules.Seat(r.IntN(4)), Alive: seats(), Sheriff: rules.Seat(r.IntN(3)), Wolves: seats(),
			Lovers: seats(), Exposed: seats(), Pending: r.IntN(2) == 0, Deadline: r.Int64N(3) * 1700000000000,
			NightEnd: r.Int64N(3) - 1, Paused: r.IntN(2) == 0, Over: r.IntN(2) == 0, Winner: pick(), Bot: r.IntN(2) == 0,
			SeeCard: r.IntN(2) == 0}
		if r.IntN(2) == 0 {
			f.Known = map[int]string{}
			for range r.IntN(5) {
				f.Known[r.IntN(13)] = pick()
			}
		}
		for range r.IntN(3) {
			f.Choices = append(f.Choices, wire.ChoiceJSON{Cmd: pick(), Targets: seats(), NoTarget: r.IntN(2) == 0,
				Value: int8(r.IntN(5) - 2), Pick: int8(r.IntN(4) - 1), Roles: map[bool][]string{true: {pick(), pick()}}[r.IntN(2) == 0]})
		}
		if r.IntN(2) == 0 {
			f.Channels = []string{pick(), pick()}
		}
		for range r.IntN(3) {
			f.Calls = append(f.Calls, wire.CallJSON{Key: pick(), Role: pick(), Group: pick()})
		}
		checkStateEncoding(t, f)
	}
	// Every field set (TestSameStateSeesEveryField's frame), then each one
	// changed: a field added to the frame and not to appendState fails here.
	full := wire.StateFrame{Type: "state", Seat: 2, Role: "seer", Day: 3, Night: true, Step: "seer", Turn: 4,
		Alive: []rules.Seat{1, 2, 4}, Sheriff: 4, Known: map[int]string{4: "villager", 10: "witch"}, Wolves: []rules.Seat{5},
		Lovers: []rules.Seat{2, 4}, Exposed: []rules.Seat{6}, Pending: true,
		Choices:  []wire.ChoiceJSON{{Cmd: "check", Targets: []rules.Seat{1, 4}, NoTarget: true, Value: 1, Pick: 2, Roles: []string{"seer"}}},
		Deadline: 10, NightEnd: 20, Paused: true, Over: true, Winner: "village", Channels: []string{"day"}, Bot: true,
		Calls: []wire.CallJSON{{Key: "role.open", Role: "seer", Group: "wolves"}}, SeeCard: true}
	checkStateEncoding(t, full)
	for i := range reflect.TypeOf(full).NumField() {
		f := full
		reflect.ValueOf(&f).Elem().Field(i).SetZero()
		checkStateEncoding(t, f)
	}

	// A played game's states, seat by seat.
	a, err := Start(context.Background(), "enc", Config{Board: std12(t), Seed: 5, Timers: fastTimers(), Bots: 0x1ffe}, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	seen := 0
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		over := false
		_, err := ask(a, func() bool {
			for s := rules.Seat(0); s <= 12; s++ {
				checkStateEncoding(t, a.state(s))
				seen++
			}
			over, _ = a.shown.Over()
			return over
		})
		if err != nil {
			t.Fatal(err)
		}
		if over {
			break
		}
	}
	if seen == 0 {
		t.Fatal("no state was checked")
	}
}

func BenchmarkStateEncoding(b *testing.B) {
	a, _ := deliverActor(b, 0)
	f := a.state(3)
	b.Run("json.Marshal", func(b *testing.B) {
		for b.Loop() {
			encode(f)
		}
	})
	b.Run("appendState", func(b *testing.B) {
		for b.Loop() {
			appendState(make([]byte, 0, 512), &f)
		}
	})
}
