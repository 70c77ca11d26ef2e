package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/rules"
)

// answers reads conn until every id has its ack or error; it returns the
// code of each ("ack" for an ack).
func answers(t *testing.T, conn *client.Conn, ids map[int64]bool) map[int64]string {
	t.Helper()
	out := map[int64]string{}
	for len(out) < len(ids) {
		f, ok := next(conn, frameWait)
		if !ok {
			t.Fatalf("the connection closed or stalled with %d of %d answers: %v", len(out), len(ids), out)
		}
		if !ids[f.ID] || (f.Type != "ack" && f.Type != "error") {
			continue
		}
		if f.Type == "ack" {
			out[f.ID] = "ack"
		} else {
			out[f.ID] = f.Code
			if f.Code == "rate" && !strings.Contains(f.Message, "1 message a second per seat (5 at once)") {
				t.Errorf("rate error %q does not name the limit", f.Message)
			}
		}
	}
	return out
}

// TestChatBudgetIsPerSeatAndItsConnectionsAreCapped: a seat's chat budget
// (1 a second, 5 at once) is shared by its connections, so a second tab
// does not double it; a message over it gets a rate error and is not
// stored. A third connection of the seat is refused.
func TestChatBudgetIsPerSeatAndItsConnectionsAreCapped(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	c, _ := ts.createStarted(t, map[string]any{"preset": "std-12", "options": map[string]string{"first_phase": "day"}, "nickname": "a", "timers": slow})
	var conns []*client.Conn
	for range 2 {
		conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conns = append(conns, conn)
	}
	// A third is refused, and closed.
	if _, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0); err == nil || !strings.Contains(err.Error(), "connections") ||
		!strings.Contains(err.Error(), "2 connections") {
		t.Fatalf("a third connection of the seat: %v, want a connections error", err)
	}
	const n = 8 // four on each connection, sent at once
	ids := [2]map[int64]bool{{}, {}}
	for i := 1; i <= n; i++ {
		k := i % 2
		ids[k][int64(i)] = true
		if err := conns[k].Send(ctx, map[string]any{"type": "chat", "id": i, "channel": "day", "text": fmt.Sprint("hello ", i)}); err != nil {
			t.Fatal(err)
		}
	}
	acks, rated := 0, 0
	for k := range conns {
		for id, code := range answers(t, conns[k], ids[k]) {
			switch code {
			case "ack":
				acks++
			case "rate":
				rated++
			default:
				t.Errorf("chat %d: %s", id, code)
			}
		}
	}
	// 5 at once, and one more if the test took over a second to send them.
	if acks < 5 || acks > 6 || acks+rated != n {
		t.Errorf("%d chats taken and %d refused for their rate, of %d", acks, rated, n)
	}
	recs, err := ts.st.Records(ctx, c.Room.ID)
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	for _, r := range recs {
		if r.Kind == "chat" {
			stored++
		}
	}
	if stored != acks {
		t.Errorf("%d chats stored, %d acknowledged", stored, acks)
	}
	// Closing one connection makes room for another.
	conns[0].Close()
	ts.waitConns(t, c.Room.ID, 1, 1)
	conn, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatalf("a connection after one closed: %v", err)
	}
	conn.Close()
}

