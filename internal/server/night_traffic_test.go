package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/boardfile"
	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// nightTimers: slots that are whole numbers of 10 ms ticks, days that go
// by quickly.
var nightTimers = map[string]string{"setup": "40ms", "night": "60ms", "witch": "40ms", "tick": "10ms",
	"speech": "20ms", "vote": "40ms", "other": "30ms", "bot": "0s"}

// wireMsg is one WebSocket message as a client put it together from its
// frames: a night message runs from its tick frame to its padding.
type wireMsg struct {
	tick    int // -1: not a night message
	size    int
	night   bool // it carries the night event (nightfall)
	nightNo int  // and that night's number
	day     bool // it carries the day event (dawn)
	frames  int
	joined  bool   // the message a connection gets as it joins at night, off the beat
	first   string // the first frame, to name a message in a failure
}

// wiretap folds the frames a connection receives back into its messages.
type wiretap struct {
	msgs []wireMsg
	open *wireMsg
}

func (w *wiretap) frame(f client.Frame) {
	switch {
	case f.Type == "tick":
		var t game.TickFrame
		_ = json.Unmarshal(f.Raw, &t)
		w.open = &wireMsg{tick: t.N, size: len(f.Raw), joined: t.N < 0}
		return
	case w.open == nil:
		w.msgs = append(w.msgs, wireMsg{tick: -1, size: len(f.Raw), frames: 1, first: string(f.Raw),
			night: f.Type == "event" && f.Kind == "night", day: f.Type == "event" && f.Kind == "day"})
		return
	}
	m := w.open
	m.size += 1 + len(f.Raw)
	if f.Type == "pad" {
		w.msgs, w.open = append(w.msgs, *m), nil
		return
	}
	m.frames++
	if f.Type == "event" && f.Kind == "night" {
		var e game.EventFrame
		_ = json.Unmarshal(f.Raw, &e)
		m.night, m.nightNo = true, int(e.Value)
	}
	m.day = m.day || (f.Type == "event" && f.Kind == "day")
}

// randomBoard draws a board of 6 to 12 players from the implemented roles.
func randomBoard(r *rand.Rand) string {
	n := 6 + r.IntN(7)
	var village, wolves []string
	for _, role := range rules.Roles() {
		switch {
		case !role.Implemented() || role == rules.Villager || role == rules.Werewolf:
		case role.IsWolf():
			wolves = append(wolves, role.String())
		default:
			village = append(village, role.String())
		}
	}
	cards := []string{"werewolf"}
	for range max(n/4-1, 0) {
		if r.IntN(3) == 0 {
			cards = append(cards, wolves[r.IntN(len(wolves))])
		} else {
			cards = append(cards, "werewolf")
		}
	}
	r.Shuffle(len(village), func(i, j int) { village[i], village[j] = village[j], village[i] })
	for _, v := range village[:r.IntN(min(n-len(cards), len(village))+1)] {
		switch v {
		case "thief": // the thief's two extra cards
			cards = append(cards, "villager", "villager")
		case "sister": // a pair
			cards = append(cards, v)
		case "brother": // three
			cards = append(cards, v, v)
		}
		cards = append(cards, v)
	}
	for len(cards) < n || (slices.Contains(cards, "thief") && len(cards) < n+2) {
		cards = append(cards, "villager")
	}
	first := []string{"night", "day"}[r.IntN(2)]
	return fmt.Sprintf("players: %d\ncards: [%s]\noptions:\n  first_phase: %s\n", n, strings.Join(cards, ", "), first)
}

