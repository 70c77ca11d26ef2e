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
