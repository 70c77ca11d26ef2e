// Package narrate turns the event frames of a seat's stream into the
// catalogue's lines, as the web client's log shows them. The LLM seat's
// prompt (internal/llm) and the chat groups' messages (internal/chat) share
// it, so that a model and a chat user read the same line for an event.
package narrate

import (
	"strconv"
	"strings"

	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// A Narrator renders in one language. RoleName, if set, names a card
// (its id as rules.Role.String()); nil takes the catalogue's name.
type Narrator struct {
	Lang     string
	RoleName func(id string) string
}

// oneVariant holds the kinds whose line has a single variant, taken when
// one field of the event holds a given value: most often the nobody of a
// pick or a vote. The kinds whose variant weighs several fields are the
// switch's, in Event.
var oneVariant = map[string]struct {
	variant string
	when    func(*wire.EventFrame) bool
}{
	"attack_pick":   {"none", noTarget},
	"witch_told":    {"none", noTarget},
	"ballot":        {"none", noTarget},
	"spy":           {"none", noTarget},
	"badge":         {"none", noTarget},
	"exile":         {"none", func(f *wire.EventFrame) bool { return f.Seat == 0 }},
	"dawn":          {"none", noMask},
	"voters":        {"none", noMask},
	"order":         {"ccw", valueIs(1)},
	"reveal":        {"idiot", valueIs(1)},
	"attack_result": {"survived", valueIs(0)},
	"feedback":      {"missed", valueIs(0)},
	"duel":          {"wolf", valueIs(rules.ResultWolf)},
	"ask":           {"no", valueIs(0)},
}

func noTarget(f *wire.EventFrame) bool { return f.Target == 0 }

func noMask(f *wire.EventFrame) bool { return len(f.Mask) == 0 }

func valueIs(v int16) func(*wire.EventFrame) bool {
	return func(f *wire.EventFrame) bool { return f.Value == v }
}

// Event renders one event of the seat's stream as the web client's log
// does: the catalogue's line for the event's kind, its variant picked from
// its fields (internal/i18n, "Event variants").
func (n Narrator) Event(f *wire.EventFrame) string {
	lang := n.Lang
	key := "event." + f.Kind
	args := map[string]string{"seat": n.SeatNum(f.Seat), "target": n.SeatNum(f.Target),
		"value": strconv.Itoa(int(f.Value)), "mask": n.SeatList(f.Mask)}
	if f.Role != "" {
		args["role"] = n.Role(f.Role)
	}
	if f.Step != "" {
		args["step"] = i18n.Text(lang, "step."+f.Step, nil)
	}
	variant := ""
	if o, ok := oneVariant[f.Kind]; ok && o.when(f) {
		variant = o.variant
	}
	switch f.Kind {
	case "step":
		switch {
		case f.Seat != 0:
			variant = "turn"
		case f.Role != "":
			variant = "role"
			if f.Role == rules.Werewolf.String() {
				args["role"] = i18n.Text(lang, "group.wolves", nil)
			}
		}
	case "check":
		switch {
		case f.Role != "":
		case f.Value == rules.ResultWolf:
			variant = "wolf"
		case f.Value == rules.ResultNotVillage:
			variant = "not_village"
		default:
			variant = "good"
		}
	case "attack":
		switch {
		case f.Target == 0:
			variant = "none"
		case f.Drawn:
			variant = "drawn"
		}
	case "spy":
		if len(f.Mask) > 0 {
			return i18n.Text(lang, "chat.event.spy.mask", args)
		}
	case "vote_result":
		switch {
		case len(f.Mask) == 0:
			variant = "none"
		case len(f.Mask) > 1 && f.Step == rules.StepMobVote.String() && f.Target == 0:
			variant = "candidates"
		case len(f.Mask) > 1 && f.Drawn:
			variant = "drawn"
		case len(f.Mask) > 1 && f.Target == 0:
			variant = "tie"
		}
	case "sheriff":
		variant = map[int16]string{1: "no_candidate", 2: "no_voter", 3: "tie", 4: "explosion", 5: "idiot", 6: "red_card"}[f.Value]
	case "explode":
		switch {
		case f.Target != 0 && f.Value == 1:
			variant = "target.kept"
		case f.Target != 0:
			variant = "target"
		case f.Value == 1:
			variant = "kept"
		}
	case "game_over":
		if f.Value == int16(rules.Draw) {
			variant = "draw"
		}
		args["camp"] = n.Camp(rules.Camp(f.Value))
	case "camp_lost":
		args["camp"] = n.Camp(rules.Camp(f.Value))
	case "claim":
		variant = map[int16]string{rules.ClaimWolf: "wolf", rules.ClaimGood: "good"}[f.Value]
	case "grave":
		switch {
		case f.Target == 0:
			variant = "none"
		case f.Value == rules.ResultWolf:
			variant = "wolf"
		}
	case "death":
		args["cause"] = i18n.Text(lang, "cause."+rules.Cause(f.Value).String(), nil)
	case "extra_cards":
		args["value"] = n.Role(rules.Role(f.Value).String())
	}
	if variant != "" {
		if s := i18n.Text(lang, key+"."+variant, args); s != key+"."+variant {
			return s
		}
	}
	if s := i18n.Text(lang, key, args); s != key {
		return s
	}
	// A kind the catalogue does not know yet: its fields, plainly.
	return i18n.Text(lang, "chat.event.unknown", map[string]string{"kind": f.Kind, "seat": args["seat"],
		"target": args["target"], "value": args["value"]})
}

// SeatNum is a seat's number; the catalogue's nobody for seat 0.
func (n Narrator) SeatNum(s rules.Seat) string {
	if s == 0 {
		return i18n.Text(n.Lang, "chat.nobody", nil)
	}
	return strconv.Itoa(int(s))
}

// SeatList lists seats as the language does ("2、5", "2, 5").
func (n Narrator) SeatList(ss []rules.Seat) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = strconv.Itoa(int(s))
	}
	return strings.Join(parts, i18n.Text(n.Lang, "chat.list.sep", nil))
}

// Role names a card by its id.
func (n Narrator) Role(id string) string {
	if n.RoleName != nil {
		return n.RoleName(id)
	}
	r, err := rules.ParseRole(id)
	if err != nil {
		return id
	}
	return i18n.Role(n.Lang, r)
}

// Camp names a camp.
func (n Narrator) Camp(c rules.Camp) string {
	return i18n.Text(n.Lang, "camp."+c.String(), nil)
}
