// Package usertext holds the one rule for text that a user types and others
// see (chat, nicknames, room names, board names and descriptions, agents'
// talk): no character that is invisible yet changes how the text or the text
// around it is shown. Where the writer can be told, the text is refused
// (Check); where a program's text is relayed and nobody can retype it (an
// AIWolf agent's talk, a language model's chat), those characters are
// dropped (Clean). docs/server.md, "User text".
package usertext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Forbidden tells whether r may not appear in user text:
//   - C0 and C1 controls and DEL (NUL, ESC and its terminal sequences, CR,
//     LF, TAB: every text is one line);
//   - the bidirectional marks, embeddings, overrides and isolates (U+061C,
//     U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which reorder what
//     others see, a seat number or the next message included;
//   - the line and paragraph separators U+2028 and U+2029;
//   - the byte order mark U+FEFF and the interlinear annotations
//     U+FFF9–U+FFFB;
//   - noncharacters (U+FDD0–U+FDEF and U+xFFFE, U+xFFFF of every plane).
//
// The zero-width joiner and non-joiner stay: emoji and several scripts need
// them.
func Forbidden(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029, r == 0xfeff, r >= 0xfff9 && r <= 0xfffb:
		return true
	case r >= 0xfdd0 && r <= 0xfdef, r&0xfffe == 0xfffe:
		return true
	}
	return false
}

// Check refuses text that is not UTF-8 or holds a forbidden character; the
// error names the first one as U+XXXX.
func Check(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("the text is not valid UTF-8")
	}
	for _, r := range s {
		if Forbidden(r) {
			return fmt.Errorf("the text holds %U, a control or direction character (docs/server.md, \"User text\")", r)
		}
	}
	return nil
}

// Clean drops the forbidden characters and invalid UTF-8; a line break or a
// tab becomes a space, so that words stay apart.
func Clean(s string) string {
	if Check(s) == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToValidUTF8(s, "") {
		switch {
		case r == '\n' || r == '\t' || r == '\r' || r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		case !Forbidden(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
