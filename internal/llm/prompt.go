package llm

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/rules"
)

// The prompt is made of the record alone (the seat's frames): the same
// frames give the same prompt, byte for byte. Nothing in it depends on the
// clock (no deadline, no message's time) or on a map's order.

var speechLangs = map[string]string{"en": "English", "zh-Hans": "Simplified Chinese (简体中文)", "zh-Hant": "Traditional Chinese (繁體中文)"}

// systemPrompt says what the model is and how it answers.
func systemPrompt(seat rules.Seat, players int, lang string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You play Werewolf (狼人杀) at seat %d of a table of %d players. A program is the moderator: "+
		"it enforces every rule, tells you what your seat may know and offers you the moves you may make.\n", seat, players)
	b.WriteString("You know only what the moderator told your seat, listed in the next message; never invent other facts.\n")
	b.WriteString("Answer with ONE JSON object and nothing else:\n")
	b.WriteString(`{"action": {"cmd": "<a command of the legal choices>", "target": <seat or 0>, "seats": [<seats>], "value": <number>}, ` +
		`"speech": "<what you say, only when you have the floor>", ` +
		`"claims": [{"claim": "role", "role": "<card id>"}, {"claim": "wolf", "seat": <seat>}, {"claim": "good", "seat": <seat>}], ` +
		`"whisper": "<a message to your team, only when you are offered one>"}` + "\n")
	b.WriteString("- \"action\" must be one of the legal choices listed, with a target among the targets listed for it.\n")
	fmt.Fprintf(&b, "- \"speech\" and \"claims\" only when you have the floor: at most %d claims, each about a living player other than you. "+
		"Speak in %s, at most 80 words, about the public facts.\n", rules.MaxClaims, speechLangs[lang])
	b.WriteString("- Leave out any field you do not need. Play to win for your camp.\n")
	return b.String()
}

// userPrompt is what the seat knows and what it may do now: its state's
// facts, its stream, then its state's moment and choices.
func (r *record) userPrompt(floor bool) string {
	return r.head() + r.history() + r.now(floor)
}

// head is what the latest state says the seat knows.
func (r *record) head() string {
	var b strings.Builder
	st := r.state
	fmt.Fprintf(&b, "You are seat %d.", r.seat)
	if st.Role != "" {
		fmt.Fprintf(&b, " Your card: %s.", roleName(st.Role))
	}
	b.WriteString("\n")
	if len(st.Wolves) > 0 {
		fmt.Fprintf(&b, "The wolves you know of: seats %s.\n", seatList(st.Wolves))
	}
	if len(st.Lovers) > 0 {
		fmt.Fprintf(&b, "The lovers: seats %s.\n", seatList(st.Lovers))
	}
	if len(st.Known) > 0 {
		seats := make([]int, 0, len(st.Known))
		for s := range st.Known {
			seats = append(seats, s)
		}
		slices.Sort(seats)
		parts := make([]string, len(seats))
		for i, s := range seats {
			parts[i] = "seat " + strconv.Itoa(s) + " is " + roleName(st.Known[s])
		}
		fmt.Fprintf(&b, "Cards you know: %s.\n", strings.Join(parts, "; "))
	}
	if len(st.Exposed) > 0 {
		fmt.Fprintf(&b, "Self-exploded wolves: seats %s.\n", seatList(st.Exposed))
	}
	return b.String()
}

// history is the seat's stream, numbered.
func (r *record) history() string {
	var b strings.Builder
	b.WriteString("\nWhat the moderator and the players told you, in order:\n")
	for i, l := range r.lines {
		fmt.Fprintf(&b, "%d. %s\n", i+1, l)
	}
	return b.String()
}

