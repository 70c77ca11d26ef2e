package aiwolf_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/client"
)

func TestARestartMidGameResumesItAndTheAgentsComeBackByName(t *testing.T) {
	g1 := newGateway(t, "", aiwolf.Options{Players: 5, ActionTimeout: 30 * time.Second, ResponseTimeout: 10 * time.Second})
	stuck := make(chan struct{})
	var once atomic.Bool
	// The first agent asked to talk on day 1 keeps the game waiting: the
	// server stops then, mid-game.
	agents := startAgents(t, g1, "back", 5, func(i int, a *testAgent) {
		a.reply = func(a *testAgent, p *packet) (string, bool) {
			if p.Request == "TALK" && p.Info.Day == 1 && once.CompareAndSwap(false, true) {
				close(stuck)
				return "", false
			}
			return honest(a, p)
		}
	})
	select {
	case <-stuck:
	case <-time.After(60 * time.Second):
		t.Fatal("no agent was asked to talk on day 1")
	}
	before := agents[0].got()[1].Info.GameID
	// Before the end the logs would tell the roles: they are refused.
	for _, f := range []string{"aiwolf-csv", "aiwolf-json"} {
		if code := get(t, g1.http.URL+"/api/rooms/"+g1.logs.list()[0]+"/replay?format="+f, nil); code != 403 {
			t.Errorf("%s of a running game: %d, want 403", f, code)
		}
	}
	g1.close()
	for _, a := range agents {
		a.wait(t, 10*time.Second) // closed by the server's shutdown
	}
	g2 := newGateway(t, g1.path, aiwolf.Options{Players: 5, ActionTimeout: 30 * time.Second, ResponseTimeout: 10 * time.Second})
	back := startAgents(t, g2, "back", 5, nil)
	waitAll(t, back)
	for _, a := range back {
		ps := a.got()
		if len(ps) < 4 || ps[1].Request != "INITIALIZE" || ps[len(ps)-1].Request != "FINISH" {
			t.Fatalf("%s after the restart: %v", a.name, lastRequests(ps, 40))
		}
		if ps[1].Info.GameID != before {
			t.Errorf("%s came back into game %s, not %s", a.name, ps[1].Info.GameID, before)
		}
		if ps[2].Request != "DAILY_INITIALIZE" || ps[2].Info.Day != 1 {
			t.Errorf("%s: after INITIALIZE, %s of day %d, not day 1's DAILY_INITIALIZE", a.name, ps[2].Request, ps[2].Info.Day)
		}
		checkPackets(t, a, 5)
	}
	// The request log holds both halves: day 0's divination, stored before
	// the restart, and the end.
	rooms := g1.logs.list()
	log := download(t, g2, rooms[0], "aiwolf-json")
	if !strings.Contains(log, `"day":0,"request_type":"DIVINE"`) || !strings.Contains(log, before) {
		t.Errorf("the request log lost what came before the restart: %.400s", log)
	}
}

