package onebot

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/chat/platformtest"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// obDriver is the fake implementation as the game's users see it: it
// answers every action, records the messages, and delivers what users
// type (a choice is "#N", the N-th numbered line of the prompt).
type obDriver struct {
	conns chan *fakeImpl
	once  sync.Once
	f     *fakeImpl
	log   *platformtest.Log
}

// impl is the connection, once the platform (run by the server) dialled.
func (d *obDriver) impl() *fakeImpl {
	d.once.Do(func() {
		d.f = <-d.conns
		go d.serve()
	})
	return d.f
}

var numbered = regexp.MustCompile(`(?m)^(\d+)\. `)

func (d *obDriver) serve() {
	for {
		_, data, err := d.f.ws.Read(context.Background())
		if err != nil {
			return
		}
		var a action
		if json.Unmarshal(data, &a) != nil {
			continue
		}
		var p struct {
			GroupID, UserID int64
			Message         []segment
		}
		var raw map[string]json.RawMessage
		json.Unmarshal(a.Params, &raw)
		json.Unmarshal(raw["group_id"], &p.GroupID)
		json.Unmarshal(raw["user_id"], &p.UserID)
		json.Unmarshal(raw["message"], &p.Message)
		var text strings.Builder
		for _, s := range p.Message {
			text.WriteString(s.Data["text"])
		}
		g := platformtest.Got{Text: text.String()}
		if a.Action == "send_group_msg" {
			g.To.Group = strconv.FormatInt(p.GroupID, 10)
		} else {
			g.To.User = strconv.FormatInt(p.UserID, 10)
		}
		for _, m := range numbered.FindAllStringSubmatch(g.Text, -1) {
			g.Choices = append(g.Choices, "#"+m[1])
		}
		d.f.reply(a, "ok", 0)
		d.log.Add(g)
	}
}

func (d *obDriver) Say(group, user, text string) {
	uid, _ := strconv.ParseInt(user, 10, 64)
	if group == "" {
		d.impl().send(map[string]any{"post_type": "message", "message_type": "private", "self_id": 10000, "user_id": uid,
			"message": text, "sender": map[string]any{"nickname": "n" + user}})
		return
	}
	gid, _ := strconv.ParseInt(group, 10, 64)
	d.impl().send(groupEvent(uid, gid, "[CQ:at,qq=10000] "+text))
}

func (d *obDriver) Press(user string, _ platformtest.Got, choice string) { d.Say("", user, choice) }

func (d *obDriver) Log() *platformtest.Log { return d.log }

// Seven QQ users and two bots play std-9 to its end through a OneBot
// implementation's forward WebSocket, choosing by "#N" replies.
func TestAWholeStd9GameThroughAOneBotImplementation(t *testing.T) {
	srv, conns := forwardServer(t)
	p, err := New(Options{URL: "ws" + strings.TrimPrefix(srv.URL, "http"), Token: token, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for i := 1; i <= 7; i++ {
		users = append(users, strconv.Itoa(1000+i))
	}
	platformtest.PlayStd9(t, p, &obDriver{conns: conns, log: platformtest.NewLog()}, "900", users)
}

// The server mounts the reverse endpoint at /onebot/ws: an implementation
// dialling in with the token reaches the judge, one without is refused.
func TestTheServerMountsTheReverseEndpoint(t *testing.T) {
	p, err := New(Options{Reverse: true, Token: token, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := server.New(st, server.Options{Chat: []chat.Platform{p}})
	if _, err := srv.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	url := "ws" + strings.TrimPrefix(hs.URL, "http") + Path
	if _, resp, _ := websocket.Dial(context.Background(), url, nil); resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without a token: %v, want 401", resp)
	}
	var ws *websocket.Conn
	for ws == nil { // until the server's bridge runs the platform
		ws, _, _ = websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	}
	defer ws.CloseNow()
	f := &fakeImpl{t: t, ws: ws}
	f.send(groupEvent(501, 900, "狼人杀 开局"))
	a := f.action() // the judge answers in the group
	if a.Action != "send_group_msg" || !strings.Contains(string(a.Params), `"group_id":900`) {
		t.Fatalf("action %+v: want the judge's answer in group 900", a)
	}
	f.reply(a, "ok", 0)
}
