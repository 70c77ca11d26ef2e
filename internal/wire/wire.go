// Package wire holds the frames of wolfden's WebSocket API (docs/api.md):
// what the game sends each connection and what a client sends the server.
// The game's actor, the server, the Go client and the bus all speak them;
// none of them owns them.
package wire

import (
	"encoding/json"
	"slices"

	"github.com/wolfden/wolfden/rules"
)

// The frames a client receives. Each is one JSON object with a "type".

// EventFrame is one event of the seat's own stream. Seq counts the events
// this seat has received (1, 2, …): events it may not see are not sent at
// all, not even as a number, because their count is a secret (how many died
// before dawn, how many wolves picked a target).
type EventFrame struct {
	Type   string       `json:"type"` // "event"
	Seq    int          `json:"seq"`
	Kind   string       `json:"kind"`
	Seat   rules.Seat   `json:"seat,omitempty"`
	Target rules.Seat   `json:"target,omitempty"`
	Role   string       `json:"role,omitempty"`
	Value  int16        `json:"value,omitempty"`
	Step   string       `json:"step,omitempty"` // for kinds step and vote_result: the step's name
	Mask   []rules.Seat `json:"mask,omitempty"`
	Drawn  bool         `json:"drawn,omitempty"` // for kinds attack and vote_result: a draw settled a tie
}

// ChatFrame is one message of a channel the seat belongs to, numbered in
// the seat's own chat stream. Seat is 0 in the little girl's copy of the
// wolves' channel.
type ChatFrame struct {
	Type    string     `json:"type"` // "chat"
	Seq     int        `json:"seq"`
	Channel string     `json:"channel"`
	Seat    rules.Seat `json:"seat"`
	Text    string     `json:"text"`
	At      int64      `json:"at"` // unix milliseconds
}

// StateFrame is what the seat knows now and what it may do: it is built
// from what the table has been told, never from the game's hidden state.
type StateFrame struct {
	Type     string         `json:"type"` // "state"
	Seat     rules.Seat     `json:"seat"`
	Role     string         `json:"role,omitempty"`
	Day      int            `json:"day"`
	Night    bool           `json:"night"`
	Step     string         `json:"step,omitempty"`
	Turn     rules.Seat     `json:"turn,omitempty"`
	Alive    []rules.Seat   `json:"alive"`
	Sheriff  rules.Seat     `json:"sheriff,omitempty"`
	Known    map[int]string `json:"known,omitempty"` // seat → card, as far as this seat knows
	Wolves   []rules.Seat   `json:"wolves,omitempty"`
	Lovers   []rules.Seat   `json:"lovers,omitempty"`
	Couple   []rules.Seat   `json:"couple,omitempty"`  // the ghost bride and her groom, for them and the witness (鬼魂新娘)
	Exposed  []rules.Seat   `json:"exposed,omitempty"` // public: the self-exploded, of the wolf camp (自爆)
	Pending  bool           `json:"pending"`
	Choices  []ChoiceJSON   `json:"choices,omitempty"`
	Deadline int64          `json:"deadline,omitempty"`  // unix ms: when the moderator moves on
	NightEnd int64          `json:"night_end,omitempty"` // unix ms, at night: dawn, the same for every seat
	Paused   bool           `json:"paused,omitempty"`
	Over     bool           `json:"over,omitempty"`
	Winner   string         `json:"winner,omitempty"`
	Channels []string       `json:"channels,omitempty"` // chat channels the seat may write to now
	Bot      bool           `json:"bot,omitempty"`      // a bot plays this seat while its player is away
	Calls    []CallJSON     `json:"calls,omitempty"`    // at night: the moderator's calls of this night, in order
	SeeCard  bool           `json:"see_card,omitempty"` // the table waits for this seat to confirm seeing its card (seen.go)
}

// CallJSON is one line of the moderator's narration (catalogue key night.falls,
// role.open, role.close, day.breaks) and whom it calls: a role, or a group
// (wolves, lovers, charmed, sisters, brothers).
type CallJSON struct {
	Key   string `json:"key"`
	Role  string `json:"role,omitempty"`
	Group string `json:"group,omitempty"`
}

