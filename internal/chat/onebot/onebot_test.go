package onebot

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/chat/inbox"
)

const token = "s3cret-token"

// fakeImpl is the OneBot implementation's side of one connection.
type fakeImpl struct {
	t  *testing.T
	ws *websocket.Conn
}

type action struct {
	Action string          `json:"action"`
	Params json.RawMessage `json:"params"`
	Echo   string          `json:"echo"`
}

func (f *fakeImpl) send(v any) {
	f.t.Helper()
	data, ok := v.([]byte)
	if !ok {
		var err error
		if data, err = json.Marshal(v); err != nil {
			f.t.Fatal(err)
		}
	}
	if err := f.ws.Write(context.Background(), websocket.MessageText, data); err != nil {
		f.t.Fatalf("fake: write: %v", err)
	}
}

func (f *fakeImpl) action() action {
	f.t.Helper()
	_, data, err := f.ws.Read(context.Background())
	if err != nil {
		f.t.Fatalf("fake: read: %v", err)
	}
	var a action
	if err := json.Unmarshal(data, &a); err != nil {
		f.t.Fatalf("fake: action %s: %v", data, err)
	}
	return a
}

func (f *fakeImpl) reply(a action, status string, retcode int) {
	f.send(map[string]any{"status": status, "retcode": retcode, "data": map[string]any{"message_id": 1}, "echo": a.Echo})
}

// forwardServer is a fake implementation's forward WebSocket server, which
// wants the token and hands each accepted connection to conns.
func forwardServer(t *testing.T) (*httptest.Server, chan *fakeImpl) {
	conns := make(chan *fakeImpl, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		f := &fakeImpl{t: t, ws: ws}
		conns <- f
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv, conns
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// start runs p until the test ends and returns what it delivers.
func start(t *testing.T, p *Platform) (chan chat.Incoming, chan error) {
	in := make(chan chat.Incoming, 16)
	errc := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { errc <- p.Run(ctx, in) }()
	t.Cleanup(func() {
		cancel()
		<-errc
	})
	// Run has begun once the platform no longer says it is stopped: until
	// then the reverse endpoint answers 503, as it does while wolfden stops.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		p.mu.Lock()
		running := !p.stopped
		p.mu.Unlock()
		if running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the platform's Run did not begin")
		}
	}
	return in, errc
}

