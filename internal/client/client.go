// Package client is a Go client of wolfden's HTTP and WebSocket API: what
// the end-to-end tests, the crash test and the load tool play with.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// API calls the HTTP API of a server at Base ("http://127.0.0.1:8080").
type API struct {
	Base string
	HTTP *http.Client
}

// Error is an error answer of the API.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// Do sends a JSON request with an optional bearer token and decodes the
// answer into out (if not nil).
func (a *API) Do(ctx context.Context, method, path, token string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.Base+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	hc := a.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Code, Message string }
		}
		_ = json.Unmarshal(data, &e)
		return &Error{Status: resp.StatusCode, Code: e.Error.Code, Message: e.Error.Message}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// Created is the answer to creating a room.
type Created struct {
	HostToken string `json:"host_token"`
	Seat      int    `json:"seat"`
	Token     string `json:"token"`
	Room      struct {
		ID      string `json:"id"`
		Players int    `json:"players"`
		Status  string `json:"status"`
	} `json:"room"`
}

// Conn is one WebSocket connection to a game.
type Conn struct {
	ws       *websocket.Conn
	Seat     rules.Seat
	Practice bool       // the welcome said the room is a practice: its deal may be known
	Frames   chan Frame // every frame received, in order; closed when the connection ends
	err      error
	// quiet: the longest the server said it stays silent (the welcome's
	// alive); silent: it stayed silent much longer, and the line was dropped.
	quiet  time.Duration
	silent atomic.Bool
}

// ErrSilent ends a connection on which the server sent nothing for much
// longer than its welcome promised (its keep-alive by day, its tick by
// night): its server is frozen or the line is dead, and the caller dials
// again (docs/cluster.md, "A hung owner").
var ErrSilent = errors.New("client: the server sent nothing for much longer than it keeps quiet; the line is dropped")

// SilentAfter is how long a connection waits without a message before it
// gives the line up, for a server that promised one every quiet: two
// periods missed and a second.
func SilentAfter(quiet time.Duration) time.Duration { return 2*quiet + time.Second }

// Frame is a frame received, decoded loosely: Raw keeps it whole.
type Frame struct {
	Type    string            `json:"type"`
	ID      int64             `json:"id"`
	Seq     int               `json:"seq"`
	Kind    string            `json:"kind"`
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Seat    rules.Seat        `json:"seat"`
	Pending bool              `json:"pending"`
	Over    bool              `json:"over"`
	Winner  string            `json:"winner"`
	Night   bool              `json:"night"`
	Role    string            `json:"role"`
	Choices []wire.ChoiceJSON `json:"choices"`
	Channel string            `json:"channel"`
	Text    string            `json:"text"`
	Raw     json.RawMessage   `json:"-"`
}

// Dial opens a game's WebSocket and says hello: token "" watches as a
// spectator; since and chatSince resume after the last numbers held.
func Dial(ctx context.Context, base, room, token string, since, chatSince int) (*Conn, error) {
	return DialWith(ctx, nil, base, room, token, since, chatSince)
}

// DialWith is Dial through an HTTP client of the caller's (nil: the
// default), such as one that trusts a test's certificate: an https base
// dials wss.
func DialWith(ctx context.Context, hc *http.Client, base, room, token string, since, chatSince int) (*Conn, error) {
	return DialResume(ctx, hc, base, room, token, Resume{Since: since, ChatSince: chatSince})
}

// Resume is where a connection picks up from the last: the numbers held,
// and the ids of requests sent on it whose answer never came (the server
// acks, on the new connection, those it took: docs/server.md, "The WebSocket").
type Resume struct {
	Since, ChatSince int
	Pending          []int64
}

