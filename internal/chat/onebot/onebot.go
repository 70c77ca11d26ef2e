// Package onebot is the chat.Platform of QQ through OneBot v11, the
// protocol NapCat, LLOneBot, Lagrange and go-cqhttp speak: a forward
// WebSocket client (wolfden dials the implementation) and a reverse
// endpoint (the implementation dials wolfden), both "Universal" (events and
// actions on one connection). It reads group and private message events
// and sends send_group_msg / send_private_msg, matching each action's
// response by its echo. OneBot has no buttons: a message's buttons become
// numbered lines, and a reply "#N" in the same chat is button N's command.
package onebot

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/chat/inbox"
)

// Path is where the reverse endpoint is mounted.
const Path = "/onebot/ws"

// Options configure the platform. At least one of URL and Reverse is set.
type Options struct {
	// URL is the implementation's forward WebSocket (ws://127.0.0.1:3001);
	// "" dials nothing.
	URL string
	// Token is the access token: sent as "Authorization: Bearer" when
	// dialling, required of whoever dials the reverse endpoint. Never logged.
	Token string
	// Reverse accepts implementations dialling in at Path.
	Reverse bool
	Log     *slog.Logger
}

const (
	readLimit   = 1 << 20 // a long message with images' CQ codes still fits
	sendTimeout = 30 * time.Second
	maxButtons  = 4096 // chats whose last buttons are remembered for "#N"
)

// Platform is one QQ account's connection(s) through OneBot v11.
type Platform struct {
	o   Options
	log *slog.Logger
	in  *inbox.Inbox

	// Backoff between forward connection attempts: doubles from
	// minBackoff to maxBackoff, reset once a connection is made.
	minBackoff, maxBackoff time.Duration

	echo atomic.Uint64

	mu      sync.Mutex
	conns   []*conn             // live connections; Send uses the last
	buttons map[string][]string // chat key → its last buttons' commands
	stopped bool                // Run is not running: reverse connections are refused
}

// New checks o and returns the platform; nothing connects before Run.
func New(o Options) (*Platform, error) {
	if o.URL == "" && !o.Reverse {
		return nil, errors.New("onebot: give the implementation's forward WebSocket URL (ws://127.0.0.1:3001) or accept reverse connections")
	}
	if o.URL != "" {
		u, err := url.Parse(o.URL)
		if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
			return nil, fmt.Errorf("onebot: %q is not a WebSocket URL: write it ws://HOST:PORT or wss://HOST:PORT", redactURL(o.URL))
		}
	}
	if o.Reverse && o.Token == "" {
		return nil, errors.New("onebot: the reverse endpoint needs an access token (--onebot-token or WOLFDEN_ONEBOT_TOKEN), set to the same value in the implementation: without one anybody could dial in and act for any QQ user")
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Platform{o: o, log: o.Log, in: inbox.New("onebot", o.Log), minBackoff: time.Second, maxBackoff: time.Minute,
		buttons: make(map[string][]string), stopped: true}, nil
}

// Name implements chat.Platform.
func (p *Platform) Name() string { return "onebot" }

// Path is where the server mounts the reverse endpoint (ServeHTTP).
func (p *Platform) Path() string { return Path }

// Run implements chat.Platform: it keeps the forward connection up, if
// any, and delivers what users send, from every connection, until ctx ends.
// A forward connection whose token is refused is fatal.
func (p *Platform) Run(ctx context.Context, in chan<- chat.Incoming) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p.mu.Lock()
	p.stopped = false // the server runs a platform again after an error
	p.mu.Unlock()
	go p.in.Run(ctx, in)
	defer p.stop()
	if p.o.URL == "" {
		<-ctx.Done()
		return ctx.Err()
	}
	wait := p.minBackoff
	for {
		ws, resp, err := websocket.Dial(ctx, p.o.URL, &websocket.DialOptions{HTTPHeader: p.authHeader()})
		if err == nil {
			wait = p.minBackoff
			p.serve(ctx, ws, "")
		} else if resp != nil && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
			return fmt.Errorf("onebot: %s refused the access token (HTTP %d): set --onebot-token to the implementation's access token", redactURL(p.o.URL), resp.StatusCode)
		} else if ctx.Err() == nil {
			p.log.Warn("onebot: cannot connect, retrying", "url", redactURL(p.o.URL), "err", p.scrub(err), "in", wait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, p.maxBackoff)
	}
}

