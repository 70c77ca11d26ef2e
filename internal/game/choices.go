package game

import "github.com/wolfden/wolfden/rules"

// Choosable is what the create page may choose from (GET /api/options, on
// a server and on the device alike): every option with its values (the
// first is the default), every role a custom board may hold, every pace.
type Choosable struct {
	Options []OptionInfo                  `json:"options"`
	Paces   map[string]map[string]float64 `json:"paces"`
	Roles   []string                      `json:"roles"`
}

// OptionInfo is one option as the create page lists it.
type OptionInfo struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
	Doc    string   `json:"doc"`
}

// Choices lists what a room may be made with.
func Choices() Choosable {
	c := Choosable{Paces: PaceSeconds()}
	for _, o := range rules.AllOptions() {
		c.Options = append(c.Options, OptionInfo{o.Name(), o.Values(), o.Doc()})
	}
	for _, r := range rules.Roles() {
		if r.Implemented() {
			c.Roles = append(c.Roles, r.String())
		}
	}
	return c
}
