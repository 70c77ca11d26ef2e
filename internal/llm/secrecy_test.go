package llm

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// person is a connection on a seat, as a person's second tab would be: it
// keeps every message it is sent, and may write to the wolves' channel at
// night.
type person struct {
	mu   sync.Mutex
	msgs [][]byte
}

func watch(t *testing.T, a *game.Actor, seat rules.Seat, wolfChat string) *person {
	t.Helper()
	p := &person{}
	sub := game.NewSub(seat, 4096, nil)
	if err := a.Join(sub, 0, 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		said := map[int]bool{}
		id := int64(1000)
		for {
			select {
			case msg := <-sub.Out:
				p.mu.Lock()
				p.msgs = append(p.msgs, msg)
				p.mu.Unlock()
				if wolfChat == "" {
					continue
				}
				for _, line := range strings.Split(string(msg), "\n") {
					var st game.StateFrame
					if json.Unmarshal([]byte(line), &st) == nil && st.Type == "state" && st.Night &&
						slices.Contains(st.Channels, game.ChanWolves) && !said[st.Day] {
						said[st.Day] = true
						id++
						_ = a.Chat(sub, id, game.ChanWolves, wolfChat)
					}
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return p
}

// told is what a record of the person's messages holds: the parts of a
// prompt each state it was sent makes (at the floor and not), and its
// whole stream.
func (p *person) told(t *testing.T, seat rules.Seat) (states map[string]bool, history string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := newRecord(seat, 12)
	states = map[string]bool{}
	for _, m := range p.msgs {
		state, err := r.take(m)
		if err != nil {
			t.Fatal(err)
		}
		if state && !r.over {
			states[r.head()+"|"+r.now(false)], states[r.head()+"|"+r.now(true)] = true, true
		}
	}
	return states, r.history()
}

// split cuts a prompt into its state's parts and its stream.
func split(prompt string) (state, history string) {
	i := strings.Index(prompt, "\nWhat the moderator")
	j := strings.Index(prompt, "\nNow: ")
	return prompt[:i] + "|" + prompt[j:], prompt[i:j]
}

const (
	marker      = "MARKER-the-wolves-whisper"
	modelMarker = "MARKER-the-model-whispers"
)

func bytesJoin(msgs [][]byte) []byte {
	var out []byte
	for _, m := range msgs {
		out = append(out, m...)
	}
	return out
}

// TestThePromptHoldsOnlyWhatAPersonOnTheSeatIsSent: a wolf, a villager and
// the seer are played through the model; a person's connection on each of
// their seats keeps what it is sent, and a person at wolf seat 4 writes to
// the wolves' channel every night. Every prompt each player sent is one a
// record of the person's messages makes, word for word; and the seats
// differ as their cards do: the wolves' whisper and the team reach the
// wolf's prompts only, checks the seer's only, and no prompt of the
// villager names a card of another seat.
func TestThePromptHoldsOnlyWhatAPersonOnTheSeatIsSent(t *testing.T) {
	f := newFake(t, func(seat int, msgs []Message) (string, time.Duration) {
		if strings.Contains(msgs[1].Content, "You may also whisper") {
			return js(map[string]any{"action": pick(msgs), "whisper": modelMarker + " let us take the seer"}), 0
		}
		return plain(seat, msgs)
	})
	people := map[rules.Seat]*person{}
	var mate *person
	m := startMatchWith(t, f.config(), 21, func(a *game.Actor) {
		people[1], people[2], people[3] = watch(t, a, 1, ""), watch(t, a, 2, ""), watch(t, a, 3, "")
		mate = watch(t, a, 4, marker) // the wolf who whispers: not seated by a bot, not by the model
	}, 1, 2, 3)
	m.wait(t, 120*time.Second)
	time.Sleep(100 * time.Millisecond) // the people's last messages
	text := map[rules.Seat]string{}
	for s, p := range people {
		states, history := p.told(t, s)
		convs := f.conversations(int(s))
		if len(convs) == 0 {
			t.Fatalf("seat %d never asked", s)
		}
		for _, c := range convs {
			st, h := split(c[1].Content)
			if !states[st] {
				t.Fatalf("seat %d sent a prompt whose state no state its person was sent makes:\n%s", s, c[1].Content)
			}
			if !strings.HasPrefix(history, h) {
				t.Fatalf("seat %d sent a prompt whose stream is not the beginning of its person's:\n%s", s, c[1].Content)
			}
			text[s] += c[0].Content + c[1].Content
		}
	}
	for _, tc := range []struct {
		what string
		in   string
		seat map[rules.Seat]bool // the seats whose prompts hold it
	}{
		{"the wolves' whisper", marker, map[rules.Seat]bool{1: true}},
		{"the model wolf's whisper", modelMarker, map[rules.Seat]bool{1: true}},
		{"the offer to whisper", "You may also whisper", map[rules.Seat]bool{1: true}},
		{"the wolf team", "The wolves you know of: seats 1, 4, 8, 11", map[rules.Seat]bool{1: true}},
		{"a wolf's pick", "picks seat", map[rules.Seat]bool{1: true}},
		{"a seer's check", "Your check:", map[rules.Seat]bool{3: true}},
	} {
		for s := rules.Seat(1); s <= 3; s++ {
			if got := strings.Contains(text[s], tc.in); got != tc.seat[s] {
				t.Errorf("%s (%q) in the prompts of seat %d: %v", tc.what, tc.in, s, got)
			}
		}
	}
	mate.mu.Lock()
	heard := strings.Contains(string(bytesJoin(mate.msgs)), modelMarker)
	mate.mu.Unlock()
	if !heard {
		t.Error("the model wolf's whisper did not reach its mate")
	}
	// The villager reads a card only where the table did: a claim, a card
	// shown; he knows a card only once its holder showed it (a shot, a
	// card turned up, an explosion).
	for _, line := range strings.Split(text[2], "\n") {
		for _, card := range []string{"(seer,", "(witch,", "(hunter,", "(werewolf,", "(idiot,"} {
			if strings.Contains(line, card) && !strings.Contains(line, "claims") && !strings.Contains(line, "shows the") &&
				!strings.HasPrefix(line, "Cards you know") {
				t.Errorf("the villager's prompt names a card: %q", line)
			}
		}
		if !strings.HasPrefix(line, "Cards you know") {
			continue
		}
		for _, k := range knownCard.FindAllStringSubmatch(line, -1) {
			shown := regexp.MustCompile(`\d+\. Seat ` + k[1] + ` (shoots|shows the|self-explodes|reveals)`)
			if !shown.MatchString(text[2]) {
				t.Errorf("the villager knows seat %s's card, which the table was not shown: %q", k[1], line)
			}
		}
	}
}

var knownCard = regexp.MustCompile(`seat (\d+) is [a-z ]+ \(`)

// TestTheSamePromptsForTheSameGame: a game played again from its seed,
// with the model answering alike, asks the model the same conversations,
// byte for byte, with the same seed and temperature.
func TestTheSamePromptsForTheSameGame(t *testing.T) {
	run := func() ([][]Message, []int64) {
		f := newFake(t, plain)
		m := startMatch(t, f, f.config(), 31, 5)
		m.wait(t, 90*time.Second)
		return f.conversations(5), f.seeds(5)
	}
	a, sa := run()
	b, sb := run()
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d and %d calls", len(a), len(b))
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("call %d differs:\n%s\n----\n%s", i, a[i][1].Content, b[i][1].Content)
		}
	}
	want := SeatSeed(31, 5)
	for _, s := range append(sa, sb...) {
		if s != want {
			t.Fatalf("seed %d sent, want %d", s, want)
		}
	}
	if SeatSeed(31, 5) == SeatSeed(31, 6) || SeatSeed(31, 5) == SeatSeed(32, 5) {
		t.Fatal("seats or games share a seed")
	}
}
