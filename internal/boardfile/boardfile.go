// Package boardfile reads custom board files: a number of players, the cards
// and option values, in YAML (docs/boards.md). Every error names the file and
// the line of the offending key or value.
package boardfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/usertext"
	"github.com/wolfden/wolfden/rules"
)

// MinPlayers is the smallest table a board file may declare.
const MinPlayers = 3

// File is a parsed board file.
type File struct {
	Source      string // the file name, for messages
	Name        string
	Description string
	Players     int         // seats; the deck has two more cards with a thief
	Board       rules.Board // the cards (wolves first, then in role order) and options
	// The board's clocks, which a room made from it starts from (its
	// creator's own win): a pace (quick, standard, relaxed, forum), timers
	// by name ("speech": "20h"), and the reminders ("1h,10m", "off"); all
	// checked as a room checks them.
	Pace   string
	Timers map[string]string
	Remind string
}

// Load reads a board file.
func Load(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%s: larger than %d bytes: not a board file", path, MaxSize)
	}
	return Parse(path, data)
}

// Parse reads a board file; name is the file name used in messages. A text
// beyond the limits (MaxSize, MaxItems, MaxDepth) is refused unparsed.
func Parse(name string, data []byte) (bf *File, err error) {
	// The YAML parser may panic on malformed input: a bad file must be an
	// error, never a crash.
	defer func() {
		if r := recover(); r != nil {
			bf, err = nil, fmt.Errorf("%s: malformed YAML (%v)", name, r)
		}
	}()
	if err := precheck(name, data); err != nil {
		return nil, err
	}
	p := &reader{name: name, anchors: map[string]ast.Node{}}
	return p.parse(data)
}

// OptionText turns a YAML scalar back into an option's text: YAML reads
// "1.5" as a number and some decoders read on/off as booleans.
func OptionText(v any) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "on"
		}
		return "off"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case uint64:
		return strconv.FormatUint(x, 10)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return fmt.Sprint(v)
}

var topKeys = []string{"name", "description", "players", "cards", "options", "pace", "timers", "remind"}

// reader walks the YAML tree, so that every problem has a line.
type reader struct {
	name    string
	anchors map[string]ast.Node
}

// errorf is an error at the line of n (without a line when n has none).
func (p *reader) errorf(n ast.Node, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if l := line(n); l > 0 {
		return fmt.Errorf("%s:%d: %s", p.name, l, msg)
	}
	return fmt.Errorf("%s: %s", p.name, msg)
}

func line(n ast.Node) int {
	if n == nil {
		return 0
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return tk.Position.Line
	}
	return 0
}

