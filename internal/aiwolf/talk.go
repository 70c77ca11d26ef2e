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

// take reads a reply under the limits: Over, or an empty text, ends the
// agent's talk for the day; a Skip beyond MaxSkip in a row is an Over; an
// utterance resets the Skips, spends one of the count, is cut to PerTalk,
// and charges its length past the free part to the agent's budget (cut to
// what is left of it).
func (t *talker) take(s *TalkSetting, reply string) utterance {
	reply = strings.TrimSpace(reply)
	switch {
	case reply == "" || reply == wordOver || t.count <= 0:
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
	t.count--
	l := &s.MaxLength
	if l.PerTalk != nil {
		reply = cut(reply, *l.PerTalk, l)
	}
	if l.PerAgent != nil {
		free := 0
		if l.BaseLength != nil {
			free = *l.BaseLength
		}
		if l.MentionLength != nil && strings.Contains(reply, "@") {
			free += *l.MentionLength
		}
		if over := measure(reply, l) - free; over > 0 {
			if over > t.length {
				reply = cut(reply, free+t.length, l)
				over = t.length
			}
			t.length -= over
		}
	}
	if reply == "" {
		t.count = 0
		return utterance{text: wordOver, over: true}
	}
	return utterance{text: reply}
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

// cut shortens s to n units of measure.
func cut(s string, n int, l *MaxLength) string {
	if n <= 0 {
		return ""
	}
	if l.CountInWord {
		w := strings.Fields(s)
		if len(w) > n {
			w = w[:n]
		}
		return strings.Join(w, " ")
	}
	k := 0
	for i, r := range s {
		if l.CountSpaces || !unicode.IsSpace(r) {
			if k == n {
				return strings.TrimSpace(s[:i])
			}
			k++
		}
	}
	return s
}
