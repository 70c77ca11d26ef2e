package server

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/voice"
	"github.com/wolfden/wolfden/internal/voice/synth"
)

// shapeTimers: a night of a few slots of 2 s (the night keeps its fixed
// schedule whatever the seats do: long enough for some ticks of a test
// slowed by a loaded machine, short enough for the test to be quick), days
// that wait for the test to end. The
// room is a table's (card_seen): the night falls when every seat has said
// it saw its card, which the test says once the voice is warm.
var shapeTimers = map[string]string{"setup": "60s", "night": "2s", "witch": "2s", "tick": "50ms",
	"speech": "60s", "vote": "60s", "other": "60s", "bot": "0s"}

// shapeBoard holds every kind of night listener the issue names: a pack
// that hears itself, the seer, the witch, villagers and the little girl
// (小女孩, spying on by default), who reads the pack's text but hears no
// voice.
const shapeBoard = "players: 8\ncards: [werewolf, werewolf, seer, witch, little_girl, villager, villager, villager]\noptions:\n  first_phase: night\n"

// A listener is one synthetic browser in the room's voice: a seat's (who
// speaks too) or a spectator's.
type listener struct {
	name  string
	seat  int // 0 for the spectator
	b     *synth.Browser
	peer  *voice.Peer
	ticks map[uint32]int // the RTP timestamp of each tick made, to its index
}

// joinVoiceAs is joinVoice that also returns the server's side of the
// connection.
func joinVoiceAs(t *testing.T, ts *testServer, vr *voice.Room, room, token string) (*synth.Browser, *voice.Peer) {
	t.Helper()
	b, id := joinVoiceID(t, ts, room, token)
	p := vr.Peer(id)
	if p == nil {
		t.Fatalf("no voice connection %s after its answer", id)
	}
	return b, p
}

// spoken is the frame seat says at tick k: a 32 kb/s CELT frame (80
// bytes, as a CBR browser sends) that names both, so a frame heard tells
// whose and which it was.
func spoken(seat, k int) []byte {
	f := synth.Mark(byte(seat))
	f[1], f[2], f[3] = byte(seat), byte(k>>8), byte(k)
	return f
}