func (p *reader) parse(data []byte) (*File, error) {
	tree, err := parser.ParseBytes(data, 0)
	if err != nil {
		var ye yaml.Error
		if errors.As(err, &ye) && ye.GetToken() != nil && ye.GetToken().Position != nil {
			return nil, fmt.Errorf("%s:%d: %s", p.name, ye.GetToken().Position.Line, ye.GetMessage())
		}
		return nil, fmt.Errorf("%s: %s", p.name, strings.TrimSpace(yaml.FormatError(err, false, false)))
	}
	var body ast.Node
	for _, d := range tree.Docs {
		if d == nil || d.Body == nil {
			continue
		}
		if body != nil {
			return nil, p.errorf(d.Body, "a board file holds one YAML document, not several")
		}
		body = d.Body
	}
	if body == nil {
		return nil, fmt.Errorf("%s: empty: a board file needs players and cards", p.name)
	}
	ast.Walk(anchorVisitor(p.anchors), body)
	top, err := p.mapping(body, "a board file")
	if err != nil {
		return nil, err
	}
	bf := &File{Source: p.name}
	var playersKV, cardsKV, optionsKV *ast.MappingValueNode
	for _, kv := range top {
		key, err := p.key(kv)
		if err != nil {
			return nil, err
		}
		switch key {
		case "name":
			if bf.Name, err = p.userText(kv, "name"); err != nil {
				return nil, err
			}
		case "description":
			if bf.Description, err = p.userText(kv, "description"); err != nil {
				return nil, err
			}
		case "players":
			playersKV = kv
		case "cards":
			cardsKV = kv
		case "options":
			optionsKV = kv
		case "pace", "timers", "remind":
			if err := p.clocks(kv, key, bf); err != nil {
				return nil, err
			}
		default:
			return nil, p.errorf(kv.Key, "unknown key %q%s (known: %s)", key, suggest(key, topKeys), strings.Join(topKeys, ", "))
		}
	}
	if playersKV == nil {
		return nil, p.errorf(body, "players is required (a number from %d to %d)", MinPlayers, rules.MaxSeats)
	}
	n, ok := p.integer(playersKV.Value)
	if !ok || n < MinPlayers || n > rules.MaxSeats {
		return nil, p.errorf(p.at(playersKV), "players must be a number from %d to %d, not %s", MinPlayers, rules.MaxSeats, p.show(playersKV.Value))
	}
	bf.Players = int(n)
	if cardsKV == nil {
		return nil, p.errorf(body, "cards is required (a map role: count, or a list of roles)")
	}
	if bf.Board.Cards, err = p.cards(cardsKV, bf.Players); err != nil {
		return nil, err
	}
	if optionsKV != nil {
		if err := p.options(optionsKV.Value, &bf.Board.Options); err != nil {
			return nil, err
		}
	}
	if err := bf.Board.Validate(); err != nil {
		return nil, p.errorf(cardsKV.Key, "%v", err)
	}
	return bf, nil
}

// at is the node to blame for a key's value: the value, or the key when the
// value is empty.
func (p *reader) at(kv *ast.MappingValueNode) ast.Node {
	if kv.Value == nil || kv.Value.Type() == ast.NullType || line(kv.Value) == 0 {
		return kv.Key
	}
	return kv.Value
}

// anchorVisitor records every anchor of the file, so that an alias may refer
// to an anchor anywhere.
type anchorVisitor map[string]ast.Node

func (a anchorVisitor) Visit(n ast.Node) ast.Visitor {
	if x, ok := n.(*ast.AnchorNode); ok && x.Name != nil {
		if _, seen := a[x.Name.String()]; !seen {
			a[x.Name.String()] = x.Value
		}
	}
	return a
}

// resolve looks through anchors, aliases and tags to the node that holds the value.
func (p *reader) resolve(n ast.Node) (ast.Node, error) {
	for i := 0; n != nil && i < 100; i++ {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.AliasNode:
			if x.Value == nil {
				return nil, p.errorf(x, "an alias without a name")
			}
			target, ok := p.anchors[x.Value.String()]
			if !ok {
				return nil, p.errorf(x, "unknown alias *%s", x.Value.String())
			}
			n = target
		case *ast.TagNode:
			n = x.Value
		default:
			return n, nil
		}
	}
	if n == nil {
		return nil, nil
	}
	return nil, p.errorf(n, "aliases that refer to each other")
}

// mapping reads a YAML mapping (what names the expected thing in messages).
func (p *reader) mapping(n ast.Node, what string) ([]*ast.MappingValueNode, error) {
	orig := n
	n, err := p.resolve(n)
	if err != nil {
		return nil, err
	}
	switch m := n.(type) {
	case *ast.MappingNode:
		return m.Values, nil
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}, nil
	case nil, *ast.NullNode:
		return nil, nil
	}
	return nil, p.errorf(orig, "%s must be a map of key: value, not %s", what, p.show(n))
}

// key reads a map key as text.
func (p *reader) key(kv *ast.MappingValueNode) (string, error) {
	if kv.Key == nil {
		return "", p.errorf(kv, "a map entry without a key")
	}
	if kv.Key.IsMergeKey() {
		return "", p.errorf(kv.Key, "merge keys (<<) are not supported in a board file")
	}
	k, err := p.resolve(kv.Key)
	if err != nil {
		return "", err
	}
	s, ok := scalarText(k)
	if !ok {
		return "", p.errorf(kv.Key, "a key must be a word, not %s", p.show(k))
	}
	return s, nil
}