// waitConns waits until the room counts n connections of the seat (0:
// spectators): a connection closed by the client is forgotten by the
// server a moment later.
func (ts *testServer) waitConns(t *testing.T, id string, seat, n int) {
	t.Helper()
	rm, err := ts.roomFor(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		rm.mu.Lock()
		got := rm.conns[rulesSeat(seat)]
		rm.mu.Unlock()
		if got == n {
			return
		}
		if i == 500 {
			t.Fatalf("seat %d has %d connections, want %d", seat, got, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// spectate opens a spectator's connection as the given address (through a
// trusted proxy's X-Forwarded-For); it returns the connection once
// welcomed, or the code of the refusal.
func spectate(ctx context.Context, base, room, addr string) (*websocket.Conn, string, error) {
	h := http.Header{}
	if addr != "" {
		h.Set("X-Forwarded-For", addr)
	}
	ws, _, err := websocket.Dial(ctx, wsURL(base, room), &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, "", err
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		ws.CloseNow()
		return nil, "", err
	}
	_, data, err := ws.Read(ctx)
	if err != nil {
		ws.CloseNow()
		return nil, "", err
	}
	fs, err := client.Split(data)
	if err != nil || len(fs) == 0 {
		ws.CloseNow()
		return nil, "", fmt.Errorf("no frame: %v", err)
	}
	if fs[0].Type == "welcome" {
		return ws, "", nil
	}
	if fs[0].Message == "" {
		return nil, fs[0].Code, fmt.Errorf("a refusal without a message: %s", fs[0].Raw)
	}
	_, _, err = ws.Read(ctx) // then closed
	if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		return nil, fs[0].Code, fmt.Errorf("refused but not closed: %v", err)
	}
	return nil, fs[0].Code, nil
}

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// TestSpectatorsAreBoundedPerRoomAndPerAddress: a room takes 100
// spectators, 5 from one address; an address may open 10 spectator
// connections a minute.
func TestSpectatorsAreBoundedPerRoomAndPerAddress(t *testing.T) {
	ts := newTestServerWith(t, Options{TrustedProxies: loopback})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, _ := ts.createStarted(t, map[string]any{"preset": "std-12", "timers": slow})
	var open []*websocket.Conn
	defer func() {
		for _, ws := range open {
			ws.CloseNow()
		}
	}()
	watch := func(addr string) string {
		t.Helper()
		ws, code, err := spectate(ctx, ts.http.URL, c.Room.ID, addr)
		if err != nil {
			t.Fatalf("spectator from %s: %v", addr, err)
		}
		if ws != nil {
			open = append(open, ws)
		}
		return code
	}
	for i := 1; i <= 5; i++ {
		if code := watch("10.0.0.1"); code != "" {
			t.Fatalf("spectator %d from one address: refused %s", i, code)
		}
	}
	if code := watch("10.0.0.1"); code != "connections" {
		t.Fatalf("a sixth spectator from one address: %q, want connections", code)
	}
	for i := 7; i <= 10; i++ {
		watch("10.0.0.1")
	}
	open[0].CloseNow() // room for one more, but the address has opened 10 this minute
	open = open[1:]
	ts.waitConns(t, c.Room.ID, 0, 4)
	if code := watch("10.0.0.1"); code != "rate" {
		t.Fatalf("an eleventh spectator connection in a minute: %q, want rate", code)
	}
	// 100 in all: 4 more from 10.0.0.1's neighbours make 100 with 19 × 5.
	for a := 2; len(open) < 100; a++ {
		for i := 0; i < 5 && len(open) < 100; i++ {
			if code := watch(fmt.Sprint("10.0.0.", a)); code != "" {
				t.Fatalf("spectator %d: refused %s", len(open)+1, code)
			}
		}
	}
	if code := watch("10.0.1.1"); code != "spectators" {
		t.Fatalf("the 101st spectator: %q, want spectators", code)
	}
}

// TestJoinsAreRateLimitedPerAddress: one address takes at most 10 seats a
// minute; another address is not held back, and X-Forwarded-For is read
// only from a trusted proxy.
func TestJoinsAreRateLimitedPerAddress(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trusted []netip.Prefix
		other   bool // whether another forwarded address gets a seat
	}{{"behind a trusted proxy", loopback, true}, {"forwarded addresses from an untrusted peer", nil, false}} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestServerWith(t, Options{JoinsPerMinute: 10, TrustedProxies: tc.trusted})
			var c client.Created
			if err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-12"}, &c); err != nil {
				t.Fatal(err)
			}
			join := func(addr string) (int, string) {
				req, _ := http.NewRequest("POST", ts.http.URL+"/api/rooms/"+c.Room.ID+"/join", strings.NewReader(`{"nickname":"x"}`))
				req.Header.Set("X-Forwarded-For", addr)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				var e struct {
					Error struct{ Code, Message string }
				}
				_ = jsonDecode(resp, &e)
				return resp.StatusCode, e.Error.Code + ": " + e.Error.Message
			}
			for i := 1; i <= 10; i++ {
				if status, e := join("10.0.0.1"); status != 200 {
					t.Fatalf("join %d: %d %s", i, status, e)
				}
			}
			if status, e := join("10.0.0.1"); status != 429 || !strings.HasPrefix(e, "rate: ") || !strings.Contains(e, "10 a minute") {
				t.Fatalf("join 11: %d %s, want 429 rate naming the limit", status, e)
			}
			if status, e := join("10.0.0.2"); (status == 200) != tc.other {
				t.Fatalf("a join from another forwarded address: %d %s", status, e)
			}
		})
	}
}

