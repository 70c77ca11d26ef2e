package aiwolf_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// A test agent over a real WebSocket, written from the protocol: it
// answers NAME, talks a little, votes and acts on someone alive other
// than itself, and keeps every packet it receives.

type packet struct {
	Request        string          `json:"request"`
	Info           *aiwolf.Info    `json:"info"`
	Setting        *aiwolf.Setting `json:"setting"`
	TalkHistory    []aiwolf.Talk   `json:"talk_history"`
	WhisperHistory []aiwolf.Talk   `json:"whisper_history"`
}

type testAgent struct {
	name   string
	header http.Header // sent with the dial (a token as Authorization)
	// behaviour: reply returns the reply to a request, or ok=false to give
	// none (the agent stalls); nil plays honestly.
	reply func(a *testAgent, p *packet) (string, bool)
	// drop, if set, closes the connection when it returns true.
	drop func(a *testAgent, p *packet) bool

	mu      sync.Mutex
	packets []packet
	raw     []string
	closed  error
	done    chan struct{}
}

func (a *testAgent) got() []packet {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]packet(nil), a.packets...)
}

func honest(a *testAgent, p *packet) (string, bool) {
	switch p.Request {
	case "NAME":
		return a.name, true
	case "TALK", "WHISPER":
		if p.Info != nil && p.Info.RemainCount != nil && *p.Info.RemainCount > 2 {
			return fmt.Sprintf("hello from %s, turn %d", p.Info.Agent, len(p.TalkHistory)), true
		}
		return "Over", true
	case "VOTE", "DIVINE", "GUARD", "ATTACK":
		return someoneElse(p), true
	}
	return "", false
}

// someoneElse is the first living agent other than the receiver (and,
// for a wolf's attack, other than a known wolf).
func someoneElse(p *packet) string {
	for i := 1; i <= len(p.Info.StatusMap); i++ {
		n := aiwolf.AgentName(seatNo(i))
		if n == p.Info.Agent || p.Info.StatusMap[n] != "ALIVE" {
			continue
		}
		if p.Request == "ATTACK" && p.Info.RoleMap[n] == "WEREWOLF" {
			continue
		}
		return n
	}
	return "Agent[01]"
}

func (a *testAgent) run(t *testing.T, url string) {
	a.done = make(chan struct{})
	ctx := context.Background()
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: a.header})
	if err != nil {
		t.Errorf("%s: dial: %v", a.name, err)
		close(a.done)
		return
	}
	c.SetReadLimit(1 << 20)
	go func() {
		defer close(a.done)
		defer c.CloseNow()
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				a.mu.Lock()
				a.closed = err
				a.mu.Unlock()
				return
			}
			var p packet
			if err := json.Unmarshal(data, &p); err != nil {
				t.Errorf("%s: a packet that is not JSON: %q", a.name, data)
				return
			}
			a.mu.Lock()
			a.packets = append(a.packets, p)
			a.raw = append(a.raw, string(data))
			a.mu.Unlock()
			if a.drop != nil && a.drop(a, &p) {
				return
			}
			f := a.reply
			if f == nil {
				f = honest
			}
			if r, ok := f(a, &p); ok {
				if err := c.Write(ctx, websocket.MessageText, []byte(r+"\n")); err != nil {
					return
				}
			}
		}
	}()
}

func (a *testAgent) wait(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case <-a.done:
	case <-time.After(d):
		t.Fatalf("%s: the game did not end within %v (last packets: %v)", a.name, d, lastRequests(a.got(), 8))
	}
}

func lastRequests(ps []packet, n int) []string {
	var out []string
	for _, p := range ps[max(0, len(ps)-n):] {
		out = append(out, p.Request)
	}
	return out
}

// gateway is a server with the gateway on a fresh SQLite file.
type gateway struct {
	srv  *server.Server
	http *httptest.Server
	st   store.Store
	path string
	ws   string
	logs *roomLog
}

// roomLog keeps the rooms of the games the gateway started, from its log.
type roomLog struct {
	mu    sync.Mutex
	rooms []string
}

func (l *roomLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *roomLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "aiwolf: game started" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "room" {
			l.mu.Lock()
			l.rooms = append(l.rooms, a.Value.String())
			l.mu.Unlock()
		}
		return true
	})
	return nil
}
func (l *roomLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *roomLog) WithGroup(string) slog.Handler      { return l }

func (l *roomLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.rooms...)
}

func newGateway(t *testing.T, path string, opts aiwolf.Options) *gateway {
	t.Helper()
	return newGatewayOn(t, path, opts, nil)
}

// newGatewayOn is newGateway on the SQLite store as wrap makes it (nil:
// as it is).
func newGatewayOn(t *testing.T, path string, opts aiwolf.Options, wrap func(store.Store) store.Store) *gateway {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "wolfden.db")
	}
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var st store.Store = db
	if wrap != nil {
		st = wrap(st)
	}
	if opts.ActionTimeout == 0 {
		opts.ActionTimeout = 5 * time.Second
	}
	if opts.ResponseTimeout == 0 {
		opts.ResponseTimeout = 5 * time.Second
	}
	logs := &roomLog{}
	opts.Log = slog.New(logs)
	srv := server.New(st, server.Options{AIWolf: &opts, RoomsPerMinute: 0, JoinsPerMinute: 0})
	if _, err := srv.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	g := &gateway{srv: srv, http: hs, st: st, path: path, ws: "ws" + strings.TrimPrefix(hs.URL, "http") + "/aiwolf/ws", logs: logs}
	t.Cleanup(g.close)
	return g
}

func (g *gateway) close() {
	if g.http == nil {
		return
	}
	g.http.CloseClientConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = g.srv.Close(ctx)
	g.http.Close()
	_ = g.st.Close()
	g.http = nil
}

// rooms lists the rooms of a status.
func (g *gateway) rooms(t *testing.T, status string) []string {
	t.Helper()
	var out []struct {
		ID string `json:"id"`
	}
	get(t, g.http.URL+"/api/rooms?status="+status, &out)
	ids := make([]string, len(out))
	for i, r := range out {
		ids[i] = r.ID
	}
	return ids
}

func get(t *testing.T, url string, v any) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if s, ok := v.(*string); ok {
		*s = string(b)
		return res.StatusCode
	}
	if v != nil && res.StatusCode == 200 {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v: %s", url, err, b)
		}
	}
	return res.StatusCode
}
