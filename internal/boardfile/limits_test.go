package boardfile

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// parseBytes parses data and returns the bytes the parse allocated. Nothing
// else in the package's tests runs at the same time, so the count is the
// parse's own (give or take the runtime's).
func parseBytes(data []byte) (uint64, error) {
	var before, after runtime.MemStats // TotalAlloc counts every allocation, collected or not
	runtime.ReadMemStats(&before)
	_, err := Parse("board", data)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

// The bytes a parse may allocate, whatever the text. A valid board costs
// about 100 KB; the worst text found within the limits, 2.7 MB; before the
// limits, 31,000 "[" cost 1.5 GB.
const parseBudget = 8 << 20

// TestHostileNestingIsRefusedBeforeParsing: the request of issue 29 (a board
// of 31,000 nested lists in a 62 KB body) and its cousins are refused with an
// error naming the limit, for a few kilobytes instead of 1.5 GB.
func TestHostileNestingIsRefusedBeforeParsing(t *testing.T) {
	var block strings.Builder
	for i := range 200 {
		block.WriteString(strings.Repeat(" ", i) + "- a\n")
	}
	var maps strings.Builder
	for i := range 150 {
		maps.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	cases := []struct{ name, src, want string }{
		{"31,000 nested lists", "players: " + strings.Repeat("[", 31000) + strings.Repeat("]", 31000), "more than 2048 words and symbols"},
		{"31,000 unclosed lists", "players: " + strings.Repeat("[", 31000), "more than 2048 words and symbols"},
		{"15,000 nested maps", "players: " + strings.Repeat("{a: ", 15000), "more than 2048 words and symbols"},
		{"nested lists within the word count", "players: " + strings.Repeat("[", 1000) + strings.Repeat("]", 1000), "board:1: nested more than 16 levels deep"},
		{"nested maps within the word count", "players: " + strings.Repeat("{a: ", 500), "board:1: nested more than 16 levels deep"},
		{"block lists by indentation", block.String(), "nested more than 16 levels deep"},
		{"block lists on one line", "players: 3\ncards:\n" + strings.Repeat("- ", 500) + "seer\n", "board:3: nested more than 16 levels deep"},
		{"block maps by indentation", maps.String(), "nested more than 16 levels deep"},
		{"a list of 10,000 words", "cards: [" + strings.Repeat("seer,", 10000) + "]", "more than 2048 words and symbols"},
		{"too large", "players: 3\ndescription: " + strings.Repeat("x", MaxSize), "bytes: a board file holds at most 65536"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, err := parseBytes([]byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
			if n > 64<<10 {
				t.Errorf("refusing it allocated %d bytes", n)
			}
		})
	}
}

// TestAliasesDoNotMultiply: an alias is read where it stands, never
// expanded, so a "billion laughs" costs what its text costs.
func TestAliasesDoNotMultiply(t *testing.T) {
	var b strings.Builder
	b.WriteString("players: 3\ncards: [seer, werewolf, villager]\noptions:\n  x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "  x%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	n, err := parseBytes([]byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), `unknown option "x0"`) {
		t.Errorf("error %v, want the unknown option", err)
	}
	if n > 1<<20 {
		t.Errorf("parsing %d bytes of aliases allocated %d bytes", b.Len(), n)
	}
}

// TestEveryValidBoardIsWithinTheLimits: the limits refuse no board a user
// writes: the examples, the CLI's test boards, the YAML of docs/boards.md,
// and every preset at every size written as the web client writes a custom
// board and as a flow list.
func TestEveryValidBoardIsWithinTheLimits(t *testing.T) {
	texts := map[string]string{}
	for _, pattern := range []string{"../../examples/boards/*.yaml", "../../cmd/wolfden/testdata/boards/*.yaml"} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			texts[p] = string(b)
		}
	}
	doc, err := os.ReadFile("../../docs/boards.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(doc), -1) {
		texts[fmt.Sprintf("docs/boards.md block %d", i+1)] = m[1]
	}
	if len(texts) < 8 {
		t.Fatalf("only %d board texts found", len(texts))
	}
	for _, p := range rules.Presets() {
		for n := p.MinPlayers; n <= p.MaxPlayers; n++ {
			b, err := p.Board(n)
			if err != nil {
				t.Fatal(err)
			}
			texts[fmt.Sprintf("%s/%d as the web writes it", p.Name, n)] = webBoard(p, n, b)
			texts[fmt.Sprintf("%s/%d as flow lists", p.Name, n)] = flowBoard(n, b)
		}
	}
	for name, src := range texts {
		if err := precheck("board", []byte(src)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if strings.Contains(name, "as ") {
			if _, err := Parse("board", []byte(src)); err != nil {
				t.Errorf("%s: %v\n%s", name, err, src)
			}
		}
		if _, depth := nesting([]byte(src)); depth > 5 {
			t.Errorf("%s: nesting estimated at %d", name, depth)
		}
	}
}

// webBoard writes a board as web/src/lib/board.js's buildBoard does, with
// every option named and a long description.
func webBoard(p *rules.Preset, n int, b rules.Board) string {
	var s strings.Builder
	fmt.Fprintf(&s, "name: %q\ndescription: %q\nplayers: %d\ncards:\n", p.Name+" "+p.Chinese, p.Description, n)
	counts := map[rules.Role]int{}
	for _, r := range b.Cards {
		counts[r]++
	}
	for _, r := range rules.Roles() {
		if counts[r] > 0 {
			fmt.Fprintf(&s, "  %s: %d\n", r, counts[r])
		}
	}
	s.WriteString("options:\n")
	for _, o := range rules.AllOptions() {
		fmt.Fprintf(&s, "  %s: %q\n", o.Name(), b.Options.Get(o))
	}
	return s.String()
}

func flowBoard(n int, b rules.Board) string {
	cards := make([]string, len(b.Cards))
	for i, r := range b.Cards {
		cards[i] = r.String()
	}
	var opts []string
	for _, o := range rules.AllOptions() {
		opts = append(opts, fmt.Sprintf("%s: %q", o.Name(), b.Options.Get(o)))
	}
	return fmt.Sprintf("players: %d\ncards: [%s]\noptions: {%s}\n", n, strings.Join(cards, ", "), strings.Join(opts, ", "))
}
