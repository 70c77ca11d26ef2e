package local

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// Session is one screen's connection to a game of the device: what a
// WebSocket is to the server (internal/server/ws.go), with the same
// frames in and out. The client's lib/conn.js talks to it through a
// stand-in for the WebSocket (lib/engine.js).
type Session struct {
	t     *Table
	emit  func([]byte)
	end   func(code int, reason string)
	ctx   context.Context
	stop  context.CancelFunc
	mu    sync.Mutex
	sub   *game.Sub
	actor *game.Actor
	once  sync.Once
}

// queueSize is a connection's queue, as the server's.
const queueSize = 1024

// Connect opens a connection to the room id: emit is given each message
// (one or more frames, one a line, as the server's WebSocket sends them;
// emit copies it and keeps no part of it), end once when the connection closes (a WebSocket close code and
// reason). Both are called from a goroutine of the session's.
func (d *Device) Connect(id string, emit func([]byte), end func(code int, reason string)) (*Session, error) {
	t := d.table(id)
	if t == nil {
		return nil, &Error{Status: 404, Code: "no_room", Message: "no room " + id + " on this device"}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Session{t: t, emit: emit, end: end, ctx: ctx, stop: cancel}, nil
}

// closeWith sends an error frame and closes, as the server's closeWith.
func (s *Session) closeWith(code, msg string) {
	b, _ := json.Marshal(wire.ErrorFrame{Type: "error", Code: code, Message: msg})
	s.emit(b)
	s.Close(1008, code)
}

func (s *Session) reply(v any) {
	b, _ := json.Marshal(v)
	s.emit(b)
}

// Done is closed once the connection is.
func (s *Session) Done() <-chan struct{} { return s.ctx.Done() }

// Close ends the connection (the client's close, or the session's own).
func (s *Session) Close(code int, reason string) {
	s.once.Do(func() {
		s.stop()
		s.mu.Lock()
		a, sub := s.actor, s.sub
		s.mu.Unlock()
		if a != nil {
			a.Leave(sub)
		}
		go s.end(code, reason)
	})
}

// Receive takes one frame from the client. The first must be a hello.
func (s *Session) Receive(data []byte) {
	if s.ctx.Err() != nil {
		return
	}
	s.mu.Lock()
	a, sub := s.actor, s.sub
	s.mu.Unlock()
	if a == nil {
		s.hello(data)
		return
	}
	refuse := func(e wire.ErrorFrame) {
		if a.Refuse(sub, e) != nil {
			e.Type = "error"
			s.reply(e)
		}
	}
	f, err := wire.Decode(data, maxChat)
	if err != nil {
		refuse(wire.ErrorFrame{ID: f.ID, Code: "bad_frame", Message: err.Error()})
		return
	}
	switch f.Type {
	case "ping":
		s.reply(map[string]any{"type": "pong", "id": f.ID})
		return
	case "cover":
		return
	case "hello":
		refuse(wire.ErrorFrame{ID: f.ID, Code: "bad_frame", Message: "already greeted; reconnect to resume from another point"})
		return
	case "act":
		c, _ := f.Command()
		err = a.Act(sub, f.ID, c)
	case "seen":
		err = a.Seen(sub, f.ID)
	case "decoy":
		err = a.Decoy(sub, f.ID)
	case "chat":
		err = a.Chat(sub, f.ID, f.Channel, f.Text)
	}
	if err != nil {
		s.reply(wire.ErrorFrame{Type: "error", ID: f.ID, Code: untaken(err), Message: err.Error()})
	}
}

func untaken(err error) string {
	switch {
	case errors.Is(err, game.ErrBusy):
		return "busy"
	case errors.Is(err, game.ErrStalled):
		return "store"
	}
	return "not_running"
}

// welcome is the server's first frame (internal/server/ws.go).
type welcome struct {
	Type     string     `json:"type"`
	Room     string     `json:"room"`
	Seat     rules.Seat `json:"seat"`
	Players  int        `json:"players"`
	Now      int64      `json:"now"`
	Practice bool       `json:"practice"`
}

func (s *Session) hello(data []byte) {
	f, err := wire.Decode(data, maxChat)
	if err != nil || f.Type != "hello" {
		msg := "the first frame must be {\"type\":\"hello\", \"token\": …}"
		if err != nil {
			msg = err.Error()
		}
		s.closeWith("hello", msg)
		return
	}
	t := s.t
	t.mu.Lock()
	a, status, players, practice, seat := t.actor, t.rec.Status, len(t.rec.Seats), t.rec.Config.Practice, t.seatOf(f.Token)
	t.mu.Unlock()
	switch {
	case f.Token != "" && seat == 0:
		s.closeWith("token", "this token holds no seat in this room")
		return
	case status == store.StatusOpen:
		s.closeWith("not_started", "the game has not started; poll GET /api/rooms/ID until its status is running")
		return
	case a == nil:
		s.closeWith("not_running", "the game is over")
		return
	}
	sub := game.NewLazySub(seat, queueSize, func() { s.Close(1001, "too slow") })
	if err := a.Join(sub, f.Since, f.ChatSince); err != nil {
		s.closeWith(untaken(err), err.Error())
		return
	}
	s.reply(welcome{Type: "welcome", Room: t.rec.ID, Seat: seat, Players: players, Now: time.Now().UnixMilli(), Practice: practice})
	s.mu.Lock()
	s.actor, s.sub = a, sub
	s.mu.Unlock()
	if len(f.Pending) > 0 { // as the server: what the last connection never heard the answer of
		_ = a.Answer(sub, f.Pending)
	}
	go s.writer(a, sub)
}

// maxBatch: frames are gathered into one message up to about this size
// (the server's).
const maxBatch = 32 << 10

// writer hands the game's messages to emit, as the server's writer: the
// frames queued together in one message, one a line; a night message
// alone and as it is.
func (s *Session) writer(a *game.Actor, sub *game.Sub) {
	out := game.NewOutbox(sub)
	for {
		if msg, sealed, ok := out.Next(maxBatch); ok {
			if sealed {
				s.emit(msg)
				game.Recycle(msg) // emit keeps no part of it
			} else {
				s.emit(append([]byte(nil), msg...)) // the batch is the outbox's
			}
			continue
		}
		select {
		case b := <-sub.Out:
			out.Add(b)
		case <-s.ctx.Done():
			return
		case <-a.Done():
			for b, ok := out.Pop(); ok; b, ok = out.Pop() {
				s.emit(b)
			}
			s.Close(1001, "the game has stopped")
			return
		}
	}
}
