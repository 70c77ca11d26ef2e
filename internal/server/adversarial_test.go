package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// The adversarial test plays a std-12 game with two seats held by the test
// (one wolf, one villager) and ten bots, and pokes it from every side while
// it waits for the two humans: each refused attempt must get a clear error
// and change nothing — not the room's public state, not the stored records,
// not a frame to anyone.

// advTimers: the night is slow enough to poke (its slots are fixed, so the
// test knows who is awake), the day waits for the humans far longer than the
// test lasts.
var advTimers = func() map[string]string {
	m := maps.Clone(quick)
	m["night"], m["witch"], m["tick"] = "2s", "3s", "20ms"
	m["speech"], m["vote"], m["other"] = "30s", "30s", "30s"
	return m
}()

const frameWait = 5 * time.Second // for a frame that must come

// advSeed is a seed that deals a wolf to one of seats 1 and 2 and a plain
// villager to the other. The deal is not told over HTTP; the engine deals
// the same cards from the same seed, and the seats' state frames confirm it.
func advSeed(t *testing.T) uint64 {
	t.Helper()
	p, err := rules.LookupPreset("std-12")
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(12)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 100; seed++ {
		g, err := rules.New(b, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		r1, r2 := g.Role(1), g.Role(2)
		if r1.IsWolf() && r2 == rules.Villager || r2.IsWolf() && r1 == rules.Villager {
			return seed
		}
	}
	t.Fatal("no seed in 1..100 deals a wolf and a villager to seats 1 and 2")
	return 0
}

type advGame struct {
	ts     *testServer
	ctx    context.Context
	room   string
	host   string
	token  map[string]string // "wolf", "villager", "spectator" ("")
	seat   map[string]int
	role   map[int]string // of the two human seats, from their state frames
	watch  map[string]*client.Conn
	record int    // the stored records, while nothing may change
	info   []byte // GET /api/rooms/ID, while nothing may change

	mu     sync.Mutex
	errors map[int][]string // every error message each seat received (0: spectators)
}

// next is the connection's next frame; ok is false when it closed or
// nothing came in time.
func next(c *client.Conn, d time.Duration) (client.Frame, bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case f, ok := <-c.Frames:
			if ok && (f.Type == "tick" || f.Type == "pad") {
				continue // the night's beat: it carries frames, it says nothing
			}
			return f, ok
		case <-t.C:
			return client.Frame{}, false
		}
	}
}

