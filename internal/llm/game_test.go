package llm

import (
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wolfden/wolfden/rules"
)

// TestLLMSeatsPlayAWholeGame: three seats played through the endpoint, the
// others by smart bots; the game ends, and the model's seats played their
// own commands (none by a stand-in bot), every one from the legal choices.
func TestLLMSeatsPlayAWholeGame(t *testing.T) {
	f := newFake(t, plain)
	m := startMatch(t, f, f.config(), 11, 1, 3, 6)
	if w := m.wait(t, 90*time.Second); w == rules.NoCamp {
		t.Fatal("no winner")
	}
	for _, s := range m.seats {
		mine, bots, _ := m.commands(t, s)
		if len(mine) == 0 || bots != 0 {
			t.Errorf("seat %d: %s commands of its own, %d by a bot", s, fmtCmds(mine), bots)
		}
		if len(f.conversations(int(s))) == 0 {
			t.Errorf("seat %d never asked the model", s)
		}
	}
	if f.bad.Load() != 0 {
		t.Fatalf("%d requests were not chat completions with the key", f.bad.Load())
	}
}

// TestAMalformedReplyIsAskedAgain: every first reply is not JSON; the
// retry, told why, answers; the seat plays every command itself.
func TestAMalformedReplyIsAskedAgain(t *testing.T) {
	f := newFake(t, func(seat int, msgs []Message) (string, time.Duration) {
		if len(msgs) == 2 {
			return "I would vote for the quiet one, I think.", 0
		}
		return plain(seat, msgs[:2])
	})
	m := startMatch(t, f, f.config(), 12, 2)
	m.wait(t, 90*time.Second)
	mine, _, _ := m.commands(t, 2)
	convs := f.conversations(2)
	if len(mine) == 0 || len(convs) < 2 {
		t.Fatalf("%s commands, %d calls", fmtCmds(mine), len(convs))
	}
	for _, c := range convs {
		if len(c) == 4 && !strings.Contains(c[3].Content, "holds no JSON object") {
			t.Fatalf("the retry does not say why: %q", c[3].Content)
		}
	}
}

var retryTarget = regexp.MustCompile(`seat 99 is not a legal target`)

// TestAnIllegalTargetIsAskedAgainOnceThenTheLegalOneIsPlayed: the first
// reply names seat 99 for a command with targets; the retry names a legal
// one, which is played.
func TestAnIllegalTargetIsAskedAgainOnceThenTheLegalOneIsPlayed(t *testing.T) {
	f := newFake(t, func(seat int, msgs []Message) (string, time.Duration) {
		a := pick(msgs[:2])
		if _, ok := a["target"]; ok && len(msgs) == 2 {
			a["target"] = 99
			return js(map[string]any{"action": a}), 0
		}
		return plain(seat, msgs[:2])
	})
	m := startMatch(t, f, f.config(), 13, 3) // the seer: a check every night, votes by day
	m.wait(t, 90*time.Second)
	retried := 0
	for _, c := range f.conversations(3) {
		if len(c) == 4 {
			if !retryTarget.MatchString(c[3].Content) {
				t.Fatalf("the retry does not name the illegal target: %q", c[3].Content)
			}
			retried++
		}
		if len(c) > 4 {
			t.Fatal("asked more than twice")
		}
	}
	mine, _, _ := m.commands(t, 3)
	checks := 0
	for _, c := range mine {
		if strings.Contains(c, " 99") {
			t.Fatalf("an illegal target was sent: %q", c)
		}
		if strings.Contains(c, "check") {
			checks++
		}
	}
	if retried == 0 || checks == 0 {
		t.Fatalf("%d retries, commands %s", retried, fmtCmds(mine))
	}
}

// TestTwoIllegalRepliesTakeTheDefault: the model always names an illegal
// target; after the retry nothing is sent, the timer applies the default,
// and the game goes on to its end.
func TestTwoIllegalRepliesTakeTheDefault(t *testing.T) {
	f := newFake(t, func(seat int, msgs []Message) (string, time.Duration) {
		return js(map[string]any{"action": map[string]any{"cmd": "vote", "target": 99}}), 0
	})
	m := startMatch(t, f, f.config(), 14, 3)
	m.wait(t, 90*time.Second)
	mine, bots, timeouts := m.commands(t, 3)
	if len(mine) != 0 || bots != 0 || timeouts == 0 {
		t.Fatalf("seat 3 played %s (%d by a bot), %d timeouts", fmtCmds(mine), bots, timeouts)
	}
	for _, c := range f.conversations(3) {
		if len(c) > 4 {
			t.Fatal("asked more than twice")
		}
	}
}

