package discord

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/chat"
)

const (
	token = "bot-token-secret"
	botID = "42"
)

// fakeDiscord is Discord's REST API and gateway, as far as the platform
// uses them. REST requests reach it through a transport that rewrites
// discord.com to it; the gateway's URL is what its GET /gateway says.
type fakeDiscord struct {
	t      *testing.T
	srv    *httptest.Server
	events chan any        // dispatches to send: {"t": …, "d": …}
	rest   chan restCall   // every REST call but the gateway's
	closed map[string]bool // DM channels whose user takes no DMs
	mu     sync.Mutex
	seq    int
	refuse bool // close the gateway with 4004 after identify
}

type restCall struct {
	Method, Path string
	Body         map[string]any
}

func newFake(t *testing.T) *fakeDiscord {
	f := &fakeDiscord{t: t, events: make(chan any, 16), rest: make(chan restCall, 64), closed: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/gateway", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws"})
	})
	mux.HandleFunc("/ws/", f.gateway) // discordgo adds the slash
	mux.HandleFunc("/", f.restCall)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// client sends discord.com's requests to the fake.
func (f *fakeDiscord) client() *http.Client {
	base, _ := url.Parse(f.srv.URL)
	return &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host, r.Host = base.Scheme, base.Host, base.Host
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func (f *fakeDiscord) gateway(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 20)
	ctx := r.Context()
	write := func(v any) error {
		data, _ := json.Marshal(v)
		return ws.Write(ctx, websocket.MessageText, data)
	}
	write(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}})
	_, data, err := ws.Read(ctx)
	if err != nil {
		return
	}
	var id struct {
		Op int `json:"op"`
		D  struct {
			Token   string `json:"token"`
			Intents int    `json:"intents"`
		} `json:"d"`
	}
	json.Unmarshal(data, &id)
	if id.Op != 2 || id.D.Token != "Bot "+token || f.refuse {
		ws.Close(4004, "Authentication failed.")
		return
	}
	if id.D.Intents&(1<<15) == 0 {
		f.t.Errorf("identify intents %b: want MESSAGE_CONTENT (1<<15)", id.D.Intents)
	}
	f.mu.Lock()
	f.seq++
	seq := f.seq
	f.mu.Unlock()
	write(map[string]any{"op": 0, "t": "READY", "s": seq, "d": map[string]any{"v": 9, "session_id": "sess",
		"user": map[string]any{"id": botID, "username": "wolfbot", "bot": true}, "guilds": []any{}}})
	go func() { // heartbeats and anything else the client says
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var op struct {
				Op int `json:"op"`
			}
			json.Unmarshal(data, &op)
			if op.Op == 1 {
				write(map[string]any{"op": 11})
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-f.events:
			if raw, ok := e.([]byte); ok {
				ws.Write(ctx, websocket.MessageText, raw)
				continue
			}
			f.mu.Lock()
			f.seq++
			m := e.(map[string]any)
			m["op"], m["s"] = 0, f.seq
			f.mu.Unlock()
			if write(m) != nil {
				return
			}
		}
	}
}

func (f *fakeDiscord) restCall(w http.ResponseWriter, r *http.Request) {
	c := restCall{Method: r.Method, Path: r.URL.Path}
	body, _ := io.ReadAll(r.Body)
	if len(body) > 0 {
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			f.t.Errorf("fake: %s %s: body %q: %v", r.Method, r.URL.Path, body, err)
		}
		if m, ok := v.(map[string]any); ok {
			c.Body = m
		} else {
			c.Body = map[string]any{"list": v}
		}
	}
	if r.Header.Get("Authorization") != "Bot "+token && !strings.HasPrefix(r.URL.Path, "/api/v9/webhooks/") && !strings.HasPrefix(r.URL.Path, "/api/v9/interactions/") {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"message":"401: Unauthorized","code":0}`))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == "POST" && r.URL.Path == "/api/v9/users/@me/channels":
		f.rest <- c
		json.NewEncoder(w).Encode(map[string]any{"id": "9" + c.Body["recipient_id"].(string), "type": 1})
	case r.Method == "POST" && strings.HasPrefix(r.URL.Path, "/api/v9/channels/") && strings.HasSuffix(r.URL.Path, "/messages"):
		ch := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/api/v9/channels/"), "/messages")
		f.mu.Lock()
		closed := f.closed[ch]
		f.mu.Unlock()
		if closed {
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"message":"Cannot send messages to this user","code":50007}`))
			return
		}
		f.rest <- c
		json.NewEncoder(w).Encode(map[string]any{"id": "1", "channel_id": ch, "content": c.Body["content"]})
	default:
		f.rest <- c
		if r.Method == "PUT" {
			w.Write([]byte(`[]`))
			return
		}
		if r.URL.Path == "/api/v9/interactions/i1/tok/callback" || strings.Contains(r.URL.Path, "/callback") {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "2", "content": ""})
	}
}