// open connects as who and reads the catch-up up to the first state.
func (g *advGame) open(t *testing.T, who string) (*client.Conn, client.Frame) {
	t.Helper()
	c, err := client.Dial(g.ctx, g.ts.http.URL, g.room, g.token[who], 0, 0)
	if err != nil {
		t.Fatalf("dial as %s: %v", who, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	for {
		f, ok := next(c, frameWait)
		if !ok {
			t.Fatalf("%s: no state frame after connecting", who)
		}
		g.note(g.seat[who], f)
		if f.Type == "state" {
			return c, f
		}
	}
}

func (g *advGame) note(seat int, f client.Frame) {
	if f.Type == "error" {
		g.mu.Lock()
		g.errors[seat] = append(g.errors[seat], f.Message)
		g.mu.Unlock()
	}
}

const barrier = int64(1) << 40

// collect sends a frame the actor refuses (a chat nobody may write) and
// returns every frame that came before its answer: the actor answers in
// order, and the session's own answers (bad frames, pongs) are written
// before the next frame is read, so nothing sent before can come after.
func (g *advGame) collect(t *testing.T, c *client.Conn, who string) []client.Frame {
	t.Helper()
	if err := c.SendRaw(g.ctx, fmt.Appendf(nil, `{"type":"chat","id":%d,"channel":"-","text":"."}`, barrier)); err != nil {
		t.Fatalf("%s: %v", who, err)
	}
	var out []client.Frame
	for {
		f, ok := next(c, frameWait)
		if !ok {
			t.Fatalf("%s: the connection closed or stalled; frames so far: %s", who, raws(out))
		}
		g.note(g.seat[who], f)
		if f.Type == "error" && f.ID == barrier {
			if f.Code != "channel" {
				t.Fatalf("%s: barrier answered %s", who, f.Raw)
			}
			return out
		}
		out = append(out, f)
	}
}

// drain reads until the connection closes.
func (g *advGame) drain(t *testing.T, c *client.Conn, who string) []client.Frame {
	t.Helper()
	var out []client.Frame
	deadline := time.Now().Add(frameWait)
	for {
		f, ok := next(c, time.Until(deadline))
		if !ok {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the connection is still open; frames: %s", who, raws(out))
			}
			return out
		}
		g.note(g.seat[who], f)
		out = append(out, f)
	}
}

func raws(fs []client.Frame) string {
	var b strings.Builder
	for _, f := range fs {
		b.Write(f.Raw)
		b.WriteByte('\n')
	}
	return b.String()
}

// want is an expected answer: an error frame with this id and code (and
// message, if set), or a pong with code "pong".
type want struct {
	id   int64
	code string
	msg  string
}

// match checks that the frames are exactly the answers wanted, in any order.
func match(t *testing.T, got []client.Frame, wants []want) {
	t.Helper()
	left := slices.Clone(wants)
	for _, f := range got {
		i := slices.IndexFunc(left, func(w want) bool {
			if w.code == "pong" {
				return f.Type == "pong" && f.ID == w.id
			}
			return f.Type == "error" && f.ID == w.id && f.Code == w.code && (w.msg == "" || w.msg == f.Message)
		})
		if i < 0 {
			t.Errorf("unexpected frame %s", f.Raw)
			continue
		}
		if f.Type == "error" && f.Message == "" {
			t.Errorf("error without a message: %s", f.Raw)
		}
		left = slices.Delete(left, i, i+1)
	}
	for _, w := range left {
		t.Errorf("no answer %+v", w)
	}
}

// roomState is the room as anyone sees it, and its game part.
func (g *advGame) roomState(t *testing.T) ([]byte, json.RawMessage) {
	t.Helper()
	status, body := g.do(t, "GET", "/api/rooms/"+g.room, "", "")
	if status != http.StatusOK {
		t.Fatalf("GET room: %d %s", status, body)
	}
	var r struct{ Game json.RawMessage }
	if err := json.Unmarshal(body, &r); err != nil || len(r.Game) == 0 {
		t.Fatalf("GET room: no game in %s (%v)", body, err)
	}
	return body, r.Game
}

func (g *advGame) records(t *testing.T) int {
	t.Helper()
	recs, err := g.ts.st.Records(g.ctx, g.room)
	if err != nil {
		t.Fatal(err)
	}
	return len(recs)
}

// unchanged checks that nothing happened since the baseline: the same
// public room, no new record, no frame to the watching connections.
func (g *advGame) unchanged(t *testing.T) {
	t.Helper()
	body, game := g.roomState(t)
	var was struct{ Game json.RawMessage }
	_ = json.Unmarshal(g.info, &was)
	if !bytes.Equal(game, was.Game) {
		t.Errorf("the game changed: %s, was %s", game, was.Game)
	}
	if !bytes.Equal(body, g.info) {
		t.Errorf("the room changed:\n%s\nwas\n%s", body, g.info)
	}
	if n := g.records(t); n != g.record {
		t.Errorf("%d records stored, were %d", n, g.record)
	}
	for who, c := range g.watch {
	frames:
		for {
			select {
			case f, ok := <-c.Frames:
				switch {
				case !ok:
					t.Errorf("%s's connection closed", who)
				case f.Type == "alive": // the day's keep-alive: every connection's, whatever happens
					continue
				default:
					t.Errorf("%s's connection received %s", who, f.Raw)
				}
			default:
			}
			break frames
		}
	}
}

// do sends an HTTP request with a raw body and a bearer token.
func (g *advGame) do(t *testing.T, method, path, token, body string) (int, []byte) {
	t.Helper()
	return g.doAuth(t, method, path, "Bearer "+token, body, token == "")
}

func (g *advGame) doAuth(t *testing.T, method, path, auth, body string, noAuth bool) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(g.ctx, method, g.ts.http.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if !noAuth {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// act is an act frame with an id.
func act(id int64, fields string) string {
	if fields != "" {
		fields = "," + fields
	}
	return fmt.Sprintf(`{"type":"act","id":%d%s}`, id, fields)
}

func wsURL(base, room string) string { return "ws" + strings.TrimPrefix(base, "http") + "/ws/" + room }

// rawRead reads a raw connection until it closes: its frames and the
// error that ended it.
func rawRead(ctx context.Context, ws *websocket.Conn) ([]client.Frame, error) {
	var out []client.Frame
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return out, err
		}
		fs, _ := client.Split(data)
		out = append(out, fs...)
	}
}

// The commands of every kind, each one a seat may not send at the moment
// the test sends it.
var everyCommand = []string{
	`"cmd":"attack","target":3`, `"cmd":"attack"`, `"cmd":"heal"`, `"cmd":"poison","target":3`,
	`"cmd":"protect","target":3`, `"cmd":"check","target":3`, `"cmd":"shoot","target":3`,
	`"cmd":"vote","target":3`, `"cmd":"abstain"`, `"cmd":"withdraw"`, `"cmd":"badge","target":3`,
	`"cmd":"tear"`, `"cmd":"charm","target":3`, `"cmd":"order","value":1`, `"cmd":"take","value":1`,
	`"cmd":"link","seats":[3,4]`, `"cmd":"voters","seats":[3]`, `"cmd":"ally","target":3`,
	`"cmd":"accuse","target":3`, `"cmd":"vouch","target":3`, `"cmd":"claim","role":"seer"`,
}

func TestAdversarialClients(t *testing.T) {
	ts := newTestServer(t)
	// Each subtest opens a connection of its own and closes it at its end;
	// the server counts it until its session is over, a moment later. The
	// cap on a seat's connections has its own test (limits_test.go).
	ts.lim.seatConns, ts.lim.seatConnsPerMinute = 16, 1000
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	seed := advSeed(t)
	g := &advGame{ts: ts, ctx: ctx, token: map[string]string{"spectator": ""},
		seat: map[string]int{}, role: map[int]string{}, watch: map[string]*client.Conn{}, errors: map[int][]string{}}

	// The room: seats 1 and 2 for the test, ten bots.
	var created client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "seed": seed, "practice": true,
		"timers": advTimers, "nickname": "one"}, &created); err != nil {
		t.Fatal(err)
	}
	g.room, g.host = created.Room.ID, created.HostToken
	var second seated
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+g.room+"/join", "", map[string]any{"nickname": "two"}, &second); err != nil {
		t.Fatal(err)
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+g.room+"/bots", g.host, map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	tokens := map[int]string{1: created.Token, 2: second.Token}
	var elsewhere client.Created // a seat of another room
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "nickname": "x"}, &elsewhere); err != nil {
		t.Fatal(err)
	}

	// A connection that never says hello, opened now: it is closed with an
	// error frame once helloWait has passed (checked at the end).
	silentOpened := time.Now()
	silent, _, err := websocket.Dial(ctx, wsURL(ts.http.URL, g.room), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.CloseNow()
	type silentEnd struct {
		frames []client.Frame
		err    error
		after  time.Duration
	}
	silentDone := make(chan silentEnd, 1)
	go func() {
		fs, err := rawRead(ctx, silent)
		silentDone <- silentEnd{fs, err, time.Since(silentOpened)}
	}()

	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+g.room+"/start", g.host, nil, nil); err != nil {
		t.Fatal(err)
	}

	// Who is who, from the seats' own state frames.
	states := map[int]client.Frame{}
	for s := 1; s <= 2; s++ {
		c, err := client.Dial(ctx, ts.http.URL, g.room, tokens[s], 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		for {
			f, ok := next(c, frameWait)
			if !ok {
				t.Fatalf("seat %d: no state", s)
			}
			if f.Type == "state" {
				states[s] = f
				break
			}
		}
		g.role[s] = states[s].Role
		r, err := rules.ParseRole(states[s].Role)
		if err != nil {
			t.Fatalf("seat %d: role %q: %v", s, states[s].Role, err)
		}
		who := "villager"
		if r.IsWolf() {
			who = "wolf"
		} else if r != rules.Villager {
			t.Fatalf("seat %d is a %v, not a plain villager", s, r)
		}
		if _, dup := g.seat[who]; dup {
			t.Fatalf("both seats are %ss", who)
		}
		g.seat[who], g.token[who], g.watch[who] = s, tokens[s], c
	}
	if len(g.seat) != 2 {
		t.Fatalf("seats: %v", g.seat)
	}
	spec, _ := g.open(t, "spectator")
	g.watch["spectator"] = spec
	wolf := g.watch["wolf"]
	if st := states[g.seat["wolf"]]; !st.Night || !st.Pending {
		t.Fatalf("the wolf is not awake at the start of the night: %s", st.Raw)
	}
	if st := states[g.seat["villager"]]; !st.Night || st.Pending {
		t.Fatalf("the villager is awake at night: %s", st.Raw)
	}

	// At night a seat that is not awake gets one answer to anything,
	// whatever its role: the villager while the wolves pick, the wolf (and
	// the villager) while the witch decides.
	notNow := func(id int64) string {
		return fmt.Sprintf(`{"type":"error","id":%d,"code":"not_now","message":"you cannot act now"}`, id)
	}
	pokeAsleep := func(t *testing.T, who string) map[int64]string {
		c, st := g.open(t, who)
		if !st.Night || st.Pending {
			t.Fatalf("%s is not asleep at night: %s", who, st.Raw)
		}
		for i, cmd := range append(slices.Clone(everyCommand), `"cmd":"explode"`, `"cmd":"skip"`, `"cmd":"run"`) {
			if err := c.SendRaw(ctx, []byte(act(int64(i+1), cmd))); err != nil {
				t.Fatal(err)
			}
		}
		out := map[int64]string{}
		for _, f := range g.collect(t, c, who) {
			if f.Type == "event" || f.Type == "state" {
				continue // the night going on
			}
			if f.Type != "error" || string(f.Raw) != notNow(f.ID) {
				t.Errorf("%s asleep: %s", who, f.Raw)
			}
			out[f.ID] = string(f.Raw)
		}
		if len(out) != len(everyCommand)+3 {
			t.Errorf("%s asleep: %d answers to %d commands", who, len(out), len(everyCommand)+3)
		}
		return out
	}
	t.Run("night/a sleeping villager acts while the wolves pick", func(t *testing.T) {
		pokeAsleep(t, "villager")
	})
	t.Run("night/chat on closed channels", func(t *testing.T) {
		answers := map[string][]client.Frame{}
		for _, who := range []string{"villager", "wolf", "spectator"} {
			c, _ := g.open(t, who)
			for i, ch := range []string{"day", "lovers", "dead", "nope"} {
				_ = c.SendRaw(ctx, fmt.Appendf(nil, `{"type":"chat","id":%d,"channel":%q,"text":"hi"}`, i+1, ch))
			}
			if who != "wolf" { // the wolf may write to his mates
				_ = c.SendRaw(ctx, []byte(`{"type":"chat","id":5,"channel":"wolves","text":"hi"}`))
			}
			for _, f := range g.collect(t, c, who) {
				if f.Type == "error" {
					answers[who] = append(answers[who], f)
				}
			}
		}
		checkChannelAnswers(t, answers)
	})

	// The wolf's slot is over when its state says it is no longer awaited.
	for {
		f, ok := next(wolf, frameWait)
		if !ok {
			t.Fatal("the wolf's slot did not end")
		}
		g.note(g.seat["wolf"], f)
		if f.Type == "event" && f.Kind == "day" {
			t.Fatal("the night ended before the test could poke the witch's slot")
		}
		if f.Type == "state" && f.Night && !f.Pending {
			break
		}
	}
	t.Run("night/a sleeping wolf and villager act while the witch decides", func(t *testing.T) {
		w := pokeAsleep(t, "wolf")
		v := pokeAsleep(t, "villager")
		if !maps.Equal(w, v) {
			t.Errorf("the answers differ:\nwolf     %v\nvillager %v", w, v)
		}
	})
	// Dawn: both humans are awaited in the sheriff's sign-up, for 30 s.
	for _, who := range []string{"wolf", "villager", "spectator"} {
		for {
			f, ok := next(g.watch[who], 3*frameWait)
			if !ok {
				t.Fatalf("%s: no day state", who)
			}
			g.note(g.seat[who], f)
			if f.Type == "state" && !f.Night && (who == "spectator" || f.Pending) {
				break
			}
		}
	}
	g.record = g.records(t)
	for { // the bots are done with the step when the records stop growing
		time.Sleep(50 * time.Millisecond)
		n := g.records(t)
		if n == g.record {
			break
		}
		g.record = n
	}
	g.info, _ = g.roomState(t)
	for who, c := range g.watch { // what is still on its way, until all is quiet
		for {
			f, ok := next(c, 200*time.Millisecond)
			if !ok {
				break
			}
			if f.Type == "state" && (f.Night || who != "spectator" && !f.Pending) {
				t.Fatalf("%s: the day did not settle: %s", who, f.Raw)
			}
		}
	}

	// HTTP.
	rnd, _ := newToken()
	nobody := newRoomID()
	type hcase struct {
		name                    string
		method, path, tok, body string
		auth                    string // a whole Authorization header, instead of tok
		status                  int
		code                    string
	}
	room := "/api/rooms/" + g.room
	var hcases []hcase
	hostOnly := []struct{ name, method, path, body string }{
		{"add bots", "POST", "/bots", `{}`},
		{"clear a seat", "DELETE", "/seats/3", ``},
		{"reorder the seats", "POST", "/order", `{"order":[2,1,3,4,5,6,7,8,9,10,11,12]}`},
		{"start", "POST", "/start", ``},
		{"pause", "POST", "/pause", ``},
		{"resume", "POST", "/resume", ``},
		{"red-card", "POST", "/red-card", `{"seat":3}`},
		{"extend", "POST", "/extend", `{"by":"2h"}`},
	}
	for _, h := range hostOnly {
		for _, k := range []struct{ name, tok string }{{"without a token", ""}, {"with a seat's token", g.token["villager"]},
			{"with the wolf's token", g.token["wolf"]}, {"with a random token", rnd}} {
			hcases = append(hcases, hcase{name: h.name + " " + k.name, method: h.method, path: room + h.path, tok: k.tok,
				body: h.body, status: http.StatusForbidden, code: "not_host"})
		}
		hcases = append(hcases,
			hcase{name: h.name + " with the host token in a Basic header", method: h.method, path: room + h.path,
				auth: "Basic " + g.host, body: h.body, status: http.StatusForbidden, code: "not_host"},
			hcase{name: h.name + " with a lowercase bearer", method: h.method, path: room + h.path,
				auth: "bearer " + g.host, body: h.body, status: http.StatusForbidden, code: "not_host"})
	}
	bigName := `{"nickname":"` + strings.Repeat("x", 70<<10) + `"}`
	hcases = append(hcases, []hcase{
		{name: "add bots after the start", method: "POST", path: room + "/bots", tok: g.host, body: `{}`, status: 409, code: "started"},
		{name: "add a bot to a taken seat after the start", method: "POST", path: room + "/bots", tok: g.host, body: `{"seat":1}`, status: 409, code: "started"},
		{name: "clear a seat after the start", method: "DELETE", path: room + "/seats/1", tok: g.host, status: 409, code: "started"},
		{name: "clear seat zero", method: "DELETE", path: room + "/seats/0", tok: g.host, status: 409, code: "started"},
		{name: "reorder after the start", method: "POST", path: room + "/order", tok: g.host, body: `{"order":[2,1,3,4,5,6,7,8,9,10,11,12]}`, status: 409, code: "started"},
		{name: "start twice", method: "POST", path: room + "/start", tok: g.host, status: 409, code: "started"},
		{name: "resume a game that is not paused", method: "POST", path: room + "/resume", tok: g.host, status: 409, code: "refused"},
		{name: "red-card seat 0", method: "POST", path: room + "/red-card", tok: g.host, body: `{"seat":0}`, status: 400, code: "bad_seat"},
		{name: "red-card seat 13 of 12", method: "POST", path: room + "/red-card", tok: g.host, body: `{"seat":13}`, status: 400, code: "bad_seat"},
		{name: "red-card seat -1", method: "POST", path: room + "/red-card", tok: g.host, body: `{"seat":-1}`, status: 400, code: "bad_seat"},
		{name: "red-card with no body", method: "POST", path: room + "/red-card", tok: g.host, status: 400, code: "bad_seat"},
		{name: "red-card a seat given as a string", method: "POST", path: room + "/red-card", tok: g.host, body: `{"seat":"3"}`, status: 400, code: "bad_json"},
		{name: "red-card a fractional seat", method: "POST", path: room + "/red-card", tok: g.host, body: `{"seat":3.5}`, status: 400, code: "bad_json"},
		{name: "red-card with an unknown field", method: "POST", path: room + "/red-card", tok: g.host, body: `{"seat":3,"why":"x"}`, status: 400, code: "bad_json"},
		{name: "red-card with trailing data", method: "POST", path: room + "/red-card", tok: g.host, body: `{"seat":3}}`, status: 400, code: "bad_json"},
		{name: "red-card with two bodies", method: "POST", path: room + "/red-card", tok: g.host, body: `{"seat":0} {"seat":3}`, status: 400, code: "bad_json"},
		{name: "red-card with a huge body", method: "POST", path: room + "/red-card", tok: g.host, body: `{"seat":3,"x":"` + strings.Repeat("x", 70<<10) + `"}`, status: 400, code: "bad_json"},
		{name: "add bots with a count given as a string", method: "POST", path: room + "/bots", tok: g.host, body: `{"count":"all"}`, status: 400, code: "bad_json"},
		{name: "reorder with an order given as a string", method: "POST", path: room + "/order", tok: g.host, body: `{"order":"2,1"}`, status: 400, code: "bad_json"},
		{name: "join a started room", method: "POST", path: room + "/join", body: `{"nickname":"eve"}`, status: 409, code: "started"},
		{name: "join with a seat's token", method: "POST", path: room + "/join", tok: g.token["villager"], body: `{"nickname":"eve"}`, status: 409, code: "started"},
		{name: "join without a nickname", method: "POST", path: room + "/join", status: 400, code: "bad_name"},
		{name: "join with a null body", method: "POST", path: room + "/join", body: `null`, status: 400, code: "bad_name"},
		{name: "join with a control character", method: "POST", path: room + "/join", body: `{"nickname":"e\u0007ve"}`, status: 400, code: "bad_name"},
		{name: "join with malformed JSON", method: "POST", path: room + "/join", body: `{"nickname":`, status: 400, code: "bad_json"},
		{name: "join with an array", method: "POST", path: room + "/join", body: `[]`, status: 400, code: "bad_json"},
		{name: "join with an unknown field", method: "POST", path: room + "/join", body: `{"nickname":"eve","seat":1}`, status: 400, code: "bad_json"},
		{name: "join with a nickname of the wrong type", method: "POST", path: room + "/join", body: `{"nickname":5}`, status: 400, code: "bad_json"},
		{name: "join with trailing data", method: "POST", path: room + "/join", body: `{"nickname":"eve"}]`, status: 400, code: "bad_json"},
		{name: "join with a body over 64 KB", method: "POST", path: room + "/join", body: bigName, status: 400, code: "bad_json"},
		{name: "leave a started room", method: "POST", path: room + "/leave", tok: g.token["villager"], status: 409, code: "started"},
		{name: "leave without a token", method: "POST", path: room + "/leave", status: 409, code: "started"},
		{name: "leave with a random token", method: "POST", path: room + "/leave", tok: rnd, status: 409, code: "started"},
		{name: "get an unknown room", method: "GET", path: "/api/rooms/" + nobody, status: 404, code: "no_room"},
		{name: "join an unknown room", method: "POST", path: "/api/rooms/" + nobody + "/join", body: `{"nickname":"eve"}`, status: 404, code: "no_room"},
		{name: "pause an unknown room", method: "POST", path: "/api/rooms/" + nobody + "/pause", tok: g.host, status: 404, code: "no_room"},
		{name: "start an unknown room", method: "POST", path: "/api/rooms/" + nobody + "/start", tok: g.host, status: 404, code: "no_room"},
		{name: "replay an unknown room", method: "GET", path: "/api/rooms/" + nobody + "/replay", status: 404, code: "no_room"},
		{name: "open a WebSocket to an unknown room", method: "GET", path: "/ws/" + nobody, status: 404, code: "no_room"},
		{name: "replay before the game is over", method: "GET", path: room + "/replay", status: 403, code: "not_over"},
		{name: "replay before the game is over as the host", method: "GET", path: room + "/replay?download=1", tok: g.host, status: 403, code: "not_over"},
		{name: "replay before the game is over as a seat", method: "GET", path: room + "/replay", tok: g.token["wolf"], status: 403, code: "not_over"},
		{name: "list rooms that are over", method: "GET", path: "/api/rooms?status=over", status: 400, code: "bad_status"},
		{name: "list rooms with an unknown status", method: "GET", path: "/api/rooms?status=RUNNING", status: 400, code: "bad_status"},
		{name: "create a room with malformed JSON", method: "POST", path: "/api/rooms", body: `{"preset":`, status: 400, code: "bad_json"},
		{name: "create a room with an unknown field", method: "POST", path: "/api/rooms", body: `{"preset":"std-12","admin":true}`, status: 400, code: "bad_json"},
		{name: "create a room with a negative seed", method: "POST", path: "/api/rooms", body: `{"seed":-1,"practice":true}`, status: 400, code: "bad_json"},
		{name: "create a room with a body over 64 KB", method: "POST", path: "/api/rooms", body: bigName, status: 400, code: "bad_json"},
		{name: "create a room with a zero timer", method: "POST", path: "/api/rooms", body: `{"timers":{"speech":"0s"}}`, status: 400, code: "bad_room"},
		{name: "start with GET", method: "GET", path: room + "/start", tok: g.host, status: 405},
	}...)
	for _, hc := range hcases {
		t.Run("http/"+hc.name, func(t *testing.T) {
			var status int
			var body []byte
			if hc.auth != "" {
				status, body = g.doAuth(t, hc.method, hc.path, hc.auth, hc.body, false)
			} else {
				status, body = g.do(t, hc.method, hc.path, hc.tok, hc.body)
			}
			var e struct {
				Error struct{ Code, Message string }
			}
			_ = json.Unmarshal(body, &e)
			g.note(0, client.Frame{Type: "error", Message: e.Error.Message})
			if status != hc.status || hc.code != "" && (e.Error.Code != hc.code || e.Error.Message == "") {
				t.Errorf("%s %s: %d %s, want %d %s", hc.method, hc.path[:min(len(hc.path), 80)], status,
					bytes.TrimSpace(body[:min(len(body), 300)]), hc.status, hc.code)
			}
			g.unchanged(t)
		})
	}

	// WebSocket frames, each case on a connection of its own (the rate
	// limit is per connection).
	type wcase struct {
		name   string
		who    string
		frames []string
		wants  []want
	}
	var wcases []wcase
	for _, who := range []string{"villager", "wolf"} {
		var frames []string
		var wants []want
		for i, cmd := range everyCommand {
			frames = append(frames, act(int64(i+1), cmd))
			wants = append(wants, want{id: int64(i + 1), code: "not_now"})
		}
		if who == "villager" { // a wolf may explode in the sign-up
			frames = append(frames, act(99, `"cmd":"explode"`))
			wants = append(wants, want{id: 99, code: "rule"})
		}
		wcases = append(wcases, wcase{"act/commands the " + who + " may not send now", who, frames, wants})
	}
	bad := func(id int64, msg string) want { return want{id: id, code: "bad_frame", msg: msg} }
	wcases = append(wcases, []wcase{
		{"act/targets out of range", "villager", []string{
			act(1, `"cmd":"vote","target":21`), act(2, `"cmd":"vote","target":-1`), act(3, `"cmd":"vote","target":1000`),
			act(4, `"cmd":"vote","target":99999999999999999999`), act(5, `"cmd":"vote","target":1e3`),
			act(6, `"cmd":"vote","target":3.5`), act(7, `"cmd":"vote","target":"3"`), act(8, `"cmd":"vote","target":13`),
			act(9, `"cmd":"vote","target":null`),
		}, []want{bad(1, "act: target 21 is not a seat"), bad(2, "act: target -1 is not a seat"),
			bad(3, "act: target 1000 is not a seat"), {4, "bad_frame", ""}, {5, "bad_frame", ""}, {6, "bad_frame", ""},
			{7, "bad_frame", ""}, {8, "not_now", ""}, {9, "not_now", ""}}},
		{"act/seats lists with duplicates and non-seats", "villager", []string{
			act(1, `"cmd":"link","seats":[3,3]`), act(2, `"cmd":"voters","seats":[1,2,1]`), act(3, `"cmd":"charm","seats":[0]`),
			act(4, `"cmd":"charm","seats":[21]`), act(5, `"cmd":"charm","seats":[-4]`), act(6, `"cmd":"link","seats":"3,4"`),
			act(7, `"cmd":"link","seats":[[3],[4]]`),
			act(8, `"cmd":"voters","seats":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,20]`),
		}, []want{bad(1, "act: seat 3 is named twice"), bad(2, "act: seat 1 is named twice"), bad(3, "act: seat 0 is not a seat"),
			bad(4, "act: seat 21 is not a seat"), bad(5, "act: seat -4 is not a seat"), {6, "bad_frame", ""},
			{7, "bad_frame", ""}, bad(8, "act: seat 20 is named twice")}},
		{"act/unknown commands", "villager", []string{
			act(1, `"cmd":"fly"`), act(2, `"cmd":"none"`), act(3, `"cmd":"ATTACK","target":3`), act(4, `"cmd":"attack ","target":3`),
			act(5, `"cmd":"cmd(0)"`), act(6, `"cmd":"claim","role":"king"`), act(7, `"cmd":"claim"`), act(8, `"cmd":7`),
		}, []want{bad(1, `act: unknown command "fly"`), bad(2, `act: unknown command "none"`), {3, "bad_frame", ""},
			{4, "bad_frame", ""}, {5, "bad_frame", ""}, {6, "bad_frame", ""}, {7, "bad_frame", ""}, {8, "bad_frame", ""}}},
		{"act/missing cmd", "wolf", []string{act(1, ``), act(2, `"target":3`), act(3, `"cmd":""`), act(4, `"cmd":null`)},
			[]want{bad(1, "act: cmd is required"), bad(2, "act: cmd is required"), bad(3, "act: cmd is required"),
				bad(4, "act: cmd is required")}},
		{"act/negative and huge values", "villager", []string{
			act(1, `"cmd":"take","value":128`), act(2, `"cmd":"take","value":-129`), act(3, `"cmd":"order","value":1e9`),
			act(4, `"cmd":"order","value":2`), `{"type":"act","id":1e30,"cmd":"skip"}`, `{"type":"act","id":-5,"cmd":"tear"}`,
			`{"type":"ping","id":6,"since":-1}`, `{"type":"ping","id":7,"chat_since":-1}`,
		}, []want{bad(1, "act: value 128 is out of range"), bad(2, "act: value -129 is out of range"), {3, "bad_frame", ""},
			{4, "target", "rules: order takes no such value"}, {0, "bad_frame", ""}, {-5, "not_now", ""}, {6, "bad_frame", ""}, {7, "bad_frame", ""}}},
		{"frame/malformed JSON", "villager", []string{
			`{`, `not json`, `[]`, `null`, `""`, `{"type":"act","id":3,"cmd":"skip",}`, "\xff\xfe",
		}, []want{{0, "bad_frame", ""}, {0, "bad_frame", ""}, {0, "bad_frame", ""}, {0, "bad_frame", "the frame has no type"},
			{0, "bad_frame", ""}, {0, "bad_frame", ""}, {0, "bad_frame", ""}}},
		{"frame/a legal command followed by more data", "villager", []string{
			act(1, `"cmd":"skip"`) + `}`, act(2, `"cmd":"run"`) + `]`, act(3, `"cmd":"skip"`) + act(4, `"cmd":"run"`),
			act(5, `"cmd":"run"`) + ` x`,
		}, []want{bad(1, "malformed frame: data after the JSON object"), bad(2, "malformed frame: data after the JSON object"),
			bad(3, "malformed frame: data after the JSON object"), bad(5, "malformed frame: data after the JSON object")}},
		{"frame/unknown fields", "villager", []string{
			act(1, `"cmd":"skip","seat":3`), act(2, `"cmd":"run","as":2`), act(3, `"cmd":"skip","SEAT":3`),
			`{"type":"ping","id":4,"extra":1}`, `{"type":"chat","id":5,"channel":"day","text":"hi","seat":3}`,
		}, []want{bad(1, `malformed frame: json: unknown field "seat"`), bad(2, `malformed frame: json: unknown field "as"`),
			bad(3, `malformed frame: json: unknown field "SEAT"`), bad(4, `malformed frame: json: unknown field "extra"`),
			bad(5, `malformed frame: json: unknown field "seat"`)}},
		{"frame/pending outside a hello", "villager", []string{
			`{"type":"ping","id":1,"pending":[3]}`, act(2, `"cmd":"skip","pending":[1]`), act(3, `"cmd":"skip","pending":[]`),
		}, []want{bad(1, "pending belongs in a hello only"), bad(2, "pending belongs in a hello only"),
			bad(3, "pending belongs in a hello only")}},
		{"frame/missing and unknown types", "wolf", []string{
			`{"id":1}`, `{"type":"welcome","id":2}`, `{"type":"ACT","id":3,"cmd":"skip"}`, `{"type":"error","id":4}`, `{"type":"","id":5}`,
		}, []want{bad(1, "the frame has no type"), {2, "bad_frame", ""}, {3, "bad_frame", ""}, {4, "bad_frame", ""},
			bad(5, "the frame has no type")}},
		{"chat/too long, empty, without a channel", "villager", []string{
			`{"type":"chat","id":1,"channel":"day","text":"` + strings.Repeat("a", game.MaxChat+1) + `"}`,
			`{"type":"chat","id":2,"channel":"day","text":"` + strings.Repeat("狼", game.MaxChat+1) + `"}`,
			`{"type":"chat","id":3,"channel":"day","text":""}`, `{"type":"chat","id":4,"channel":"day"}`,
			`{"type":"chat","id":5,"channel":"","text":"hi"}`, `{"type":"chat","id":6,"text":"hi"}`,
		}, []want{bad(1, "chat: the text must have 1 to 500 characters"), bad(2, "chat: the text must have 1 to 500 characters"),
			bad(3, "chat: the text must have 1 to 500 characters"), bad(4, "chat: the text must have 1 to 500 characters"),
			bad(5, "chat: channel is required"), bad(6, "chat: channel is required")}},
		{"spectator/acts and chats", "spectator", []string{
			act(1, `"cmd":"skip"`), act(2, `"cmd":"vote","target":3`), act(3, `"cmd":"run"`),
			`{"type":"chat","id":4,"channel":"day","text":"hi"}`, `{"type":"chat","id":5,"channel":"dead","text":"hi"}`,
		}, []want{{1, "spectator", "spectators cannot act"}, {2, "spectator", "spectators cannot act"},
			{3, "spectator", "spectators cannot act"}, {4, "channel", game.ErrChannel.Error()}, {5, "channel", game.ErrChannel.Error()}}},
		{"hello/a second hello", "villager", []string{
			`{"type":"hello","id":1,"token":"` + g.token["villager"] + `"}`, `{"type":"hello","id":2,"token":"` + g.token["wolf"] + `"}`,
			`{"type":"hello","id":3}`,
		}, []want{bad(1, "already greeted; reconnect to resume from another point"),
			bad(2, "already greeted; reconnect to resume from another point"), bad(3, "already greeted; reconnect to resume from another point")}},
		{"frame/exactly 4096 bytes is read", "villager", []string{
			`{"type":"ping","id":1}` + strings.Repeat(" ", MaxFrame-len(`{"type":"ping","id":1}`)),
		}, []want{{1, "pong", ""}}},
	}...)
	for _, wc := range wcases {
		t.Run("ws/"+wc.name, func(t *testing.T) {
			c, _ := g.open(t, wc.who)
			for _, fr := range wc.frames {
				if err := c.SendRaw(ctx, []byte(fr)); err != nil {
					t.Fatal(err)
				}
			}
			match(t, g.collect(t, c, wc.who), wc.wants)
			g.unchanged(t)
		})
	}

	t.Run("ws/chat on channels the seat may not write to gets one answer", func(t *testing.T) {
		answers := map[string][]client.Frame{}
		for _, who := range []string{"villager", "wolf", "spectator"} {
			c, _ := g.open(t, who)
			for i, ch := range []string{"wolves", "lovers", "dead", "nope", "DAY", "Wolves", "day "} {
				_ = c.SendRaw(ctx, fmt.Appendf(nil, `{"type":"chat","id":%d,"channel":%q,"text":"hi"}`, i+1, ch))
			}
			answers[who] = g.collect(t, c, who)
		}
		checkChannelAnswers(t, answers)
		g.unchanged(t)
	})

	t.Run("ws/a frame over 4096 bytes closes the connection", func(t *testing.T) {
		c, _ := g.open(t, "villager")
		big := `{"type":"ping","id":1}` + strings.Repeat(" ", MaxFrame+1-len(`{"type":"ping","id":1}`))
		if err := c.SendRaw(ctx, []byte(big)); err != nil {
			t.Fatal(err)
		}
		for _, f := range g.drain(t, c, "villager") {
			if f.Type != "error" || f.Code != "too_big" {
				t.Errorf("unexpected frame %s", f.Raw)
			}
		}
		// The connection is told why, then closed.
		ws, _, err := websocket.Dial(ctx, wsURL(ts.http.URL, g.room), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		_ = ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","token":"`+g.token["villager"]+`"}`))
		_ = ws.Write(ctx, websocket.MessageText, []byte(big))
		rctx, rcancel := context.WithTimeout(ctx, frameWait)
		defer rcancel()
		fs, err := rawRead(rctx, ws)
		told := false // the game's own frames may still come around the error
		for _, f := range fs {
			told = told || f.Code == "too_big"
		}
		if !told || websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
			t.Errorf("frames %s, closed with %v; want a too_big error, then a policy-violation close", raws(fs), err)
		}
		g.unchanged(t)
	})

	t.Run("ws/a flood beyond the rate limit", func(t *testing.T) {
		c, _ := g.open(t, "wolf")
		const n = frameBurst + maxStrikes + 100
		for i := 1; i <= n; i++ {
			if err := c.SendRaw(ctx, fmt.Appendf(nil, `{"type":"ping","id":%d}`, i)); err != nil {
				break // closed under us
			}
		}
		fs := g.drain(t, c, "wolf")
		if len(fs) == 0 {
			t.Fatal("no answer to a flood")
		}
		pongs, slow := 0, 0
		for i, f := range fs {
			switch {
			case f.Type == "pong":
				pongs++
			case f.Type == "error" && f.Code == "rate" && f.Message == "too many frames; slow down":
				slow++
			case f.Type == "error" && f.Code == "rate" && i == len(fs)-1:
				if f.Message != "too many frames; the connection is closed" {
					t.Errorf("last frame %s", f.Raw)
				}
			default:
				t.Errorf("unexpected frame %s", f.Raw)
			}
		}
		if last := fs[len(fs)-1]; last.Code != "rate" || !strings.Contains(last.Message, "closed") {
			t.Errorf("the connection closed after %s, not a rate error", last.Raw)
		}
		if slow != maxStrikes || pongs < frameBurst || pongs >= n {
			t.Errorf("%d pongs and %d rate errors for %d frames", pongs, slow, n)
		}
		g.unchanged(t)
	})

	// The handshake, on raw connections.
	for _, hc := range []struct{ name, first, code string }{
		{"a ping first", `{"type":"ping","id":1}`, "hello"},
		{"an act first", `{"type":"act","id":1,"cmd":"skip"}`, "hello"},
		{"malformed JSON first", `{"type":"hello"`, "hello"},
		{"a hello with an unknown field", `{"type":"hello","token":"` + g.token["villager"] + `","seat":2}`, "hello"},
		{"a hello with a negative since", `{"type":"hello","token":"` + g.token["villager"] + `","since":-1}`, "hello"},
		{"a hello with a wrong token", `{"type":"hello","token":"` + rnd + `"}`, "token"},
		{"a hello with the host token", `{"type":"hello","token":"` + g.host + `"}`, "token"},
		{"a hello with a seat token of another room", `{"type":"hello","token":"` + elsewhere.Token + `"}`, "token"},
		{"a hello with a mangled seat token", `{"type":"hello","token":"` + created.Token + `x"}`, "token"},
	} {
		t.Run("hello/"+hc.name, func(t *testing.T) {
			ws, _, err := websocket.Dial(ctx, wsURL(ts.http.URL, g.room), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.CloseNow()
			if err := ws.Write(ctx, websocket.MessageText, []byte(hc.first)); err != nil {
				t.Fatal(err)
			}
			rctx, rcancel := context.WithTimeout(ctx, frameWait)
			defer rcancel()
			fs, err := rawRead(rctx, ws)
			for _, f := range fs {
				g.note(0, f)
			}
			if len(fs) != 1 || fs[0].Type != "error" || fs[0].Code != hc.code || fs[0].Message == "" {
				t.Errorf("frames %s, want one error %s", raws(fs), hc.code)
			}
			if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
				t.Errorf("closed with %v", err)
			}
			g.unchanged(t)
		})
	}
	t.Run("hello/the client refuses a wrong token", func(t *testing.T) {
		_, err := client.Dial(ctx, ts.http.URL, g.room, rnd, 0, 0)
		if err == nil || !strings.Contains(err.Error(), "token") {
			t.Errorf("dial with a random token: %v", err)
		}
		g.unchanged(t)
	})
	t.Run("hello/a hello over 4096 bytes", func(t *testing.T) {
		ws, _, err := websocket.Dial(ctx, wsURL(ts.http.URL, g.room), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		_ = ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","token":"`+strings.Repeat("t", MaxFrame)+`"}`))
		rctx, rcancel := context.WithTimeout(ctx, frameWait)
		defer rcancel()
		fs, err := rawRead(rctx, ws)
		if len(fs) != 1 || fs[0].Code != "hello" || websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
			t.Errorf("frames %s, closed with %v; want a hello error, then a policy-violation close", raws(fs), err)
		}
		g.unchanged(t)
	})

	t.Run("hello/none at all", func(t *testing.T) {
		var end silentEnd
		select {
		case end = <-silentDone:
		case <-time.After(helloWait + frameWait):
			t.Fatal("a connection without a hello is still open")
		}
		if end.after < helloWait {
			t.Errorf("closed after %v", end.after)
		}
		if len(end.frames) != 1 || end.frames[0].Code != "hello" || end.frames[0].Message != "send a hello frame first" {
			t.Errorf("frames %s", raws(end.frames))
		}
		if websocket.CloseStatus(end.err) != websocket.StatusPolicyViolation {
			t.Errorf("closed with %v", end.err)
		}
		g.unchanged(t)
	})

	// Nothing the test sent was ever stored as the seats' own doing.
	recs, err := ts.st.Records(ctx, g.room)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		var b struct {
			Seat int
			Bot  bool
		}
		_ = json.Unmarshal(r.Body, &b)
		switch {
		case r.Kind == "cmd" && !b.Bot, r.Kind == "chat", r.Kind == "pause", r.Kind == "resume", r.Kind == "red":
			t.Errorf("record %d: %s %s", r.N, r.Kind, r.Body)
		}
	}

	// No error message names a card its reader does not hold.
	p, _ := rules.LookupPreset("std-12")
	b, _ := p.Board(12)
	g.mu.Lock()
	defer g.mu.Unlock()
	for seat, msgs := range g.errors {
		own := g.role[seat] // "" for spectators: every card is secret
		for _, m := range msgs {
			for _, r := range b.Cards {
				if r.String() != own && (strings.Contains(m, r.String()) || strings.Contains(m, r.Chinese())) {
					t.Errorf("seat %d (%s) was told %q, which names %v", seat, own, m, r)
				}
			}
		}
	}
	if len(g.errors[g.seat["wolf"]]) == 0 || len(g.errors[g.seat["villager"]]) == 0 || len(g.errors[0]) == 0 {
		t.Errorf("error messages seen: %d", len(g.errors))
	}
}

// checkChannelAnswers: every refused chat gets the same error, whoever
// writes and whatever the reason, and the seats' answers are the same
// frames.
func checkChannelAnswers(t *testing.T, answers map[string][]client.Frame) {
	t.Helper()
	byID := map[int64]map[string]string{}
	for who, fs := range answers {
		if len(fs) == 0 {
			t.Errorf("%s: no answer", who)
		}
		for _, f := range fs {
			if f.Type != "error" || f.Code != "channel" || f.Message != game.ErrChannel.Error() {
				t.Errorf("%s: %s", who, f.Raw)
			}
			if byID[f.ID] == nil {
				byID[f.ID] = map[string]string{}
			}
			byID[f.ID][who] = string(f.Raw)
		}
	}
	for id, m := range byID {
		var first string
		for who, raw := range m {
			if first == "" {
				first = raw
			} else if raw != first {
				t.Errorf("chat %d: %s got %s, another %s", id, who, raw, first)
			}
		}
	}
}