func (p *Platform) authHeader() http.Header {
	h := http.Header{}
	if p.o.Token != "" {
		h.Set("Authorization", "Bearer "+p.o.Token)
	}
	return h
}

// stop closes every connection and refuses new reverse ones.
func (p *Platform) stop() {
	p.mu.Lock()
	p.stopped = true
	// A copy: a connection that ends meanwhile takes itself out of
	// p.conns in place, under p.mu, as this loop reads.
	conns := slices.Clone(p.conns)
	p.mu.Unlock()
	for _, c := range conns {
		c.ws.Close(websocket.StatusGoingAway, "wolfden stops")
	}
}

// ServeHTTP is the reverse endpoint: an implementation dials in with the
// access token (header "Authorization: Bearer …" or query access_token),
// as a Universal client.
func (p *Platform) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.o.Reverse {
		http.Error(w, "onebot: the reverse endpoint is off (wolfden serve --onebot-reverse)", http.StatusNotFound)
		return
	}
	tok := r.URL.Query().Get("access_token")
	if h := r.Header.Get("Authorization"); h != "" {
		_, tok, _ = strings.Cut(h, " ") // "Bearer X" (go-cqhttp also sends "Token X")
	}
	if tok == "" {
		http.Error(w, "onebot: no access token", http.StatusUnauthorized)
		return
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(p.o.Token)) != 1 {
		http.Error(w, "onebot: wrong access token", http.StatusForbidden)
		return
	}
	if role := r.Header.Get("X-Client-Role"); role != "" && !strings.EqualFold(role, "Universal") {
		http.Error(w, "onebot: connect as a Universal client (events and API on one connection), not "+strconv.Quote(inbox.Cut(role, 20)), http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	stopped := p.stopped
	p.mu.Unlock()
	if stopped {
		http.Error(w, "onebot: wolfden is stopping", http.StatusServiceUnavailable)
		return
	}
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept answered the request
	}
	p.serve(r.Context(), ws, r.Header.Get("X-Self-ID"))
}

// A conn is one live connection and the actions awaiting its responses.
type conn struct {
	ws      *websocket.Conn
	self    atomic.Value // string: the bot's QQ number, once known
	mu      sync.Mutex
	pending map[string]chan response
	done    chan struct{}
}

type response struct {
	Status  string `json:"status"`
	Retcode int    `json:"retcode"`
}

// serve reads one connection until it closes; Send uses it meanwhile.
func (p *Platform) serve(ctx context.Context, ws *websocket.Conn, self string) {
	ws.SetReadLimit(readLimit)
	c := &conn{ws: ws, pending: make(map[string]chan response), done: make(chan struct{})}
	c.self.Store(self)
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		ws.Close(websocket.StatusGoingAway, "wolfden stops")
		return
	}
	p.conns = append(p.conns, c)
	p.mu.Unlock()
	p.log.Info("onebot: connected", "self", self)
	defer func() {
		p.mu.Lock()
		for i, x := range p.conns {
			if x == c {
				p.conns = append(p.conns[:i], p.conns[i+1:]...)
				break
			}
		}
		p.mu.Unlock()
		close(c.done)
		ws.CloseNow()
	}()
	for {
		typ, data, err := ws.Read(ctx)
		if err != nil {
			if ctx.Err() == nil {
				p.log.Warn("onebot: connection lost", "err", p.scrub(err))
			}
			return
		}
		if typ != websocket.MessageText {
			p.log.Warn("onebot: binary frame ignored", "bytes", len(data))
			continue
		}
		p.handle(c, data)
	}
}

