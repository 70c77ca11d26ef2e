package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func wolfden(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), err
}

// TestPlayPrintsEveryEvent: play prints one JSON object per event, numbered
// from 1, ending with the winner.
func TestPlayPrintsEveryEvent(t *testing.T) {
	out, err := wolfden(t, "play", "--script", "../../examples/std-12.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, l := range lines {
		var e struct {
			Seq  int    `json:"seq"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
		if e.Seq != i+1 {
			t.Fatalf("line %d has seq %d", i+1, e.Seq)
		}
	}
	if !strings.Contains(lines[len(lines)-1], `"text":"game_over village"`) {
		t.Fatalf("last line %s", lines[len(lines)-1])
	}
}

// TestPlayAsSeatHidesOthersSecrets: with --as, a villager receives only his
// own stream, numbered densely: neither the secrets nor their count.
func TestPlayAsSeatHidesOthersSecrets(t *testing.T) {
	all, _ := wolfden(t, "play", "--script", "../../examples/std-12.yaml")
	out, err := wolfden(t, "play", "--script", "../../examples/std-12.yaml", "--as", "5")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, fmt.Sprintf(`{"seq":%d,`, i+1)) {
			t.Fatalf("line %d of seat 5's stream is %s", i+1, l)
		}
	}
	if len(lines) >= strings.Count(all, "\n") {
		t.Fatal("seat 5 received every event")
	}
	for _, secret := range []string{`"role 9 werewolf"`, `"check 1 9 wolf"`, `"witch_told`, `"attack_pick`, `"heal 2 5"`} {
		if !strings.Contains(all, secret) {
			t.Fatalf("the full stream lacks %s", secret)
		}
		if strings.Contains(out, secret) {
			t.Fatalf("seat 5 received %s", secret)
		}
	}
	if !strings.Contains(out, `"role 5 villager"`) || !strings.Contains(out, `"game_over village"`) {
		t.Fatal("seat 5 must see his own card and the end")
	}
}

func TestBadInputIsRefusedClearly(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"play"}, "--script FILE is required"},
		{[]string{"play", "--script", "nope.yaml"}, "nope.yaml"},
		{[]string{"play", "--script", "../../examples/std-12.yaml", "--as", "13"}, "--as 13 is not a seat"},
		{[]string{"play", "--scrip", "x"}, "unknown flag: --scrip"},
		{[]string{"presets", "extra"}, "unknown command"},
		{[]string{"board", "chek", "x.yaml"}, `unknown command "chek" for "wolfden board"`},
		{[]string{"serve", "--ipv6-prefix", "0"}, "--ipv6-prefix 0: the bits of an IPv6 address that name one client go from 1 to 128"},
		{[]string{"serve", "--ipv6-prefix", "129"}, "--ipv6-prefix 129"},
	}
	for _, c := range cases {
		_, err := wolfden(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("wolfden %v: got %v, want %q", c.args, err, c.want)
		}
	}
}

// TestPresetsJSON lists every preset with its cards and all options.
func TestPresetsJSON(t *testing.T) {
	out, err := wolfden(t, "presets", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var list []presetJSON
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	names := map[string]presetJSON{}
	for _, p := range list {
		names[p.Name] = p
	}
	for _, n := range []string{"classic", "std-9", "std-12", "std-12-fox", "std-12-wwk", "std-12-beauty"} {
		if _, ok := names[n]; !ok {
			t.Errorf("preset %s missing", n)
		}
	}
	std := names["std-12"]
	if std.Cards["werewolf"] != 4 || std.Cards["idiot"] != 1 || std.Options["sheriff"] != "day1_campaign" || std.Options["sheriff_vote_weight"] != "1.5" {
		t.Errorf("std-12 is %+v", std)
	}
	if names["std-12-wwk"].Options["guard_heal_same_target"] != "dies" {
		t.Error("std-12-wwk: guard_heal_same_target must be dies")
	}
}

// TestBoardCheckSummarisesAGoodBoard: board check prints the players, the
// cards with Chinese names, the camps counted and the options that differ
// from the first value of their list.
func TestBoardCheckSummarisesAGoodBoard(t *testing.T) {
	out, err := wolfden(t, "board", "check", "../../examples/boards/wolf-king-guard.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"../../examples/boards/wolf-king-guard.yaml: ok\n",
		"name:     狼王守卫",
		"players:  12\n",
		"werewolf×3 (狼人), wolf_king (狼王), villager×4 (村民), seer (预言家)",
		"camps:    wolves 4, gods 4, villagers 4\n",
		"sheriff_vote_weight    1.5\n",
		"wolf_win               kill_side\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// reveal_role_on_death: off is set in the file but is the first value.
	if strings.Contains(out, "reveal_role_on_death") || strings.Contains(out, "last_words") {
		t.Errorf("options at their first value are listed:\n%s", out)
	}
	out, err = wolfden(t, "board", "check", "../../examples/boards/ten-players.yaml", "../../examples/boards/wolf-king-guard.yaml")
	if err != nil || strings.Count(out, ": ok\n") != 2 {
		t.Fatalf("two boards: %v\n%s", err, out)
	}
}

// TestBoardCheckRefusesABadBoard: the command fails with the file, the line
// and the problem.
func TestBoardCheckRefusesABadBoard(t *testing.T) {
	cases := []struct{ file, want string }{
		{"bad-role.yaml", `testdata/boards/bad-role.yaml:7: unknown role "wizzard"`},
		{"bad-option.yaml", `testdata/boards/bad-option.yaml:5: option vote_tie has no value "coin" (allowed: nobody, pk, random)`},
		{"bad-count.yaml", "testdata/boards/bad-count.yaml:2: 11 cards for 10 players"},
		{"thief-short.yaml", "testdata/boards/thief-short.yaml:2: the thief needs two extra cards: 8 cards for 8 players"},
		{"no-wolf.yaml", "testdata/boards/no-wolf.yaml:2: rules: a board needs at least one wolf"},
		{"missing.yaml", "testdata/boards/missing.yaml"},
	}
	for _, c := range cases {
		out, err := wolfden(t, "board", "check", "testdata/boards/"+c.file)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.file, err, c.want)
		}
		if out != "" {
			t.Errorf("%s: printed %q", c.file, out)
		}
	}
	// One bad file among good ones fails the command.
	_, err := wolfden(t, "board", "check", "../../examples/boards/ten-players.yaml", "testdata/boards/bad-role.yaml")
	if err == nil || !strings.Contains(err.Error(), "bad-role.yaml:7") {
		t.Errorf("got %v", err)
	}
	if _, err := wolfden(t, "board", "check"); err == nil {
		t.Error("board check without a file succeeded")
	}
}

// TestPlayWithABoardFile: a script names a board file relative to itself.
func TestPlayWithABoardFile(t *testing.T) {
	out, err := wolfden(t, "play", "--script", "testdata/board-script.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"text":"role 4 wolf_king"`) || !strings.Contains(out, `"text":"day 1"`) || strings.Contains(out, `"text":"death`) {
		t.Fatalf("output:\n%s", out)
	}
}

// TestNarrationCalls: the moderator's night calls in the chosen language.
func TestNarrationCalls(t *testing.T) {
	out, err := wolfden(t, "narration", "--preset", "std-12-wwk", "--lang", "zh-Hant")
	if err != nil {
		t.Fatal(err)
	}
	// std-12-wwk calls the night as clubs do (night_order=wolves_first): 守衛 → 狼人 → 女巫 → 預言家
	want := "天黑請閉眼。\n守衛請睜眼。\n守衛請閉眼。\n狼人請睜眼。\n狼人請閉眼。\n女巫請睜眼。\n女巫請閉眼。\n預言家請睜眼。\n預言家請閉眼。\n天亮了，請睜眼。\n"
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"narration"}},
		{[]string{"narration", "--preset", "std-12", "--lang", "fr"}},
		{[]string{"narration", "--preset", "std-12", "--night", "0"}},
		{[]string{"narration", "--preset", "std-12", "--board", "x.yaml"}},
	} {
		if _, err := wolfden(t, c.args...); err == nil {
			t.Errorf("wolfden %v: accepted", c.args)
		}
	}
}

