package boardfile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

const mapBoard = `# a comment first
name: my 10-player board
description: three wolves against the seer and the witch
players: 10
cards:
  villager: 5
  witch: 1
  werewolf: 3
  seer: 1
options:
  wolf_win: kill_side
  sheriff_vote_weight: 1.5
  witch_both_same_night: on
  seer_sees: "wolf_or_not"
`

const listBoard = `players: 10
cards: [seer, werewolf, villager, villager, witch, villager, werewolf, villager, villager, werewolf]
options: {wolf_win: kill_side, sheriff_vote_weight: 1.5, witch_both_same_night: on, seer_sees: wolf_or_not}
`

// TestValidBoardInBothForms: the map and the list forms give the same board,
// wolves first, options over each option's first value.
func TestValidBoardInBothForms(t *testing.T) {
	want := []rules.Role{rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Villager, rules.Villager,
		rules.Villager, rules.Villager, rules.Villager, rules.Seer, rules.Witch}
	var wantOpts rules.Options
	for _, kv := range [][2]string{{"wolf_win", "kill_side"}, {"sheriff_vote_weight", "1.5"}, {"witch_both_same_night", "on"}, {"seer_sees", "wolf_or_not"}} {
		if err := wantOpts.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	for name, src := range map[string]string{"map": mapBoard, "list": listBoard} {
		t.Run(name, func(t *testing.T) {
			f, err := Parse("b.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if f.Players != 10 || f.Board.Players() != 10 || f.Source != "b.yaml" {
				t.Errorf("players %d, board %d, source %q", f.Players, f.Board.Players(), f.Source)
			}
			if !slices.Equal(f.Board.Cards, want) {
				t.Errorf("cards %v, want %v", f.Board.Cards, want)
			}
			if f.Board.Options != wantOpts {
				t.Errorf("options %v, want %v", f.Board.Options, wantOpts)
			}
			if o, _ := rules.ParseOption("vote_tie"); f.Board.Options.Get(o) != "nobody" {
				t.Errorf("vote_tie is %s, want its first value", f.Board.Options.Get(o))
			}
		})
	}
	f, _ := Parse("b.yaml", []byte(mapBoard))
	if f.Name != "my 10-player board" || !strings.HasPrefix(f.Description, "three wolves") {
		t.Errorf("name %q, description %q", f.Name, f.Description)
	}
}

// TestErrorsNameTheLineAndTheProblem: each refusal names the file, the line of
// the offending key or value, and what is wrong.
func TestErrorsNameTheLineAndTheProblem(t *testing.T) {
	const head = "name: x\nplayers: 10\n" // cards start on line 3
	cases := []struct{ name, src, want string }{
		{"unknown role in map", head + "cards:\n  werewolf: 3\n  wizzard: 7\n", `x.yaml:5: unknown role "wizzard"`},
		{"unknown role in list", head + "cards:\n  - werewolf\n  - witchh\n", `x.yaml:5: unknown role "witchh" (did you mean "witch"?)`},
		{"unknown role in flow list", head + "cards: [werewolf, werewolf,\n  sear]\n", `x.yaml:4: unknown role "sear" (did you mean "seer"?)`},
		{"option value", head + "cards: {werewolf: 2, villager: 8}\noptions:\n  wolf_win: parity\n  vote_tie: coin\n", `x.yaml:6: option vote_tie has no value "coin" (allowed: nobody, pk, random)`},
		{"unknown option", head + "cards: {werewolf: 2, villager: 8}\noptions:\n  wolf_wins: parity\n", `x.yaml:5: unknown option "wolf_wins" (did you mean "wolf_win"?)`},
		{"option without value", head + "cards: {werewolf: 2, villager: 8}\noptions:\n  wolf_win:\n", `x.yaml:5: option wolf_win needs a value (allowed: kill_all`},
		{"option list value", head + "cards: {werewolf: 2, villager: 8}\noptions:\n  wolf_win: [parity]\n", `x.yaml:5: option wolf_win takes one value, not a list`},
		{"options not a map", head + "cards: {werewolf: 2, villager: 8}\noptions: [wolf_win]\n", `x.yaml:4: options must be a map`},
		{"too many cards", head + "cards:\n  werewolf: 3\n  villager: 8\n", "x.yaml:3: 11 cards for 10 players"},
		{"too few cards", head + "cards: [werewolf, villager]\n", "x.yaml:3: 2 cards for 10 players"},
		{"thief without extra cards", head + "cards:\n  werewolf: 3\n  thief: 1\n  villager: 6\n", "x.yaml:3: the thief needs two extra cards: 10 cards for 10 players"},
		{"extra cards without thief", head + "cards:\n  werewolf: 3\n  villager: 9\n", "x.yaml:3: 12 cards for 10 players"},
		{"no wolf", "players: 3\ncards: [seer, villager, villager]\n", "x.yaml:2: rules: a board needs at least one wolf"},
		{"no villager", "players: 3\ncards: {werewolf: 3}\n", "x.yaml:2: rules: a board needs at least one non-wolf"},
		{"unknown top-level key", "players: 10\nplayer: 10\n", `x.yaml:2: unknown key "player" (did you mean "players"?) (known: name, description, players, cards, options, pace, timers, remind)`},
		{"zero count", head + "cards:\n  werewolf: 0\n  villager: 10\n", "x.yaml:4: the count of werewolf must be a positive integer, not 0"},
		{"negative count", head + "cards:\n  werewolf: -2\n", "x.yaml:4: the count of werewolf must be a positive integer, not -2"},
		{"fractional count", head + "cards:\n  werewolf: 2.5\n", "x.yaml:4: the count of werewolf must be a positive integer, not 2.5"},
		{"text count", head + "cards:\n  werewolf: three\n", `x.yaml:4: the count of werewolf must be a positive integer, not "three"`},
		{"missing count", head + "cards:\n  werewolf:\n", "x.yaml:4: the count of werewolf must be a positive integer, not nothing"},
		{"huge count", head + "cards:\n  werewolf: 9999999999999\n", "x.yaml:4: 9999999999999 werewolf cards: more than a board can hold"},
		{"count beyond integers", head + "cards:\n  werewolf: 99999999999999999999\n", `x.yaml:4: the count of werewolf must be a positive integer, not "99999999999999999999"`},
		{"players too many", "players: 21\ncards: [werewolf]\n", "x.yaml:1: players must be a number from 3 to 20, not 21"},
		{"players too few", "\nplayers: 2\n", "x.yaml:2: players must be a number from 3 to 20, not 2"},
		{"players not a number", "players: ten\n", `x.yaml:1: players must be a number from 3 to 20, not "ten"`},
		{"players empty", "players:\n", "x.yaml:1: players must be a number from 3 to 20, not nothing"},
		{"players missing", "name: x\ncards: [werewolf, villager, villager]\n", "x.yaml:1: players is required"},
		{"cards missing", "players: 3\n", "x.yaml:1: cards is required"},
		{"cards empty", "players: 3\ncards: []\n", "x.yaml:2: cards is empty"},
		{"cards a word", "players: 3\ncards: werewolf\n", `x.yaml:2: cards must be a map role: count or a list of roles, not "werewolf"`},
		{"card a map", "players: 3\ncards:\n  - werewolf\n  - {seer: 1}\n", "x.yaml:4: a card must be text, not a map"},
		{"duplicate key", "players: 3\ncards: {werewolf: 1, villager: 1, werewolf: 1}\n", `x.yaml:2: mapping key "werewolf" already defined`},
		{"not a map", "- werewolf\n- seer\n", "x.yaml:1: a board file must be a map of key: value, not a list"},
		{"empty file", "# nothing\n", "x.yaml: empty"},
		{"two documents", "players: 3\n---\nplayers: 4\n", "x.yaml:3: a board file holds one YAML document"},
		{"syntax error", "players: 3\ncards: [werewolf, seer\n", "x.yaml:2: "},
		{"merge key", "players: 3\n<<: {cards: [werewolf]}\n", "x.yaml:2: merge keys (<<) are not supported"},
		{"unknown alias", "players: 3\ncards: *deck\n", "x.yaml:2: unknown alias *deck"},
		{"name not text", "name: [a, b]\n", "x.yaml:1: name must be text, not a list"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(c.src))
			if err == nil {
				t.Fatalf("accepted; want an error containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

// TestEngineRefusalsKeepTheirMessage: what rules.Board.Validate refuses is
// reported with its message at the line of cards. Roles not yet dealt by the
// engine are refused there.
func TestEngineRefusalsKeepTheirMessage(t *testing.T) {
	for _, r := range rules.Roles() {
		if r.Implemented() || r == rules.Thief {
			continue
		}
		src := "players: 4\ncards: [werewolf, villager, villager, " + r.String() + "]\n"
		_, err := Parse("x.yaml", []byte(src))
		want := "x.yaml:2: rules: the role " + r.String() + " (" + r.Chinese() + ") is not supported yet"
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", r, err, want)
		}
	}
}

// TestThiefTakesTwoExtraCards: with a thief the deck is players+2. The engine
// does not deal the thief yet, so such a board passes the count check and is
// refused by rules.Board.Validate alone.
func TestThiefTakesTwoExtraCards(t *testing.T) {
	src := "players: 10\ncards:\n  werewolf: 3\n  thief: 1\n  seer: 1\n  villager: 7\n"
	_, err := Parse("x.yaml", []byte(src))
	if err == nil {
		if !rules.Thief.Implemented() {
			t.Fatal("a thief board was accepted though the engine does not support the thief")
		}
		return
	}
	if strings.Contains(err.Error(), "cards for") || !strings.Contains(err.Error(), "x.yaml:2: rules: ") {
		t.Fatalf("got %v, want only the engine's refusal", err)
	}
}

// TestAnchorsAliasesAndTags are read through.
func TestAnchorsAliasesAndTags(t *testing.T) {
	src := "players: !!int 4\ncards: [&w werewolf, *w, villager, !!str villager]\noptions: {wolf_win: &p parity, vote_tie: !!str pk}\n"
	f, err := Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Board.Cards, []rules.Role{rules.Werewolf, rules.Werewolf, rules.Villager, rules.Villager}) {
		t.Errorf("cards %v", f.Board.Cards)
	}
}

// TestExampleBoardsAreValid: the boards shipped for users parse.
func TestExampleBoardsAreValid(t *testing.T) {
	files, _ := filepath.Glob("../../examples/boards/*.yaml")
	if len(files) == 0 {
		t.Fatal("no example boards")
	}
	for _, p := range files {
		if _, err := Load(p); err != nil {
			t.Error(err)
		}
	}
}

func TestLoadRefusesWhatIsNotABoardFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "nope.yaml")); err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Errorf("a missing file: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, MaxSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "not a board file") {
		t.Errorf("a large file: %v", err)
	}
}

