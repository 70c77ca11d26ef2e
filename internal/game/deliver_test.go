package game

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/wolfden/wolfden/internal/wire"

	"github.com/wolfden/wolfden/rules"
)

// deliverActor is an actor of a std-12 game played to its second day by the
// moderator's defaults, with a connection for every seat and spectators.
func deliverActor(tb testing.TB, spectators int) (*Actor, []*Sub) {
	tb.Helper()
	board := std12(&testing.T{})
	live, err := rules.New(board, 7, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for guard := 0; guard < 200 && live.NightNumber() < 2; guard++ {
		live.Timeout()
	}
	shown, err := rules.Replay(board, 7, live.Events())
	if err != nil {
		tb.Fatal(err)
	}
	a := newActor("bench", Config{Board: board, Seed: 7, Timers: DefaultTimers}, nil, Hooks{}, nil, live, shown)
	a.clk.Released = len(live.Events())
	var subs []*Sub
	for s := 0; s <= board.Players(); s++ {
		for range map[bool]int{true: spectators, false: 1}[s == 0] {
			sub := NewSub(rules.Seat(s), 1, nil)
			a.subs[sub] = struct{}{}
			subs = append(subs, sub)
		}
	}
	a.deliver()
	for _, sub := range subs {
		sub.frames = sub.frames[:0]
	}
	return a, subs
}

// rewind makes the last n events of the log new to every connection, as a
// commit that told them would.
func rewind(a *Actor, subs []*Sub, n int) {
	ev := a.shown.Events()
	for _, sub := range subs {
		for sub.evIdx > len(ev)-n {
			sub.evIdx--
			if ev[sub.evIdx].Visible(sub.Seat) {
				sub.evSeq--
			}
		}
		sub.frames = sub.frames[:0]
	}
}

// BenchmarkDeliver: one commit's delivery to a twelve-seat game and four
// spectators: three new events, each seat's state rebuilt and unchanged
// (the common case), and, in "changed", every state sent anew.
func BenchmarkDeliver(b *testing.B) {
	for _, changed := range []bool{false, true} {
		name := map[bool]string{false: "unchanged", true: "changed"}[changed]
		b.Run(name, func(b *testing.B) {
			a, subs := deliverActor(b, 4)
			b.ReportAllocs()
			for b.Loop() {
				rewind(a, subs, 3)
				if changed {
					forget(subs)
				}
				a.deliver()
			}
		})
	}
}

// forget makes every connection's last state unknown: the next delivery
// sends it.
func forget(subs []*Sub) {
	for _, sub := range subs {
		sub.lastState = nil
	}
}

// TestSharedFramesAreEachConnectionsOwn: the frames a delivery builds once
// and shares are byte for byte what encoding each connection's own frame
// gives: every event of a played game for every seat, and messages as
// written and in the little girl's copy.
func TestSharedFramesAreEachConnectionsOwn(t *testing.T) {
	a, subs := deliverActor(t, 2)
	a.chats = append(a.chats,
		chat{Channel: ChanDay, Seat: 3, Text: `hello "all" <&> 狼人杀`, At: 1700000000123, Public: true},
		chat{Channel: ChanWolves, Seat: 5, Text: "bite 7", At: 1700000000456, To: 1<<5 | 1<<6, Spy: 9})
	for _, sub := range subs {
		sub.evIdx, sub.evSeq, sub.chatIdx, sub.chatSeq, sub.lastState = 0, 0, 0, 0, nil
		sub.frames = sub.frames[:0]
	}
	a.deliver()
	for _, sub := range subs {
		var want [][]byte
		seq := 0
		for i := range a.shown.Events() {
			if e := &a.shown.Events()[i]; e.Visible(sub.Seat) {
				seq++
				want = append(want, encode(eventFrame(seq, e)))
			}
		}
		seq = 0
		for _, c := range a.chats {
			if c.visible(sub.Seat) {
				seq++
				f := wire.ChatFrame{Type: "chat", Seq: seq, Channel: c.Channel, Seat: c.Seat, Text: c.Text, At: c.At}
				if !c.Public && c.To&(1<<uint(sub.Seat)) == 0 {
					f.Seat = rules.NoSeat
				}
				want = append(want, encode(f))
			}
		}
		want = append(want, encode(a.state(sub.Seat)))
		if len(sub.frames) != len(want) {
			t.Fatalf("seat %d: %d frames, want %d", sub.Seat, len(sub.frames), len(want))
		}
		for i := range want {
			if !bytes.Equal(sub.frames[i], want[i]) {
				t.Fatalf("seat %d frame %d:\n got %s\nwant %s", sub.Seat, i, sub.frames[i], want[i])
			}
		}
	}
	// The seats of the wolves' message: the writer's team reads the writer, the spy reads nobody.
	for _, sub := range subs {
		if sub.Seat == 9 && !bytes.Contains(sub.frames[len(sub.frames)-2], []byte(`"seat":0,"text":"bite 7"`)) {
			t.Fatalf("the spy's copy: %s", sub.frames[len(sub.frames)-2])
		}
	}
}

// TestSameStateSeesEveryField: changing any one field of a state frame (or
// a nil slice for an empty one) makes sameState tell them apart, so a
// delivery never skips a state that would encode differently.
func TestSameStateSeesEveryField(t *testing.T) {
	full := func() wire.StateFrame {
		return wire.StateFrame{Type: "state", Seat: 2, Role: "seer", Day: 3, Night: true, Step: "seer", Turn: 4,
			Alive: []rules.Seat{1, 2, 4}, Sheriff: 4, Known: map[int]string{4: "villager"}, Wolves: []rules.Seat{5},
			Lovers: []rules.Seat{2, 4}, Couple: []rules.Seat{3, 5}, Exposed: []rules.Seat{6}, Pending: true,
			Choices:  []wire.ChoiceJSON{{Cmd: "check", Targets: []rules.Seat{1, 4}, NoTarget: true, Value: 1, Pick: 2, Roles: []string{"seer"}}},
			Deadline: 10, NightEnd: 20, Paused: true, Over: true, Winner: "village", Channels: []string{"day"}, Bot: true,
			Calls: []wire.CallJSON{{Key: "role.open", Role: "seer"}}, SeeCard: true}
	}
	x := full()
	if y := full(); !sameState(&x, &y) {
		t.Fatal("two equal frames are told apart")
	}
	typ := reflect.TypeOf(x)
	for i := range typ.NumField() {
		y := full()
		v := reflect.ValueOf(&y).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Slice, reflect.Map:
			changed := reflect.New(v.Type()).Elem() // nil
			if v.Kind() == reflect.Slice {
				empty := reflect.MakeSlice(v.Type(), 0, 0)
				y2 := full()
				reflect.ValueOf(&y2).Elem().Field(i).Set(empty)
				if sameState(&x, &y2) {
					t.Errorf("field %s: an empty slice is not told from a full one", typ.Field(i).Name)
				}
				y3, y4 := full(), full()
				reflect.ValueOf(&y3).Elem().Field(i).Set(empty)
				reflect.ValueOf(&y4).Elem().Field(i).Set(changed)
				if sameState(&y3, &y4) {
					t.Errorf("field %s: nil and empty (null and []) are not told apart", typ.Field(i).Name)
				}
			}
			v.Set(changed)
		default:
			t.Fatalf("field %s of kind %v: teach this test (and sameState) about it", typ.Field(i).Name, v.Kind())
		}
		if sameState(&x, &y) {
			t.Errorf("field %s: a change is not seen", typ.Field(i).Name)
		}
		if bytes.Equal(encode(x), encode(y)) {
			t.Errorf("field %s: the test's change does not change the encoding", typ.Field(i).Name)
		}
	}
	// Inside a choice: each of its fields.
	for i := range reflect.TypeOf(wire.ChoiceJSON{}).NumField() {
		y := full()
		v := reflect.ValueOf(&y.Choices[0]).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString("other")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int8:
			v.SetInt(v.Int() + 1)
		case reflect.Slice:
			v.Set(reflect.New(v.Type()).Elem())
		default:
			t.Fatalf("choice field of kind %v: teach this test about it", v.Kind())
		}
		if sameState(&x, &y) {
			t.Errorf("choice field %d: a change is not seen", i)
		}
	}
}

