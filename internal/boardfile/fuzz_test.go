package boardfile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// FuzzParse: any input is either refused with an error that names the file or
// read into a board the engine accepts, with as many cards as the file says;
// never a panic.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../examples/boards/*.yaml")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(mapBoard))
	f.Add([]byte(listBoard))
	f.Add([]byte("players: 3\ncards: [&w werewolf, *w, villager]\noptions: {vote_tie: !!str pk}\n"))
	f.Add([]byte("players: 10\ncards: {werewolf: 3, thief: 1, villager: 8}\n"))
	f.Add([]byte("players: 3\n<<: {cards: [werewolf]}\n---\nx: 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		bf, err := Parse("fuzz.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if err := bf.Board.Validate(); err != nil {
			t.Fatalf("accepted a board the engine refuses: %v", err)
		}
		want := bf.Players
		if slices.Contains(bf.Board.Cards, rules.Thief) {
			want += 2
		}
		if len(bf.Board.Cards) != want {
			t.Fatalf("%d cards for %d players", len(bf.Board.Cards), bf.Players)
		}
	})
}

// FuzzBoardMemory: no text costs the parse more than parseBudget bytes. Seeded
// with the shapes that cost the most before the limits (deep flow and block
// nesting, aliases) and with the valid boards.
func FuzzBoardMemory(f *testing.F) {
	files, _ := filepath.Glob("../../examples/boards/*.yaml")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(mapBoard))
	f.Add([]byte(listBoard))
	f.Add([]byte("players: " + strings.Repeat("[", 2000)))
	f.Add([]byte("players: [\"a\n b # c\", " + strings.Repeat("[", 1020) + strings.Repeat("]", 1020) + "]"))
	f.Add([]byte("players: " + strings.Repeat("{a: ", 600)))
	f.Add([]byte(strings.Repeat("- ", 1000)))
	f.Add([]byte("a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: [*b, *b, *b, *b]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if n, _ := parseBytes(data); n > parseBudget {
			t.Fatalf("parsing %d bytes allocated %d bytes (budget %d)", len(data), n, parseBudget)
		}
	})
}
