package aiwolf_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/aiwolf"
)

func TestAContestMatchesOneAgentOfEachOfFiveTeams(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 5, Contest: true})
	// Two of team a: only one plays; the other waits for the next game.
	var agents []*testAgent
	for _, name := range []string{"a1", "a2", "b1", "c1", "d1", "e1"} {
		a := &testAgent{name: name}
		a.run(t, g.ws)
		agents = append(agents, a)
		time.Sleep(10 * time.Millisecond) // arrival order decides who of team a plays
	}
	for _, a := range append(agents[:1:1], agents[2:]...) {
		a.wait(t, 60*time.Second)
		checkPackets(t, a, 5)
	}
	if ps := agents[1].got(); len(ps) != 1 || ps[0].Request != "NAME" {
		t.Errorf("a2, the second of its team, was given a seat: %v", lastRequests(ps, 5))
	}
	teams := map[string]bool{}
	for _, a := range append(agents[:1:1], agents[2:]...) {
		teams[a.name[:1]] = true
	}
	if len(teams) != 5 {
		t.Errorf("teams %v", teams)
	}
}

func TestWithASecretOnlyATokenOfTheAgentsTeamIsLetIn(t *testing.T) {
	secret := []byte("contest-secret")
	g := newGateway(t, "", aiwolf.Options{Players: 5, Secret: secret})
	ctx := context.Background()
	dial := func(token string) (*websocket.Conn, int) {
		h := http.Header{}
		if token != "" {
			h.Set("Authorization", "Bearer "+token)
		}
		c, res, err := websocket.Dial(ctx, g.ws, &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			if res == nil {
				t.Fatal(err)
			}
			return nil, res.StatusCode
		}
		return c, 101
	}
	if _, code := dial(""); code != 401 {
		t.Errorf("no token: %d, want 401", code)
	}
	if _, code := dial(aiwolf.Sign([]byte("guess"), "kanolab")); code != 401 {
		t.Errorf("a token of another secret: %d, want 401", code)
	}
	// A good token of another team: the name is refused after NAME.
	c, code := dial(aiwolf.Sign(secret, "other"))
	if code != 101 {
		t.Fatalf("a good token: %d", code)
	}
	_, _, _ = c.Read(ctx) // NAME
	_ = c.Write(ctx, websocket.MessageText, []byte("kanolab1"))
	_, _, err := c.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusPolicyViolation || !strings.Contains(err.Error(), "token's team") {
		t.Errorf("a name of another team than the token's: %v", err)
	}
	// The team's own tokens, each traded for a one-use code in the URL: a
	// whole game.
	var agents []*testAgent
	for i := 1; i <= 5; i++ {
		a := &testAgent{name: fmt.Sprintf("kanolab%d", i)}
		a.run(t, g.ws+"?code="+tradeCode(t, g, "", aiwolf.Sign(secret, "kanolab")))
		agents = append(agents, a)
	}
	waitAll(t, agents)
	for _, a := range agents {
		checkPackets(t, a, 5)
	}
}

// Games one after another leave nothing behind in the gateway: its
// tables go once their agents are told the end.
func TestFinishedGamesLeaveNoTable(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 5})
	for i := range 10 {
		playMatch(t, g, fmt.Sprintf("round%d-", i), 5)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		games, waiting := g.srv.AIWolfLive()
		if games == 0 && waiting == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 games: %d tables, %d waiting", games, waiting)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Their actors stopped (a matched game does not linger): nothing
	// runs, and every game's logs are still read from the store.
	if running := g.rooms(t, "running"); len(running) != 0 {
		t.Errorf("rooms still running: %v", running)
	}
	for _, room := range g.logs.list() {
		checkCSV(t, download(t, g, room, "aiwolf-csv"), 5)
		// the request log's last lines were stored before the game stopped
		if k := strings.Count(download(t, g, room, "aiwolf-json"), `"request_type":"FINISH"`); k != 5 {
			t.Errorf("room %s: the request log has %d FINISH lines, want 5", room, k)
		}
	}
}

// tradeCode trades a token (a JWT, or with room an agent seat's token) for
// a one-use code: POST /aiwolf/code with the token as Authorization.
func tradeCode(t *testing.T, g *gateway, room, token string) string {
	t.Helper()
	u := g.http.URL + "/aiwolf/code"
	if room != "" {
		u += "?room=" + room
	}
	req, _ := http.NewRequest("POST", u, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Code      string `json:"code"`
		ExpiresIn int    `json:"expires_in"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 || out.Code == "" || out.ExpiresIn != 60 {
		t.Fatalf("POST %s: %s %+v %v", u, res.Status, out, err)
	}
	return out.Code
}

// dialStatus dials url with header and answers the HTTP status (101 for a
// WebSocket, closed at once) and the refusal's text.
func dialStatus(t *testing.T, url string, header http.Header) (int, string) {
	t.Helper()
	c, res, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPHeader: header})
	if err == nil {
		c.CloseNow()
		return 101, ""
	}
	if res == nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestNoTokenTravelsInAURL: a JWT in the URL (?token=, which the
// reference's server reads and its client never sends) is refused, naming
// the header and the code; the header is taken; a code serves one
// connection, and only for what it was made for.
func TestNoTokenTravelsInAURL(t *testing.T) {
	secret := []byte("contest-secret")
	g := newGateway(t, "", aiwolf.Options{Players: 5, Secret: secret})
	jwt := aiwolf.Sign(secret, "kanolab")
	if code, msg := dialStatus(t, g.ws+"?token="+jwt, nil); code != 400 || !strings.Contains(msg, "Authorization: Bearer") || !strings.Contains(msg, "POST /aiwolf/code") {
		t.Errorf("?token=JWT: %d %q, want 400 naming the header and the code", code, msg)
	}
	if code, _ := dialStatus(t, g.ws, http.Header{"Authorization": {"Bearer " + jwt}}); code != 101 {
		t.Errorf("Authorization: Bearer JWT: %d, want 101", code)
	}
	c := tradeCode(t, g, "", jwt)
	if code, _ := dialStatus(t, g.ws+"?code="+c, nil); code != 101 {
		t.Errorf("a fresh code: %d, want 101", code)
	}
	if code, msg := dialStatus(t, g.ws+"?code="+c, nil); code != 401 || !strings.Contains(msg, "spent") {
		t.Errorf("the same code again: %d %q, want 401", code, msg)
	}
	if code, _ := dialStatus(t, g.ws+"?code=guessed", nil); code != 401 {
		t.Errorf("a made-up code: %d, want 401", code)
	}
	req, _ := http.NewRequest("POST", g.http.URL+"/aiwolf/code", nil)
	req.Header.Set("Authorization", "Bearer "+aiwolf.Sign([]byte("guess"), "kanolab"))
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 401 {
		t.Errorf("a code for a bad JWT: %v %v, want 401", res.Status, err)
	}
}