// BenchmarkSendAndWrite: a commit's delivery as BenchmarkDeliver's
// "changed", handed to every connection (sendAll) and taken by its
// writer's outbox, as the server's writer takes it: what a day's change
// costs before the write itself.
func BenchmarkSendAndWrite(b *testing.B) {
	a, subs := deliverActor(b, 4)
	for _, sub := range subs {
		sub.Out = make(chan []byte, 8)
	}
	outs := make([]*Outbox, len(subs))
	for i, sub := range subs {
		outs[i] = NewOutbox(sub)
	}
	b.ReportAllocs()
	for b.Loop() {
		rewind(a, subs, 3)
		forget(subs)
		a.deliver()
		a.sendAll()
		for _, o := range outs {
			for _, _, ok := o.Next(32 << 10); ok; _, _, ok = o.Next(32 << 10) {
			}
		}
	}
}

// TestADayMessageWrittenAtOnceIsNeverJoined: a change's frames go as they
// are to a connection whose socket takes them at once, with no message
// built for them (a joined copy for each connection was an eighth of what
// the server allocated at 10,000 players); the message is joined only when
// it must wait for the connection's writer, and is then the same bytes.
func TestADayMessageWrittenAtOnceIsNeverJoined(t *testing.T) {
	a, subs := deliverActor(t, 2)
	clear(a.subs)
	mode, wrote := Wrote, map[*Sub][]byte{}
	for _, s := range subs {
		sub := NewLazySub(s.Seat, 16, nil)
		sub.WriteDirect(func(parts [][]byte) Direct {
			if mode == Wrote && wrote != nil {
				wrote[sub] = bytes.Join(parts, []byte("\n"))
			}
			return mode
		})
		sub.Idle()
		a.subs[sub] = struct{}{}
	}
	a.deliver()
	for sub := range a.subs {
		sub.frames = sub.frames[:0]
	}
	rewind(a, slices.Collect(maps.Keys(a.subs)), 3)
	forget(slices.Collect(maps.Keys(a.subs)))
	a.deliver()
	saved := map[*Sub][][]byte{}
	for sub := range a.subs {
		if len(sub.frames) < 2 {
			t.Fatalf("seat %d: %d frames; the test needs a change of several", sub.Seat, len(sub.frames))
		}
		saved[sub] = slices.Clone(sub.frames)
	}
	refill := func() {
		for sub := range a.subs {
			sub.frames = append(sub.frames[:0], saved[sub]...)
		}
	}
	refill()
	a.sendAll()
	for sub, frames := range saved {
		if want := bytes.Join(frames, []byte("\n")); !bytes.Equal(wrote[sub], want) {
			t.Fatalf("seat %d: written %q, want %q", sub.Seat, wrote[sub], want)
		}
	}
	wrote = nil
	if n := testing.AllocsPerRun(20, func() { refill(); a.sendAll() }); n != 0 {
		t.Errorf("a change written at once to %d connections made %.0f allocations, want none", len(a.subs), n)
	}
	mode = NotWritten
	refill()
	a.sendAll()
	for sub, frames := range saved {
		select {
		case msg := <-sub.Out:
			if want := bytes.Join(frames, []byte("\n")); !bytes.Equal(msg, want) {
				t.Fatalf("seat %d: queued %q, want %q", sub.Seat, msg, want)
			}
		default:
			t.Fatalf("seat %d: a message not written was not queued", sub.Seat)
		}
	}
}

