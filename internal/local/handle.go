package local

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// Error is a refusal, as the server words its own (docs/server.md): a
// status, a code and a message.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

func badRequest(code, msg string) *Error { return &Error{Status: 400, Code: code, Message: msg} }
func conflict(code, msg string) *Error   { return &Error{Status: 409, Code: code, Message: msg} }
func storeErr(err error) *Error {
	return &Error{Status: 503, Code: "store", Message: err.Error()}
}

// Handle answers a request of the client's HTTP API (lib/api.js) about a
// room of the device, or the lists every client asks for (presets,
// options): its status and JSON body, an error body as the server's.
// token is the request's bearer token.
func (d *Device) Handle(ctx context.Context, method, target, token string, body []byte) (int, []byte) {
	v, err := d.handle(ctx, method, target, token, body)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = badRequest("bad_room", err.Error())
		}
		b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": e.Code, "message": e.Message}})
		return e.Status, b
	}
	status := 200
	if method == "POST" && target == "/api/rooms" {
		status = 201
	}
	b, _ := json.Marshal(v)
	return status, b
}

// roomWait is the longest a GET ?after=VERSION waits, as the server's.
const roomWait = 25 * time.Second

func (d *Device) handle(ctx context.Context, method, target, token string, body []byte) (any, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, badRequest("bad_path", err.Error())
	}
	p := u.Path
	switch {
	case method == "GET" && p == "/api/presets":
		return presets(), nil
	case method == "GET" && p == "/api/options":
		return game.Choices(), nil
	case method == "POST" && p == "/api/rooms":
		var req Request
		if err := strictJSON(body, &req); err != nil {
			return nil, err
		}
		return d.Create(req)
	}
	rest, ok := strings.CutPrefix(p, "/api/rooms/")
	if !ok {
		return nil, &Error{Status: 404, Code: "not_found", Message: "this device answers only for its own rooms"}
	}
	id, action, _ := strings.Cut(rest, "/")
	t := d.table(id)
	if t == nil {
		return nil, &Error{Status: 404, Code: "no_room", Message: fmt.Sprintf("no room %q on this device", id)}
	}
	host := func() error {
		t.mu.Lock()
		defer t.mu.Unlock()
		if token == "" || token != t.rec.Config.Host {
			return &Error{Status: 403, Code: "not_host", Message: "only the host may do this"}
		}
		return nil
	}
	switch {
	case method == "GET" && action == "":
		if a := u.Query().Get("after"); a != "" {
			after, err := strconv.ParseInt(a, 10, 64)
			if err != nil {
				return nil, badRequest("bad_after", "after: not a number")
			}
			t.wait(ctx, after, roomWait)
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		in := t.describe()
		in.You = t.seatOf(token)
		return in, nil
	case method == "GET" && action == "replay":
		return t.replay()
	case method == "POST" && action == "join":
		var req struct {
			Nickname string `json:"nickname"`
		}
		if err := strictJSON(body, &req); err != nil {
			return nil, err
		}
		return t.join(req.Nickname)
	case method == "POST" && action == "bots":
		if err := host(); err != nil {
			return nil, err
		}
		var req struct {
			Seat int `json:"seat"`
		}
		if err := strictJSON(body, &req); err != nil {
			return nil, err
		}
		return t.addBots(req.Seat)
	case method == "POST" && action == "start":
		if err := host(); err != nil {
			return nil, err
		}
		return t.start()
	case method == "POST" && action == "abort":
		if err := host(); err != nil {
			return nil, err
		}
		return t.abort()
	case method == "POST" && (action == "pause" || action == "resume"):
		if err := host(); err != nil {
			return nil, err
		}
		t.mu.Lock()
		a := t.actor
		t.mu.Unlock()
		if a == nil {
			return nil, conflict("not_running", "the game is not running")
		}
		if err := a.Pause(action == "pause"); err != nil {
			return nil, conflict("not_running", err.Error())
		}
		return map[string]any{"paused": action == "pause"}, nil
	}
	return nil, &Error{Status: 404, Code: "not_found",
		Message: fmt.Sprintf("%s %s: a room on this device has no such request (it is played with no server)", method, p)}
}

// strictJSON reads a request body as the server does: unknown fields are
// errors; an empty body is an empty object.
func strictJSON(body []byte, v any) error {
	if len(body) == 0 {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("bad_json", "the request body: "+err.Error())
	}
	return nil
}

// presets is the server's GET /api/presets (and game.Choices its /api/options),
// for a client that has no server to ask.
func presets() any {
	type preset struct {
		Name        string            `json:"name"`
		Chinese     string            `json:"chinese"`
		Description string            `json:"description"`
		MinPlayers  int               `json:"min_players"`
		MaxPlayers  int               `json:"max_players"`
		Cards       []string          `json:"cards"`
		Options     map[string]string `json:"options"`
	}
	var out []preset
	for _, p := range rules.Presets() {
		b, err := p.Board(p.MinPlayers)
		if err != nil {
			continue
		}
		pr := preset{p.Name, p.Chinese, p.Description, p.MinPlayers, p.MaxPlayers, nil, map[string]string{}}
		for _, r := range b.Cards {
			pr.Cards = append(pr.Cards, r.String())
		}
		for _, o := range rules.AllOptions() {
			pr.Options[o.Name()] = b.Options.Get(o)
		}
		pr.Options["narrate_absent_roles"] = "on"
		out = append(out, pr)
	}
	return out
}

// maxChat bounds a chat message, as the server's decoder does.
const maxChat = game.MaxChat