// TestNightsSoundTheSameFromEverySeat plays a night of a real game through
// the server, every seat in voice with a synthetic browser that speaks a
// constant-bitrate frame on every tick, and a spectator listening. From
// nightfall to dawn each listener must receive the same shape — on every
// track one packet of voice.FrameSize bytes per tick, numbered and
// stamped without a gap, with the same header — whether he is a wolf who
// hears his pack, the seer, the witch, a villager, the little girl or a
// spectator; and a wolf's voice reaches only the wolves.
//
// The time buckets are the forwarding unit's ticks, not wall time: one
// voice.Room.Tick writes every listener's packet of that tick on every
// track. The test makes the room's forwarding unit itself without its beat
// and calls Tick (what the beat does every 20 ms), so that it knows which
// tick each packet received belongs to (from its RTP timestamp, each
// connection's clock read before each tick), and waits after each tick
// until every track got its packet: a test paced by states on a loaded
// machine. What the synthetic browsers send is the test's doing (one
// frame a tick each); what real browsers send is web/tests/voice.mjs's.
func TestNightsSoundTheSameFromEverySeat(t *testing.T) {
	ts := newVoiceServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, players := ts.table(t, map[string]any{"board": shapeBoard, "seed": 5, "practice": true, "card_seen": true, "timers": shapeTimers})
	id := c.Room.ID
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+id+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	conns := make([]*client.Conn, len(players))
	roles := make([]string, len(players))
	for i, p := range players {
		conn, err := client.Dial(ctx, ts.http.URL, id, p.Token, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		for f := range conn.Frames {
			if f.Type == "state" && f.Role != "" {
				roles[i] = f.Role
				break
			}
		}
		conns[i] = conn
	}
	for _, want := range []string{"werewolf", "seer", "witch", "little_girl", "villager"} {
		if !slices.Contains(roles, want) {
			t.Fatalf("the deal has no %s: %v", want, roles)
		}
	}

	// The room's forwarding unit without its beat: the test ticks it.
	rm, err := ts.roomFor(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	vr := ts.opts.Voice.NewRoom(len(players), false)
	t.Cleanup(vr.Close)
	rm.mu.Lock()
	rm.voice.Store(vr)
	if v := rm.voices.Load(); v != nil {
		vr.SetVoices(*v)
	}
	rm.mu.Unlock()

	var ls []*listener
	for i, p := range players {
		b, peer := joinVoiceAs(t, ts, vr, id, p.Token)
		ls = append(ls, &listener{name: fmt.Sprintf("seat %d (%s)", p.Seat, roles[i]), seat: p.Seat, b: b, peer: peer, ticks: map[uint32]int{}})
	}
	b, peer := joinVoiceAs(t, ts, vr, id, "")
	ls = append(ls, &listener{name: "the spectator", b: b, peer: peer, ticks: map[uint32]int{}})
	tracksOf := func(l *listener) []string {
		var ids []string
		for s := 1; s <= len(players); s++ {
			if s != l.seat {
				ids = append(ids, fmt.Sprintf("seat-%d", s))
			}
		}
		return ids
	}

	// k counts the ticks made; each speaks a frame for every seat first.
	k := 0
	tick := func() {
		k++
		for _, l := range ls[:len(players)] {
			if err := l.b.Speak(spoken(l.seat, k)); err != nil {
				t.Fatal(err)
			}
		}
		for _, l := range ls {
			l.ticks[l.peer.NextTimestamp()] = k
		}
		vr.Tick()
	}
	// received reports whether every track of every listener brought the
	// packet of tick k (in order on its track: all before it too).
	received := func(k int) bool {
		for _, l := range ls {
			for _, tr := range tracksOf(l) {
				ps := l.b.Packets(tr)
				if len(ps) == 0 || l.ticks[ps[len(ps)-1].Timestamp] < k {
					return false
				}
			}
		}
		return true
	}

	// Warm-up, before nightfall: until every track is bound (its first
	// packet came), tick at a microphone's pace; then one tick at a time.
	for {
		tick()
		bound := true
		for _, l := range ls {
			for _, tr := range tracksOf(l) {
				bound = bound && l.b.Count(tr) > 0
			}
		}
		if bound {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the voice connections did not all bring packets")
		}
		time.Sleep(voice.Tick)
	}
	for !received(k) {
		if ctx.Err() != nil {
			t.Fatalf("the warm-up's last tick (%d) did not reach every track", k)
		}
		time.Sleep(time.Millisecond) // polling a state, not a timing
	}
	warm := k
	// From now on every track brings one packet a tick, in order: counting
	// them is enough to wait on (what each is, is checked at the end).
	base := map[*listener]map[string]int{}
	for _, l := range ls {
		base[l] = map[string]int{}
		for _, tr := range tracksOf(l) {
			base[l][tr] = l.b.Count(tr)
		}
	}
	// behind names the tracks that have not brought this tick's packet.
	behind := func() []string {
		var late []string
		for _, l := range ls {
			for tr, n := range base[l] {
				if got := l.b.Count(tr) - n; got < k-warm {
					late = append(late, fmt.Sprintf("%s on %s (%d of %d packets)", l.name, tr, got, k-warm))
				}
			}
		}
		return late
	}
	// Before nightfall nobody hears anybody: what every track brought is
	// the silent frame.
	silence := ls[len(ls)-1].b.Packets("seat-1")[0].Payload
	for _, l := range ls {
		for _, tr := range tracksOf(l) {
			for _, p := range l.b.Packets(tr) {
				if !bytes.Equal(p.Payload, silence) {
					t.Fatalf("%s got a sound on %s before nightfall: %x, not %x", l.name, tr, p.Payload, silence)
				}
			}
		}
	}

	// Every seat looks at its card (the night falls) and plays the night
	// at random, until dawn.
	var wg sync.WaitGroup
	for i, conn := range conns {
		if err := conn.Send(ctx, map[string]any{"type": "seen", "id": 1 << 40}); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := conn.PlayRandom(ctx, rand.New(rand.NewPCG(5, uint64(i))), func(f client.Frame) bool {
				return f.Type == "event" && f.Kind == "day"
			})
			if err != nil {
				t.Errorf("seat %d: %v", i+1, err)
			}
			go func() { // the day's frames, until the connection closes
				for range conn.Frames {
				}
			}()
		}()
	}
	night := func() bool { v := rm.voices.Load(); return v != nil && v.Night }
	var nightTicks []int // the ticks made wholly at night, as the game told it
	for dawn := false; !dawn; {
		before := night()
		tick()
		after := night()
		if before && after {
			nightTicks = append(nightTicks, k)
		}
		dawn = len(nightTicks) > 0 && !after
		for len(behind()) > 0 {
			if ctx.Err() != nil {
				t.Fatalf("tick %d never reached %v", k, behind())
			}
			time.Sleep(time.Millisecond) // polling a state, not a timing
		}
	}
	wg.Wait()
	// How many ticks fit in the night is the machine's speed; the checks
	// below hold tick by tick, and need a tick to hear the pack in.
	if len(nightTicks) < 2 {
		t.Fatalf("only %d ticks at night: too few to hear anybody", len(nightTicks))
	}
	first, last := nightTicks[0], nightTicks[len(nightTicks)-1]
	if last-first+1 != len(nightTicks) || first <= warm {
		t.Fatalf("the night's ticks are not one run after the warm-up (%d): %v", warm, nightTicks)
	}

	// One packet received, as a listener could see it, relative to the
	// one before on its track.
	type seen struct {
		tick        int // from nightfall's first tick
		dSeq, dTime int
		size        int
		ext         bool
	}
	shape := func(l *listener, tr string) ([]seen, []*rtp.Packet) {
		var out []seen
		var night []*rtp.Packet
		var prev *rtp.Packet
		for _, p := range l.b.Packets(tr) {
			k, ok := l.ticks[p.Timestamp]
			if !ok {
				t.Fatalf("%s got on %s a packet of no tick made (timestamp %d)", l.name, tr, p.Timestamp)
			}
			if k >= first && k <= last {
				s := seen{tick: k - first, size: len(p.Payload), ext: p.Extension}
				if prev != nil {
					s.dSeq, s.dTime = int(p.SequenceNumber-prev.SequenceNumber), int(p.Timestamp-prev.Timestamp)
				}
				out = append(out, s)
				night = append(night, p)
			}
			prev = p
		}
		return out, night
	}
	wolves := map[int]bool{}
	for i, r := range roles {
		wolves[players[i].Seat] = r == "werewolf"
	}
	var want []seen
	for i := range last - first + 1 {
		want = append(want, seen{tick: i, dSeq: 1, dTime: 960, size: voice.FrameSize})
	}
	heardMate := map[int]bool{}
	for _, l := range ls {
		if got := l.b.Tracks(); len(got) != len(tracksOf(l)) {
			t.Errorf("%s got packets on %d tracks, not %d: %v", l.name, len(got), len(tracksOf(l)), got)
		}
		for _, tr := range tracksOf(l) {
			got, night := shape(l, tr)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s's night on %s differs from one packet of %d bytes a tick:\n%v", l.name, tr, voice.FrameSize, got)
			}
			var from int
			fmt.Sscanf(tr, "seat-%d", &from)
			for _, p := range night {
				switch {
				case bytes.Equal(p.Payload, silence):
				case !wolves[l.seat] || !wolves[from]:
					t.Fatalf("%s heard %s at night: %x", l.name, tr, p.Payload)
				case bytes.Contains(p.Payload, synth.Mark(byte(from))[4:]):
					heardMate[l.seat] = true
				default:
					t.Fatalf("%s got on %s a frame nobody spoke: %x", l.name, tr, p.Payload)
				}
			}
		}
	}
	// Silence everywhere would pass the checks above: the pack did hear itself.
	for s, w := range wolves {
		if w && !heardMate[s] {
			t.Errorf("the wolf of seat %d never heard his mate at night", s)
		}
	}
	t.Logf("%d listeners, %d ticks at night (after %d of warm-up)", len(ls), len(nightTicks), warm)
}