// TestNightsLookTheSameFromEverySeat plays games of people over real
// WebSockets on every preset and on random boards: the players act at
// random, the wolves and the siblings talk at night. For every night, each seat's
// connection and a spectator's receive the same messages — the same
// number, each of the night's size, at the same ticks — and every frame
// from nightfall to dawn travels inside them.
func TestNightsLookTheSameFromEverySeat(t *testing.T) {
	ts := newTestServer(t)
	ts.specLim = newHostLimits(0) // a spectator a game, all from one address
	var bodies []map[string]any
	for _, p := range rules.Presets() {
		bodies = append(bodies, map[string]any{"preset": p.Name, "players": p.MinPlayers})
	}
	// The sisters and the brothers meet and talk on every night.
	bodies = append(bodies, map[string]any{"board": "players: 9\ncards: [werewolf, werewolf, seer, witch, sister, sister, brother, brother, brother]\n" +
		"options:\n  sisters_wake_every: \"1\"\n  brothers_wake_every: \"1\"\n"})
	r := rand.New(rand.NewPCG(7, 7))
	for len(bodies) < len(rules.Presets())+5 {
		text := randomBoard(r)
		if f, err := boardfile.Parse("board", []byte(text)); err != nil {
			continue
		} else if _, err := rules.New(f.Board, 1, nil); err != nil {
			continue
		}
		bodies = append(bodies, map[string]any{"board": text})
	}
	nights := 0
	for i, body := range bodies {
		body["timers"] = nightTimers
		name := fmt.Sprint(body["preset"])
		if body["board"] != nil {
			name = fmt.Sprintf("random board %d", i)
		}
		t.Run(name, func(t *testing.T) { nights += nightsLookTheSame(t, ts, body, uint64(i)) })
	}
	t.Logf("%d games, %d nights compared", len(bodies), nights)
	if nights < len(rules.Presets()) {
		t.Errorf("only %d nights were played", nights)
	}
}

// nightsLookTheSame plays one game and compares its nights; it returns
// how many nights it compared.
func nightsLookTheSame(t *testing.T, ts *testServer, body map[string]any, seed uint64) int {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	room, players := ts.table(t, body)
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+room.Room.ID+"/start", room.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	taps := make([]wiretap, len(players)+1)
	var wg sync.WaitGroup
	for i, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := client.Dial(ctx, ts.http.URL, room.Room.ID, p.Token, 0, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			talked := -1
			night := 0
			_, err = conn.PlayRandom(ctx, rand.New(rand.NewPCG(seed, uint64(i))), func(f client.Frame) bool {
				taps[i].frame(f)
				if f.Type == "event" && f.Kind == "night" {
					var e game.EventFrame
					_ = json.Unmarshal(f.Raw, &e)
					night = int(e.Value)
				}
				if f.Type == "state" && f.Night && talked != night {
					var st game.StateFrame
					_ = json.Unmarshal(f.Raw, &st)
					for _, ch := range []string{game.ChanWolves, game.ChanSiblings, game.ChanNewlyweds} { // the sisters and the newlyweds talk too
						if slices.Contains(st.Channels, ch) {
							talked = night
							_ = conn.Send(ctx, map[string]any{"type": "chat", "id": 1 << 40, "channel": ch, "text": "tonight?"})
						}
					}
				}
				return false
			})
			if err != nil {
				t.Errorf("seat %d: %v", p.Seat, err)
			}
		}()
	}
	wg.Add(1)
	go func() { // the spectator
		defer wg.Done()
		conn, err := client.Dial(ctx, ts.http.URL, room.Room.ID, "", 0, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		for f := range conn.Frames {
			taps[len(players)].frame(f)
			if f.Type == "state" && f.Over {
				return
			}
		}
	}()
	wg.Wait()
	if t.Failed() {
		return 0
	}
	all := make([]map[int][]beat, len(taps))
	who := func(i int) string {
		if i == len(players) {
			return "the spectator"
		}
		return fmt.Sprintf("seat %d", i+1)
	}
	for i, w := range taps {
		var problems []string
		all[i], problems = nightsOf(w)
		for _, p := range problems {
			t.Errorf("%s %s", who(i), p)
		}
	}
	nights := 0
	for n, want := range all[len(players)] {
		nights++
		for i, got := range all {
			if b, ok := got[n]; ok && fmt.Sprint(b) != fmt.Sprint(want) {
				t.Errorf("night %d: %s's night messages differ from the spectator's:\n%v\n%v", n, who(i), b, want)
			}
		}
	}
	return nights
}

// beat is one night message as nightsOf keeps it.
type beat struct{ tick, size int }