// now is the moment of the latest state and what the seat may do.
func (r *record) now(floor bool) string {
	var b strings.Builder
	st := r.state
	b.WriteString("\nNow: ")
	if st.Night {
		fmt.Fprintf(&b, "night, after day %d", st.Day)
	} else {
		fmt.Fprintf(&b, "day %d", st.Day)
	}
	if st.Step != "" {
		fmt.Fprintf(&b, ", %s", i18n.Text(promptLang, "step."+st.Step, nil))
	}
	if st.Turn != 0 {
		fmt.Fprintf(&b, ", seat %d's turn", st.Turn)
	}
	fmt.Fprintf(&b, ". Living players: seats %s.", seatList(st.Alive))
	if st.Sheriff != 0 {
		fmt.Fprintf(&b, " Sheriff: seat %d.", st.Sheriff)
	}
	b.WriteString("\n")
	acts, claims := splitChoices(st.Choices)
	if floor {
		b.WriteString("You have the floor: say your speech (\"speech\") and your claims (\"claims\").\n")
		if rc := findClaim(claims, rules.ClaimRole); rc != nil {
			fmt.Fprintf(&b, "Cards you may claim: %s.\n", strings.Join(rc.Roles, ", "))
		}
		if wc := findClaim(claims, rules.ClaimWolf); wc != nil {
			fmt.Fprintf(&b, "Players you may call a wolf or good: seats %s.\n", seatList(wc.Targets))
		}
		b.WriteString("Your \"action\" ends your speech: skip, unless you choose another legal choice.\n")
	}
	if !floor && slices.Contains(st.Channels, game.ChanWolves) {
		b.WriteString("You may also whisper to the wolf team (\"whisper\"): only the wolves read it.\n")
	}
	b.WriteString("Legal choices:\n")
	for _, c := range acts {
		fmt.Fprintf(&b, "- %s\n", describeChoice(c))
	}
	js, _ := json.Marshal(acts)
	fmt.Fprintf(&b, "Legal choices (JSON): %s\n", js)
	return b.String()
}

// splitChoices separates the claims from the other choices.
func splitChoices(all []game.ChoiceJSON) (acts, claims []game.ChoiceJSON) {
	for _, c := range all {
		if c.Cmd == rules.CmdClaim.String() {
			claims = append(claims, c)
		} else {
			acts = append(acts, c)
		}
	}
	return acts, claims
}

func findClaim(claims []game.ChoiceJSON, kind int8) *game.ChoiceJSON {
	for i := range claims {
		if claims[i].Value == kind {
			return &claims[i]
		}
	}
	return nil
}

// describeChoice says in words how to answer a choice.
func describeChoice(c game.ChoiceJSON) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"cmd": %q`, c.Cmd)
	if c.Value != 0 {
		fmt.Fprintf(&b, `, "value": %d`, c.Value)
	}
	switch {
	case c.Pick > 0:
		fmt.Fprintf(&b, `, "seats": [...]} naming exactly %d of seats %s`, c.Pick, seatList(c.Targets))
	case c.Pick < 0:
		fmt.Fprintf(&b, `, "seats": [...]} naming any of seats %s (or none)`, seatList(c.Targets))
	case len(c.Targets) > 0 && c.NoTarget:
		fmt.Fprintf(&b, `, "target": N} with N one of %s, or 0 for nobody`, seatList(c.Targets))
	case len(c.Targets) > 0:
		fmt.Fprintf(&b, `, "target": N} with N one of %s`, seatList(c.Targets))
	default:
		b.WriteString("}")
	}
	if d := cmdHelp[c.Cmd]; d != "" {
		b.WriteString(": " + d)
	}
	if c.Cmd == rules.CmdOrder.String() {
		b.WriteString(map[int8]string{0: " (clockwise)", 1: " (counter-clockwise)"}[c.Value])
	}
	return b.String()
}

var cmdHelp = map[string]string{
	"attack": "the wolves' kill tonight", "heal": "use your antidote on tonight's victim", "poison": "poison a player",
	"protect": "protect a player tonight", "check": "learn a player's side", "shoot": "shoot a player, who dies",
	"vote": "vote for a player", "abstain": "vote for nobody", "run": "stand for sheriff", "withdraw": "withdraw from the sheriff race",
	"badge": "pass the sheriff's badge", "tear": "tear up the badge", "explode": "self-explode: reveal yourself as a wolf and end the day",
	"charm": "charm a player", "skip": "do nothing now (end your speech, keep out, pass)", "order": "set the speaking order",
	"take": "take an extra card", "link": "make two players lovers", "voters": "choose who may vote tomorrow",
	"ally": "name the wolves' ally", "duel": "reveal yourself as the knight and duel a player", "curse": "curse a player (one more vote against him)",
	"dream": "dream a player tonight", "swap": "swap two players for the night", "hunt": "hunt a player tonight",
	"fear": "fear a player: no power tonight", "model": "take a player as your model",
	"shelter": "shelter a player: tonight the gods' powers aimed at him land on their casters (once)",
	"rewind":  "reveal yourself as the sequence prince and void the vote just published: it is taken again",
	"dance":   "choose three players to dance tonight", "ask": "ask whether a player dances tonight", "mask": "give a player the mask for tonight's dance",
}

// retryPrompt answers a reply that could not be used.
func retryPrompt(why string) string {
	return "Your reply could not be used: " + why + ". Reply again with ONE JSON object whose \"action\" is one of the legal choices listed above."
}