// next is the next REST call, skipping interaction callbacks unless asked.
func (f *fakeDiscord) next(t *testing.T) restCall {
	t.Helper()
	select {
	case c := <-f.rest:
		return c
	case <-time.After(time.Minute): // a hang, not a timing
		t.Fatal("no REST call")
		return restCall{}
	}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// run starts the platform on the fake and waits for /wolf's registration.
func run(t *testing.T) (*Platform, *fakeDiscord, chan chat.Incoming) {
	f := newFake(t)
	p, err := New(Options{Token: token, Log: quiet(), client: f.client()})
	if err != nil {
		t.Fatal(err)
	}
	in := make(chan chat.Incoming, 16)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- p.Run(ctx, in) }()
	t.Cleanup(func() {
		cancel()
		<-errc
	})
	reg := f.next(t)
	if reg.Method != "PUT" || reg.Path != "/api/v9/applications/"+botID+"/commands" {
		t.Fatalf("first REST call %s %s: want the slash command's registration", reg.Method, reg.Path)
	}
	list, _ := reg.Body["list"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["name"] != Command {
		t.Errorf("registered %v, want /%s alone", reg.Body, Command)
	}
	return p, f, in
}

func author(id string) map[string]any { return map[string]any{"id": id, "username": "u" + id} }

func TestChannelMessagesAndDMsArriveAddressedToTheJudge(t *testing.T) {
	_, f, in := run(t)
	f.events <- map[string]any{"t": "MESSAGE_CREATE", "d": map[string]any{"id": "1", "channel_id": "500", "guild_id": "7",
		"author": map[string]any{"id": "99", "username": "otherbot", "bot": true}, "content": "加入"}}
	f.events <- map[string]any{"t": "MESSAGE_CREATE", "d": map[string]any{"id": "2", "channel_id": "500", "guild_id": "7",
		"author": author("77"), "member": map[string]any{"nick": "Ann"}, "content": "<@42>  加入"}}
	f.events <- []byte(`{"op":0,"t":"MESSAGE_CREATE","s":99,"d":"garbage"}`)
	f.events <- map[string]any{"t": "SOMETHING_NEW", "d": map[string]any{"x": 1}}
	f.events <- map[string]any{"t": "MESSAGE_CREATE", "d": map[string]any{"id": "3", "channel_id": "600", "author": author("78"), "content": "查验 5"}}
	for _, want := range []chat.Incoming{
		{Group: "500", User: "77", Name: "Ann", Text: "加入"},
		{User: "78", Name: "u78", Text: "查验 5"},
	} {
		if got := <-in; got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	}
}

func interaction(id string, typ int, data map[string]any) map[string]any {
	return map[string]any{"t": "INTERACTION_CREATE", "d": map[string]any{"id": id, "application_id": botID, "type": typ, "token": "tok-" + id,
		"channel_id": "500", "guild_id": "7", "locale": "en-US", "member": map[string]any{"user": author("77")}, "data": data}}
}

func TestSlashCommandsAndComponentsArriveAndAreAnswered(t *testing.T) {
	_, f, in := run(t)
	f.events <- interaction("i1", 2, map[string]any{"id": "c", "name": "wolf", "type": 1,
		"options": []any{map[string]any{"name": "command", "type": 3, "value": "投 7"}}})
	if got := <-in; got.Text != "投 7" || got.Group != "500" || got.User != "77" {
		t.Errorf("slash command: got %+v", got)
	}
	cb := f.next(t)
	if cb.Path != "/api/v9/interactions/i1/tok-i1/callback" || cb.Body["type"] != float64(4) ||
		cb.Body["data"].(map[string]any)["flags"] != float64(64) {
		t.Errorf("slash command answered %s %v: want an ephemeral message (type 4, flags 64)", cb.Path, cb.Body)
	}
	f.events <- interaction("i2", 3, map[string]any{"custom_id": "投 3", "component_type": 2})
	f.events <- interaction("i3", 3, map[string]any{"custom_id": "menu0", "component_type": 3, "values": []any{"过"}})
	for _, want := range []string{"投 3", "过"} {
		if got := <-in; got.Text != want {
			t.Errorf("component: got %q, want %q", got.Text, want)
		}
		if cb := f.next(t); cb.Body["type"] != float64(6) {
			t.Errorf("component answered %v: want a deferred update (type 6)", cb.Body)
		}
	}
}

func TestButtonsBecomeComponentsAndWideRowsSelectMenus(t *testing.T) {
	p, f, in := run(t)
	long := "投 " + strings.Repeat("9", 120)
	var wide []chat.Button
	for _, s := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"} {
		wide = append(wide, chat.Button{Label: s + "号", Command: "投 " + s})
	}
	m := chat.Message{Text: "投票", Mention: []string{"77"}, Buttons: [][]chat.Button{{{Label: "过", Command: "过"}, {Label: "long", Command: long}}, wide}}
	if err := p.Send(context.Background(), chat.Target{Group: "500"}, m); err != nil {
		t.Fatal(err)
	}
	c := f.next(t)
	if c.Path != "/api/v9/channels/500/messages" || c.Body["content"] != "<@77> 投票" {
		t.Fatalf("sent %s %v", c.Path, c.Body)
	}
	if am := c.Body["allowed_mentions"].(map[string]any); len(am["users"].([]any)) != 1 {
		t.Errorf("allowed_mentions %v: want user 77 only", am)
	}
	rows := c.Body["components"].([]any)
	if len(rows) != 2 {
		t.Fatalf("components %v: want two rows", rows)
	}
	buttons := rows[0].(map[string]any)["components"].([]any)
	menu := rows[1].(map[string]any)["components"].([]any)[0].(map[string]any)
	if len(buttons) != 2 || buttons[0].(map[string]any)["custom_id"] != "过" || menu["type"] != float64(3) || len(menu["options"].([]any)) != 12 {
		t.Fatalf("rows %v: want two buttons, then a select menu of 12", rows)
	}
	short := buttons[1].(map[string]any)["custom_id"].(string)
	if len(short) > maxCustomID {
		t.Fatalf("custom_id of %d bytes", len(short))
	}
	f.events <- interaction("i4", 3, map[string]any{"custom_id": short, "component_type": 2})
	if got := <-in; got.Text != long {
		t.Errorf("pressing the long command's button gave %q", got.Text)
	}
}