// TestASlowEndpointLetsTheGameGoOn: the model takes longer than any timer;
// every call is cut short before its step's timer, the defaults apply and
// the game ends.
func TestASlowEndpointLetsTheGameGoOn(t *testing.T) {
	f := newFake(t, func(seat int, msgs []Message) (string, time.Duration) {
		return js(map[string]any{"action": pick(msgs)}), time.Minute
	})
	m := startMatch(t, f, f.config(), 15, 3, 6)
	start := time.Now()
	if _, err := m.a.Status(); err != nil { // the actor answers while calls hang
		t.Fatal(err)
	}
	m.wait(t, 90*time.Second)
	for _, s := range m.seats {
		if mine, bots, _ := m.commands(t, s); len(mine) != 0 || bots != 0 {
			t.Fatalf("seat %d played %s", s, fmtCmds(mine))
		}
	}
	calls := len(f.conversations(3)) + len(f.conversations(6))
	deadline := time.Now().Add(5 * time.Second)
	for int(f.cancelled.Load()) < calls && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if calls == 0 || int(f.cancelled.Load()) != calls {
		t.Fatalf("%d calls, %d cut short", calls, f.cancelled.Load())
	}
	t.Logf("%d calls cut short, the game took %v", calls, time.Since(start).Round(time.Millisecond))
}

var livingLine = regexp.MustCompile(`Living players: seats ([\d, ]+)\.`)

// TestASpeechClaimingTheDeadAliveIsCorrected: the model says a dead player
// is alive and names a wolf; the sentence about the dead is left out, the
// rest is said, and "seat N is a wolf" becomes a structured claim.
func TestASpeechClaimingTheDeadAliveIsCorrected(t *testing.T) {
	var lies atomic.Int32
	f := newFake(t, func(seat int, msgs []Message) (string, time.Duration) {
		if !hasFloor(msgs) {
			return plain(seat, msgs)
		}
		alive := map[int]bool{}
		for _, s := range strings.Split(livingLine.FindStringSubmatch(msgs[1].Content)[1], ", ") {
			var n int
			fmt.Sscan(s, &n)
			alive[n] = true
		}
		d, w := 0, 0
		for s := 1; s <= 12; s++ {
			if !alive[s] && d == 0 {
				d = s
			}
			if alive[s] && s != seat && w == 0 {
				w = s
			}
		}
		speech := fmt.Sprintf("Seat %d is a wolf.", w)
		if d != 0 {
			lies.Add(1)
			speech = fmt.Sprintf("Seat %d is still alive, I saw it. Seat %d is a wolf.", d, w)
		}
		return js(map[string]any{"speech": speech}), 0
	})
	m := startMatch(t, f, f.config(), 16, 2, 5)
	m.wait(t, 90*time.Second)
	said := append(m.chats(t, 2), m.chats(t, 5)...)
	if len(said) == 0 {
		t.Fatal("nothing was said")
	}
	for _, s := range said {
		if strings.Contains(s, "still alive") {
			t.Fatalf("said: %q", s)
		}
		if !regexp.MustCompile(`^Seat \d+ is a wolf\.$`).MatchString(s) {
			t.Fatalf("said: %q", s)
		}
	}
	accused := 0
	for _, e := range m.events(t) {
		if e.Kind == rules.EvClaim && e.Value == rules.ClaimWolf && (e.Seat == 2 || e.Seat == 5) {
			accused++
		}
	}
	if accused == 0 || lies.Load() == 0 {
		t.Fatalf("%d structured claims came of the speeches, %d speeches claimed a dead player alive", accused, lies.Load())
	}
	t.Logf("%d speeches (%d claiming a dead player alive), %d accusations", len(said), lies.Load(), accused)
}

func TestPromptSaysTheRulesOfTheReply(t *testing.T) {
	s := systemPrompt(3, 12, "zh-Hans")
	for _, want := range []string{"seat 3 of a table of 12", `"action"`, "简体中文", "at most 2 claims"} {
		if !strings.Contains(s, want) {
			t.Errorf("the system prompt lacks %q", want)
		}
	}
}
