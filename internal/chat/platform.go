// Package chat brings the judge into chat groups (QQ through OneBot v11,
// Telegram, Discord): each chat user who joins holds a seat of a game and
// is a client of that seat's frames, as a web page or an LLM seat is, so an
// adapter can tell a user nothing his seat's stream does not hold. The core
// never imports this package; the server wires it.
package chat

import "context"

// A Platform is one chat service's connection: the core sends through it
// and reads what users type or press from it. Each platform's package
// (chat/onebot, chat/telegram, chat/discord) implements it over its own
// protocol; nothing above this interface knows which one it talks to.
type Platform interface {
	// Name is the platform's short name ("onebot", "telegram", "discord"):
	// it keys the stored bindings of users to seats.
	Name() string
	// Send delivers one message to a group or to one user privately. It
	// returns once the platform accepted it, or its error.
	Send(ctx context.Context, to Target, m Message) error
	// Run connects (and reconnects) and delivers what users send until ctx
	// ends; it returns ctx's error then, or a fatal one (a refused token).
	Run(ctx context.Context, in chan<- Incoming) error
}

// A Target is where a message goes: a group (Group set, User empty) or a
// user's private chat (User set, Group empty).
type Target struct {
	Group string
	User  string
}

// Private reports whether the target is one user's private chat.
func (t Target) Private() bool { return t.Group == "" }

// A Message is a line of the judge, with the choices it offers as
// buttons where the platform has them (Telegram's inline keyboard,
// Discord's components); a platform without buttons shows Text only, which
// always lists the choices as the text commands that make them.
type Message struct {
	Text    string
	Buttons [][]Button // rows of buttons
	Mention []string   // user ids the message @-mentions in a group
}

// A Button offers one choice: pressing it is the same as sending Command.
type Button struct {
	Label   string
	Command string // the text command it stands for, such as "查验 5"
}

// Incoming is what a user sent: a text command, or a button's Command.
type Incoming struct {
	Group string // "" in a private chat
	User  string // the platform's user id
	Name  string // his display name, as the platform gives it
	Text  string
}
