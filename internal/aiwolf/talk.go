package aiwolf

import (
	"strings"
	"unicode"
)

// The talk's and the whisper's limits, as the reference enforces them.

// Reply words.
const (
	wordSkip      = "Skip"
	wordOver      = "Over"
	wordForceSkip = "ForceSkip"
)

// utterance is what one TALK or WHISPER reply amounts to.
type utterance struct {
	text string
	skip bool
	over bool
}

// talker is one agent's budget in a day's talk (or whisper).
type talker struct {
	count  int // utterances left
	skips  int // Skips in a row
	length int // length budget left, when MaxLength.PerAgent is set
}

func newTalker(s *TalkSetting) talker {
	t := talker{count: s.MaxCount.PerAgent}
	if s.MaxLength.PerAgent != nil {
		t.length = *s.MaxLength.PerAgent
	}
	return t
}

// take reads a reply under the limits, as the reference's talk does (its
// round has spent one of the agent's utterances already, when it asked):
// Over, or an empty text, ends the agent's talk for the day; a Skip
// beyond MaxSkip in a row is an Over; an utterance resets the Skips. With
// BaseLength or PerAgent set, the text is cut to BaseLength plus what is
// left of the agent's length budget, and its length past BaseLength is
// charged to the budget; the first @mention of another agent (one of
// others) is set apart by spaces, and the text after it is given
// MentionLength (plus the budget) of its own, its excess charged too.
// Then PerTalk cuts the whole, the text before the mention first.
func (t *talker) take(s *TalkSetting, reply string, others []string) utterance {
	reply = strings.TrimSpace(reply)
	switch {
	case reply == "" || reply == wordOver:
		t.count = 0
		return utterance{text: wordOver, over: true}
	case reply == wordSkip || reply == wordForceSkip:
		t.skips++
		if t.skips > s.MaxSkip {
			t.count = 0
			return utterance{text: wordOver, over: true}
		}
		return utterance{text: wordSkip, skip: true}
	}
	t.skips = 0
	l := &s.MaxLength
	common, mention, after := reply, "", ""
	if l.PerAgent != nil || l.BaseLength != nil {
		base := 0
		if l.BaseLength != nil {
			base = *l.BaseLength
		}
		room := func(free int) int { // what an utterance may hold
			if l.PerAgent != nil {
				return free + t.length
			}
			return free
		}
		charge := func(cost int) {
			if cost > 0 && l.PerAgent != nil {
				t.length -= cost
			}
		}
		at, name := -1, ""
		if l.MentionLength != nil {
			at, name = firstMention(reply, others)
		}
		if at < 0 {
			common = cut(reply, room(base), l)
			charge(measure(reply, l) - base)
		} else {
			before, rest := reply[:at], reply[at+len(name):]
			mention = " " + name + " "
			common = cut(before, room(base), l)
			charge(measure(before, l) - base)
			after = cut(rest, room(*l.MentionLength), l)
			charge(measure(after, l) - *l.MentionLength)
		}
	}
	if l.PerTalk != nil {
		cl, ml := measure(common, l), measure(after, l)
		if cl+ml > *l.PerTalk {
			if cl > *l.PerTalk {
				common, mention, after = cut(common, *l.PerTalk, l), "", ""
			} else {
				after = cut(after, *l.PerTalk-cl, l)
			}
		}
	}
	text := common + mention + after
	if text == "" {
		t.count = 0
		return utterance{text: wordOver, over: true}
	}
	return utterance{text: text}
}

// firstMention finds the first "@Name" of another agent in s: its byte
// index and the mention, or -1.
func firstMention(s string, others []string) (int, string) {
	at, name := -1, ""
	for _, o := range others {
		m := "@" + o
		if i := strings.Index(s, m); i >= 0 && (at < 0 || i < at) {
			at, name = i, m
		}
	}
	return at, name
}

// measure is a text's length: its words, or its runes (spaces only with
// CountSpaces).
func measure(s string, l *MaxLength) int {
	if l.CountInWord {
		return len(strings.Fields(s))
	}
	n := 0
	for _, r := range s {
		if l.CountSpaces || !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// cut shortens s to n units of measure, as the reference does: to its
// first n words (joined by single spaces), its first n runes
// (CountSpaces), or up to its n-th rune that is not a space. A text that
// fits is kept as it is.
func cut(s string, n int, l *MaxLength) string {
	if measure(s, l) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	if l.CountInWord {
		return strings.Join(strings.Fields(s)[:n], " ")
	}
	k := 0
	for i, r := range s {
		if l.CountSpaces || !unicode.IsSpace(r) {
			if k == n {
				if !l.CountSpaces {
					return strings.TrimRightFunc(s[:i], unicode.IsSpace)
				}
				return s[:i]
			}
			k++
		}
	}
	return s
}
