package script

import (
	"strings"
	"testing"
)

// judge runs src and returns the run's error ("" when it holds).
func judge(t *testing.T, src string) string {
	t.Helper()
	s, err := Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if _, err := s.Run(nil); err != nil {
		return err.Error()
	}
	return ""
}

// TestJudgeKeys: each key that reads the moderator's state holds when it
// should, and a wrong value fails the step with a message naming the key,
// what the game holds and what was expected.
func TestJudgeKeys(t *testing.T) {
	// The nights below are written in 000's wake order (the seer first).
	const std12 = `preset: std-12
options: {sheriff: none, night_order: seer_first}
seed: 1
deal: [seer, witch, hunter, idiot, villager, villager, villager, villager,
       werewolf, werewolf, werewolf, werewolf]
steps:
  - 1 check 9
  - 9,10,11,12 attack 5
  - 2 heal
  - advance
`
	const fox = `preset: std-12-fox
options: {night_order: seer_first}
seed: 1
deal: [seer, witch, hunter, nine_tailed_fox, villager, villager, villager, villager,
       werewolf, werewolf, werewolf, werewolf]
steps:
  - 1 check 9
  - 9,10,11,12 attack 5
  - 2 heal
  - expect: {fox_tails: 9}
  - timeout
  - advance
  - 1,2,3,4,5,7,8,9,10,11,12 vote 6
  - 6 vote 5
`
	const elder = `cards: [werewolf, werewolf, seer, witch, elder, villager, villager, villager]
seed: 1
deal: [werewolf, werewolf, seer, witch, elder, villager, villager, villager]
steps:
  - expect: {elder_lives: 2}
  - 3 check 1
  - 1,2 attack 5
  - 4 skip
`
	const piper = `cards: [werewolf, werewolf, piper, seer, villager, villager, villager, villager]
seed: 1
deal: [werewolf, werewolf, piper, seer, villager, villager, villager, villager]
steps:
  - expect: {charmed: []}
  - 3 charm 4+5
  - 4 check 3
  - 1,2 attack 8
`
	const thief = `cards: [werewolf, werewolf, seer, thief, villager, villager, villager, villager, villager]
seed: 1
deal: [thief, werewolf, villager, villager, villager, werewolf, villager, villager, seer]
steps:
  - expect: {card: {1: thief, 2: werewolf}}
  - 1 take 2
`
	const scapegoat = `cards: [werewolf, werewolf, seer, scapegoat, villager, villager, villager, villager]
seed: 1
deal: [werewolf, werewolf, seer, villager, villager, scapegoat, villager, villager]
steps:
  - 3 check 1
  - 1,2 attack 8
  - advance
  - expect: {step: vote, may_vote: [1, 2, 3, 4, 5, 6, 7]}
  - 1,2,4 vote 3
  - 3,5,7 vote 1
  - 6 abstain
  - advance
  - 6 voters 2+3
  - 3 check 2
  - 1,2 attack 7
  - advance
`
	const badge = `preset: std-12
options: {night_order: seer_first}
seed: 1
deal: [seer, witch, hunter, idiot, villager, villager, villager, villager,
       werewolf, werewolf, werewolf, werewolf]
steps:
  - 1 check 9
  - 9,10,11,12 attack 5
  - 2 heal
  - expect: {badge_gone: false}
  - 9 run
  - timeout
  - advance
  - timeout
  - expect: {sheriff: 9, badge_gone: false}
  - 9 order cw
  - advance
  - 1,2,3,4,5,6,7,8 vote 9
  - 10,11,12 vote 1
  - 9 abstain
  - 9 skip
  - expect: {step: badge, badge_gone: false}
  - 9 tear
`
	const random = `preset: std-12
options: {sheriff: none, vote_tie: random, night_order: seer_first}
seed: 1
deal: [seer, witch, hunter, idiot, villager, villager, villager, villager,
       werewolf, werewolf, werewolf, werewolf]
steps:
  - 1 check 9
  - 9,10,11,12 attack 5
  - 2 skip
  - advance
  - 1,2,3,4 vote 9
  - 9,10,11,12 vote 1
  - 6,7,8 abstain
`
	const over = `cards: [werewolf, seer, villager, villager, villager]
options: {wolf_win: kill_side}
seed: 1
deal: [werewolf, seer, villager, villager, villager]
steps:
  - 2 check 1
  - 1 attack 2
`
	cases := []struct {
		name, src, expect, want string // want "": the expectation holds
	}{
		{"fox_tails", fox, "{dead: [6], fox_tails: 8}", ""},
		{"fox_tails wrong", fox, "{fox_tails: 9}", "fox_tails is 8, expected 9"},
		{"elder_lives", elder, "{alive: [5], elder_lives: 1}", ""},
		{"elder_lives wrong", elder, "{elder_lives: 2}", "elder_lives is 1, expected 2"},
		{"elder_lives dead", elder + "  - advance\n  - timeout\n  - 3 check 2\n  - 1,2 attack 5\n  - 4 skip\n", "{dead: [5], elder_lives: 0}", ""},
		{"charmed", piper, "{charmed: [5, 4]}", ""}, // a set: any order
		{"charmed wrong", piper, "{charmed: [4]}", "charmed is [4 5], expected [4]"},
		{"charmed none", piper, "{charmed: []}", "charmed is [4 5], expected []"},
		{"card", thief, "{card: {1: seer, 2: werewolf}}", ""},
		{"card wrong", thief, "{card: {1: thief, 3: seer}}", "seat 1's card is seer, expected thief; seat 3's card is villager, expected seer"},
		// Day 2: only the scapegoat's two voters.
		{"may_vote", scapegoat, "{step: vote, day: 2, may_vote: [2, 3]}", ""},
		{"may_vote wrong", scapegoat, "{may_vote: [1, 2, 3, 4, 5]}", "may_vote is [2 3], expected [1 2 3 4 5]"},
		// The idiot, exiled and revealed, no longer votes; the dead neither.
		{"may_vote idiot", std12 + "  - 9,10,11,12,6,7 vote 4\n  - 1,2,3 vote 9\n  - timeout\n  - 1 check 10\n  - 9,10,11,12 attack 6\n  - timeout\n",
			"{may_vote: [1, 2, 3, 5, 7, 8, 9, 10, 11, 12], face_up: [4]}", ""},
		{"face_up wrong", std12 + "  - 9,10,11,12,6,7 vote 4\n  - 1,2,3 vote 9\n  - timeout\n", "{face_up: []}", "face_up is [4], expected []"},
		{"badge_gone", badge, "{sheriff: 0, badge_gone: true}", ""},
		{"badge_gone wrong", badge, "{badge_gone: false}", "badge_gone is true, expected false"},
		{"dead_exactly", random, "{dead_exactly: [9, 5]}", ""},
		{"dead_exactly wrong", random, "{dead_exactly: [9]}", "dead_exactly: the dead are [5 9], expected [9]"},
		{"dead_one_of", random, "{dead_one_of: [1, 9]}", ""},
		{"dead_one_of none", random, "{dead_one_of: [1, 2]}", "dead_one_of: of [1 2] the dead are [], expected exactly one"},
		{"dead_one_of both", over, "{dead_one_of: [2, 1]}", ""},
		{"winner_in", over, "{winner_in: [village, wolves]}", ""},
		{"winner_in wrong", over, "{winner_in: [village, piper]}", "winner is wolves, expected one of [village piper]"},
		{"winner_in running", random, "{winner_in: [village, wolves]}", "winner is none, expected one of [village wolves]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := judge(t, c.src+"  - expect: "+c.expect+"\n")
			switch {
			case c.want == "" && got != "":
				t.Fatalf("failed: %s", got)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Fatalf("got %q, want a failure containing %q", got, c.want)
			}
		})
	}
}