func forward(t *testing.T) (*Platform, *fakeImpl, chan *fakeImpl, chan chat.Incoming) {
	srv, conns := forwardServer(t)
	p, err := New(Options{URL: "ws" + strings.TrimPrefix(srv.URL, "http"), Token: token, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	p.minBackoff = time.Millisecond
	in, _ := start(t, p)
	f := <-conns
	f.send(map[string]any{"post_type": "meta_event", "meta_event_type": "lifecycle", "sub_type": "connect", "self_id": 10000})
	waitConns(p, 1)
	return p, f, conns, in
}

// waitConns waits until p holds n live connections.
func waitConns(p *Platform, n int) {
	for {
		p.mu.Lock()
		k := len(p.conns)
		p.mu.Unlock()
		if k == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func groupEvent(user, group int64, message any) map[string]any {
	return map[string]any{"post_type": "message", "message_type": "group", "self_id": 10000, "user_id": user,
		"group_id": group, "message": message, "sender": map[string]any{"nickname": "nick", "card": "card"}}
}

func TestMessageEventsBecomeIncomingWithoutTheAts(t *testing.T) {
	_, f, _, in := forward(t)
	cases := []struct {
		name  string
		event map[string]any
		want  chat.Incoming
	}{
		{"group CQ string @bot", groupEvent(501, 900, "[CQ:at,qq=10000] 加入"),
			chat.Incoming{Group: "900", User: "501", Name: "card", Text: "加入"}},
		{"group segments @bot", groupEvent(502, 900, []any{
			map[string]any{"type": "at", "data": map[string]any{"qq": "10000"}},
			map[string]any{"type": "text", "data": map[string]any{"text": " 查验  5 "}}}),
			chat.Incoming{Group: "900", User: "502", Name: "card", Text: "查验 5"}},
		{"numeric qq in a segment", groupEvent(503, 900, []any{
			map[string]any{"type": "at", "data": map[string]any{"qq": 10000}},
			map[string]any{"type": "text", "data": map[string]any{"text": "投 7"}}}),
			chat.Incoming{Group: "900", User: "503", Name: "card", Text: "投 7"}},
		{"CQ escapes", groupEvent(504, 900, "say &#91;x&#93; &amp; y[CQ:image,file=a.png]"),
			chat.Incoming{Group: "900", User: "504", Name: "card", Text: "say [x] & y"}},
		{"private, nickname", map[string]any{"post_type": "message", "message_type": "private", "self_id": 10000,
			"user_id": 505, "message": "过", "sender": map[string]any{"nickname": "小明"}},
			chat.Incoming{User: "505", Name: "小明", Text: "过"}},
	}
	for _, c := range cases {
		f.send(c.event)
		if got := <-in; got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// Bad frames are logged and skipped; the connection stays and the next
// good message arrives.
func TestMalformedAndUnknownFramesAreSurvived(t *testing.T) {
	_, f, conns, in := forward(t)
	f.send([]byte(`{not json`))
	f.send([]byte(`{"post_type":"rocket"}`))
	f.send([]byte(`{"status":"ok","retcode":0,"echo":"nobody-asked"}`))
	f.send(map[string]any{"post_type": "message", "message_type": "group", "user_id": 1, "group_id": 2, "message": 5})
	f.send(map[string]any{"post_type": "message", "message_type": "channel", "user_id": 1, "message": "x"})
	f.send(groupEvent(10000, 900, "my own echo")) // the bot itself
	f.send(groupEvent(501, 900, "[CQ:image,file=a.png]"))
	if err := f.ws.Write(context.Background(), websocket.MessageBinary, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	f.send(groupEvent(501, 900, "加入"))
	if got := <-in; got.Text != "加入" || got.User != "501" {
		t.Fatalf("after bad frames got %+v, want 501's 加入", got)
	}
	select {
	case <-conns:
		t.Fatal("the platform reconnected: a bad frame broke the connection")
	default:
	}
}

func TestSendMatchesResponsesByEcho(t *testing.T) {
	p, f, _, _ := forward(t)
	errs := make(map[string]chan error)
	for _, to := range []chat.Target{{Group: "900"}, {User: "505"}} {
		ch := make(chan error, 1)
		errs[chatKey(to)] = ch
		go func() {
			ch <- p.Send(context.Background(), to, chat.Message{Text: "天亮了", Mention: []string{"501"}})
		}()
	}
	a1, a2 := f.action(), f.action()
	byName := map[string]action{a1.Action: a1, a2.Action: a2}
	g, u := byName["send_group_msg"], byName["send_private_msg"]
	if g.Echo == "" || u.Echo == "" || g.Echo == u.Echo {
		t.Fatalf("actions %+v %+v: want send_group_msg and send_private_msg with distinct echoes", a1, a2)
	}
	var gp struct {
		GroupID int64     `json:"group_id"`
		Message []segment `json:"message"`
	}
	if err := json.Unmarshal(g.Params, &gp); err != nil {
		t.Fatal(err)
	}
	if gp.GroupID != 900 || len(gp.Message) != 3 || gp.Message[0].Type != "at" || gp.Message[0].Data["qq"] != "501" || gp.Message[2].Data["text"] != "天亮了" {
		t.Errorf("group params %s: want group 900, an @501, then the text", g.Params)
	}
	if strings.Contains(string(u.Params), `"at"`) || !strings.Contains(string(u.Params), `"user_id":505`) {
		t.Errorf("private params %s: want user_id 505 and no @", u.Params)
	}
	// Answered in the other order, the private one failed.
	f.reply(u, "failed", 100)
	f.reply(g, "ok", 0)
	if err := <-errs["g900"]; err != nil {
		t.Errorf("group send: %v", err)
	}
	if err := <-errs["u505"]; err == nil || !strings.Contains(err.Error(), "retcode 100") {
		t.Errorf("private send answered failed: err %v, want one naming retcode 100", err)
	}
}

func TestSendFailsWithoutAConnectionOrOnClose(t *testing.T) {
	p, err := New(Options{Reverse: true, Token: token, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Send(context.Background(), chat.Target{Group: "1"}, chat.Message{Text: "x"}); err == nil || !strings.Contains(err.Error(), "not connected") {
		t.Errorf("send with no connection: %v, want not connected", err)
	}
	p2, f, _, _ := forward(t)
	errc := make(chan error, 1)
	go func() { errc <- p2.Send(context.Background(), chat.Target{Group: "1"}, chat.Message{Text: "x"}) }()
	f.action()
	f.ws.Close(websocket.StatusNormalClosure, "bye")
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "connection closed") {
		t.Errorf("send whose connection closed: %v, want an error", err)
	}
}

func TestSendRefusesTargetsThatAreNotQQNumbers(t *testing.T) {
	p, _, _, _ := forward(t)
	for _, to := range []chat.Target{{Group: "abc"}, {User: "12x"}} {
		if err := p.Send(context.Background(), to, chat.Message{Text: "x"}); err == nil || !strings.Contains(err.Error(), "not a QQ") {
			t.Errorf("send to %+v: %v, want a clear error", to, err)
		}
	}
}

func TestForwardReconnectsAfterTheConnectionDrops(t *testing.T) {
	_, f, conns, in := forward(t)
	f.ws.Close(websocket.StatusGoingAway, "restart")
	f2 := <-conns
	f2.send(groupEvent(501, 900, "加入"))
	if got := <-in; got.Text != "加入" {
		t.Fatalf("after reconnecting got %+v", got)
	}
}

func TestForwardRefusedTokenIsFatalAndNotLogged(t *testing.T) {
	srv, _ := forwardServer(t)
	p, err := New(Options{URL: "ws" + strings.TrimPrefix(srv.URL, "http") + "?access_token=wrong-one", Token: "wrong-one", Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Run(context.Background(), make(chan chat.Incoming))
	if err == nil || !strings.Contains(err.Error(), "refused the access token") || strings.Contains(err.Error(), "wrong-one") {
		t.Fatalf("Run with a refused token: %v, want a fatal error without the token", err)
	}
}

func TestReverseEndpointChecksTheToken(t *testing.T) {
	p, err := New(Options{Reverse: true, Token: token, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	start(t, p)
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	ws := "ws" + strings.TrimPrefix(srv.URL, "http") + p.Path()
	cases := []struct {
		name   string
		query  string
		header http.Header
		status int
	}{
		{"no token", "", nil, http.StatusUnauthorized},
		{"wrong token", "", http.Header{"Authorization": {"Bearer nope"}}, http.StatusForbidden},
		{"wrong query token", "?access_token=nope", nil, http.StatusForbidden},
		{"event-only role", "", http.Header{"Authorization": {"Bearer " + token}, "X-Client-Role": {"Event"}}, http.StatusBadRequest},
		{"header token", "", http.Header{"Authorization": {"Bearer " + token}, "X-Client-Role": {"Universal"}}, http.StatusSwitchingProtocols},
		{"go-cqhttp's Token scheme", "", http.Header{"Authorization": {"Token " + token}}, http.StatusSwitchingProtocols},
		{"query token", "?access_token=" + token, nil, http.StatusSwitchingProtocols},
	}
	for _, c := range cases {
		c2, resp, _ := websocket.Dial(context.Background(), ws+c.query, &websocket.DialOptions{HTTPHeader: c.header})
		if c2 != nil {
			c2.CloseNow()
		}
		if resp == nil || resp.StatusCode != c.status {
			t.Errorf("%s: response %v, want HTTP %d", c.name, resp, c.status)
		}
	}
}

func TestReverseEndpointIsOffUnlessAsked(t *testing.T) {
	p, err := New(Options{URL: "ws://127.0.0.1:1", Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, httptest.NewRequest("GET", Path, nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("reverse endpoint off: HTTP %d, want 404", rec.Code)
	}
}

func TestReverseConnectionDeliversAndSends(t *testing.T) {
	p, err := New(Options{Reverse: true, Token: token, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	in, _ := start(t, p)
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	ws, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http")+Path,
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}, "X-Self-ID": {"10000"}, "X-Client-Role": {"Universal"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	f := &fakeImpl{t: t, ws: ws}
	waitConns(p, 1)
	// The self id came with the header: the bot's own @ is dropped at once.
	f.send(groupEvent(501, 900, "[CQ:at,qq=10000]开局"))
	if got := <-in; got.Text != "开局" || got.Group != "900" {
		t.Fatalf("reverse event: got %+v", got)
	}
	errc := make(chan error, 1)
	go func() {
		errc <- p.Send(context.Background(), chat.Target{User: "501"}, chat.Message{Text: "你是预言家"})
	}()
	a := f.action()
	if a.Action != "send_private_msg" {
		t.Fatalf("action %+v, want send_private_msg", a)
	}
	f.reply(a, "ok", 0)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func TestButtonsAreNumberedLinesAndHashNPressesThem(t *testing.T) {
	p, f, _, in := forward(t)
	m := chat.Message{Text: "投票：", Buttons: [][]chat.Button{{{Label: "3号", Command: "投 3"}, {Label: "5号", Command: "投 5"}}, {{Label: "过", Command: "过"}}}}
	if got, want := Render(m), "投票：\n#1 3号\n#2 5号\n#3 过"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
	numbered := chat.Message{Text: "请投票\n1. 3号 — 投 3\n2. 5号 — 投 5", Buttons: m.Buttons}
	if got := Render(numbered); got != numbered.Text {
		t.Errorf("Render of a text that numbers its choices = %q, want the text alone", got)
	}
	errc := make(chan error, 1)
	go func() { errc <- p.Send(context.Background(), chat.Target{Group: "900"}, m) }()
	f.reply(f.action(), "ok", 0)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		group int64
		text  string
		want  string
	}{
		{900, "#2", "投 5"},
		{900, "＃3", "过"},
		{900, "#4", "#4"}, // no 4th button
		{900, "2", "2"},   // a bare number is a seat's, not a button's
		{901, "#1", "#1"}, // another group saw no buttons
	} {
		f.send(groupEvent(501, c.group, c.text))
		if got := <-in; got.Text != c.want {
			t.Errorf("group %d, %q → %q, want %q", c.group, c.text, got.Text, c.want)
		}
	}
}

func TestNewRefusesABadConfiguration(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{}, "forward WebSocket URL"},
		{Options{URL: "http://127.0.0.1:3001"}, "not a WebSocket URL"},
		{Options{URL: "127.0.0.1:3001"}, "not a WebSocket URL"},
		{Options{URL: "ws://"}, "not a WebSocket URL"},
		{Options{Reverse: true}, "needs an access token"},
	} {
		if _, err := New(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v): %v, want an error naming %q", c.o, err, c.want)
		}
	}
}

// Every goroutine ends with Run, the reverse connections too.
func TestRunEndsClosingReverseConnections(t *testing.T) {
	p, err := New(Options{Reverse: true, Token: token, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- p.Run(ctx, make(chan chat.Incoming)) }()
	srv := httptest.NewServer(p)
	defer srv.Close()
	ws, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http")+Path+"?access_token="+token, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			if _, _, err := ws.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	waitConns(p, 1)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v, want context.Canceled", err)
	}
	wg.Wait() // the connection was closed by the platform
}

// The server runs a platform again after it stopped: the reverse endpoint
// takes connections in the second run as in the first, and none between.
func TestAPlatformRunsAgainAfterItStopped(t *testing.T) {
	p, err := New(Options{Reverse: true, Token: token, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + Path + "?access_token=" + token
	_, resp, _ := websocket.Dial(context.Background(), url, nil)
	if resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("before Run: %v, want 503", resp)
	}
	for run := 1; run <= 2; run++ {
		ctx, cancel := context.WithCancel(context.Background())
		in := make(chan chat.Incoming, 1)
		errc := make(chan error, 1)
		go func() { errc <- p.Run(ctx, in) }()
		var ws *websocket.Conn
		for ws == nil { // until Run has begun
			ws, _, _ = websocket.Dial(context.Background(), url, nil)
		}
		f := &fakeImpl{t: t, ws: ws}
		f.send(groupEvent(501, 900, "加入"))
		if got := <-in; got.Text != "加入" {
			t.Errorf("run %d: got %+v", run, got)
		}
		cancel()
		<-errc
		ws.CloseNow()
	}
}

// A flood while the judge reads nothing: the reader keeps reading (so an
// action's response still arrives), and what does not fit is dropped.
func TestAFloodNeitherBlocksTheConnectionNorGrowsWithoutBound(t *testing.T) {
	srv, conns := forwardServer(t)
	p, err := New(Options{URL: "ws" + strings.TrimPrefix(srv.URL, "http"), Token: token, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx, make(chan chat.Incoming)) // nobody reads
	f := <-conns
	waitConns(p, 1)
	const n = 3000
	for i := range n {
		f.send(groupEvent(501, 900, "投 "+strconv.Itoa(i)))
	}
	errc := make(chan error, 1)
	go func() {
		errc <- p.Send(context.Background(), chat.Target{Group: "900"}, chat.Message{Text: "still here"})
	}()
	f.reply(f.action(), "ok", 0)
	if err := <-errc; err != nil {
		t.Fatalf("send during a flood: %v", err)
	}
	// The send's action was read after every event: all were offered.
	if got := p.in.Dropped(); got < n-inbox.Cap-1 {
		t.Errorf("dropped %d of %d unread messages, want all but the inbox's %d (and the one its forwarder holds)", got, n, inbox.Cap)
	}
}
