package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/chat"
)

const token = "123456:secret-part"

// fakeAPI is a Bot API: getMe, getUpdates (long polling over a queue),
// sendMessage (recorded; 403 for users who never started the bot) and
// answerCallbackQuery (recorded).
type fakeAPI struct {
	t       *testing.T
	mu      sync.Mutex
	updates []json.RawMessage
	nextID  int
	more    chan struct{} // signalled when an update is queued
	blocked map[string]bool
	sent    chan sent
	answers chan string
}

type sent struct {
	ChatID, Text, ParseMode string
	Markup                  struct {
		InlineKeyboard [][]struct {
			Text         string `json:"text"`
			URL          string `json:"url"`
			CallbackData string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
}

func newFake(t *testing.T) (*fakeAPI, *httptest.Server) {
	f := &fakeAPI{t: t, more: make(chan struct{}, 1), blocked: map[string]bool{}, sent: make(chan sent, 64), answers: make(chan string, 16), nextID: 1}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeAPI) reply(w http.ResponseWriter, ok bool, code int, result any) {
	r := map[string]any{"ok": ok}
	if ok {
		r["result"] = result
	} else {
		r["error_code"], r["description"] = code, result
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(r)
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tok, method, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/bot"), "/")
	if tok != token {
		f.reply(w, false, 401, "Unauthorized")
		return
	}
	// getMe has no form; a client gone (a test over, its server closed) is no fault of the form.
	if err := r.ParseMultipartForm(1 << 20); err != nil && method != "getMe" && r.Context().Err() == nil && !errors.Is(err, net.ErrClosed) {
		f.t.Errorf("fake: %s: form: %v", method, err)
	}
	switch method {
	case "getMe":
		f.reply(w, true, 0, map[string]any{"id": 123456, "is_bot": true, "first_name": "Wolf", "username": "wolfbot"})
	case "getUpdates":
		offset, _ := strconv.Atoi(r.FormValue("offset"))
		timeout, _ := strconv.Atoi(r.FormValue("timeout"))
		deadline := time.After(time.Duration(timeout) * time.Second)
		for {
			f.mu.Lock()
			var out []json.RawMessage
			for _, u := range f.updates {
				var id struct {
					UpdateID int `json:"update_id"`
				}
				json.Unmarshal(u, &id)
				if id.UpdateID >= offset {
					out = append(out, u)
				}
			}
			f.mu.Unlock()
			if len(out) > 0 {
				f.reply(w, true, 0, out)
				return
			}
			select {
			case <-f.more:
			case <-deadline:
				f.reply(w, true, 0, []any{})
				return
			case <-r.Context().Done():
				return
			}
		}
	case "sendMessage":
		var s sent
		s.ChatID, s.Text, s.ParseMode = r.FormValue("chat_id"), r.FormValue("text"), r.FormValue("parse_mode")
		if m := r.FormValue("reply_markup"); m != "" {
			if err := json.Unmarshal([]byte(m), &s.Markup); err != nil {
				f.t.Errorf("fake: reply_markup %s: %v", m, err)
			}
		}
		f.mu.Lock()
		blocked := f.blocked[s.ChatID]
		f.mu.Unlock()
		if blocked {
			f.reply(w, false, 403, "Forbidden: bot can't initiate conversation with a user")
			return
		}
		if s.ChatID == "-999" {
			f.reply(w, false, 400, "Bad Request: chat not found")
			return
		}
		f.sent <- s
		id, _ := strconv.ParseInt(s.ChatID, 10, 64)
		f.reply(w, true, 0, map[string]any{"message_id": 1, "date": 0, "chat": map[string]any{"id": id, "type": "private"}, "text": s.Text})
	case "answerCallbackQuery":
		f.answers <- r.FormValue("callback_query_id")
		f.reply(w, true, 0, true)
	default:
		f.reply(w, false, 404, "Not Found: method "+method)
	}
}

// push queues an update (its update_id is set here).
func (f *fakeAPI) push(u map[string]any) {
	f.mu.Lock()
	u["update_id"] = f.nextID
	f.nextID++
	data, _ := json.Marshal(u)
	f.updates = append(f.updates, data)
	f.mu.Unlock()
	select {
	case f.more <- struct{}{}:
	default:
	}
}

func (f *fakeAPI) block(user string, b bool) {
	f.mu.Lock()
	f.blocked[user] = b
	f.mu.Unlock()
}

func from(id int64, name string) map[string]any {
	return map[string]any{"id": id, "is_bot": false, "first_name": name, "language_code": "en"}
}

func groupMsg(user int64, name, text string) map[string]any {
	return map[string]any{"message": map[string]any{"message_id": 5, "date": 0, "from": from(user, name),
		"chat": map[string]any{"id": -100, "type": "supergroup", "title": "wolves"}, "text": text}}
}

func privateMsg(user int64, text string) map[string]any {
	return map[string]any{"message": map[string]any{"message_id": 6, "date": 0, "from": from(user, "P"),
		"chat": map[string]any{"id": user, "type": "private"}, "text": text}}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func run(t *testing.T) (*Platform, *fakeAPI, chan chat.Incoming) {
	f, srv := newFake(t)
	p, err := New(Options{Token: token, Log: quiet(), serverURL: srv.URL, pollTimeout: 2 * time.Second})
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
	return p, f, in
}

func TestGroupAndPrivateMessagesArriveAddressedToTheJudge(t *testing.T) {
	_, f, in := run(t)
	f.push(groupMsg(7, "Ann", "/join@wolfbot"))
	f.push(groupMsg(7, "Ann", "/vote@otherbot 3")) // another bot's command
	f.push(groupMsg(8, "Bob", "@wolfbot 加入"))
	f.push(map[string]any{"edited_message": map[string]any{"message_id": 5, "date": 0, "chat": map[string]any{"id": -100, "type": "group"}}})
	f.push(privateMsg(7, "/start wolfden")) // opens the private chat: not a command
	f.push(privateMsg(7, "查验 5"))
	for _, want := range []chat.Incoming{
		{Group: "-100", User: "7", Name: "Ann", Text: "/join"},
		{Group: "-100", User: "8", Name: "Bob", Text: "加入"},
		{User: "7", Name: "P", Text: "查验 5"},
	} {
		if got := <-in; got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	}
}

func TestButtonsBecomeAnInlineKeyboardAndPressesComeBack(t *testing.T) {
	p, f, in := run(t)
	long := "投 " + strings.Repeat("9", 80) // past callback_data's 64 bytes
	err := p.Send(context.Background(), chat.Target{Group: "-100"}, chat.Message{Text: "投票 <now> & here",
		Buttons: [][]chat.Button{{{Label: "3号", Command: "投 3"}, {Label: "long", Command: long}}, {{Label: "过", Command: "过"}}}})
	if err != nil {
		t.Fatal(err)
	}
	s := <-f.sent
	if s.ChatID != "-100" || s.ParseMode != "HTML" || s.Text != "投票 &lt;now&gt; &amp; here" {
		t.Errorf("sent %+v: want chat -100, HTML, the text escaped", s)
	}
	kb := s.Markup.InlineKeyboard
	if len(kb) != 2 || len(kb[0]) != 2 || kb[0][0].CallbackData != "投 3" || kb[1][0].CallbackData != "过" {
		t.Fatalf("keyboard %+v: want rows [投 3, long] [过]", kb)
	}
	short := kb[0][1].CallbackData
	if len(short) > maxData || short == long {
		t.Fatalf("long command's callback_data %q: want a short id within %d bytes", short, maxData)
	}
	press := func(id, data string) {
		f.push(map[string]any{"callback_query": map[string]any{"id": id, "from": from(7, "Ann"), "chat_instance": "x", "data": data,
			"message": map[string]any{"message_id": 9, "date": 1, "chat": map[string]any{"id": -100, "type": "supergroup"}}}})
	}
	press("q1", short)
	press("q2", "~zz") // a short id never made
	press("q3", "投 3")
	for _, want := range []string{long, "投 3"} {
		if got := <-in; got.Text != want || got.Group != "-100" || got.User != "7" {
			t.Errorf("press: got %+v, want %q from 7 in -100", got, want)
		}
	}
	for _, id := range []string{"q1", "q2", "q3"} {
		if got := <-f.answers; got != id {
			t.Errorf("answered callback %q, want %q (every press is answered)", got, id)
		}
	}
}

func TestALongRowIsSplitToTelegramsWidth(t *testing.T) {
	p, f, _ := run(t)
	var row []chat.Button
	for i := 1; i <= 12; i++ {
		row = append(row, chat.Button{Label: strconv.Itoa(i), Command: "投 " + strconv.Itoa(i)})
	}
	if err := p.Send(context.Background(), chat.Target{User: "7"}, chat.Message{Text: "vote", Buttons: [][]chat.Button{row}}); err != nil {
		t.Fatal(err)
	}
	kb := (<-f.sent).Markup.InlineKeyboard
	if len(kb) != 2 || len(kb[0]) != maxRow || len(kb[1]) != 12-maxRow {
		t.Errorf("12 buttons in one row became rows of %d and %d, want %d and %d", len(kb[0]), len(kb[len(kb)-1]), maxRow, 12-maxRow)
	}
}

func TestMentionsLinkTheUser(t *testing.T) {
	p, f, in := run(t)
	f.push(groupMsg(7, "A<n>", "加入"))
	<-in
	if err := p.Send(context.Background(), chat.Target{Group: "-100"}, chat.Message{Text: "轮到你发言", Mention: []string{"7"}}); err != nil {
		t.Fatal(err)
	}
	if got, want := (<-f.sent).Text, `<a href="tg://user?id=7">A&lt;n&gt;</a> 轮到你发言`; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}

// A user who never opened the bot's private chat: his group is told once,
// with the deep link, and his private messages arrive when he starts it.
func TestAUserWhoNeverStartedTheBotIsToldInHisGroupAndGetsHisMessagesOnStart(t *testing.T) {
	p, f, in := run(t)
	f.push(groupMsg(7, "Ann", "加入"))
	<-in
	f.block("7", true)
	for _, text := range []string{"你是预言家", "请查验"} {
		err := p.Send(context.Background(), chat.Target{User: "7"}, chat.Message{Text: text})
		if !errors.Is(err, ErrNotStarted) {
			t.Fatalf("private message to a user who never started the bot: %v, want ErrNotStarted", err)
		}
	}
	notice := <-f.sent
	link := "https://t.me/wolfbot?start=wolfden"
	if notice.ChatID != "-100" || !strings.Contains(notice.Text, link) || !strings.Contains(notice.Text, `tg://user?id=7`) ||
		len(notice.Markup.InlineKeyboard) != 1 || notice.Markup.InlineKeyboard[0][0].URL != link {
		t.Fatalf("group notice %+v: want the group, an @ of the user, the deep link as text and as a URL button", notice)
	}
	if p.DeepLink() != link {
		t.Errorf("DeepLink() = %q, want %q", p.DeepLink(), link)
	}
	f.block("7", false)
	f.push(privateMsg(7, "/start wolfden"))
	greeting := <-f.sent
	if greeting.ChatID != "7" || !strings.Contains(greeting.Text, "Private chat open") {
		t.Errorf("greeting %+v: want the opened-chat line in the user's language (en)", greeting)
	}
	for _, want := range []string{"你是预言家", "请查验"} {
		if s := <-f.sent; s.ChatID != "7" || s.Text != want {
			t.Errorf("waiting message %+v, want %q to 7 (only the one notice in the group)", s, want)
		}
	}
}

func TestAFailedSendIsAnErrorWithoutTheToken(t *testing.T) {
	p, _, _ := run(t)
	err := p.Send(context.Background(), chat.Target{Group: "-999"}, chat.Message{Text: "x"})
	if err == nil || strings.Contains(err.Error(), "secret-part") {
		t.Fatalf("send to a missing chat: %v, want an error without the token", err)
	}
	if err := p.Send(context.Background(), chat.Target{Group: "wolves"}, chat.Message{Text: "x"}); err == nil || !strings.Contains(err.Error(), "not a chat id") {
		t.Errorf("send to a non-numeric chat: %v, want a clear error", err)
	}
}

func TestARefusedTokenIsFatal(t *testing.T) {
	_, srv := newFake(t)
	p, err := New(Options{Token: "999:wrong-secret", Log: quiet(), serverURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Run(context.Background(), make(chan chat.Incoming))
	if err == nil || !strings.Contains(err.Error(), "refused the bot token") || strings.Contains(err.Error(), "wrong-secret") {
		t.Fatalf("Run with a refused token: %v, want a fatal error without the token", err)
	}
}

func TestNewRefusesATokenOfTheWrongShape(t *testing.T) {
	for _, tok := range []string{"", "abc", "12345", "abc:def", "123:"} {
		if _, err := New(Options{Token: tok}); err == nil || !strings.Contains(err.Error(), "not a bot token") {
			t.Errorf("New(%q): %v, want a clear error", tok, err)
		}
	}
}

// Unreachable at first (the fake answers 502), Run keeps asking and then
// polls.
func TestRunRetriesWhileTheBotAPIIsUnreachable(t *testing.T) {
	f, _ := newFake(t)
	var calls sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Lock()
		n++
		first := n <= 2
		calls.Unlock()
		if first {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		f.ServeHTTP(w, r)
	}))
	defer srv.Close()
	p, err := New(Options{Token: token, Log: quiet(), serverURL: srv.URL, pollTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p.minBackoff = time.Millisecond
	in := make(chan chat.Incoming, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx, in)
	f.push(groupMsg(7, "Ann", "加入"))
	if got := <-in; got.Text != "加入" {
		t.Fatalf("got %+v", got)
	}
}
