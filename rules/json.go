package rules

import (
	"encoding/json"
)

type eventJSON struct {
	Seq    int32  `json:"seq"`
	Kind   string `json:"kind,omitempty"`
	Public bool   `json:"public,omitempty"`
	To     []Seat `json:"to,omitempty"`
	Seat   Seat   `json:"seat,omitempty"`
	Target Seat   `json:"target,omitempty"`
	Role   string `json:"role,omitempty"`
	Value  int16  `json:"value,omitempty"`
	Mask   []Seat `json:"mask,omitempty"`
	Text   string `json:"text,omitempty"`
}

// MarshalJSON writes the event with names instead of numbers.
func (e Event) MarshalJSON() ([]byte, error) {
	j := eventJSON{Seq: e.Seq, Kind: e.Kind.String(), Public: e.Public, Seat: e.Seat,
		Target: e.Target, Value: e.Value, Text: e.String()}
	if !e.Public {
		j.To = Seats(e.To)
	}
	if e.Role != NoRole {
		j.Role = e.Role.String()
	}
	if e.Mask != 0 {
		j.Mask = Seats(e.Mask)
	}
	return json.Marshal(j)
}
