// Package script reads and runs scripted games: a board, a seed, an optional
// deal, then commands and expectations in order. It is how rule scenarios are
// written and checked (docs/scripts.md).
package script

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/wolfden/wolfden/internal/boardfile"
	"github.com/wolfden/wolfden/rules"
)

// Script is a parsed script file.
type Script struct {
	Name    string
	Rule    string
	Board   rules.Board
	Seed    uint64
	Deal    []rules.Role // nil: the seed deals
	Steps   []Step
	Source  string // file name, for messages
	Players int
}

// Step is one line of the script: a command, a timeout, or an expectation.
type Step struct {
	Line    int
	Text    string
	Cmds    []rules.Command // one per listed seat
	Timeout bool
	Advance bool       // end every wait that decides nothing
	RedCard rules.Seat // the moderator removes this seat (红牌, 002); 0: not a red card
	Refuse  string     // expect the command to be refused with this text in the error ("" = must succeed)
	Refused bool
	Expect  *Expect
}

// Expect is what must hold after the previous steps.
type Expect struct {
	Dead    []int            `yaml:"dead"`
	Alive   []int            `yaml:"alive"`
	Winner  string           `yaml:"winner"`
	Over    *bool            `yaml:"over"`
	Step    string           `yaml:"step"`
	Turn    int              `yaml:"turn"`
	Day     int              `yaml:"day"`
	Sheriff *int             `yaml:"sheriff"`
	Pending []int            `yaml:"pending"`
	Told    map[int][]string `yaml:"told"`
	NotTold map[int][]string `yaml:"not_told"`
	Log     []string         `yaml:"log"`
	NotLog  []string         `yaml:"not_log"`

	// What a judge looks at directly (docs/scripts.md).
	DeadExactly []int          `yaml:"dead_exactly"` // exactly these seats are dead
	DeadOneOf   []int          `yaml:"dead_one_of"`  // exactly one of these seats is dead
	WinnerIn    []string       `yaml:"winner_in"`    // the winner is one of these
	Card        map[int]string `yaml:"card"`         // a seat's current card
	ElderLives  *int           `yaml:"elder_lives"`
	FoxTails    *int           `yaml:"fox_tails"`
	Charmed     []int          `yaml:"charmed"`  // exactly the piper's charmed
	MayVote     []int          `yaml:"may_vote"` // exactly who may vote
	BadgeGone   *bool          `yaml:"badge_gone"`
	FaceUp      []int          `yaml:"face_up"` // exactly the cards face up

	cards    map[rules.Seat]rules.Role // Card, parsed
	winnerIn []rules.Camp              // WinnerIn, parsed
}

type file struct {
	Name    string         `yaml:"name"`
	Rule    string         `yaml:"rule"`
	Preset  string         `yaml:"preset"`
	Board   string         `yaml:"board"`
	Players int            `yaml:"players"`
	Cards   []string       `yaml:"cards"`
	Options map[string]any `yaml:"options"`
	Seed    uint64         `yaml:"seed"`
	Deal    []string       `yaml:"deal"`
	Steps   []any          `yaml:"steps"`
}

// Load reads a script file.
func Load(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads a script; errors name the file and line.
func Parse(name string, data []byte) (s *Script, err error) {
	// The YAML decoder panics on some malformed input (found by FuzzParse);
	// a bad file must be an error, never a crash.
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("%s: malformed YAML (%v)", name, r)
		}
	}()
	return parse(name, data)
}

func parse(name string, data []byte) (*Script, error) {
	var f file
	if err := yaml.UnmarshalWithOptions(data, &f, yaml.DisallowUnknownField()); err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimSpace(yaml.FormatError(err, false, false)))
	}
	lines := stepLines(data)
	s := &Script{Name: f.Name, Rule: f.Rule, Seed: f.Seed, Source: name}
	at := func(i int) string {
		if i < len(lines) {
			return fmt.Sprintf("%s:%d", name, lines[i])
		}
		return name
	}
	switch {
	case f.Preset != "" && len(f.Cards) > 0:
		return nil, fmt.Errorf("%s: give either preset or cards, not both", name)
	case f.Board != "" && (f.Preset != "" || len(f.Cards) > 0):
		return nil, fmt.Errorf("%s: give either board or preset/cards, not both", name)
	case f.Board != "":
		// The board file's path is relative to the script's own directory.
		path := f.Board
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(name), path)
		}
		bf, err := boardfile.Load(path)
		if err != nil {
			return nil, fmt.Errorf("%s: board: %w", name, err)
		}
		if f.Players != 0 && f.Players != bf.Players {
			return nil, fmt.Errorf("%s: players is %d but the board %s is for %d", name, f.Players, f.Board, bf.Players)
		}
		s.Board = bf.Board
	case f.Preset != "":
		p, err := rules.LookupPreset(f.Preset)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		n := f.Players
		if n == 0 && len(f.Deal) > 0 {
			n = len(f.Deal)
		}
		if s.Board, err = p.Board(n); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	case len(f.Cards) > 0:
		for _, c := range f.Cards {
			r, err := rules.ParseRole(c)
			if err != nil {
				return nil, fmt.Errorf("%s: cards: %w", name, err)
			}
			s.Board.Cards = append(s.Board.Cards, r)
		}
	default:
		return nil, fmt.Errorf("%s: a script needs a preset, a list of cards or a board file", name)
	}
	keys := make([]string, 0, len(f.Options))
	for k := range f.Options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := s.Board.Options.Set(k, boardfile.OptionText(f.Options[k])); err != nil {
			return nil, fmt.Errorf("%s: options: %w", name, err)
		}
	}
	if err := s.Board.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s.Players = s.Board.Players()
	if len(f.Deal) > 0 {
		for _, c := range f.Deal {
			r, err := rules.ParseRole(c)
			if err != nil {
				return nil, fmt.Errorf("%s: deal: %w", name, err)
			}
			s.Deal = append(s.Deal, r)
		}
	}
	for i, raw := range f.Steps {
		st, err := parseStep(raw, s.Players)
		if err != nil {
			return nil, fmt.Errorf("%s: step %d: %w", at(i), i+1, err)
		}
		if i < len(lines) {
			st.Line = lines[i]
		}
		s.Steps = append(s.Steps, st)
	}
	return s, nil
}

