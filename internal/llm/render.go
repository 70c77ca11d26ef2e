package llm

import (
	"strconv"
	"strings"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/rules"
)

// The prompt is in English whatever the table's language: models follow
// English instructions best, and the moderator's lines are the catalogue's,
// the very lines a person on the seat reads in his log.
const promptLang = "en"

// oneVariant holds the kinds whose line has a single variant, taken when
// one field of the event holds a given value: most often the nobody of a
// pick or a vote. The kinds whose variant weighs several fields are the
// switch's, in eventLine.
var oneVariant = map[string]struct {
	variant string
	when    func(*game.EventFrame) bool
}{
	"attack_pick":   {"none", noTarget},
	"witch_told":    {"none", noTarget},
	"ballot":        {"none", noTarget},
	"spy":           {"none", noTarget},
	"badge":         {"none", noTarget},
	"exile":         {"none", func(f *game.EventFrame) bool { return f.Seat == 0 }},
	"dawn":          {"none", noMask},
	"voters":        {"none", noMask},
	"order":         {"ccw", valueIs(1)},
	"reveal":        {"idiot", valueIs(1)},
	"attack_result": {"survived", valueIs(0)},
	"feedback":      {"missed", valueIs(0)},
	"duel":          {"wolf", valueIs(rules.ResultWolf)},
	"ask":           {"no", valueIs(0)},
}

func noTarget(f *game.EventFrame) bool { return f.Target == 0 }

func noMask(f *game.EventFrame) bool { return len(f.Mask) == 0 }

func valueIs(v int16) func(*game.EventFrame) bool {
	return func(f *game.EventFrame) bool { return f.Value == v }
}

// eventLine renders one event of the seat's stream as the web client's log
// does: the catalogue's line for the event's kind, its variant picked from
// its fields (internal/i18n, "Event variants").
func eventLine(f *game.EventFrame) string {
	key := "event." + f.Kind
	args := map[string]string{"seat": seatNum(f.Seat), "target": seatNum(f.Target),
		"value": strconv.Itoa(int(f.Value)), "mask": seatList(f.Mask)}
	if f.Role != "" {
		args["role"] = roleName(f.Role)
	}
	if f.Step != "" {
		args["step"] = i18n.Text(promptLang, "step."+f.Step, nil)
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
				args["role"] = i18n.Text(promptLang, "group.wolves", nil)
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
			return "You spy the wolves naming seats " + seatList(f.Mask) + "."
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
		args["camp"] = campName(rules.Camp(f.Value))
	case "camp_lost":
		args["camp"] = campName(rules.Camp(f.Value))
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
		args["cause"] = i18n.Text(promptLang, "cause."+rules.Cause(f.Value).String(), nil)
	case "extra_cards":
		args["value"] = roleName(rules.Role(f.Value).String())
	}
	if variant != "" {
		if s := i18n.Text(promptLang, key+"."+variant, args); s != key+"."+variant {
			return s
		}
	}
	if s := i18n.Text(promptLang, key, args); s != key {
		return s
	}
	// A kind the catalogue does not know yet: its fields, plainly.
	return "Event " + f.Kind + ": seat " + args["seat"] + ", target " + args["target"] + ", value " + args["value"] + "."
}

// chatLine renders a message the seat was sent. The text is quoted as a
// JSON string: a player cannot forge a line of the prompt by typing one.
func chatLine(f *game.ChatFrame) string {
	who := "seat " + seatNum(f.Seat)
	if f.Seat == 0 {
		who = "a wolf (you cannot see which)"
	}
	return "[" + f.Channel + " chat] " + who + " says " + quote(f.Text)
}

func quote(s string) string {
	b := []byte(strconv.Quote(s))
	return string(b)
}

func seatNum(s rules.Seat) string {
	if s == 0 {
		return "nobody"
	}
	return strconv.Itoa(int(s))
}

func seatList(ss []rules.Seat) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = strconv.Itoa(int(s))
	}
	return strings.Join(parts, ", ")
}

// roleName is a card's English name with its id and its Chinese name:
// "Seer (seer, 预言家)".
func roleName(id string) string {
	r, err := rules.ParseRole(id)
	if err != nil {
		return id
	}
	return i18n.Role(promptLang, r) + " (" + id + ", " + r.Chinese() + ")"
}

func campName(c rules.Camp) string {
	return i18n.Text(promptLang, "camp."+c.String(), nil)
}