// TestSimJSONIsTheSameWhateverTheWorkers: --json parses, and 1 and 4
// workers print the same bytes.
func TestSimJSONIsTheSameWhateverTheWorkers(t *testing.T) {
	args := []string{"sim", "--preset", "std-12", "--games", "300", "--bots", "random", "--seed", "9", "--json"}
	one, err := wolfden(t, append(args, "--workers", "1")...)
	if err != nil {
		t.Fatal(err)
	}
	four, err := wolfden(t, append(args, "--workers", "4")...)
	if err != nil {
		t.Fatal(err)
	}
	if one != four {
		t.Fatalf("1 and 4 workers differ:\n%s\n---\n%s", one, four)
	}
	var res struct {
		Seed   uint64            `json:"seed"`
		Games  int               `json:"games"`
		Bots   map[string]string `json:"bots"`
		Boards []struct {
			Name  string `json:"name"`
			Games int    `json:"games"`
			Wins  []struct {
				Camp            string
				Games           int
				Rate, Low, High float64
			} `json:"wins"`
			Length struct {
				Mean float64 `json:"mean"`
			} `json:"length"`
		} `json:"boards"`
	}
	if err := json.Unmarshal([]byte(one), &res); err != nil {
		t.Fatal(err)
	}
	if res.Seed != 9 || res.Games != 300 || res.Bots["wolves"] != "random" || len(res.Bots) != 5 || len(res.Boards) != 1 || res.Boards[0].Name != "std-12" {
		t.Fatalf("result %+v", res)
	}
	total := 0
	for _, w := range res.Boards[0].Wins {
		total += w.Games
	}
	if total != 300 || res.Boards[0].Length.Mean < 1 {
		t.Fatalf("board %+v", res.Boards[0])
	}
}