// text reads a scalar as text.
func (p *reader) text(n ast.Node, what string) (string, error) {
	v, err := p.resolve(n)
	if err != nil {
		return "", err
	}
	if _, null := v.(*ast.NullNode); v == nil || null {
		return "", nil
	}
	s, ok := scalarText(v)
	if !ok {
		return "", p.errorf(n, "%s must be text, not %s", what, p.show(v))
	}
	return s, nil
}

// userText reads a text that players see, held to the rule of every user
// text (package usertext): one line, no control or direction character.
func (p *reader) userText(kv *ast.MappingValueNode, what string) (string, error) {
	s, err := p.text(kv.Value, what)
	if err != nil {
		return "", err
	}
	if err := usertext.Check(s); err != nil {
		return "", p.errorf(p.at(kv), "%s: %v", what, err)
	}
	return s, nil
}

func scalarText(n ast.Node) (string, bool) {
	switch x := n.(type) {
	case *ast.StringNode:
		return x.Value, true
	case *ast.NullNode, *ast.MergeKeyNode:
		return "", false
	case ast.ScalarNode:
		return OptionText(x.GetValue()), true
	}
	return "", false
}

// integer reads a YAML integer.
func (p *reader) integer(n ast.Node) (int64, bool) {
	v, err := p.resolve(n)
	if err != nil {
		return 0, false
	}
	i, ok := v.(*ast.IntegerNode)
	if !ok {
		return 0, false
	}
	switch x := i.Value.(type) {
	case int64:
		return x, true
	case uint64:
		if x > 1<<62 {
			return 1 << 62, true
		}
		return int64(x), true
	}
	return 0, false
}

// show renders a value for a message.
func (p *reader) show(n ast.Node) string {
	v, err := p.resolve(n)
	if err != nil || v == nil {
		return "nothing"
	}
	switch v.(type) {
	case *ast.NullNode:
		return "nothing"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a map"
	case *ast.SequenceNode:
		return "a list"
	case *ast.StringNode:
		s, _ := scalarText(v)
		return strconv.Quote(s)
	}
	if tk := v.GetToken(); tk != nil && tk.Value != "" {
		return tk.Value
	}
	return "a " + v.Type().YAMLName()
}

// cards reads the cards, as a map role: count or a list of roles, and checks
// their number against the players.
func (p *reader) cards(kv *ast.MappingValueNode, players int) ([]rules.Role, error) {
	v, err := p.resolve(kv.Value)
	if err != nil {
		return nil, err
	}
	counts := map[rules.Role]int{}
	total := 0
	add := func(r rules.Role, n int) {
		counts[r] += n
		total += n
	}
	roleAt := func(n ast.Node) (rules.Role, error) {
		s, err := p.text(n, "a card")
		if err != nil {
			return rules.NoRole, err
		}
		r, err := rules.ParseRole(s)
		if err != nil {
			return rules.NoRole, p.errorf(n, "unknown role %q%s", s, suggest(s, roleNames()))
		}
		return r, nil
	}
	switch c := v.(type) {
	case *ast.SequenceNode:
		for _, item := range c.Values {
			r, err := roleAt(item)
			if err != nil {
				return nil, err
			}
			add(r, 1)
		}
	case *ast.MappingNode, *ast.MappingValueNode:
		entries, err := p.mapping(c, "cards")
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Key != nil && e.Key.IsMergeKey() {
				return nil, p.errorf(e.Key, "merge keys (<<) are not supported in a board file")
			}
			r, err := roleAt(e.Key)
			if err != nil {
				return nil, err
			}
			n, ok := p.integer(e.Value)
			if !ok || n < 1 {
				return nil, p.errorf(p.at(e), "the count of %s must be a positive integer, not %s", r, p.show(e.Value))
			}
			if n > rules.MaxSeats+2 {
				return nil, p.errorf(e.Value, "%d %s cards: more than a board can hold", n, r)
			}
			add(r, int(n))
		}
	case nil, *ast.NullNode:
	default:
		return nil, p.errorf(p.at(kv), "cards must be a map role: count or a list of roles, not %s", p.show(v))
	}
	if total == 0 {
		return nil, p.errorf(kv.Key, "cards is empty")
	}
	switch {
	case counts[rules.Thief] > 0 && total != players+2:
		return nil, p.errorf(kv.Key, "the thief needs two extra cards: %d cards for %d players", total, players)
	case counts[rules.Thief] == 0 && total != players:
		return nil, p.errorf(kv.Key, "%d cards for %d players", total, players)
	}
	roles := make([]rules.Role, 0, len(counts))
	for r := range counts {
		roles = append(roles, r)
	}
	slices.SortFunc(roles, func(a, b rules.Role) int {
		if a.IsWolf() != b.IsWolf() {
			if a.IsWolf() {
				return -1
			}
			return 1
		}
		return int(a) - int(b)
	})
	out := make([]rules.Role, 0, total)
	for _, r := range roles {
		for range counts[r] {
			out = append(out, r)
		}
	}
	return out, nil
}

