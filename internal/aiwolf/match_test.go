package aiwolf_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/rules"
)

func seatNo(i int) rules.Seat { return rules.Seat(i) }

func TestFiveAgentsOfOneTeamPlayAWholeGame(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 5})
	agents := make([]*testAgent, 5)
	for i := range agents {
		agents[i] = &testAgent{name: fmt.Sprintf("kanolab%d", i+1)}
		agents[i].run(t, g.ws)
	}
	for _, a := range agents {
		a.wait(t, 60*time.Second)
	}
	for _, a := range agents {
		ps := a.got()
		if len(ps) < 4 || ps[0].Request != "NAME" || ps[1].Request != "INITIALIZE" || ps[len(ps)-1].Request != "FINISH" {
			t.Fatalf("%s: requests %v", a.name, lastRequests(ps, 100))
		}
		fin := ps[len(ps)-1]
		if len(fin.Info.RoleMap) != 5 {
			t.Errorf("%s: FINISH shows %d roles, not every one: %v", a.name, len(fin.Info.RoleMap), fin.Info.RoleMap)
		}
		t.Logf("%s: %v", a.name, lastRequests(ps, 100))
		// Day 0 as the reference plays it: DAILY_INITIALIZE, the talk
		// rounds, DAILY_FINISH, then the night's requests.
		var day0 []string
		for _, p := range ps[2:] {
			if p.Info.Day != 0 {
				break
			}
			if len(day0) == 0 || day0[len(day0)-1] != p.Request {
				day0 = append(day0, p.Request)
			}
		}
		want := "[DAILY_INITIALIZE TALK DAILY_FINISH]"
		if got := fmt.Sprint(day0); got != want && got != "[DAILY_INITIALIZE TALK DAILY_FINISH DIVINE]" {
			t.Errorf("%s: day 0 went %v, want %s (then DIVINE for the seer)", a.name, day0, want)
		}
	}
	csv := download(t, g, g.logs.list()[0], "aiwolf-csv")
	if !strings.Contains(csv, "\n0,talk,0,0,") {
		t.Errorf("the CSV log has no day 0 talk:\n%.600s", csv)
	}
}

// TestTheFirstAgentIsToldItsRoleBeforeTheLastSeatJoins: a matched
// game's start writes each seat's INITIALIZE as soon as that seat has
// joined, as the reference writes them one by one: the agents that came
// first, and waited longest, do not also wait for every later seat. Like
// the reference, it asks nobody anything before every seat is told: day
// 0's first speaker (seat 3 in this seeded game) joined before the last
// seat, and its TALK waits, queued. The last seat's join waits here
// until the first agent holds its DAILY_INITIALIZE; a start that joined
// every seat before writing anything would keep it waiting to the hook's
// end.
func TestTheFirstAgentIsToldItsRoleBeforeTheLastSeatJoins(t *testing.T) {
	ws, g, _ := seededGateway(t, 27, aiwolf.Options{Players: 5})
	agents := make([]*testAgent, 5)
	for i := range agents {
		agents[i] = &testAgent{name: fmt.Sprintf("early%d", i+1)}
	}
	told := func(a *testAgent) bool {
		for _, p := range a.got() {
			if p.Request == "DAILY_INITIALIZE" {
				return true
			}
		}
		return false
	}
	type seen struct{ told, held bool }
	early := make(chan seen, 1)
	var once sync.Once
	defer aiwolf.SetJoinHook(func(s rules.Seat, unsent func(rules.Seat) bool) {
		first := false
		if s == 5 {
			once.Do(func() { first = true })
		}
		if !first {
			return
		}
		var r seen
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
			if r.told = told(agents[0]); r.told {
				break
			}
		}
		r.held = unsent(3)
		early <- r
	})()
	for i, a := range agents { // one at a time: seat i+1 is agents[i]
		a.run(t, ws)
		waitFor(t, func() bool { _, w := g.Live(); return w == i+1 || i == 4 })
	}
	r := <-early
	if !r.told {
		t.Error("the first agent had no INITIALIZE and DAILY_INITIALIZE before the last seat joined")
	}
	if !r.held {
		t.Error("seat 3's TALK was not waiting, unsent, before the last seat joined")
	}
	for _, a := range agents {
		a.wait(t, 60*time.Second)
	}
	if got := agents[2].got(); len(got) < 4 || got[3].Request != "TALK" {
		t.Errorf("seat 3's fourth packet is not the first TALK: %v", got)
	}
}
