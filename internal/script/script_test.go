package script

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// TestParseErrorsNameTheProblem: bad scripts are refused with a message that
// names the line and the problem.
func TestParseErrorsNameTheProblem(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"unknown preset", "preset: std-13\n", `unknown preset "std-13"`},
		{"unknown option", "preset: std-9\noptions: {wolf_wins: parity}\n", `unknown option "wolf_wins"`},
		{"value outside list", "preset: std-9\noptions: {vote_tie: coin}\n", `vote_tie has no value "coin"`},
		{"unknown role", "cards: [werewolf, wizard]\n", `unknown role "wizard"`},
		{"no wolf", "cards: [seer, villager, villager]\n", "at least one wolf"},
		{"unknown command", "preset: std-9\nsteps:\n  - 1 vote 2\n  - 3 protec 4\n", "x.yaml:4: step 2"},
		{"seat out of range", "preset: std-9\nsteps:\n  - 12 vote 2\n", "not a seat from 1 to 9"},
		{"unknown key", "preset: std-9\nseeds: 3\n", "seeds"},
		{"bad expect key", "preset: std-9\nsteps:\n  - expect: {deaad: [1]}\n", "deaad"},
		{"deal not the board", "preset: std-9\ndeal: [seer, seer, seer, seer, seer, seer, seer, seer, werewolf]\nsteps: []\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse("x.yaml", []byte(c.src))
			if err == nil && c.want == "" {
				_, err = s.Run(nil)
			}
			if err == nil {
				t.Fatalf("accepted; want an error containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

// TestRunReportsTheFailingLine: a refused command and an unmet expectation
// stop the run with the script's line.
func TestRunReportsTheFailingLine(t *testing.T) {
	src := `preset: std-9
deal: [werewolf, werewolf, werewolf, seer, witch, hunter, villager, villager, villager]
steps:
  - 1,2,3 attack 7
  - expect: {told: {5: ["witch_told 5 8"]}}
`
	s, err := Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Run(nil)
	if err == nil || !strings.Contains(err.Error(), "x.yaml:5") || !strings.Contains(err.Error(), `seat 5 was not told "witch_told 5 8"`) {
		t.Fatalf("got %v", err)
	}
	s, _ = Parse("x.yaml", []byte(strings.Replace(src, "1,2,3 attack 7", "5 check 1", 1)))
	if _, err = s.Run(nil); err == nil || !strings.Contains(err.Error(), "x.yaml:4") {
		t.Fatalf("got %v", err)
	}
}

// TestBoardFile: a script may take its board from a board file, relative to
// the script's own directory, with its options over the file's; board is
// exclusive with preset and cards.
func TestBoardFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("boards/small.yaml", "players: 4\ncards: {werewolf: 1, seer: 1, villager: 2}\noptions: {wolf_win: parity, vote_tie: pk}\n")
	write("boards/bad.yaml", "players: 4\ncards:\n  werewolf: 1\n  wizzard: 3\n")
	p := write("game.yaml", `board: boards/small.yaml
options: {vote_tie: random}
deal: [werewolf, seer, villager, villager]
steps:
  - 1 attack 3
  - 2 check 1
  - expect: {dead: [3], told: {2: ["check 2 1 werewolf"]}}
`)
	s, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if s.Players != 4 || s.Board.Options.Get(rules.OptWolfWin) != "parity" || s.Board.Options.Get(rules.OptVoteTie) != "random" {
		t.Fatalf("players %d, options %v", s.Players, s.Board.Options)
	}
	if _, err := s.Run(nil); err != nil {
		t.Fatal(err)
	}
	// The example board shipped for users, from a script elsewhere.
	if _, err := Parse("x.yaml", []byte("board: ../../examples/boards/wolf-king-guard.yaml\nplayers: 12\n")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ src, want string }{
		{"board: boards/small.yaml\npreset: std-9\n", "either board or preset/cards"},
		{"board: boards/small.yaml\ncards: [werewolf, villager, villager]\n", "either board or preset/cards"},
		{"board: boards/small.yaml\nplayers: 5\n", "players is 5 but the board boards/small.yaml is for 4"},
		{"board: boards/none.yaml\n", "board: open " + filepath.Join(dir, "boards/none.yaml")},
		{"board: boards/bad.yaml\n", "game.yaml: board: " + filepath.Join(dir, "boards/bad.yaml") + `:4: unknown role "wizzard"`},
	} {
		p := write("game.yaml", c.src)
		if _, err := Load(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

// TestRedCard: "red_card SEAT" is the moderator's red card (002): no seat
// prefix; the seat dies at once; a refused red card fails the step like a
// refused command, and {refuse: "red_card SEAT"} expects the refusal.
func TestRedCard(t *testing.T) {
	src := `preset: std-9
deal: [werewolf, werewolf, werewolf, seer, witch, hunter, villager, villager, villager]
steps:
  - 1,2,3 attack 7
  - red_card 6
  - expect: {dead: [6], log: ["red_card 6", "death 6 red_card"], not_log: ["step skill 6"]}
  - {refuse: "red_card 6", error: "out of the game"}
`
	s, err := Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Steps[1]; st.RedCard != 6 || len(st.Cmds) != 0 || st.Refused {
		t.Fatalf("red_card 6 parsed as %+v", st)
	}
	if st := s.Steps[3]; st.RedCard != 6 || !st.Refused || st.Refuse != "out of the game" {
		t.Fatalf("refused red_card 6 parsed as %+v", st)
	}
	g, err := s.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Alive(6) {
		t.Fatal("seat 6 is alive after the red card")
	}
	// A red card the engine refuses fails the step, naming the line.
	bad := strings.Replace(src, "  - {refuse: \"red_card 6\", error: \"out of the game\"}\n", "  - red_card 6\n", 1)
	s, err = Parse("x.yaml", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(nil); err == nil || !strings.Contains(err.Error(), "x.yaml:7: red_card 6") || !strings.Contains(err.Error(), "out of the game") {
		t.Fatalf("got %v", err)
	}
	// A refusal expected of a red card the engine accepts fails too.
	s, err = Parse("x.yaml", []byte("preset: std-9\nsteps:\n  - {refuse: \"red_card 2\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(nil); err == nil || !strings.Contains(err.Error(), "expected a refusal") {
		t.Fatalf("got %v", err)
	}
	for _, c := range []struct{ step, want string }{
		{"red_card", "red_card SEAT"},
		{"red_card 2 3", "red_card SEAT"},
		{"red_card 10", "not a seat from 1 to 9"},
		{"red_card x", "not a seat from 1 to 9"},
		{"3 red_card 5", "red_card"}, // the moderator's, not a seat's command
	} {
		if _, err := Parse("x.yaml", []byte("preset: std-9\nsteps:\n  - "+c.step+"\n")); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error containing %q", c.step, err, c.want)
		}
	}
}