// frame is an event or an action's response, whichever fields it has.
type frame struct {
	PostType    string          `json:"post_type"`
	MessageType string          `json:"message_type"`
	SelfID      json.Number     `json:"self_id"`
	UserID      json.Number     `json:"user_id"`
	GroupID     json.Number     `json:"group_id"`
	Message     json.RawMessage `json:"message"`
	Sender      struct {
		Nickname string `json:"nickname"`
		Card     string `json:"card"`
	} `json:"sender"`
	Echo    json.RawMessage `json:"echo"`
	Status  *string         `json:"status"` // set on a response only
	Retcode int             `json:"retcode"`
}

// handle reads one frame. Nothing of a frame's text is logged.
func (p *Platform) handle(c *conn, data []byte) {
	var f frame
	if err := json.Unmarshal(data, &f); err != nil {
		p.log.Warn("onebot: malformed frame ignored", "bytes", len(data))
		return
	}
	if f.Status != nil && len(f.Echo) > 0 {
		var echo string
		if json.Unmarshal(f.Echo, &echo) != nil {
			echo = string(f.Echo) // an implementation that echoes a number
		}
		c.mu.Lock()
		ch := c.pending[echo]
		delete(c.pending, echo)
		c.mu.Unlock()
		if ch == nil {
			p.log.Warn("onebot: response to no pending action ignored")
			return
		}
		ch <- response{Status: *f.Status, Retcode: f.Retcode}
		return
	}
	if f.SelfID != "" {
		c.self.Store(f.SelfID.String())
	}
	switch f.PostType {
	case "message":
	case "meta_event", "notice", "request", "message_sent":
		return
	default:
		p.log.Warn("onebot: unknown frame ignored", "post_type", inbox.Cut(f.PostType, 32))
		return
	}
	segs, err := parseMessage(f.Message)
	if err != nil {
		p.log.Warn("onebot: malformed message ignored", "err", err)
		return
	}
	self, _ := c.self.Load().(string)
	user := f.UserID.String()
	if user == "" || user == self {
		return
	}
	m := chat.Incoming{User: user, Name: f.Sender.Card, Text: textOf(segs)}
	if m.Name == "" {
		m.Name = f.Sender.Nickname
	}
	switch f.MessageType {
	case "group":
		if m.Group = f.GroupID.String(); m.Group == "" {
			p.log.Warn("onebot: group message without a group ignored")
			return
		}
	case "private":
	default:
		p.log.Warn("onebot: message of unknown type ignored", "message_type", inbox.Cut(f.MessageType, 32))
		return
	}
	m.Text = p.pressed(chatKey(chat.Target{Group: m.Group, User: m.User}), strings.TrimSpace(m.Text))
	p.in.Offer(m)
}

// pressed maps a reply "#N" to the N-th button of the chat's last message
// with buttons; any other text is itself.
func (p *Platform) pressed(key, text string) string {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(text, "＃"), "#"))
	if err != nil || n < 1 || (!strings.HasPrefix(text, "#") && !strings.HasPrefix(text, "＃")) {
		return text
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if b := p.buttons[key]; n <= len(b) {
		return b[n-1]
	}
	return text
}

func chatKey(t chat.Target) string {
	if t.Private() {
		return "u" + t.User
	}
	return "g" + t.Group
}