// options sets the file's option values over the first value of each option.
func (p *reader) options(n ast.Node, opts *rules.Options) error {
	entries, err := p.mapping(n, "options")
	if err != nil {
		return err
	}
	for _, kv := range entries {
		name, err := p.key(kv)
		if err != nil {
			return err
		}
		o, err := rules.ParseOption(name)
		if err != nil {
			return p.errorf(kv.Key, "unknown option %q%s (see docs/rules.md)", name, suggest(name, optionNames()))
		}
		allowed := strings.Join(o.Values(), ", ")
		v, err := p.resolve(kv.Value)
		if err != nil {
			return err
		}
		if _, null := v.(*ast.NullNode); v == nil || null {
			return p.errorf(kv.Key, "option %s needs a value (allowed: %s)", name, allowed)
		}
		value, ok := scalarText(v)
		if !ok {
			return p.errorf(p.at(kv), "option %s takes one value, not %s (allowed: %s)", name, p.show(v), allowed)
		}
		if err := opts.Set(name, value); err != nil {
			return p.errorf(p.at(kv), "%s", strings.TrimPrefix(err.Error(), "rules: "))
		}
	}
	return nil
}

// clocks reads the board's pace, timers or reminders.
func (p *reader) clocks(kv *ast.MappingValueNode, key string, bf *File) error {
	switch key {
	case "pace":
		s, err := p.text(kv.Value, "pace")
		if err != nil {
			return err
		}
		if _, err := game.Pace(s); err != nil {
			return p.errorf(p.at(kv), "%v", err)
		}
		bf.Pace = s
	case "remind":
		s, err := p.text(kv.Value, "remind")
		if err != nil {
			return err
		}
		if _, err := game.ParseRemind(s); err != nil {
			return p.errorf(p.at(kv), "%v", err)
		}
		bf.Remind = s
	case "timers":
		entries, err := p.mapping(kv.Value, "timers")
		if err != nil {
			return err
		}
		bf.Timers = map[string]string{}
		var t game.Timers
		for _, e := range entries {
			name, err := p.key(e)
			if err != nil {
				return err
			}
			v, err := p.text(e.Value, "timer "+name)
			if err != nil {
				return err
			}
			if err := t.Set(name, v); err != nil {
				return p.errorf(p.at(e), "%v", err)
			}
			bf.Timers[name] = v
		}
	}
	return nil
}

func roleNames() []string {
	var out []string
	for _, r := range rules.Roles() {
		out = append(out, r.String())
	}
	return out
}

func optionNames() []string {
	var out []string
	for _, o := range rules.AllOptions() {
		out = append(out, o.Name())
	}
	return out
}

// suggest proposes the closest known name when the word looks like a typo.
func suggest(word string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := distance(word, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" || len(word) > 64 {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// distance is the Levenshtein distance between two short words.
func distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
