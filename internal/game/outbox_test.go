package game

import (
	"bytes"
	"strings"
	"testing"
)

func TestTheOutboxJoinsWhatWaitsAndLeavesALoneMessageAsItIs(t *testing.T) {
	night := `{"type":"tick","n":1}` + "\n" + `{"type":"pad","p":" "}`
	for _, tc := range []struct {
		name   string
		queued []string
		want   []string // the messages Next gives, in order
		sealed []bool
	}{
		{name: "a lone message", queued: []string{`{"a":1}`}, want: []string{`{"a":1}`}, sealed: []bool{false}},
		{name: "messages queued together go in one",
			queued: []string{`{"a":1}`, `{"b":2}`, `{"c":3}`}, want: []string{`{"a":1}` + "\n" + `{"b":2}` + "\n" + `{"c":3}`}, sealed: []bool{false}},
		{name: "a night message goes alone, and parts what surrounds it",
			queued: []string{`{"a":1}`, night, `{"b":2}`, `{"c":3}`},
			want:   []string{`{"a":1}`, night, `{"b":2}` + "\n" + `{"c":3}`}, sealed: []bool{false, true, false}},
		{name: "a message before a night message is alone", queued: []string{`{"a":1}`, night},
			want: []string{`{"a":1}`, night}, sealed: []bool{false, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := NewSub(1, 16, nil)
			queued := make([][]byte, len(tc.queued))
			for i, q := range tc.queued {
				queued[i] = []byte(q)
				sub.Out <- queued[i]
			}
			o := NewOutbox(sub)
			var got []string
			for i := 0; ; i++ {
				msg, sealed, ok := o.Next(32 << 10)
				if !ok {
					break
				}
				got = append(got, string(msg))
				if i < len(tc.sealed) && sealed != tc.sealed[i] {
					t.Errorf("message %d: sealed %v, want %v", i, sealed, tc.sealed[i])
				}
				// A message that goes alone is written from the bytes queued:
				// copying each of them cost the writers a memmove per message.
				if !strings.Contains(string(msg), "\n") || sealed {
					if !sameBytes(msg, queued) {
						t.Errorf("message %d (%s) is a copy of what was queued", i, msg)
					}
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("messages %q, want %q", got, tc.want)
			}
		})
	}
}

// sameBytes: msg is one of queued, not a copy of it.
func sameBytes(msg []byte, queued [][]byte) bool {
	for _, q := range queued {
		if len(q) > 0 && len(msg) == len(q) && &msg[0] == &q[0] {
			return true
		}
	}
	return false
}

// TestADirectWriteNeverOvertakesWhatTheWriterHolds: the actor writes a
// message itself only while the writer has nothing taken or waiting, so
// the connection gets every message in the order queued, whichever wrote
// it; a message not written, or a frame's rest handed over, keeps the
// writer busy until it is idle again, and Hold ends the direct writes.
func TestADirectWriteNeverOvertakesWhatTheWriterHolds(t *testing.T) {
	sub := NewLazySub(1, 16, nil)
	var wire []string // what reached the connection, in order
	mode := Wrote
	sub.WriteDirect(func(parts [][]byte) Direct {
		m := bytes.Join(parts, []byte("\n"))
		if mode != NotWritten {
			wire = append(wire, string(m))
		}
		return mode
	})
	out := NewOutbox(sub)
	writerTakes := func() {
		for b, ok := out.Pop(); ok; b, ok = out.Pop() {
			wire = append(wire, string(b))
		}
	}
	offer := func(m string) {
		if !sub.offer([]byte(m)) {
			t.Fatalf("%s refused", m)
		}
	}
	offer("m1") // before the writer's first Idle: queued
	if sub.Idle() {
		t.Fatal("idle with m1 waiting")
	}
	writerTakes()
	if !sub.Idle() {
		t.Fatal("not idle with nothing waiting")
	}
	offer("m2") // direct
	mode = NotWritten
	offer("m3") // the socket was full: queued, the writer busy
	mode = Wrote
	offer("m4") // behind m3, so queued too
	if len(wire) != 2 || sub.Idle() {
		t.Fatalf("m4 went past m3: %v", wire)
	}
	writerTakes()
	if !sub.Idle() {
		t.Fatal("not idle after m3 and m4")
	}
	mode = Handed
	offer("m5") // a part out, the rest handed over
	mode = Wrote
	offer("m6") // behind m5's rest: queued
	writerTakes()
	if !sub.Idle() {
		t.Fatal("not idle after m6")
	}
	sub.Hold()
	offer("m7") // the writer has stopped: queued, never written directly
	if got, want := strings.Join(wire, " "), "m1 m2 m3 m4 m5 m6"; got != want {
		t.Fatalf("the connection got %q, want %q", got, want)
	}
	if len(sub.Out) != 1 {
		t.Fatalf("m7 not queued after Hold: %d in Out", len(sub.Out))
	}
}