// ChoiceJSON is one kind of command the seat may send now.
type ChoiceJSON struct {
	Cmd      string       `json:"cmd"`
	Targets  []rules.Seat `json:"targets,omitempty"`
	NoTarget bool         `json:"no_target,omitempty"` // may be sent without a target
	Value    int8         `json:"value,omitempty"`
	Pick     int8         `json:"pick,omitempty"` // names this many targets as "seats"; -1: any number
	Roles    []string     `json:"roles,omitempty"`
}

// TickFrame opens each message of the night (beat.go): N counts the
// night's ticks, the same for every connection; -1 opens the message a
// connection that joins at night gets at once.
type TickFrame struct {
	Type string `json:"type"` // "tick"
	N    int    `json:"n"`
}

// AckFrame answers a client's request that was accepted and stored.
type AckFrame struct {
	Type string `json:"type"` // "ack"
	ID   int64  `json:"id"`
}

// ErrorFrame answers a request that was refused; nothing changed.
type ErrorFrame struct {
	Type    string `json:"type"` // "error"
	ID      int64  `json:"id,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// SeenFrame tells every connection, the spectators' and the table device's
// alike, how far the wait for the cards has got: Count people of Of have
// confirmed. Waiting is false in the last one, sent as the wait ends.
type SeenFrame struct {
	Type    string `json:"type"` // "seen"
	Count   int    `json:"count"`
	Of      int    `json:"of"`
	Waiting bool   `json:"waiting"`
}

// RemindFrame warns that a deadline is near (forum pace, docs/server.md):
// Left before Deadline, at an offset the room chose. At night it is one
// frame, byte for byte, to every connection at the same tick, whatever its
// seat does tonight: whether a seat owes an action is its own state's to
// say. By day Seats are the seats the running step calls on, as the whole
// table was told when it began (who has voted since is secret until the
// vote closes, so it is not named).
type RemindFrame struct {
	Type     string       `json:"type"`     // "remind"
	Deadline int64        `json:"deadline"` // unix ms
	Left     int64        `json:"left"`     // ms before the deadline this reminder was set for
	Night    bool         `json:"night,omitempty"`
	Seats    []rules.Seat `json:"seats,omitempty"`
}

// ExtendFrame tells every connection at once that the host gave the
// running step (at night: the running stage, and so the dawn) By more
// milliseconds. The new deadlines come in each seat's state.
type ExtendFrame struct {
	Type string `json:"type"` // "extend"
	By   int64  `json:"by"`   // ms
}

// ClientFrame is a frame from a client (docs/api.md). The server reads it
// strictly (internal/server: unknown fields and trailing data are errors).
type ClientFrame struct {
	Type string `json:"type"` // hello, act, chat, ping, cover, seen, decoy
	ID   int64  `json:"id"`   // echoed in the ack or error
	// Pad is ignored: a client at night sends frames of one size, whatever
	// they say (docs/server.md, night traffic).
	Pad string `json:"pad"`

	// hello
	Token     string `json:"token"`
	Since     int    `json:"since"`
	ChatSince int    `json:"chat_since"`
	// Pending: the ids of requests (act, chat, seen) the client sent on an
	// earlier connection and never heard the answer of; the game acks
	// those it took (at most MaxPending).
	Pending []int64 `json:"pending"`

	// act
	Cmd    string `json:"cmd"`
	Target int    `json:"target"`
	Seats  []int  `json:"seats"`
	Value  int    `json:"value"`
	Role   string `json:"role"`

	// chat
	Channel string `json:"channel"`
	Text    string `json:"text"`
}

// AppendString writes s as a JSON string: as it is when json.Marshal would
// not change it (printable ASCII but the quote, the backslash and the HTML
// characters it escapes), else json.Marshal's own encoding. The frames'
// hand-written encoders (the game's state, the AIWolf packets) share it.
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// AppendStringMap writes m as json.Marshal writes a map[string]string:
// its keys in order, nil as null.
func AppendStringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var buf [16]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, k)
		b = append(b, ':')
		b = AppendString(b, m[k])
	}
	return append(b, '}')
}
