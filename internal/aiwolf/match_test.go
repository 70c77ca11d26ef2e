package aiwolf_test

import (
	"fmt"
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
	}
}
