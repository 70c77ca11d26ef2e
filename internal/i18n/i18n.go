// Package i18n holds the message catalogue shared by the Go server and the
// web client: 简体中文 (zh-Hans), 繁體中文 (zh-Hant) and English (en). Every
// user-visible string of the moderator goes through it.
//
// # Files
//
// The catalogue is the JSON files under locales/, embedded in the binary:
// locales/<lang>.json holds the rules' vocabulary (below) and
// locales/ui/<lang>.json the web client's own strings, all keyed "ui.…".
// Each file is one flat object key → text, keys sorted, indented by two
// spaces (the tests check it; go test ./internal/i18n -update rewrites
// them so). Every language has exactly the same keys.
//
// # Keys
//
//	role.<id>               a role's name, id as rules.Role.String()
//	role.<id>.desc          one line: what the role does
//	group.<name>            a called group: lovers, charmed, wolves
//	night.falls, day.breaks, role.open, role.close: the narration (Call)
//	step.<name>             a step's banner label, name as rules.Step.String()
//	event.<kind>[.<variant>] a log line for an event, kind as rules.EventKind.String()
//	cause.<name>            a cause of death, as rules.Cause.String()
//	camp.<name>             a camp, as rules.Camp.String() ("draw" too)
//	winner.<camp>           the end-of-game sentence
//	option.<name>           an option's label, name as rules.Option.Name()
//	option.<name>.doc       one line explaining the option to a player
//	option.<name>.<value>   a label for each of rules.Option.Values()
//	preset.<name>           a preset's display name
//	preset.<name>.desc      one line describing the preset
//
// The zero values of the rules' enumerations (role, step, event kind, cause
// and camp "none") have no key: they never reach a player.
//
// # Placeholders
//
// Texts name their blanks in braces, {role}; Text fills them from its args
// map and leaves a blank with no arg as it is. Every language of a key has
// the same placeholders. Event templates use only the names of the event's
// fields, filled by the caller already in the reader's language:
//
//	{seat}   Event.Seat, a number ("3")
//	{target} Event.Target, a number
//	{role}   Event.Role, its role.<id> text
//	{value}  Event.Value: a number, or what the kind says it holds
//	{mask}   Event.Mask, its seats listed ("2、5" in Chinese, "2, 5" in English)
//	{step}   a step's step.<name> text (Value for step, vote_result, resume; the task for task)
//	{cause}  a cause's cause.<name> text (Value for death)
//	{camp}   a camp's camp.<name> text (Value for game_over, camp_lost)
//
// The narration keys role.open and role.close take {role}.
//
// # Event variants
//
// Where one event kind means different things by its fields, the base key
// event.<kind> is the usual meaning and a suffixed key each other one. The
// renderer picks the first that applies:
//
//	step.turn              Seat is set: whose turn it is
//	step.role              no Seat, Role set: a night step for that role ({role}; the wolves: group.wolves)
//	check                  Role is set (seer_sees=role)
//	check.good             no Role, Value ResultGood (wolf_or_not and village_or_not alike)
//	check.wolf             Value ResultWolf
//	check.not_village      Value ResultNotVillage
//	attack_pick.none       Target NoSeat: the wolf picks nobody (空刀)
//	attack.none            Target NoSeat: no attack
//	attack.drawn           Draws 1: the tied picks were drawn
//	witch_told.none        Target NoSeat: no attack, or the witch is no longer told
//	dawn.none              Mask empty: a peaceful night (平安夜)
//	ballot.none            Target NoSeat: abstains
//	vote_result.none       Mask empty: nobody received a vote
//	vote_result.candidates step mob_vote, several top seats, no Target: the angry mob's candidates
//	vote_result.drawn      several top seats and Draws 1: Target was drawn
//	vote_result.tie        several top seats, no Target
//	sheriff.no_candidate   Value 1 (no Seat): no candidate left
//	sheriff.no_voter       Value 2: everyone stood, nobody can vote
//	sheriff.tie            Value 3: a tie
//	sheriff.explosion      Value 4: a self-explosion swallowed the badge (吞警徽)
//	sheriff.idiot          Value 5: the sheriff revealed as the idiot
//	sheriff.red_card       Value 6: the sheriff was removed by a red card
//	badge.none             Target NoSeat: the badge is torn (撕警徽)
//	order.ccw              Value 1: counter-clockwise (the base key is clockwise)
//	exile.none             Seat NoSeat: nobody is exiled
//	reveal.idiot           Value 1: the idiot reveals on his exile and survives
//	explode.target.kept    Target set and Value 1
//	explode.target         Target set: the white wolf king's victim
//	explode.kept           Value 1: the campaign goes on tomorrow (double_explode)
//	task.first             Target 1: queued before the rest
//	resume.cut             Target 1: the day ends after the dawn announcement
//	game_over.draw         Value Draw
//	event_card.wolf_ally   Value 1: the wolf-ally card (the base key takes the card as {value})
//	spy.none               Target NoSeat: a wolf picked nobody
//	voters.none            Mask empty: nobody may vote
//	attack_result.survived Value 0: the target lived
//	feedback.missed        Value 0: the poison or shot did not kill
//	claim.wolf             Value ClaimWolf
//	claim.good             Value ClaimGood
//	duel.wolf              Value ResultWolf: the knight's target was a wolf and dies (the base key: good, the knight dies)
//	grave.wolf             Value ResultWolf: yesterday's exiled reads as a wolf (the base key: good)
//	grave.none             Target NoSeat: nobody was exiled yesterday
//	ask.no                 Value 0: the masquerade's question: the player does not dance tonight
//	trade_choice.betray    Value 1: the trader betrays (the base key: trades)
//	trade_result.seat_betrays, trade_result.target_betrays, trade_result.both_betray
//	                       Value 1, 2, 3: who betrayed (the base key: both traded)
//	gift.poison, gift.shield, lucky.poison, lucky.shield, gift_use.poison, gift_use.shield
//	                       Value GiftPoison, GiftShield (the base keys: the check)
//
// An ally event with Value 1 (a wolf was named) reads as the base key: the
// dead player is told the same either way.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wolfden/wolfden/rules"
)

