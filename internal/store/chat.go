package store

import (
	"context"
	"fmt"
)

// ChatBinding ties a chat platform's user or group to a game's stream
// (internal/chat): which user holds which seat, which group watches which
// room, and how far each stream was sent, so that a restart of wolfden or of
// the chat connection resumes without resending or losing a line.
type ChatBinding struct {
	Platform string // the platform's name (chat.Platform.Name)
	Room     string
	// Seat 0 is the room's group: Group is its chat, User its host (the
	// 法官, who opened the room). Seat n is a player: User is the chat user
	// on it, Group the chat where he joined.
	Seat  int
	Group string
	User  string
	Name  string // the user's display name, as he joined
	Lang  string // the group's language (seat 0)
	// Events and Chats are the last event and chat numbers of the seat's
	// stream (the spectators' for seat 0) that were sent to the chat.
	Events int
	Chats  int
	// Prompt is a digest of the last prompt sent, so that the same prompt
	// is not sent again after a restart.
	Prompt string
	Away   bool // the host handed the seat to a bot (chat stops reading it)
	// Token is the seat's credential: the room's host's for seat 0, with
	// which the chat core makes the 法官's requests, and a player's for seat
	// n, with which it gives him back his seat's page (/link) or his seat
	// (/leave) after a restart. The store holds the games' secrets already
	// (the column is named host, its first use).
	Token string
}

// Chat keeps the chat bindings. The adapters implement it beside Store; a
// server whose store does not cannot run chat platforms.
type Chat interface {
	// PutChatBinding adds or replaces the binding of (Platform, Room, Seat).
	PutChatBinding(ctx context.Context, b ChatBinding) error
	// ChatBindings lists a platform's bindings, by room then seat.
	ChatBindings(ctx context.Context, platform string) ([]ChatBinding, error)
	// DeleteChatRoom drops every binding of a platform's room (its game
	// ended, or was abandoned).
	DeleteChatRoom(ctx context.Context, platform, room string) error
}

// CheckChatBinding refuses a binding the store must not keep.
func CheckChatBinding(b ChatBinding) error {
	switch {
	case b.Platform == "" || b.Room == "":
		return fmt.Errorf("store: a chat binding needs its platform and room")
	case b.Seat < 0 || b.Seat > 64:
		return fmt.Errorf("store: chat binding seat %d is out of range", b.Seat)
	case b.Events < 0 || b.Chats < 0:
		return fmt.Errorf("store: chat binding counts cannot be negative")
	}
	return nil
}