// TestAnEmptiedSeatStaysClosedUntilReopened: the seat the host empties is
// closed: joins skip it, the room info marks it, the host reopens it; at
// the start bots take closed seats as they take empty ones.
func TestAnEmptiedSeatStaysClosedUntilReopened(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "nickname": "host", "timers": slow}, &c); err != nil {
		t.Fatal(err)
	}
	id := "/api/rooms/" + c.Room.ID
	var bob seated
	if err := ts.api.Do(ctx, "POST", id+"/join", "", map[string]any{"nickname": "bob"}, &bob); err != nil || bob.Seat != 2 {
		t.Fatalf("bob joins: seat %d, %v", bob.Seat, err)
	}
	var info roomInfo
	if err := ts.api.Do(ctx, "DELETE", id+"/seats/2", c.HostToken, nil, &info); err != nil || !info.Seats[1].Closed || info.Seats[1].Nick != "" {
		t.Fatalf("the host empties seat 2: %+v %v", info.Seats[1], err)
	}
	var again seated
	if err := ts.api.Do(ctx, "POST", id+"/join", "", map[string]any{"nickname": "bob"}, &again); err != nil || again.Seat != 3 {
		t.Fatalf("bob joins again: seat %d, %v; want 3, not the closed seat", again.Seat, err)
	}
	for s := 4; s <= 9; s++ {
		var p seated
		if err := ts.api.Do(ctx, "POST", id+"/join", "", map[string]any{"nickname": "p"}, &p); err != nil || p.Seat != s {
			t.Fatalf("join: seat %d, %v; want %d", p.Seat, err, s)
		}
	}
	var e *client.Error
	if err := ts.api.Do(ctx, "POST", id+"/join", "", map[string]any{"nickname": "eve"}, nil); !errors.As(err, &e) || e.Code != "full" ||
		!strings.Contains(e.Message, "closed") {
		t.Fatalf("a join with only the closed seat left: %v", err)
	}
	for _, tc := range []struct {
		path, token string
		code        string
	}{{"/seats/2/open", bob.Token, "not_host"}, {"/seats/3/open", c.HostToken, "not_closed"}, {"/seats/10/open", c.HostToken, "bad_seat"},
		{"/seats/x/open", c.HostToken, "bad_seat"}} {
		if err := ts.api.Do(ctx, "POST", id+tc.path, tc.token, nil, nil); !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("POST %s: %v, want %s", tc.path, err, tc.code)
		}
	}
	info = roomInfo{}
	if err := ts.api.Do(ctx, "POST", id+"/seats/2/open", c.HostToken, nil, &info); err != nil || info.Seats[1].Closed {
		t.Fatalf("the host reopens seat 2: %+v %v", info.Seats[1], err)
	}
	var eve seated
	if err := ts.api.Do(ctx, "POST", id+"/join", "", map[string]any{"nickname": "eve"}, &eve); err != nil || eve.Seat != 2 {
		t.Fatalf("eve joins the reopened seat: %d %v", eve.Seat, err)
	}
	if err := ts.api.Do(ctx, "DELETE", id+"/seats/5", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	info = roomInfo{}
	if err := ts.api.Do(ctx, "POST", id+"/start", c.HostToken, nil, &info); err != nil || !info.Seats[4].Bot || info.Seats[4].Closed || info.Taken != 9 {
		t.Fatalf("the start: seat 5 %+v, %d taken, %v", info.Seats[4], info.Taken, err)
	}
}

