package script

import (
	"strings"
	"testing"
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
  - 4 check 1
  - expect: {told: {4: ["check 4 1 good"]}}
`
	s, err := Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Run(nil)
	if err == nil || !strings.Contains(err.Error(), "x.yaml:5") || !strings.Contains(err.Error(), `seat 4 was not told "check 4 1 good"`) {
		t.Fatalf("got %v", err)
	}
	s, _ = Parse("x.yaml", []byte(strings.Replace(src, "4 check 1", "5 check 1", 1)))
	if _, err = s.Run(nil); err == nil || !strings.Contains(err.Error(), "x.yaml:4") {
		t.Fatalf("got %v", err)
	}
}