// DialResume is DialWith from r.
func DialResume(ctx context.Context, hc *http.Client, base, room, token string, r Resume) (*Conn, error) {
	url := "ws" + strings.TrimPrefix(base, "http") + "/ws/" + room
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: hc})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 20)
	c := &Conn{ws: ws, Frames: make(chan Frame, 256)}
	hello := map[string]any{"type": "hello", "token": token, "since": r.Since, "chat_since": r.ChatSince}
	if len(r.Pending) > 0 {
		hello["pending"] = r.Pending
	}
	if err := c.Send(ctx, hello); err != nil {
		return nil, err
	}
	var f Frame
	if err := c.read(ctx, &f); err != nil {
		return nil, err
	}
	if f.Type != "welcome" {
		return nil, fmt.Errorf("client: %s %s: %s", f.Type, f.Code, f.Message)
	}
	var w struct {
		Practice bool  `json:"practice"`
		Alive    int64 `json:"alive"`
	}
	_ = json.Unmarshal(f.Raw, &w)
	c.Seat, c.Practice, c.quiet = f.Seat, w.Practice, time.Duration(w.Alive)*time.Millisecond
	go c.loop()
	return c, nil
}

// read reads a message holding one frame (the welcome, or a refusal).
func (c *Conn) read(ctx context.Context, f *Frame) error {
	_, data, err := c.ws.Read(ctx)
	if err != nil {
		return err
	}
	fs, err := Split(data)
	if err != nil {
		return err
	}
	*f = fs[0]
	return nil
}

func (c *Conn) loop() {
	defer close(c.Frames)
	// One timer for the connection, reset at each message (not a context
	// per read: the load tool reads from thousands of connections).
	var dog *time.Timer
	if c.quiet > 0 {
		dog = time.AfterFunc(SilentAfter(c.quiet), func() {
			c.silent.Store(true)
			_ = c.ws.CloseNow()
		})
		defer dog.Stop()
	}
	for {
		_, data, err := c.ws.Read(context.Background())
		if err != nil {
			c.err = err
			if c.silent.Load() {
				c.err = fmt.Errorf("%w (nothing for %v)", ErrSilent, SilentAfter(c.quiet))
			}
			return
		}
		if dog != nil { // a reader that does not take its frames is not a silent line
			dog.Stop()
		}
		fs, err := Split(data)
		if err != nil {
			c.err = err
			return
		}
		for _, f := range fs {
			c.Frames <- f
		}
		if dog != nil {
			dog.Reset(SilentAfter(c.quiet))
		}
	}
}

var (
	padPrefix = []byte(`{"type":"pad","p":"`)
	padSuffix = []byte(`"}`)
	quote     = []byte(`"`)
)

// Split reads the frames of one message: one JSON object per line.
func Split(data []byte) ([]Frame, error) {
	out := make([]Frame, 0, bytes.Count(data, []byte{'\n'})+1)
	for line := range bytes.SplitSeq(data, []byte{'\n'}) {
		if bytes.HasPrefix(line, padPrefix) && bytes.HasSuffix(line, padSuffix) &&
			bytes.Count(line, quote) == 8 {
			// The night's padding is most of what a client reads at night
			// (docs/server.md): decoding its kilobytes of spaces field by
			// field made the load tool, not the server, the bottleneck.
			// Eight quotes: nothing but "type", "pad", "p" and the spaces.
			out = append(out, Frame{Type: "pad", Raw: line})
			continue
		}
		var f Frame
		if err := json.Unmarshal(line, &f); err != nil {
			return out, err
		}
		f.Raw = line
		out = append(out, f)
	}
	return out, nil
}

// Send writes one frame.
func (c *Conn) Send(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// SendRaw writes bytes as they are.
func (c *Conn) SendRaw(ctx context.Context, b []byte) error {
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Close closes the connection.
func (c *Conn) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "bye") }

// Silent says, once Frames is closed, whether the connection was dropped
// because the server went silent (ErrSilent).
func (c *Conn) Silent() bool { return c.silent.Load() }

// Kill drops the connection without a closing handshake.
func (c *Conn) Kill() error { return c.ws.CloseNow() }

