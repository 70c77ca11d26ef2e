package aiwolf_test

import (
	"fmt"
	"strings"
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