// A room of the web client with agent seats: a person, two agents and
// two bots share one game of aiwolf-5, with its speeches in turn.
func TestAgentsBotsAndAPersonShareOneRoom(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 5})
	ctx := context.Background()
	api := &client.API{Base: g.http.URL}
	var created struct {
		Room struct {
			ID string `json:"id"`
		} `json:"room"`
		Host  string `json:"host_token"`
		Token string `json:"token"`
	}
	timers := map[string]string{"speech": "3s", "vote": "2s", "night": "2s", "other": "1s", "setup": "1s", "witch": "1s", "bot": "0s", "tick": "100ms"}
	if err := api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "aiwolf-5", "nickname": "Alice", "timers": timers}, &created); err != nil {
		t.Fatal(err)
	}
	room := created.Room.ID
	var agents []*testAgent
	for seat := 2; seat <= 3; seat++ {
		var open struct {
			Token string `json:"token"`
			URL   string `json:"url"`
		}
		if err := api.Do(ctx, "POST", "/api/rooms/"+room+"/seats/"+string(rune('0'+seat))+"/agent", created.Host, nil, &open); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(open.URL, open.Token) || !strings.Contains(open.URL, "room="+room+"&code=") {
			t.Errorf("the agent seat's url %q carries its token, or no code", open.URL)
		}
		a := &testAgent{name: "mixed" + string(rune('0'+seat))}
		url := "ws" + strings.TrimPrefix(g.http.URL, "http") + open.URL
		if seat == 3 { // the other takes the header, as the reference's client sends its token
			url = g.ws + "?room=" + room
			a.header = http.Header{"Authorization": {"Bearer " + open.Token}}
		}
		a.run(t, url)
		agents = append(agents, a)
	}
	// Another room's token, or none, is refused before the upgrade.
	if code, _ := dialStatus(t, g.ws+"?room="+room, http.Header{"Authorization": {"Bearer nope"}}); code != 403 {
		t.Errorf("a wrong agent token: %d, want 403", code)
	}
	if code, _ := dialStatus(t, g.ws+"?room="+room, nil); code != 403 {
		t.Errorf("no agent token: %d, want 403", code)
	}
	time.Sleep(50 * time.Millisecond) // the agents answer NAME and wait for the start
	var started struct {
		Seats []struct {
			Seat  int    `json:"seat"`
			Nick  string `json:"nick"`
			Bot   bool   `json:"bot"`
			Agent bool   `json:"agent"`
		} `json:"seats"`
	}
	if err := api.Do(ctx, "POST", "/api/rooms/"+room+"/start", created.Host, nil, &started); err != nil {
		t.Fatal(err)
	}
	for _, s := range started.Seats {
		if agent := s.Seat == 2 || s.Seat == 3; s.Agent != agent || (agent && s.Nick != fmt.Sprintf("mixed%d", s.Seat)) {
			t.Errorf("seat %+v in the room's seats", s)
		}
	}
	person, err := client.Dial(ctx, g.http.URL, room, created.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	heard := map[string]bool{}
	st, err := person.PlayRandom(ctx, rand.New(rand.NewPCG(1, 2)), func(f client.Frame) bool {
		if f.Type == "chat" && strings.HasPrefix(f.Text, "hello from ") {
			heard[f.Text[len("hello from "):len("hello from Agent[0x]")]] = true
		}
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Winner == "" {
		t.Errorf("the person's game did not end: %+v", st)
	}
	waitAll(t, agents)
	for _, a := range agents {
		checkPackets(t, a, 5)
	}
	if len(heard) == 0 {
		t.Errorf("the person heard no agent talk")
	}
	csv := download(t, g, room, "aiwolf-csv")
	for _, want := range []string{"0,status,1,", ",ALIVE,Alice,Agent[01]", ",mixed2,Agent[02]", ",mixed3,Agent[03]", ",vote,", ",result,"} {
		if !strings.Contains(csv, want) {
			t.Errorf("the CSV log has no %q:\n%s", want, csv)
		}
	}
}

// TestAnAgentSeatsLinkServesOnce: the link of an agent seat holds a code,
// not the token: one connection takes it; the same link again is refused,
// while the token as Authorization still holds the seat; asked again, the
// host gets a new token and link, and the old token no longer holds it.
func TestAnAgentSeatsLinkServesOnce(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 5})
	ctx := context.Background()
	api := &client.API{Base: g.http.URL}
	var created struct {
		Room struct {
			ID string `json:"id"`
		} `json:"room"`
		Host string `json:"host_token"`
	}
	if err := api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "aiwolf-5"}, &created); err != nil {
		t.Fatal(err)
	}
	room := created.Room.ID
	type opened struct {
		Token string `json:"token"`
		URL   string `json:"url"`
	}
	var open opened
	if err := api.Do(ctx, "POST", "/api/rooms/"+room+"/seats/2/agent", created.Host, nil, &open); err != nil {
		t.Fatal(err)
	}
	link := "ws" + strings.TrimPrefix(g.http.URL, "http") + open.URL
	if code, _ := dialStatus(t, link, nil); code != 101 {
		t.Fatalf("the link: %d", code)
	}
	if code, _ := dialStatus(t, link, nil); code != 401 {
		t.Errorf("the link again: %d, want 401", code)
	}
	bearer := func(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }
	if code, _ := dialStatus(t, g.ws+"?room="+room, bearer(open.Token)); code != 101 {
		t.Errorf("the token as Authorization: %d, want 101", code)
	}
	if code, _ := dialStatus(t, g.ws+"?room="+room+"&code="+tradeCode(t, g, room, open.Token), nil); code != 101 {
		t.Errorf("a code traded for the seat's token: %d, want 101", code)
	}
	var again opened
	if err := api.Do(ctx, "POST", "/api/rooms/"+room+"/seats/2/agent", created.Host, nil, &again); err != nil {
		t.Fatal(err)
	}
	if code, _ := dialStatus(t, g.ws+"?room="+room, bearer(open.Token)); code != 403 {
		t.Errorf("the seat's former token: %d, want 403", code)
	}
	if code, _ := dialStatus(t, "ws"+strings.TrimPrefix(g.http.URL, "http")+again.URL, nil); code != 101 {
		t.Errorf("the new link: %d, want 101", code)
	}
}