func TestOptionText(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{{true, "on"}, {false, "off"}, {1.5, "1.5"}, {uint64(2), "2"}, {int64(-1), "-1"}, {"pk", "pk"}} {
		if got := OptionText(c.v); got != c.want {
			t.Errorf("OptionText(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestABoardCarriesItsClocks: a board file may carry a pace, timers and
// reminders, checked as a room checks them, an error naming the line.
func TestABoardCarriesItsClocks(t *testing.T) {
	const head = "players: 9\ncards: {werewolf: 3, seer: 1, witch: 1, hunter: 1, villager: 3}\n"
	f, err := Parse("b.yaml", []byte(head+"pace: forum\ntimers:\n  speech: 24h\n  night: 12h\nremind: 1h,10m\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Pace != "forum" || f.Timers["speech"] != "24h" || f.Timers["night"] != "12h" || f.Remind != "1h,10m" {
		t.Fatalf("clocks read as %q %v %q", f.Pace, f.Timers, f.Remind)
	}
	for _, c := range []struct{ text, want string }{
		{"pace: slow\n", `b.yaml:3: unknown pace "slow"`},
		{"timers:\n  speech: 100h\n", "b.yaml:4: timer speech: 100h0m0s is longer than the longest a speech timer may be, 72h"},
		{"timers:\n  naps: 1h\n", `b.yaml:4: unknown timer "naps"`},
		{"timers:\n  vote: 30\n", `b.yaml:4: timer vote: "30" is not a duration`},
		{"timers: 5h\n", "b.yaml:3: timers must be a map"},
		{"remind: soon\n", `b.yaml:3: remind: "soon" is not a duration`},
	} {
		if _, err := Parse("b.yaml", []byte(head+c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}