// TestSimComparesBoardsInOrder: presets and board files, repeated or in comma
// lists, come out as blocks in the order given.
func TestSimComparesBoardsInOrder(t *testing.T) {
	out, err := wolfden(t, "sim", "--preset", "std-12,std-9", "--board", "../../examples/boards/ten-players.yaml",
		"--preset", "classic:12", "--games", "50", "--bots", "village=random,wolves=random,piper=smart")
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "== ") {
			heads = append(heads, l)
		}
	}
	want := []string{
		"== std-12 (预女猎白), 12 players (preset)",
		"== std-9 (九人预女猎), 9 players (preset)",
		"== 10-player 预女猎守, 10 players (board file ../../examples/boards/ten-players.yaml)",
		"== classic:12 (经典), 12 players (preset)",
	}
	if strings.Join(heads, "\n") != strings.Join(want, "\n") {
		t.Fatalf("blocks:\n%s\nwant\n%s", strings.Join(heads, "\n"), strings.Join(want, "\n"))
	}
	for _, s := range []string{"Wins", "village", "95% interval", "Length:", "Deaths by cause", "Survival by role", "seer (预言家)", "Special rules", "bots village=random,wolves=random,piper=smart"} {
		if !strings.Contains(out, s) {
			t.Errorf("the output lacks %q", s)
		}
	}
}

// TestSimReport: --report writes a page naming the boards, with SVG charts.
func TestSimReport(t *testing.T) {
	file := filepath.Join(t.TempDir(), "report.html")
	_, err := wolfden(t, "sim", "--preset", "std-12", "--preset", "std-12-wwk", "--games", "60", "--bots", "random", "--report", file)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"std-12", "std-12-wwk", "白狼王守卫", "<svg", "</html>"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

func TestSimRefusesBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"sim"}, "give --preset NAME or --board FILE"},
		{[]string{"sim", "--preset", "std-13"}, `unknown preset "std-13"`},
		{[]string{"sim", "--preset", "std-12", "--players", "10"}, "preset std-12 is for 12 players, not 10"},
		{[]string{"sim", "--preset", "classic:x"}, `"x" is not a number of players`},
		{[]string{"sim", "--preset", "std-12,"}, "an empty name in the list"},
		{[]string{"sim", "--board", "testdata/boards/bad-role.yaml"}, `bad-role.yaml:7: unknown role "wizzard"`},
		{[]string{"sim", "--board", "testdata/boards/missing.yaml"}, "missing.yaml"},
		{[]string{"sim", "--preset", "std-12", "--games", "0"}, "--games must be 1 or more, not 0"},
		{[]string{"sim", "--preset", "std-12", "--games", "-5"}, "--games must be 1 or more, not -5"},
		{[]string{"sim", "--preset", "std-12", "--bots", "genius"}, `--bots "genius": bots: unknown level "genius" (known: random, smart)`},
		{[]string{"sim", "--preset", "std-12", "--bots", "lovers=smart"}, "lovers is not a dealt camp"},
		{[]string{"sim", "--preset", "std-12", "--bots", "village=smart,elves=random"}, `unknown camp "elves"`},
		{[]string{"sim", "--preset", "std-12", "--workers", "0"}, "--workers must be 1 or more, not 0"},
		{[]string{"sim", "--preset", "std-12", "--workers", "-2"}, "--workers must be 1 or more, not -2"},
		{[]string{"sim", "--preset", "std-12", "--games", "1", "--report", "no/such/dir/r.html"}, "--report"},
	}
	for _, c := range cases {
		out, err := wolfden(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("wolfden %v: got %v, want %q", c.args, err, c.want)
		}
		if out != "" {
			t.Errorf("wolfden %v printed %q", c.args, out)
		}
	}
}
