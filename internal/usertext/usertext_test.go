package usertext

import (
	"fmt"
	"strings"
	"testing"
)

// TestOneRuleForUserText: each kind of character the rule names is refused
// by Check (naming it) and dropped by Clean; the text around it, and the
// characters scripts and emoji need, are kept.
func TestOneRuleForUserText(t *testing.T) {
	cases := []struct {
		name, in, clean string
		refused         rune // 0: accepted
	}{
		{"plain", "hello, 村民 3号", "hello, 村民 3号", -1},
		{"emoji with joiners", "👨‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👨‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿", -1},
		{"zero-width non-joiner (Persian)", "می‌خواهم", "می‌خواهم", -1},
		{"arabic and hebrew", "مرحبا שלום", "مرحبا שלום", -1},
		{"NUL", "a\x00b", "ab", 0x00},
		{"ESC sequence", "\x1b[2J\x1b[31mred", "[2J[31mred", 0x1b},
		{"bell", "ding\a", "ding", 0x07},
		{"line feed", "one\ntwo", "one two", '\n'},
		{"carriage return", "one\rtwo", "one two", '\r'},
		{"tab", "a\tb", "a b", '\t'},
		{"DEL", "a\x7fb", "ab", 0x7f},
		{"C1 CSI", "a\u009bb", "ab", 0x9b},
		{"RTL override", "seat 1\u202e9 taes", "seat 19 taes", 0x202e},
		{"LTR embedding", "\u202aa", "a", 0x202a},
		{"RTL isolate", "\u2067a\u2069", "a", 0x2067},
		{"RTL mark", "a\u200fb", "ab", 0x200f},
		{"arabic letter mark", "a\u061cb", "ab", 0x061c},
		{"BOM", "\ufeffhello", "hello", 0xfeff},
		{"line separator", "one\u2028two", "one two", 0x2028},
		{"paragraph separator", "one\u2029two", "one two", 0x2029},
		{"interlinear annotation", "a\ufff9b\ufffbc", "abc", 0xfff9},
		{"noncharacter U+FFFF", "a\uffffb", "ab", 0xffff},
		{"noncharacter U+FDD0", "a\ufdd0b", "ab", 0xfdd0},
		{"noncharacter U+10FFFE", "a\U0010fffeb", "ab", 0x10fffe},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Check(c.in)
			switch {
			case c.refused < 0 && err != nil:
				t.Errorf("Check refused %q: %v", c.in, err)
			case c.refused >= 0 && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%U,", c.refused))):
				t.Errorf("Check(%q) = %v, want it to name %U", c.in, err, c.refused)
			}
			if got := Clean(c.in); got != c.clean {
				t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.clean)
			}
			if err := Check(Clean(c.in)); err != nil {
				t.Errorf("Clean's output is refused: %v", err)
			}
		})
	}
	if err := Check("a\xffb"); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("invalid UTF-8: %v", err)
	}
	if got := Clean("a\xffb"); got != "ab" {
		t.Errorf("Clean of invalid UTF-8 = %q", got)
	}
}
