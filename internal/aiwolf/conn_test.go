package aiwolf_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
)

// TestAnAgentThatThinksLongIsNeverDropped: the contest's Python client
// answers a ping only inside its read, so an agent thinking over a
// request answers no ping. An agent that thinks 10 s over each of its
// first requests, with pings every 100 ms that must be answered within
// 500 ms, keeps its seat: its thoughts are in the others' talk history,
// it is never probed nor told INITIALIZE again, and it is told FINISH.
func TestAnAgentThatThinksLongIsNeverDropped(t *testing.T) {
	const think = 10 * time.Second
	g := newGateway(t, "", aiwolf.Options{Players: 5, ActionTimeout: 60 * time.Second,
		PingEvery: 100 * time.Millisecond, PingWait: 500 * time.Millisecond})
	var mu sync.Mutex
	var said []string
	agents := startAgents(t, g, "llm", 5, func(i int, a *testAgent) {
		if i != 0 {
			return
		}
		a.reply = func(a *testAgent, p *packet) (string, bool) {
			mu.Lock()
			n := len(said)
			mu.Unlock()
			if p.Request == "TALK" && n < 2 {
				time.Sleep(think) // not reading: no pong
				text := fmt.Sprintf("thought %d", n+1)
				mu.Lock()
				said = append(said, text)
				mu.Unlock()
				return text, true
			}
			return honest(a, p)
		}
	})
	for _, a := range agents {
		a.wait(t, 180*time.Second)
	}
	ps := agents[0].got()
	inits := 0
	for _, p := range ps[1:] {
		switch p.Request {
		case "NAME":
			t.Errorf("the thinking agent was probed: %v", lastRequests(ps, 100))
		case "INITIALIZE":
			inits++
		}
	}
	if inits != 1 || ps[len(ps)-1].Request != "FINISH" {
		t.Fatalf("the thinking agent lost its seat: %d INITIALIZE, requests %v", inits, lastRequests(ps, 100))
	}
	if len(said) != 2 {
		t.Fatalf("the thinking agent thought %d times, want 2", len(said))
	}
	heard := map[string]bool{}
	for _, a := range agents[1:] {
		for _, p := range a.got() {
			for _, tk := range p.TalkHistory {
				heard[tk.Text] = true
			}
		}
	}
	for _, text := range said {
		if !heard[text] {
			t.Errorf("%q, said after %v of thought, is in nobody's talk history", text, think)
		}
	}
}

// TestAnAgentThatDiesIsNoticedAndTheBotPlaysItsSeat: a dead agent is a
// closed connection, or a process that stops reading (its socket stays
// open). Either is noticed within the reference's timeouts (the request
// it owes, then the NAME probe; or a ping while it owes none): the bot
// plays its seat and the others play on to FINISH.
func TestAnAgentThatDiesIsNoticedAndTheBotPlaysItsSeat(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stops bool // stops reading, else closes its connection
	}{
		{"closes its connection", false},
		{"stops reading", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGateway(t, "", aiwolf.Options{Players: 5, ActionTimeout: time.Second, ResponseTimeout: time.Second,
				PingEvery: 100 * time.Millisecond})
			wake := make(chan struct{})
			dies := func(p *packet) bool { return p.Request == "DAILY_INITIALIZE" && p.Info.Day == 1 }
			agents := startAgents(t, g, "dead", 5, func(i int, a *testAgent) {
				switch {
				case i != 1:
				case tc.stops:
					var once sync.Once
					a.reply = func(a *testAgent, p *packet) (string, bool) {
						if dies(p) {
							once.Do(func() { <-wake })
						}
						return honest(a, p)
					}
				default:
					a.drop = func(a *testAgent, p *packet) bool { return dies(p) }
				}
			})
			rest := append([]*testAgent{agents[0]}, agents[2:]...)
			waitAll(t, rest)
			close(wake) // it reads again: what was sent before its end, then the close
			agents[1].wait(t, 30*time.Second)
			// Noticed: the request it owed timed out and the NAME probe
			// went out (the game may end before the probe's own timeout),
			// or its connection was ended before FINISH.
			ps := agents[1].got()
			died, probed, told := false, false, false
			for _, p := range ps[1:] {
				died = died || dies(&p)
				probed = probed || died && p.Request == "NAME"
				told = told || p.Request == "FINISH"
			}
			if !died {
				t.Fatalf("the agent never reached day 1: %v", lastRequests(ps, 20))
			}
			if told && !probed {
				t.Errorf("the dead agent was told FINISH, never probed: its death went unnoticed (%v)", lastRequests(ps, 20))
			}
			for _, a := range rest {
				checkPackets(t, a, 5)
			}
		})
	}
}

// TestNight0WhisperIsHeardOnDay0: on 13 players the wolves whisper on
// day 0 as the reference's: in the morning, before the day's talk, and
// on night 0, after DAILY_FINISH and before the dawn of day 1, in packets
// of day 0, each hearing the others in whisper_history; no WHISPER comes
// between day 1's DAILY_INITIALIZE and its DAILY_FINISH.
func TestNight0WhisperIsHeardOnDay0(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 13})
	agents := startAgents(t, g, "pack", 13, nil)
	waitAll(t, agents)
	wolves := 0
	for _, a := range agents {
		ps := a.got()
		if ps[1].Info.RoleMap[ps[1].Info.Agent] != "WEREWOLF" {
			continue
		}
		wolves++
		me := ps[1].Info.Agent
		stage := 0 // 0: before night 0's DAILY_FINISH; 1: night 0; 2: day 1; 3: later
		whispers, morning, talked, heard := 0, 0, false, map[string]bool{}
		for _, p := range ps[1:] {
			talked = talked || p.Request == "TALK"
			if stage == 0 && p.Request == "WHISPER" {
				if talked {
					t.Errorf("%s: a WHISPER of day 0 after its talk began", me)
				}
				morning++
			}
			switch {
			case p.Request == "DAILY_FINISH" && stage == 0:
				stage = 1
			case p.Request == "DAILY_INITIALIZE" && stage == 1:
				stage = 2
			case p.Request == "DAILY_FINISH" && stage == 2:
				stage = 3
			}
			if p.Request == "WHISPER" {
				switch stage {
				case 1:
					whispers++
					if p.Info.Day != 0 {
						t.Errorf("%s: night 0's WHISPER carries day %d", me, p.Info.Day)
					}
				case 2:
					t.Errorf("%s: a WHISPER between day 1's DAILY_INITIALIZE and DAILY_FINISH (day %d)", me, p.Info.Day)
				}
			}
			if stage == 1 {
				for _, w := range p.WhisperHistory {
					if w.Agent != me && w.Day == 0 && !w.Over && !w.Skip {
						heard[w.Agent] = true
					}
				}
			}
		}
		if morning == 0 {
			t.Errorf("%s was never asked to WHISPER on day 0's morning: %v", me, lastRequests(ps, 200))
		}
		if whispers == 0 {
			t.Errorf("%s was never asked to WHISPER on night 0: %v", me, lastRequests(ps, 200))
		}
		if len(heard) != 2 {
			t.Errorf("%s heard the whispers of %v on night 0, not its two mates", me, heard)
		}
	}
	if wolves != 3 {
		t.Fatalf("%d wolves among the agents", wolves)
	}
}