// stepLines finds the line of each item of the steps list.
func stepLines(data []byte) []int {
	f, err := parser.ParseBytes(data, 0)
	if err != nil || len(f.Docs) == 0 {
		return nil
	}
	m, ok := f.Docs[0].Body.(*ast.MappingNode)
	if !ok {
		return nil
	}
	for _, kv := range m.Values {
		if kv.Key.String() != "steps" {
			continue
		}
		seq, ok := kv.Value.(*ast.SequenceNode)
		if !ok {
			return nil
		}
		out := make([]int, len(seq.Values))
		for i, v := range seq.Values {
			if tk := v.GetToken(); tk != nil && tk.Position != nil {
				out[i] = tk.Position.Line
			}
		}
		return out
	}
	return nil
}

func parseStep(raw any, players int) (Step, error) {
	switch v := raw.(type) {
	case string:
		return parseCommand(v, players)
	case map[string]any:
		if e, ok := v["expect"]; ok {
			if len(v) != 1 {
				return Step{}, errors.New("an expect step holds only expect")
			}
			var ex Expect
			b, err := yaml.Marshal(e)
			if err != nil {
				return Step{}, err
			}
			if err := yaml.UnmarshalWithOptions(b, &ex, yaml.DisallowUnknownField()); err != nil {
				return Step{}, fmt.Errorf("expect: %s", expectKeys.Replace(strings.TrimSpace(yaml.FormatError(err, false, false))))
			}
			if err := ex.validate(players); err != nil {
				return Step{}, fmt.Errorf("expect: %w", err)
			}
			return Step{Text: "expect", Expect: &ex}, nil
		}
		if d, ok := v["refuse"]; ok {
			text, _ := d.(string)
			st, err := parseCommand(text, players)
			if err != nil {
				return Step{}, err
			}
			st.Refused = true
			if e, ok := v["error"]; ok {
				st.Refuse = fmt.Sprint(e)
			}
			for k := range v {
				if k != "refuse" && k != "error" {
					return Step{}, fmt.Errorf("unknown key %q in a refuse step", k)
				}
			}
			return st, nil
		}
		return Step{}, errors.New(`a step is a command ("5 attack 3"), "timeout", "advance", "red_card SEAT", {expect: ...} or {refuse: ..., error: ...}`)
	}
	return Step{}, fmt.Errorf("a step is a command or a map, not %T", raw)
}

