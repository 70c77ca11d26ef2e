package aiwolf_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
)

// The agents that misbehave: each game must still reach FINISH, the seat
// played by the bot where its agent failed.

// logOf downloads the last finished game's request log.
func logOf(t *testing.T, g *gateway) string {
	t.Helper()
	rooms := g.logs.list()
	if len(rooms) == 0 {
		t.Fatal("the gateway started no game")
	}
	return download(t, g, rooms[len(rooms)-1], "aiwolf-json")
}

// download reads a finished room's AIWolf log; the room's end is stored
// just after its agents are told, so it is polled for.
func download(t *testing.T, g *gateway, room, format string) string {
	t.Helper()
	var body string
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if code := get(t, g.http.URL+"/api/rooms/"+room+"/replay?format="+format, &body); code == 200 {
			return body
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %s log for room %q: %s", format, room, body)
	return ""
}

func startAgents(t *testing.T, g *gateway, team string, n int, tweak func(i int, a *testAgent)) []*testAgent {
	t.Helper()
	agents := make([]*testAgent, n)
	for i := range agents {
		agents[i] = &testAgent{name: fmt.Sprintf("%s%d", team, i+1)}
		if tweak != nil {
			tweak(i, agents[i])
		}
		agents[i].run(t, g.ws)
	}
	return agents
}

func waitAll(t *testing.T, agents []*testAgent) {
	t.Helper()
	for _, a := range agents {
		a.wait(t, 120*time.Second)
	}
}

func TestAnAgentThatTimesOutIsPlayedByTheBotAndItsLateReplyIsThrownAway(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 5, ActionTimeout: 400 * time.Millisecond, ResponseTimeout: 5 * time.Second})
	var stalled atomic.Int32
	agents := startAgents(t, g, "slow", 5, func(i int, a *testAgent) {
		a.reply = func(a *testAgent, p *packet) (string, bool) {
			switch p.Request {
			case "VOTE", "DIVINE", "ATTACK":
				if stalled.CompareAndSwap(0, 1) {
					// No answer in time: the bot plays the step; the late
					// answer comes with the probe's and must be thrown away.
					go func() {}()
					time.Sleep(600 * time.Millisecond)
					return "LATE-REPLY", true
				}
			}
			return honest(a, p)
		}
	})
	waitAll(t, agents)
	for _, a := range agents {
		checkPackets(t, a, 5)
	}
	if stalled.Load() != 1 {
		t.Fatal("no agent was asked an action")
	}
	log := logOf(t, g)
	if !strings.Contains(log, "no reply in time") {
		t.Errorf("the log does not record the timeout: %s", log)
	}
	if strings.Contains(log, "LATE-REPLY") {
		t.Errorf("the late reply was taken for another request's: %s", log)
	}
	probes := 0
	for _, a := range agents {
		for _, p := range a.got()[1:] {
			if p.Request == "NAME" {
				probes++
			}
		}
	}
	if probes != 1 {
		t.Errorf("%d NAME probes mid-game, want 1", probes)
	}
}

func TestAnAgentThatSendsGarbageIsRefusedWithItsReason(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 5})
	agents := startAgents(t, g, "junk", 5, func(i int, a *testAgent) {
		if i != 0 {
			return
		}
		a.reply = func(a *testAgent, p *packet) (string, bool) {
			switch p.Request {
			case "VOTE", "DIVINE", "ATTACK":
				return "{\"agentIdx\": 3} drop table", true
			case "TALK":
				return strings.Repeat("長", 900), true // over wolfden's 500 characters: cut
			}
			return honest(a, p)
		}
	})
	waitAll(t, agents)
	for _, a := range agents {
		checkPackets(t, a, 5)
	}
	log := logOf(t, g)
	if !strings.Contains(log, `names no agent of this game`) {
		t.Errorf("the log does not record the refusal: %s", log)
	}
}

func TestAnAgentThatDisconnectsIsPlayedByTheBotUntilItReconnectsByName(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 5, PingEvery: 200 * time.Millisecond, PingWait: time.Second})
	var dropped atomic.Bool
	agents := startAgents(t, g, "flaky", 5, func(i int, a *testAgent) {
		if i != 2 {
			return
		}
		a.drop = func(a *testAgent, p *packet) bool {
			return p.Request == "DAILY_INITIALIZE" && p.Info.Day == 1 && dropped.CompareAndSwap(false, true)
		}
	})
	// The third agent drops at day 1's dawn and comes back under its name.
	agents[2].wait(t, 60*time.Second)
	back := &testAgent{name: agents[2].name}
	back.run(t, g.ws)
	rest := append([]*testAgent{back}, agents[:2]...)
	rest = append(rest, agents[3:]...)
	select {
	case <-back.done:
	case <-time.After(30 * time.Second):
		for _, a := range rest {
			t.Logf("%s: %v", a.name, lastRequests(a.got(), 12))
		}
	}
	waitAll(t, rest)
	ps := back.got()
	if len(ps) < 3 || ps[1].Request != "INITIALIZE" || ps[len(ps)-1].Request != "FINISH" {
		t.Fatalf("the reconnected agent got %v", lastRequests(ps, 50))
	}
	if ps[1].Info.GameID != agents[0].got()[1].Info.GameID {
		t.Errorf("the agent came back into another game: %s, not %s", ps[1].Info.GameID, agents[0].got()[1].Info.GameID)
	}
	if !dropped.Load() {
		t.Fatal("the agent never dropped")
	}
	for _, a := range rest {
		checkPackets(t, a, 5)
	}
}

// Thirteen agents, two of which leave at once for good: the bot plays
// their seats (whatever their roles, wolves included) and the game ends.
func TestAGameGoesOnWithoutAgentsThatNeverComeBack(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 13, PingEvery: 200 * time.Millisecond, PingWait: time.Second})
	agents := startAgents(t, g, "gone", 13, func(i int, a *testAgent) {
		if i < 2 {
			a.drop = func(a *testAgent, p *packet) bool { return p.Request == "INITIALIZE" }
		}
	})
	waitAll(t, agents[2:])
	for _, a := range agents[2:] {
		checkPackets(t, a, 13)
	}
}