// TestAStateIsKeptAtItsSize: each connection keeps its last state (to tell
// whether the next one changed) for as long as it holds, so the state is
// kept at its own size, not in the larger buffer it was encoded in.
func TestAStateIsKeptAtItsSize(t *testing.T) {
	a, subs := deliverActor(t, 1)
	forget(subs)
	a.deliver()
	for _, sub := range subs {
		if n, c := len(sub.lastState), cap(sub.lastState); n == 0 || c > n+n/8+16 {
			t.Errorf("seat %d: a state of %d bytes kept in %d", sub.Seat, n, c)
		}
	}
}

// TestASeatsKnownCardsAreSharedWhileTheyHold: a seat's states share the map
// of the cards it knows while its knowledge does not change, instead of a
// map made for each state; a seat that knows nothing has none.
func TestASeatsKnownCardsAreSharedWhileTheyHold(t *testing.T) {
	a, _ := deliverActor(t, 0)
	knowing := 0
	for s := rules.Seat(1); int(s) <= a.cfg.Board.Players(); s++ {
		a.gen++
		first := a.stateOf(s).f.Known
		a.gen++
		again := a.stateOf(s).f.Known
		if !maps.Equal(first, again) {
			t.Fatalf("seat %d: %v, then %v", s, first, again)
		}
		if len(first) == 0 {
			if first != nil || again != nil {
				t.Errorf("seat %d knows nothing, and its state has a map of it", s)
			}
			continue
		}
		knowing++
		if reflect.ValueOf(first).UnsafePointer() != reflect.ValueOf(again).UnsafePointer() {
			t.Errorf("seat %d: a new map of the %d cards it knows for a state that knows the same", s, len(first))
		}
	}
	if knowing == 0 {
		t.Fatal("no seat knows another's card: the test sees nothing")
	}
}