// TestJudgeKeysRefused: a judge key with a value that can never be right is
// an error of the script, at parse time, naming the key; and an unknown key
// is refused by name.
func TestJudgeKeysRefused(t *testing.T) {
	for _, c := range []struct{ expect, want string }{
		{"{card: {3: wizard}}", `card: rules: unknown role "wizard"`},
		{"{card: {10: seer}}", "card: 10 is not a seat from 1 to 9"},
		{"{dead_exactly: [0]}", "dead_exactly: 0 is not a seat from 1 to 9"},
		{"{may_vote: [1, 12]}", "may_vote: 12 is not a seat from 1 to 9"},
		{"{charmed: [10]}", "charmed: 10 is not a seat"},
		{"{face_up: [-1]}", "face_up: -1 is not a seat"},
		{"{dead: [13]}", "dead: 13 is not a seat"},
		{"{dead_one_of: [3]}", "dead_one_of names two seats or more"},
		{"{winner_in: [wolves]}", "winner_in names two camps or more"},
		{"{winner_in: [wolves, vilage]}", `winner_in: rules: unknown camp "vilage"`},
		{"{winner: wolf}", `winner: rules: unknown camp "wolf"`},
		{"{fox_tails: many}", "cannot unmarshal string into key fox_tails of type int"},
		{"{badge_gone: 3}", "into key badge_gone of type bool"},
		{"{dead: 3}", "int was used where sequence is expected"},
		{"{fox_tail: 8}", `unknown field "fox_tail"`},
		{"{dead_exact: [1]}", `unknown field "dead_exact"`},
	} {
		_, err := Parse("x.yaml", []byte("preset: std-9\nsteps:\n  - 1 vote 2\n  - expect: "+c.expect+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "x.yaml:4: step 2") {
			t.Errorf("%s: got %v, want an error at x.yaml:4 containing %q", c.expect, err, c.want)
		}
	}
}