// Act is the frame of a command.
func Act(id int64, c rules.Command) map[string]any {
	m := map[string]any{"type": "act", "id": id, "cmd": c.Kind.String()}
	if c.Target != rules.NoSeat {
		m["target"] = int(c.Target)
	}
	if c.Value != 0 {
		m["value"] = int(c.Value)
	}
	if c.Mask != 0 {
		m["seats"] = rules.Seats(c.Mask)
	}
	if c.Kind == rules.CmdClaim {
		switch c.Value {
		case rules.ClaimRole:
			m["role"] = c.Role.String()
		case rules.ClaimWolf:
			m["cmd"] = "accuse"
		case rules.ClaimGood:
			m["cmd"] = "vouch"
		}
		delete(m, "value")
	}
	return m
}

// choice turns a state frame's choice back into the engine's form.
func choice(j wire.ChoiceJSON) (rules.Choice, error) {
	k, err := rules.ParseCmd(j.Cmd)
	if err != nil {
		return rules.Choice{}, err
	}
	ch := rules.Choice{Kind: k, Targets: rules.Mask(j.Targets...), NoTarget: j.NoTarget, Value: j.Value, Pick: j.Pick}
	for _, name := range j.Roles {
		r, err := rules.ParseRole(name)
		if err != nil {
			return ch, err
		}
		ch.Roles |= 1 << uint(r)
	}
	return ch, nil
}

// Stats are what a player measured.
type Stats struct {
	Commands  int
	Latencies []time.Duration // from sending a command to its ack, which follows its broadcast
	Winner    string
	Frames    int
	// Unanswered: PlayHooked's commands without an answer when its
	// connection ended (ErrClosed); the next connection names them
	// (Resume.Pending, Hooks.Resumed).
	Unanswered []Unanswered
}

// ErrClosed is returned when the connection ended before the game did.
var ErrClosed = errors.New("client: the connection closed before the game ended")

// PlayRandom plays the seat with random legal choices until the game is
// over (or stop returns true after a frame). Claims are left out.
func (c *Conn) PlayRandom(ctx context.Context, r *rand.Rand, stop func(Frame) bool) (Stats, error) {
	var st Stats
	var id int64
	var inFlight bool
	var sent time.Time
	var last *Frame // the latest state: it may come before the ack of the command that led to it
	act := func() error {
		if last == nil || !last.Pending || inFlight {
			return nil
		}
		var pool []rules.Choice
		for _, j := range last.Choices {
			ch, err := choice(j)
			if err != nil {
				return err
			}
			if ch.Kind != rules.CmdClaim {
				pool = append(pool, ch)
			}
		}
		cmd := rules.Command{Kind: rules.CmdSkip}
		if len(pool) > 0 {
			cmd = bot.RandomCommand(r, pool[r.IntN(len(pool))])
		}
		id++
		inFlight, sent, last = true, time.Now(), nil
		return c.Send(ctx, Act(id, cmd))
	}
	for {
		var f Frame
		var ok bool
		select {
		case f, ok = <-c.Frames:
		case <-ctx.Done():
			return st, ctx.Err()
		}
		if !ok {
			return st, fmt.Errorf("%w (%v)", ErrClosed, c.err)
		}
		st.Frames++
		if stop != nil && stop(f) {
			return st, nil
		}
		switch f.Type {
		case "ack":
			if inFlight && f.ID == id {
				inFlight = false
				st.Latencies = append(st.Latencies, time.Since(sent))
				st.Commands++
			}
		case "error":
			if f.Code == "bad_frame" {
				return st, fmt.Errorf("client: %s", f.Message)
			}
			if f.ID != id {
				continue
			}
			inFlight = false // act again only on a state newer than the refused command
		case "state":
			if f.Over {
				st.Winner = f.Winner
				return st, nil
			}
			last = &f
		default:
			continue
		}
		if err := act(); err != nil {
			return st, err
		}
	}
}