// Private messages go by DM (its channel made once); a user whose DMs are
// closed gets an ephemeral follow-up of his last interaction, and one who
// never interacted has his channel told once.
func TestPrivateMessagesGoByDMOrAnEphemeralFollowUp(t *testing.T) {
	p, f, in := run(t)
	for _, text := range []string{"你是预言家", "请查验"} {
		if err := p.Send(context.Background(), chat.Target{User: "77"}, chat.Message{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	if c := f.next(t); c.Path != "/api/v9/users/@me/channels" || c.Body["recipient_id"] != "77" {
		t.Fatalf("first call %s %v: want the DM channel's creation", c.Path, c.Body)
	}
	for _, want := range []string{"你是预言家", "请查验"} {
		if c := f.next(t); c.Path != "/api/v9/channels/977/messages" || c.Body["content"] != want {
			t.Fatalf("call %s %v: want %q in the DM channel (made once)", c.Path, c.Body, want)
		}
	}
	// 78's DMs are closed; he pressed a button a moment ago.
	f.mu.Lock()
	f.closed["978"], f.closed["979"] = true, true
	f.mu.Unlock()
	ev := interaction("i5", 3, map[string]any{"custom_id": "加入", "component_type": 2})
	ev["d"].(map[string]any)["member"] = map[string]any{"user": author("78")}
	f.events <- ev
	<-in
	f.next(t) // its callback
	if err := p.Send(context.Background(), chat.Target{User: "78"}, chat.Message{Text: "你是狼人"}); err != nil {
		t.Fatal(err)
	}
	f.next(t) // the DM channel
	if c := f.next(t); c.Path != "/api/v9/webhooks/"+botID+"/tok-i5" || c.Body["content"] != "你是狼人" || c.Body["flags"] != float64(64) {
		t.Fatalf("call %s %v: want an ephemeral follow-up of 78's interaction", c.Path, c.Body)
	}
	// 79 only wrote in channel 500: the channel is told, once.
	f.events <- map[string]any{"t": "MESSAGE_CREATE", "d": map[string]any{"id": "4", "channel_id": "500", "guild_id": "7", "author": author("79"), "content": "加入"}}
	<-in
	for range 2 {
		if err := p.Send(context.Background(), chat.Target{User: "79"}, chat.Message{Text: "你是女巫"}); err == nil {
			t.Fatal("a private message to closed DMs with no interaction reported delivered")
		}
	}
	f.next(t) // the DM channel
	c := f.next(t)
	if c.Path != "/api/v9/channels/500/messages" || !strings.HasPrefix(c.Body["content"].(string), "<@79>") || strings.Contains(c.Body["content"].(string), "你是女巫") ||
		!strings.Contains(c.Body["content"].(string), "u79，") {
		t.Fatalf("call %s %v: want the channel told to open DMs, by his name, without the private text", c.Path, c.Body)
	}
	if err := p.Send(context.Background(), chat.Target{Group: "500"}, chat.Message{Text: "天亮了"}); err != nil {
		t.Fatal(err)
	}
	if c := f.next(t); c.Body["content"] != "天亮了" {
		t.Errorf("after the notice came %v: want no second notice", c.Body)
	}
}

func TestARefusedTokenIsFatal(t *testing.T) {
	f := newFake(t)
	f.refuse = true
	p, err := New(Options{Token: token, Log: quiet(), client: f.client()})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Run(context.Background(), make(chan chat.Incoming))
	if err == nil || !strings.Contains(err.Error(), "refused the bot token") || strings.Contains(err.Error(), token) {
		t.Fatalf("Run with a refused token: %v, want a fatal error without the token", err)
	}
}

func TestNewRefusesAMissingToken(t *testing.T) {
	for _, tok := range []string{"", "  ", "two words"} {
		if _, err := New(Options{Token: tok}); err == nil || !strings.Contains(err.Error(), "token") {
			t.Errorf("New(%q): %v, want a clear error", tok, err)
		}
	}
}

func TestSendRefusesIdsThatAreNotDiscords(t *testing.T) {
	p, _, _ := run(t)
	for _, to := range []chat.Target{{Group: "general"}, {User: "ann"}} {
		if err := p.Send(context.Background(), to, chat.Message{Text: "x"}); err == nil || !strings.Contains(err.Error(), "not a Discord id") {
			t.Errorf("send to %+v: %v", to, err)
		}
	}
}

func TestLongTextIsSplitAtLines(t *testing.T) {
	line := strings.Repeat("狼", 100) // 300 bytes
	text := strings.Repeat(line+"\n", 20)
	parts := split(text, maxContent)
	if strings.Join(parts, "\n") != strings.TrimSuffix(text, "\n") && strings.Join(parts, "\n") != text {
		t.Errorf("split lost text")
	}
	for _, s := range parts {
		if len(s) > maxContent || strings.ToValidUTF8(s, "?") != s {
			t.Errorf("a part of %d bytes (valid: %v)", len(s), strings.ToValidUTF8(s, "?") == s)
		}
	}
	if got := split(strings.Repeat("x", 4000), 1900); len(got) != 3 || len(got[0]) != 1900 {
		t.Errorf("a line longer than a message: %d parts", len(got))
	}
}
