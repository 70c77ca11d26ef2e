package voice

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/voice/synth"
	"github.com/wolfden/wolfden/rules"
)

// A browser at the table: synth's, with its seat.
type browser struct {
	*synth.Browser
	seat rules.Seat
}

func mark(s rules.Seat) []byte { return synth.Mark(byte(s)) }

func dial(t *testing.T, r *Room, seat rules.Seat) *browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	peer, offer, err := r.Join(ctx, seat)
	if err != nil {
		t.Fatal(err)
	}
	b, answer, err := synth.Answer(offer, seat != rules.NoSeat, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if err := peer.Answer(answer); err != nil {
		t.Fatal(err)
	}
	return &browser{b, seat}
}

func (b *browser) speak(t *testing.T) {
	if err := b.Speak(mark(b.seat)); err != nil {
		t.Fatal(err)
	}
}

func (b *browser) count(id string) int { return b.Count(id) }

// waitFor polls a condition of the network (packets cross a real UDP
// socket) until it holds.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

func (r *Room) waiting(s rules.Seat) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.in[s])
}

// table is a room of four seats and a spectator, all connected, each seat
// sending one frame a round.
type table struct {
	r        *Room
	browsers []*browser // seats 1…4, then the spectator
}

func newTable(t *testing.T) *table {
	st, err := NewStack(Options{Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := st.NewRoom(4, false)
	t.Cleanup(r.Close)
	tb := &table{r: r}
	for _, s := range []rules.Seat{1, 2, 3, 4, rules.NoSeat} {
		tb.browsers = append(tb.browsers, dial(t, r, s))
	}
	// Connected: ticks until one reaches every track of every listener.
	waitFor(t, "every track connected", func() bool {
		tb.r.Tick()
		for _, b := range tb.browsers {
			for s := rules.Seat(1); s <= 4; s++ {
				if s != b.seat && b.count(fmt.Sprintf("seat-%d", s)) == 0 {
					return false
				}
			}
		}
		return true
	})
	return tb
}

// round has every seat speak one frame, forwards one tick, and waits until
// every listener has it on every track.
func (tb *table) round(t *testing.T) {
	t.Helper()
	for _, b := range tb.browsers[:4] {
		for tb.r.waiting(b.seat) == 0 { // until its frame is in, resend (the first may precede the connection)
			b.speak(t)
			time.Sleep(2 * time.Millisecond)
		}
	}
	for _, b := range tb.browsers[:4] { // exactly one frame each waits
		tb.r.mu.Lock()
		tb.r.in[b.seat] = tb.r.in[b.seat][len(tb.r.in[b.seat])-1:]
		tb.r.mu.Unlock()
	}
	before := map[*browser][5]int{}
	for _, b := range tb.browsers {
		var n [5]int
		for s := rules.Seat(1); s <= 4; s++ {
			n[s] = b.count(fmt.Sprintf("seat-%d", s))
		}
		before[b] = n
	}
	tb.r.Tick()
	for _, b := range tb.browsers {
		for s := rules.Seat(1); s <= 4; s++ {
			if s != b.seat {
				id, n := fmt.Sprintf("seat-%d", s), before[b][s]
				waitFor(t, fmt.Sprintf("seat %d's track at listener %d", s, b.seat), func() bool { return b.count(id) > n })
			}
		}
	}
}

// heard is what listener b got on seat s's track in the last round: s's
// frame or silence.
func (tb *table) heard(t *testing.T, b *browser, s rules.Seat) bool {
	t.Helper()
	ps := b.Packets(fmt.Sprintf("seat-%d", s))
	p := ps[len(ps)-1]
	if len(p.Payload) != FrameSize {
		t.Fatalf("listener %d got a packet of %d bytes on seat %d's track", b.seat, len(p.Payload), s)
	}
	switch {
	case bytes.Equal(p.Payload, silence):
		return false
	case bytes.Equal(p.Payload, must(pad(mark(s)))):
		return true
	}
	t.Fatalf("listener %d got % x on seat %d's track: neither its voice nor silence", b.seat, p.Payload, s)
	return false
}

func must(b []byte, ok bool) []byte {
	if !ok {
		panic("pad")
	}
	return b
}

func voicesOf(h ...uint32) game.Voices { return game.Voices{Hears: h} }

// TestEachListenerHearsWhatTheGameAllows sets the game's map and checks,
// frame by frame, whose voice every listener gets on every track.
func TestEachListenerHearsWhatTheGameAllows(t *testing.T) {
	tb := newTable(t)
	cases := []struct {
		name  string
		v     game.Voices
		muted rules.Seat
	}{
		{"before the game tells anything, nobody", voicesOf(0, 0, 0, 0, 0), 0},
		{"seat 2 holds the floor", voicesOf(1<<2, 1<<2, 0, 1<<2, 1<<2), 0},
		{"night: wolves 1 and 3 hear each other", voicesOf(0, 1<<3, 0, 1<<1, 0), 0},
		{"the dead 4 hears the floor 1, and is heard by nobody", voicesOf(1<<1, 0, 1<<1, 1<<1, 1<<1), 0},
		{"the host mutes the floor", voicesOf(1<<2, 1<<2, 0, 1<<2, 1<<2), 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb.r.SetVoices(c.v)
			if c.muted != 0 {
				tb.r.Mute(c.muted, true)
				defer tb.r.Mute(c.muted, false)
			}
			tb.round(t)
			for _, b := range tb.browsers {
				for s := rules.Seat(1); s <= 4; s++ {
					if s == b.seat {
						continue
					}
					want := c.v.Heard(b.seat, s) && s != c.muted
					if got := tb.heard(t, b, s); got != want {
						t.Errorf("listener %d hears seat %d: %v, want %v", b.seat, s, got, want)
					}
				}
			}
		})
	}
}

// TestNightPacketsAreTheSameForEverySeat: whatever the map, each seat
// receives, track by track, packets of one size on one clock (RTP
// timestamps 20 ms apart, numbers consecutive): the shape of a night is
// the same for a wolf who hears his pack and a villager who hears nothing.
func TestNightPacketsAreTheSameForEverySeat(t *testing.T) {
	tb := newTable(t)
	tb.r.SetVoices(voicesOf(0, 1<<3, 0, 1<<1, 0)) // wolves 1 and 3
	for range 10 {
		tb.round(t)
	}
	type shape struct {
		size       int
		dSeq, dTS  uint32
		extensions bool
	}
	var first []shape
	for _, b := range tb.browsers[:4] {
		var all []shape
		for s := rules.Seat(1); s <= 4; s++ {
			if s == b.seat {
				continue
			}
			ps := b.Packets(fmt.Sprintf("seat-%d", s))
			for i := len(ps) - 10; i < len(ps); i++ { // the night's ten ticks

				all = append(all, shape{len(ps[i].Payload), uint32(ps[i].SequenceNumber - ps[i-1].SequenceNumber),
					ps[i].Timestamp - ps[i-1].Timestamp, ps[i].Extension})
			}
		}
		if first == nil {
			first = all
			continue
		}
		if fmt.Sprint(all) != fmt.Sprint(first) {
			t.Fatalf("seat %d's night differs from seat 1's:\n%v\n%v", b.seat, all, first)
		}
	}
	for _, sh := range first {
		if sh != (shape{FrameSize, 1, 960, false}) {
			t.Fatalf("a packet of shape %+v", sh)
		}
	}
}

// TestTheMicrophoneHasALineOfItsOwn: a seat's offer receives the
// microphone on its first line alone and sends each other seat on a line
// of its own; a browser that sends on the first line (as ours does)
// hears every seat still. A spectator's offer only sends.
func TestTheMicrophoneHasALineOfItsOwn(t *testing.T) {
	st, err := NewStack(Options{Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := st.NewRoom(4, false)
	defer r.Close()
	for _, c := range []struct {
		seat rules.Seat
		want []string
	}{
		{1, []string{"recvonly", "sendonly", "sendonly", "sendonly"}},
		{rules.NoSeat, []string{"sendonly", "sendonly", "sendonly", "sendonly"}},
	} {
		p, offer, err := r.Join(context.Background(), c.seat)
		if err != nil {
			t.Fatal(err)
		}
		var dirs []string
		for _, m := range strings.Split(offer, "m=audio")[1:] {
			for _, d := range []string{"recvonly", "sendonly", "sendrecv", "inactive"} {
				if strings.Contains(m, "a="+d) {
					dirs = append(dirs, d)
				}
			}
		}
		if fmt.Sprint(dirs) != fmt.Sprint(c.want) {
			t.Errorf("seat %d's offer: lines %v, want %v", c.seat, dirs, c.want)
		}
		p.Close()
	}
}
