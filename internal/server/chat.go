package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// The chat platforms (Options.Chat, docs/chat.md): a bridge per platform
// plays its groups' games in this server's rooms. Each chat request goes
// through the very handlers a web client's does, with the same checks and
// limits (counted per chat user), so a chat game is a web room whose
// players happen to be in a chat group.

// chatRunner runs the bridges from Restore to Stop.
type chatRunner struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// mountChat mounts the platforms that serve HTTP themselves (OneBot's
// reverse WebSocket) at their paths.
func (s *Server) mountChat(m *http.ServeMux) {
	for _, p := range s.opts.Chat {
		if h, ok := p.(interface {
			http.Handler
			Path() string
		}); ok {
			m.Handle(h.Path(), h)
		}
	}
}

// startChat starts a bridge per platform; Stop ends them.
func (s *Server) startChat() {
	if len(s.opts.Chat) == 0 || s.chat != nil {
		return
	}
	cs, ok := s.st.(store.Chat)
	if !ok {
		s.log.Error("chat: the store cannot keep chat games; the chat platforms are not started")
		return
	}
	if s.cl != nil {
		// A node's rooms move between nodes; a bridge holds its games'
		// streams on one server.
		s.log.Error("chat: chat platforms run on a single server, not a cluster's node; not started")
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.chat = &chatRunner{cancel: cancel}
	for _, p := range s.opts.Chat {
		b := chat.New(p, chatRooms{s: s, platform: p.Name()}, cs, chat.Options{Log: s.log, Room: s.opts.ChatRoom})
		s.chat.wg.Add(1)
		go func() {
			defer s.chat.wg.Done()
			for {
				err := b.Run(ctx)
				if ctx.Err() != nil {
					return
				}
				s.log.Error("chat: the platform stopped; connecting again in a minute", "platform", p.Name(), "err", err)
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Minute):
				}
			}
		}()
	}
}

// stopChat ends the bridges and waits for them.
func (s *Server) stopChat() {
	if s.chat == nil {
		return
	}
	s.chat.cancel()
	s.chat.wg.Wait()
}

// chatRooms is the server's chat.Rooms.
type chatRooms struct {
	s        *Server
	platform string
}

var _ chat.Rooms = chatRooms{}

// chatResponse is the response of a handler called for a chat request.
type chatResponse struct {
	h    http.Header
	code int
	body bytes.Buffer
}

func (r *chatResponse) Header() http.Header         { return r.h }
func (r *chatResponse) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *chatResponse) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}

// call makes one API request as the chat user whose limits it counts
// under; out receives the answer.
func (c chatRooms) call(ctx context.Context, user, method, path, token string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	r, err := http.NewRequestWithContext(ctx, method, path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	// Not an address: the per-address limits count each chat user alone.
	r.RemoteAddr = "chat:" + user
	w := &chatResponse{h: http.Header{}}
	c.s.mux.ServeHTTP(w, r)
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if w.code >= 300 {
		var e struct {
			Error struct{ Code, Message string }
		}
		if json.Unmarshal(w.body.Bytes(), &e) == nil && e.Error.Message != "" {
			return errors.New(e.Error.Message)
		}
		return fmt.Errorf("%s %s: status %d", method, path, w.code)
	}
	if out != nil {
		return json.Unmarshal(w.body.Bytes(), out)
	}
	return nil
}

func (c chatRooms) Open(ctx context.Context, o chat.Open) (string, string, error) {
	req := map[string]any{"preset": o.Preset, "name": o.Name, "private": true}
	if o.Seed != nil {
		req["seed"] = *o.Seed
	}
	if o.Practice {
		req["practice"] = true
	}
	if o.Deal != nil {
		req["deal"] = o.Deal
	}
	if len(o.Timers) > 0 {
		req["timers"] = o.Timers
	}
	if o.Remind != "" {
		req["remind"] = o.Remind
	}
	var out struct {
		Host string `json:"host_token"`
		Room struct {
			ID string `json:"id"`
		} `json:"room"`
	}
	if err := c.call(ctx, o.User, http.MethodPost, "/api/rooms", "", req, &out); err != nil {
		return "", "", err
	}
	return out.Room.ID, out.Host, nil
}

func (c chatRooms) Join(ctx context.Context, room, user, nick string) (rules.Seat, string, error) {
	var out struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	}
	err := c.call(ctx, user, http.MethodPost, "/api/rooms/"+room+"/join", "", map[string]string{"nickname": nick}, &out)
	return rules.Seat(out.Seat), out.Token, err
}

func (c chatRooms) Leave(ctx context.Context, room, token string) error {
	return c.call(ctx, c.platform, http.MethodPost, "/api/rooms/"+room+"/leave", token, nil, nil)
}

func (c chatRooms) Start(ctx context.Context, room, host string) error {
	return c.call(ctx, c.platform, http.MethodPost, "/api/rooms/"+room+"/start", host, nil, nil)
}

func (c chatRooms) Actor(ctx context.Context, room string) (*game.Actor, error) {
	rm, err := c.s.roomFor(ctx, room)
	if err != nil {
		return nil, err
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.actor == nil {
		return nil, errors.New("the game is not running")
	}
	return rm.actor, nil
}

func (c chatRooms) Pause(ctx context.Context, room, host string, on bool) error {
	verb := "resume"
	if on {
		verb = "pause"
	}
	return c.call(ctx, c.platform, http.MethodPost, "/api/rooms/"+room+"/"+verb, host, nil, nil)
}

func (c chatRooms) RedCard(ctx context.Context, room, host string, seat rules.Seat) error {
	return c.call(ctx, c.platform, http.MethodPost, "/api/rooms/"+room+"/red-card", host, map[string]int{"seat": int(seat)}, nil)
}

// Extend is the host's extension of the running deadline (forum pace).
func (c chatRooms) Extend(ctx context.Context, room, host string, d time.Duration) error {
	return c.call(ctx, c.platform, http.MethodPost, "/api/rooms/"+room+"/extend", host, map[string]string{"by": d.String()}, nil)
}

func (c chatRooms) SeatLink(room string, seat rules.Seat, token string) string {
	base := strings.TrimRight(c.s.opts.PublicURL, "/")
	return fmt.Sprintf("%s/room/%s#seat=%d&token=%s", base, room, seat, token)
}