// nightsOf gives a connection's nights, told live: from the night message
// that carries nightfall to the one that carries the dawn, and what breaks
// the beat. A connection that came late — the night over, or under way,
// when it connected — got the history by day, or in the message sent as
// it joined (ahead of it, the tick then due may have carried the start of
// its history with nightfall in it); it is compared on the nights it saw
// whole.
func nightsOf(w wiretap) (map[int][]beat, []string) {
	out := map[int][]beat{}
	var problems []string
	cur := -1
	for _, m := range w.msgs {
		if m.joined { // it joined while this night went on, if one did
			delete(out, cur)
			cur = -1
			continue
		}
		if m.tick == 0 && m.night { // nightfall itself, not a late connection's history
			cur = m.nightNo
		}
		if cur < 0 {
			continue
		}
		if m.tick < 0 {
			problems = append(problems, fmt.Sprintf("received a message outside the night's beat between nightfall and dawn: %+v", m))
			cur = -1
			continue
		}
		// the dawn's, the night's last, holds all that waits: a multiple of the size
		if m.size != game.NightMessage && (!m.day || m.size%game.NightMessage != 0) {
			problems = append(problems, fmt.Sprintf("received a night message of %d bytes", m.size))
		}
		out[cur] = append(out[cur], beat{m.tick, m.size})
		if m.day {
			cur = -1
		}
	}
	return out, problems
}

// TestALateSeatIsComparedOnTheNightsItSawWhole: the comparison of nights
// leaves out the night a connection joined in, even when the tick due as
// it joined carried nightfall ahead of the message it was sent as it
// joined; it still flags a message off the beat and a message of another
// size.
func TestALateSeatIsComparedOnTheNightsItSawWhole(t *testing.T) {
	night := func(tick, n int) wireMsg {
		return wireMsg{tick: tick, size: game.NightMessage, night: true, nightNo: n}
	}
	beatAt := func(tick int) wireMsg { return wireMsg{tick: tick, size: game.NightMessage} }
	dawn := func(tick int) wireMsg { return wireMsg{tick: tick, size: game.NightMessage, day: true} }
	joined := wireMsg{tick: -1, size: game.NightMessage, joined: true}
	byDay := wireMsg{tick: -1, size: 300}
	for _, c := range []struct {
		name     string
		msgs     []wireMsg
		nights   string
		problems int
	}{
		{"a whole night", []wireMsg{byDay, night(0, 1), beatAt(1), dawn(2), byDay}, "map[1:[{0 4096} {1 4096} {2 4096}]]", 0},
		{"joined as nightfall's tick was due", []wireMsg{night(0, 1), joined, beatAt(1), dawn(2), byDay, night(0, 2), dawn(1)}, "map[2:[{0 4096} {1 4096}]]", 0},
		{"joined under way", []wireMsg{joined, beatAt(3), dawn(4)}, "map[]", 0},
		{"a message off the beat", []wireMsg{night(0, 1), byDay, dawn(2)}, "map[1:[{0 4096}]]", 1},
		{"a night message of another size", []wireMsg{night(0, 1), {tick: 1, size: 100}, dawn(2)}, "map[1:[{0 4096} {1 100} {2 4096}]]", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			nights, problems := nightsOf(wiretap{msgs: c.msgs})
			if fmt.Sprint(nights) != c.nights || len(problems) != c.problems {
				t.Errorf("got %v and %d problems %q, want %v and %d", nights, len(problems), problems, c.nights, c.problems)
			}
		})
	}
}

// TestCoverFramesAreAnsweredByNothing: a client fills its nights with
// frames of one size (a cover frame, or a real one with padding): the
// server takes them without a word, and a padded command is a command.
func TestCoverFramesAreAnsweredByNothing(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	room, players := ts.table(t, map[string]any{"preset": "std-12", "timers": map[string]string{"night": "1m", "tick": "10ms"}})
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+room.Room.ID+"/start", room.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := client.Dial(ctx, ts.http.URL, room.Room.ID, players[0].Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	pad := strings.Repeat(" ", 3000)
	for _, f := range []map[string]any{
		{"type": "cover", "pad": pad},
		{"type": "act", "id": 5, "cmd": "skip", "pad": pad},
		{"type": "ping", "id": 6},
	} {
		if err := conn.Send(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	answered := map[int64]string{}
	for f := range conn.Frames {
		switch f.Type {
		case "ack", "error", "pong":
			if f.ID == 0 {
				t.Fatalf("an answer to the cover frame: %s", f.Raw)
			}
			answered[f.ID] = f.Type + " " + f.Code
		}
		if answered[5] != "" && answered[6] != "" {
			break
		}
	}
	if strings.Contains(answered[5], "bad_frame") {
		t.Fatalf("the padded command was refused: %v", answered)
	}
}
