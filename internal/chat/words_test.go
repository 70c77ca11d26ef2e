package chat

import (
	"slices"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// TestCommandsAreReadInEveryLanguage: the text commands of 简体, 繁體 and
// English, with or without a slash, a space or a seat prefix, are one
// command; a line that is none is no command.
func TestCommandsAreReadInEveryLanguage(t *testing.T) {
	cases := []struct {
		text string
		word string
		cmd  rules.CmdKind
		args []int
		seat rules.Seat
		rest string
	}{
		{text: "狼人杀 开局", word: wordNewGame},
		{text: "狼人殺  開局 std-12", word: wordNewGame, rest: "std-12"},
		{text: "/newgame std-9", word: wordNewGame, rest: "std-9"},
		{text: "/newgame@wolfdenbot", word: wordNewGame},
		{text: "加入", word: wordJoin},
		{text: "/join", word: wordJoin},
		{text: "开始", word: wordStart},
		{text: "開始", word: wordStart},
		{text: "/start", word: wordStart},
		{text: "查验 5", cmd: rules.CmdCheck, args: []int{5}},
		{text: "查驗5", cmd: rules.CmdCheck, args: []int{5}},
		{text: "check 5", cmd: rules.CmdCheck, args: []int{5}},
		{text: "刀 3", cmd: rules.CmdAttack, args: []int{3}},
		{text: "kill 3", cmd: rules.CmdAttack, args: []int{3}},
		{text: "投 7", cmd: rules.CmdVote, args: []int{7}},
		{text: "vote 7号", cmd: rules.CmdVote, args: []int{7}},
		{text: "过", cmd: rules.CmdSkip},
		{text: "過", cmd: rules.CmdSkip},
		{text: "pass", cmd: rules.CmdSkip},
		{text: "撕警徽", cmd: rules.CmdTear},
		{text: "警徽 4", cmd: rules.CmdBadge, args: []int{4}},
		{text: "连 2、5", cmd: rules.CmdLink, args: []int{2, 5}},
		{text: "#3 check 5", cmd: rules.CmdCheck, args: []int{5}, seat: 3},
		{text: "3号 查验 5", cmd: rules.CmdCheck, args: []int{5}, seat: 3},
		{text: "5", args: []int{5}},
		{text: "红牌 4", word: wordRedCard, args: []int{4}, rest: "4"},
		{text: "紅牌 4", word: wordRedCard, args: []int{4}, rest: "4"},
		{text: "/redcard 4", word: wordRedCard, args: []int{4}, rest: "4"},
		{text: "替换 6", word: wordReplace, args: []int{6}, rest: "6"},
		{text: "延时 30", word: wordExtend, args: []int{30}, rest: "30"},
		{text: "语言 en", word: wordLang, rest: "en"},
		{text: "#2 decoy 5", word: wordDecoy, args: []int{5}, seat: 2, rest: "5"},
	}
	for _, c := range cases {
		p, ok := parse(c.text)
		if !ok || p.word != c.word || p.cmd != c.cmd || !slices.Equal(p.args, c.args) || p.seat != c.seat || p.rest != c.rest && c.word != "" {
			t.Errorf("%q: %+v %v, want word %q cmd %v args %v seat %d rest %q", c.text, p, ok, c.word, c.cmd, c.args, c.seat, c.rest)
		}
	}
	for _, text := range []string{"", "hello", "我觉得3号是狼", "votes 3", "查验 五", "check 3 please"} {
		if p, ok := parse(text); ok {
			t.Errorf("%q was read as %+v", text, p)
		}
	}
}