// Send implements chat.Platform: send_group_msg or send_private_msg on the
// latest live connection, awaiting its response.
func (p *Platform) Send(ctx context.Context, to chat.Target, m chat.Message) error {
	action, params, err := p.action(to, m)
	if err != nil {
		return err
	}
	p.mu.Lock()
	var c *conn
	if n := len(p.conns); n > 0 {
		c = p.conns[n-1]
	}
	p.mu.Unlock()
	if c == nil {
		return errors.New("onebot: not connected to the OneBot implementation")
	}
	echo := strconv.FormatUint(p.echo.Add(1), 10)
	ch := make(chan response, 1)
	c.mu.Lock()
	c.pending[echo] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, echo)
		c.mu.Unlock()
	}()
	data, err := json.Marshal(map[string]any{"action": action, "params": params, "echo": echo})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, data); err != nil {
		return fmt.Errorf("onebot: %s: %v", action, p.scrub(err))
	}
	select {
	case r := <-ch:
		if r.Status == "failed" || (r.Retcode != 0 && r.Retcode != 1) { // 1: accepted, sent asynchronously
			return fmt.Errorf("onebot: %s failed (status %s, retcode %d)", action, r.Status, r.Retcode)
		}
		if len(m.Buttons) > 0 {
			p.remember(chatKey(to), m.Buttons)
		}
		return nil
	case <-c.done:
		return fmt.Errorf("onebot: %s: the connection closed before its response", action)
	case <-ctx.Done():
		return fmt.Errorf("onebot: %s: no response: %w", action, ctx.Err())
	}
}

func (p *Platform) remember(key string, rows [][]chat.Button) {
	var cmds []string
	for _, row := range rows {
		for _, b := range row {
			cmds = append(cmds, b.Command)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.buttons[key]; !ok && len(p.buttons) >= maxButtons {
		for k := range p.buttons { // forget any one chat: a bound, not a cache policy
			delete(p.buttons, k)
			break
		}
	}
	p.buttons[key] = cmds
}

// action builds the action and its parameters for a target.
func (p *Platform) action(to chat.Target, m chat.Message) (string, map[string]any, error) {
	segs := []segment{}
	if !to.Private() {
		for _, u := range m.Mention {
			if _, err := strconv.ParseInt(u, 10, 64); err != nil {
				return "", nil, fmt.Errorf("onebot: mention %q is not a QQ number", inbox.Cut(u, 24))
			}
			segs = append(segs, segment{Type: "at", Data: map[string]string{"qq": u}}, segment{Type: "text", Data: map[string]string{"text": " "}})
		}
	}
	segs = append(segs, segment{Type: "text", Data: map[string]string{"text": Render(m)}})
	if to.Private() {
		id, err := strconv.ParseInt(to.User, 10, 64)
		if err != nil {
			return "", nil, fmt.Errorf("onebot: user %q is not a QQ number", inbox.Cut(to.User, 24))
		}
		return "send_private_msg", map[string]any{"user_id": id, "message": segs}, nil
	}
	id, err := strconv.ParseInt(to.Group, 10, 64)
	if err != nil {
		return "", nil, fmt.Errorf("onebot: group %q is not a QQ group number", inbox.Cut(to.Group, 24))
	}
	return "send_group_msg", map[string]any{"group_id": id, "message": segs}, nil
}

// Render is m's text, and its buttons as numbered lines "#1 label" unless
// the text numbers its choices already ("1. …", as the chat core's
// prompts do, in the buttons' order): either way "#N" presses the N-th.
func Render(m chat.Message) string {
	if len(m.Buttons) == 0 || strings.HasPrefix(m.Text, "1. ") || strings.Contains(m.Text, "\n1. ") {
		return m.Text
	}
	var b strings.Builder
	b.WriteString(m.Text)
	n := 0
	for _, row := range m.Buttons {
		for _, btn := range row {
			n++
			l := btn.Label
			if l == "" {
				l = btn.Command
			}
			fmt.Fprintf(&b, "\n#%d %s", n, l)
		}
	}
	return b.String()
}

// scrub removes the token from an error's text (a URL in a net/http error
// may carry it as access_token).
func (p *Platform) scrub(err error) string {
	s := err.Error()
	if p.o.Token != "" {
		s = strings.ReplaceAll(s, p.o.Token, "***")
	}
	return s
}

// redactURL is the URL without its query (which may hold access_token).
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	u.RawQuery, u.User = "", nil
	return u.String()
}