// parseCommand reads "SEATS VERB [ARG]", where SEATS is one seat or a comma
// list ("1,2,3 vote 5"), ARG a seat, "none", or "cw"/"ccw" for order; or
// "timeout", "advance", or the moderator's "red_card SEAT".
func parseCommand(text string, players int) (Step, error) {
	st := Step{Text: text}
	fields := strings.Fields(text)
	if len(fields) == 1 && fields[0] == "timeout" {
		st.Timeout = true
		return st, nil
	}
	if len(fields) == 1 && fields[0] == "advance" {
		st.Advance = true
		return st, nil
	}
	if len(fields) > 0 && fields[0] == "red_card" {
		// The moderator's red card (002): no seat sends it, so no seat prefix.
		if len(fields) != 2 {
			return st, fmt.Errorf("%q: a red card is red_card SEAT", text)
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil || n < 1 || n > players {
			return st, fmt.Errorf("%q: %q is not a seat from 1 to %d", text, fields[1], players)
		}
		st.RedCard = rules.Seat(n)
		return st, nil
	}
	if len(fields) < 2 || len(fields) > 3 {
		return st, fmt.Errorf("%q: a command is SEATS VERB [TARGET]", text)
	}
	var claim int8
	var role rules.Role
	switch fields[1] {
	case "accuse":
		fields[1], claim = "claim", rules.ClaimWolf
	case "vouch":
		fields[1], claim = "claim", rules.ClaimGood
	case "claim":
		if len(fields) != 3 {
			return st, fmt.Errorf("%q: claim names a role", text)
		}
		r, err := rules.ParseRole(fields[2])
		if err != nil {
			return st, fmt.Errorf("%q: %w", text, err)
		}
		claim, role = rules.ClaimRole, r
		fields = fields[:2]
	}
	kind, err := rules.ParseCmd(fields[1])
	if err != nil {
		return st, fmt.Errorf("%q: %w", text, err)
	}
	var target rules.Seat
	var value int8
	var mask uint32
	if len(fields) == 3 {
		arg := fields[2]
		switch {
		case kind == rules.CmdOrder && (arg == "cw" || arg == "ccw"):
			if arg == "ccw" {
				value = 1
			}
		case kind == rules.CmdTake:
			if arg != "1" && arg != "2" {
				return st, fmt.Errorf("%q: the thief takes extra card 1 or 2", text)
			}
			value = int8(arg[0] - '0')
		case arg == "none":
		case strings.Contains(arg, "+") || kind == rules.CmdLink || kind == rules.CmdVoters:
			for _, p := range strings.Split(arg, "+") {
				n, err := strconv.Atoi(p)
				if err != nil || n < 1 || n > players {
					return st, fmt.Errorf("%q: %q is not a seat from 1 to %d", text, p, players)
				}
				mask |= 1 << uint(n)
			}
		default:
			n, err := strconv.Atoi(arg)
			if err != nil || n < 1 || n > players {
				return st, fmt.Errorf("%q: target %q is not a seat from 1 to %d", text, arg, players)
			}
			target = rules.Seat(n)
		}
	}
	for _, part := range strings.Split(fields[0], ",") {
		n, err := strconv.Atoi(part)
		if err != nil || n < 1 || n > players {
			return st, fmt.Errorf("%q: %q is not a seat from 1 to %d", text, part, players)
		}
		if kind == rules.CmdClaim {
			value = claim
		}
		st.Cmds = append(st.Cmds, rules.Command{Seat: rules.Seat(n), Kind: kind, Target: target, Value: value, Mask: mask, Role: role})
	}
	return st, nil
}

// expectKeys names the keys of expect in the decoder's messages, which name
// the Go fields ("Go struct field Expect.FoxTails of type int").
var expectKeys = func() *strings.Replacer {
	var pairs []string
	t := reflect.TypeFor[Expect]()
	for i := range t.NumField() {
		f := t.Field(i)
		if tag := f.Tag.Get("yaml"); tag != "" {
			pairs = append(pairs, "Go struct field Expect."+f.Name+" ", "key "+tag+" ")
		}
	}
	return strings.NewReplacer(pairs...)
}()

// validate checks the expectation's seats, roles and camps, so that a typo
// is an error of the script rather than an expectation that never holds.
func (ex *Expect) validate(players int) error {
	seat := func(key string, n int) error {
		if n < 1 || n > players {
			return fmt.Errorf("%s: %d is not a seat from 1 to %d", key, n, players)
		}
		return nil
	}
	lists := []struct {
		key   string
		seats []int
	}{
		{"dead", ex.Dead}, {"alive", ex.Alive}, {"pending", ex.Pending},
		{"dead_exactly", ex.DeadExactly}, {"dead_one_of", ex.DeadOneOf},
		{"charmed", ex.Charmed}, {"may_vote", ex.MayVote}, {"face_up", ex.FaceUp},
	}
	for _, l := range lists {
		for _, n := range l.seats {
			if err := seat(l.key, n); err != nil {
				return err
			}
		}
	}
	if ex.DeadOneOf != nil && len(ex.DeadOneOf) < 2 {
		return errors.New("dead_one_of names two seats or more (for one seat, use dead)")
	}
	if ex.WinnerIn != nil && len(ex.WinnerIn) < 2 {
		return errors.New("winner_in names two camps or more (for one camp, use winner)")
	}
	for _, w := range ex.WinnerIn {
		c, err := rules.ParseCamp(w)
		if err != nil {
			return fmt.Errorf("winner_in: %w", err)
		}
		ex.winnerIn = append(ex.winnerIn, c)
	}
	if ex.Winner != "" {
		if _, err := rules.ParseCamp(ex.Winner); err != nil {
			return fmt.Errorf("winner: %w", err)
		}
	}
	for n, name := range ex.Card {
		if err := seat("card", n); err != nil {
			return err
		}
		r, err := rules.ParseRole(name)
		if err != nil {
			return fmt.Errorf("card: %w", err)
		}
		if ex.cards == nil {
			ex.cards = make(map[rules.Seat]rules.Role, len(ex.Card))
		}
		ex.cards[rules.Seat(n)] = r
	}
	return nil
}
