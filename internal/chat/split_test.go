package chat

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestALongMessageIsCutBetweenLines: no part is longer than MaxText, the
// parts hold the text whole, cut between lines (a longer line alone), and
// the buttons go with the last part.
func TestALongMessageIsCutBetweenLines(t *testing.T) {
	line := strings.Repeat("狼", 70)
	var lines []string
	for range 100 {
		lines = append(lines, line)
	}
	lines = append(lines, strings.Repeat("x", MaxText+10), "end")
	m := Message{Text: strings.Join(lines, "\n"), Buttons: [][]Button{{{Label: "1", Command: "vote 1"}}}}
	parts := split(m)
	var texts []string
	for i, p := range parts {
		if n := utf8.RuneCountInString(p.Text); n > MaxText || n == 0 {
			t.Errorf("part %d has %d characters", i, n)
		}
		if (p.Buttons != nil) != (i == len(parts)-1) {
			t.Errorf("part %d of %d has buttons %v", i, len(parts), p.Buttons)
		}
		texts = append(texts, p.Text)
	}
	if got := strings.ReplaceAll(strings.Join(texts, "\n"), "\n", ""); got != strings.ReplaceAll(m.Text, "\n", "") {
		t.Error("the parts do not hold the text")
	}
	if short := split(Message{Text: "a\nb"}); len(short) != 1 || short[0].Text != "a\nb" {
		t.Errorf("a short message was cut: %v", short)
	}
}
