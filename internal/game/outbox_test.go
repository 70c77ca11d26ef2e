package game

import (
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
