package game

import (
	"encoding/json"
	"time"

	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// The frames live in package wire. These names stay for the packages that
// still say game.StateFrame and the like (aiwolf, llm): the same types.
type (
	EventFrame = wire.EventFrame
	ChatFrame  = wire.ChatFrame
	StateFrame = wire.StateFrame
	CallJSON   = wire.CallJSON
	ChoiceJSON = wire.ChoiceJSON
	TickFrame  = wire.TickFrame
	AckFrame   = wire.AckFrame
	ErrorFrame = wire.ErrorFrame
	SeenFrame  = wire.SeenFrame
)

func eventFrame(seq int, e *rules.Event) wire.EventFrame {
	f := wire.EventFrame{Type: "event", Seq: seq, Kind: e.Kind.String(), Seat: e.Seat, Target: e.Target, Value: e.Value}
	if e.Role != rules.NoRole {
		f.Role = e.Role.String()
	}
	if e.Mask != 0 {
		f.Mask = rules.Seats(e.Mask)
	}
	if e.Kind == rules.EvStep || e.Kind == rules.EvVoteResult {
		f.Step = rules.Step(e.Value).String()
	}
	if e.Kind == rules.EvAttack || e.Kind == rules.EvVoteResult {
		f.Drawn = e.Draws > 0
	}
	return f
}

func callJSON(c rules.Call) wire.CallJSON {
	j := wire.CallJSON{Key: c.Key}
	switch {
	case c.Key != "role.open" && c.Key != "role.close":
	case c.Role == rules.Werewolf:
		j.Group = "wolves"
	case c.Role == rules.CallLovers:
		j.Group = "lovers"
	case c.Role == rules.CallCharmed:
		j.Group = "charmed"
	case c.Role == rules.CallSisters:
		j.Group = "sisters"
	case c.Role == rules.CallBrothers:
		j.Group = "brothers"
	case c.Role == rules.CallWed:
		j.Group = "newlyweds"
	case c.Role == rules.CallLucky:
		j.Group = "lucky"
	case c.Role == rules.CallTraders:
		j.Group = "traders"
	default:
		j.Role = c.Role.String()
	}
	return j
}

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil { // the frames are plain structs: this cannot fail
		panic(err)
	}
	return b
}

func unixMs(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}