// TestAWebSocketOutlivesTheHTTPTimeouts: the listener's read and write
// timeouts bound requests, not a game's connection.
func TestAWebSocketOutlivesTheHTTPTimeouts(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, _ := ts.createStarted(t, map[string]any{"preset": "std-12", "nickname": "a", "timers": slow})
	hs := HTTPServer(ts.Server)
	if hs.ReadHeaderTimeout == 0 || hs.ReadTimeout == 0 || hs.WriteTimeout == 0 || hs.IdleTimeout == 0 {
		t.Fatalf("the public server has no timeouts: %+v", hs)
	}
	const short = 300 * time.Millisecond
	hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout = short, short, short, short
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	defer hs.Close()
	base := "http://" + ln.Addr().String()
	conn, err := client.Dial(ctx, base, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A request whose headers never end is cut off by the timeouts; once it
	// is, they have run out for the WebSocket opened before it too.
	slowReq, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer slowReq.Close()
	if _, err := slowReq.Write([]byte("GET /healthz HTTP/1.1\r\nHost: x\r\n")); err != nil {
		t.Fatal(err)
	}
	_ = slowReq.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := slowReq.Read(make([]byte, 512)); err == nil {
		for {
			if _, err := slowReq.Read(make([]byte, 512)); err != nil {
				break
			}
		}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the server did not cut off a request whose headers never ended")
	}
	if err := conn.Send(ctx, map[string]any{"type": "ping", "id": 7}); err != nil {
		t.Fatalf("writing to the WebSocket after the timeouts: %v", err)
	}
	for {
		f, ok := next(conn, frameWait)
		if !ok {
			t.Fatal("the WebSocket closed after the HTTP timeouts")
		}
		if f.Type == "pong" && f.ID == 7 {
			return
		}
	}
}

func jsonDecode(resp *http.Response, v any) error { return json.NewDecoder(resp.Body).Decode(v) }

func rulesSeat(n int) rules.Seat { return rules.Seat(n) }

// TestIPv6AddressesCountByTheirNetwork: the addresses of one IPv6 /64 share
// one limit, so ten of them cannot take ten times the seats; another /64
// has its own, and Options.IPv6Prefix changes the grouping (128: each
// address alone). IPv4 addresses count alone.
func TestIPv6AddressesCountByTheirNetwork(t *testing.T) {
	for _, tc := range []struct {
		name   string
		prefix int
		addrs  []string // the joins, in turn
		want   int      // seats taken of them
	}{
		{"ten addresses of one /64", 0, tenOf("2001:db8:1:2::%x"), 3},
		{"spellings of one /64", 0, []string{"2001:db8:1:2::1", "2001:0db8:0001:0002:ffff::1", "2001:db8:1:2::9%eth0", "2001:DB8:1:2::10"}, 3},
		{"one address each from ten /64s", 0, tenOf("2001:db8:1:%x::1"), 10},
		{"ten addresses of one /48 grouped by /48", 48, tenOf("2001:db8:1:%x::1"), 3},
		{"ten addresses of one /64 counted alone", 128, tenOf("2001:db8:1:2::%x"), 10},
		{"ten IPv4 addresses of one /24", 0, tenOf("10.0.0.%d"), 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestServerWith(t, Options{JoinsPerMinute: 3, TrustedProxies: loopback, IPv6Prefix: tc.prefix})
			var c client.Created
			if err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-12"}, &c); err != nil {
				t.Fatal(err)
			}
			taken := 0
			for _, addr := range tc.addrs {
				req, _ := http.NewRequest("POST", ts.http.URL+"/api/rooms/"+c.Room.ID+"/join", strings.NewReader(`{"nickname":"x"}`))
				req.Header.Set("X-Forwarded-For", addr)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode == 200 {
					taken++
				}
			}
			if taken != tc.want {
				t.Errorf("%d seats taken, want %d", taken, tc.want)
			}
		})
	}
}

func tenOf(format string) []string {
	out := make([]string, 10)
	for i := range out {
		out[i] = fmt.Sprintf(format, i+1)
	}
	return out
}