// Languages are the catalogue's languages, the default first.
var Languages = []string{"zh-Hans", "zh-Hant", "en"}

//go:embed locales
var files embed.FS

// catalogues: language → key → text.
var catalogues = mustLoad(files)

func mustLoad(fsys fs.FS) map[string]map[string]string {
	c, err := load(fsys)
	if err != nil {
		panic(err)
	}
	return c
}

// load reads locales/<lang>.json for every language and merges into each
// the files locales/ui/<lang>.json and locales/chat/<lang>.json (the chat
// groups' lines, chat.*: internal/chat). A file of an unknown language, a file
// that is not one flat object of strings, or a key found in two files of
// one language is an error.
func load(fsys fs.FS) (map[string]map[string]string, error) {
	out := make(map[string]map[string]string, len(Languages))
	for _, l := range Languages {
		out[l] = make(map[string]string)
	}
	for _, dir := range []string{"locales", "locales/ui", "locales/chat"} {
		names, err := fs.Glob(fsys, dir+"/*.json")
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			lang := strings.TrimSuffix(path.Base(name), ".json")
			cat, ok := out[lang]
			if !ok {
				return nil, fmt.Errorf("i18n: %s: unknown language %q (known: %s)", name, lang, strings.Join(Languages, ", "))
			}
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				return nil, err
			}
			var m map[string]string
			if err := json.Unmarshal(data, &m); err != nil {
				return nil, fmt.Errorf("i18n: %s: %w", name, err)
			}
			for k, v := range m {
				if _, dup := cat[k]; dup {
					return nil, fmt.Errorf("i18n: %s: key %q is already defined for %s", name, k, lang)
				}
				cat[k] = v
			}
		}
	}
	for _, l := range Languages {
		if len(out[l]) == 0 {
			return nil, fmt.Errorf("i18n: no catalogue for %s (locales/%s.json)", l, l)
		}
	}
	return out, nil
}

// catalogue is the language's catalogue; an unknown language gets the
// default one.
func catalogue(lang string) map[string]string {
	if c, ok := catalogues[lang]; ok {
		return c
	}
	return catalogues[Languages[0]]
}

// Match returns the supported language closest to tag (zh-TW → zh-Hant,
// zh-CN → zh-Hans, en-GB → en), or an error naming the choices.
func Match(tag string) (string, error) {
	t := strings.ToLower(tag)
	switch {
	case t == "zh-hant" || t == "zh-tw" || t == "zh-hk" || t == "zh-mo" || strings.HasPrefix(t, "zh-hant"):
		return "zh-Hant", nil
	case t == "zh" || strings.HasPrefix(t, "zh-"):
		return "zh-Hans", nil
	case t == "en" || strings.HasPrefix(t, "en-"):
		return "en", nil
	}
	return "", fmt.Errorf("i18n: unknown language %q (known: %s)", tag, strings.Join(Languages, ", "))
}

// Text is the key's text in lang with its placeholders filled from args:
// "{role}" becomes args["role"]; a placeholder with no arg is left as it is.
// A missing key returns the key itself; an unknown language is read as the
// default one.
func Text(lang, key string, args map[string]string) string {
	s, ok := catalogue(lang)[key]
	if !ok {
		return key
	}
	return fill(s, args)
}

// Keys lists the keys of lang's catalogue, sorted (the default language's
// for an unknown one).
func Keys(lang string) []string {
	c := catalogue(lang)
	out := make([]string, 0, len(c))
	for k := range c {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// fill replaces each {name} of s that args holds, in one pass: a value is
// never itself scanned for placeholders.
func fill(s string, args map[string]string) string {
	if len(args) == 0 || !strings.Contains(s, "{") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		v, ok := args[s[i+1:i+j]]
		if !ok {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// placeholders lists the names of s's {name} blanks, sorted, each once.
func placeholders(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		if name := s[i+1 : i+j]; isName(name) {
			out = append(out, name)
		}
		s = s[i+1:]
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// roleKey is the catalogue key of a role's name, or of a called group's.
func roleKey(r rules.Role) string {
	switch r {
	case rules.CallLovers:
		return "group.lovers"
	case rules.CallCharmed:
		return "group.charmed"
	case rules.CallSisters:
		return "group.sisters"
	case rules.CallBrothers:
		return "group.brothers"
	case rules.CallWed:
		return "group.newlyweds"
	case rules.CallLucky:
		return "group.lucky"
	case rules.CallTraders:
		return "group.traders"
	}
	return "role." + r.String()
}

// Role is a role's name (a called group's for rules.CallLovers and
// rules.CallCharmed); a role the catalogue lacks is named by its id.
func Role(lang string, r rules.Role) string {
	if s, ok := catalogue(lang)[roleKey(r)]; ok {
		return s
	}
	return r.String()
}

// Call renders one line of the narration. In a call rules.Werewolf means
// all the wolves (group.wolves). The line begins with a capital letter.
func Call(lang string, c rules.Call) string {
	s, ok := catalogue(lang)[c.Key]
	if !ok {
		return c.Key
	}
	name := Role(lang, c.Role)
	if c.Role == rules.Werewolf {
		name = Text(lang, "group.wolves", nil)
	}
	return capitalize(fill(s, map[string]string{"role": name}))
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
