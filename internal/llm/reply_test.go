package llm

import (
	"strings"
	"testing"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

var voteChoices = []game.ChoiceJSON{{Cmd: "skip", NoTarget: true}, {Cmd: "abstain", NoTarget: true}, {Cmd: "vote", Targets: []rules.Seat{2, 3, 5}},
	{Cmd: "link", Targets: []rules.Seat{1, 2, 3}, Pick: 2}, {Cmd: "order", NoTarget: true}, {Cmd: "order", NoTarget: true, Value: 1}}

func TestARepliesActionIsOneOfTheLegalChoices(t *testing.T) {
	for _, tc := range []struct {
		reply string
		want  rules.Command
		err   string
	}{
		{`{"action": {"cmd": "vote", "target": 3}}`, rules.Command{Kind: rules.CmdVote, Target: 3}, ""},
		{"Sure!\n```json\n{\"action\": {\"cmd\": \"vote\", \"target\": \"seat 5\"}}\n```", rules.Command{Kind: rules.CmdVote, Target: 5}, ""},
		{`<think>{"action": {"cmd": "vote", "target": 9}}</think>{"cmd": "vote", "target": 2}`, rules.Command{Kind: rules.CmdVote, Target: 2}, ""},
		{`{"action": {"cmd": "abstain"}}`, rules.Command{Kind: rules.CmdAbstain}, ""},
		{`{"action": {"cmd": "link", "seats": [1, 3]}}`, rules.Command{Kind: rules.CmdLink, Mask: 1<<1 | 1<<3}, ""},
		{`{"action": {"cmd": "order", "value": 1}}`, rules.Command{Kind: rules.CmdOrder, Value: 1}, ""},
		{`{"action": {"cmd": "vote", "target": 4}}`, rules.Command{}, "seat 4 is not a legal target (legal: 2, 3, 5)"},
		{`{"action": {"cmd": "vote"}}`, rules.Command{}, "vote needs a target"},
		{`{"action": {"cmd": "poison", "target": 2}}`, rules.Command{}, `"poison" is not among the legal choices now`},
		{`{"action": {"cmd": "link", "seats": [1]}}`, rules.Command{}, "exactly 2 seats"},
		{`{"action": {"cmd": "link", "seats": [1, 1]}}`, rules.Command{}, "named twice"},
		{`{"action": {"cmd": "order", "value": 3}}`, rules.Command{}, "no value 3"},
		{`I vote for 3`, rules.Command{}, "no JSON object"},
		{`{"action": {"cmd": "vote", "target": 3`, rules.Command{}, "no JSON object"},
		{``, rules.Command{}, "empty"},
	} {
		r, err := parseReply(tc.reply)
		var c rules.Command
		if err == nil {
			if r.Action == nil {
				t.Fatalf("%q: no action", tc.reply)
			}
			c, err = command(r.Action, voteChoices)
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.reply, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want %q", tc.reply, err, tc.err)
		case tc.err == "" && c != tc.want:
			t.Errorf("%q: %v, want %v", tc.reply, c, tc.want)
		}
	}
}
