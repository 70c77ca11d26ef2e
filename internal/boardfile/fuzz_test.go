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
