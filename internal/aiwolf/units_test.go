package aiwolf

import (
	"strings"
	"testing"
	"time"
)

// A talk round as the reference's: asking spends an utterance; an agent
// with none left, or whose length budget is spent, is not asked ("-").
func TestTalkLimitsAreTheReferences(t *testing.T) {
	base := TalkSetting{MaxCount: MaxCount{PerAgent: 3, PerDay: 20}, MaxSkip: 1}
	withLen := base
	withLen.MaxLength = MaxLength{PerTalk: intp(10), BaseLength: intp(4), PerAgent: intp(5), MentionLength: intp(3)}
	perTalk := base
	perTalk.MaxLength = MaxLength{PerTalk: intp(10)}
	words := base
	words.MaxLength = MaxLength{CountInWord: true, PerTalk: intp(2)}
	def := base // the reference's default_5.yml and default_13.yml
	def.MaxLength = MaxLength{BaseLength: intp(50), MentionLength: intp(50)}
	sixty := strings.Repeat("あいうえおかきくけこ", 6)
	cases := []struct {
		name    string
		set     TalkSetting
		replies []string
		want    []string // what each reply becomes; "-": not asked
	}{
		{"Over ends the day's talk", base, []string{"Over", "hi"}, []string{"Over", "-"}},
		{"an empty reply is an Over", base, []string{"  \n "}, []string{"Over"}},
		{"a Skip beyond max_skip in a row is an Over", base, []string{"Skip", "ForceSkip"}, []string{"Skip", "Over"}},
		{"an utterance resets the Skips", withLen, []string{"Skip", "a", "Skip"}, []string{"Skip", "a", "Skip"}},
		{"a Skip spends an utterance", base, []string{"Skip", "a", "Skip", "b"}, []string{"Skip", "a", "Skip", "-"}},
		{"the count runs out", base, []string{"a", "b", "c", "d"}, []string{"a", "b", "c", "-"}},
		{"per_talk cuts, spaces not counted", perTalk, []string{"abc def ghi jkl"}, []string{"abc def ghi j"}},
		{"base_length and what is left of per_agent cut", withLen, []string{"abc def ghi jkl", "x"}, []string{"abc def ghi", "-"}},
		{"the length past base_length is charged to per_agent", withLen, []string{"abcdefg", "abcdefgh", "x"}, []string{"abcdefg", "abcdef", "-"}},
		{"an @mention sets the text after it apart, with mention_length more", withLen, []string{"hi @Agent[02] abcdefgh"}, []string{"hi  @Agent[02]  abcdefgh"}},
		{"an @ of no other agent is text", withLen, []string{"@Agent[01]abc"}, []string{"@Agent[01"}},
		{"the default regulation cuts each utterance at base_length 50", def, []string{sixty}, []string{sixty[:50*3]}},
		{"the default regulation gives the text after a mention 50 more", def, []string{sixty + "@Agent[02]" + sixty}, []string{sixty[:150] + " @Agent[02] " + sixty[:150]}},
		{"count_in_word counts words", words, []string{"one two three"}, []string{"one two"}},
	}
	others := []string{"Agent[02]", "Agent[03]"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newTalker(&c.set)
			for i, r := range c.replies {
				got := "-"
				if b.count > 0 && (c.set.MaxLength.PerAgent == nil || b.length > 0) {
					b.count--
					got = b.take(&c.set, r, others).text
				}
				if got != c.want[i] {
					t.Errorf("reply %d %q became %q, want %q", i, r, got, c.want[i])
				}
			}
		})
	}
}

func TestTokensAreCheckedAsTheReferenceSignsThem(t *testing.T) {
	secret := []byte("s3cret")
	good := Sign(secret, "kanolab")
	if c, err := verify(secret, good, time.Now().Unix()); err != nil || c.Team != "kanolab" {
		t.Fatalf("a good token: %v %v", c, err)
	}
	for name, tok := range map[string]string{
		"another secret":  Sign([]byte("other"), "kanolab"),
		"no token":        "",
		"not a JWT":       "abc.def",
		"a changed claim": good[:len(good)-2] + "AA",
	} {
		if _, err := verify(secret, tok, time.Now().Unix()); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestAgentNamesReadBack(t *testing.T) {
	for s := 1; s <= 13; s++ {
		if got := seatOf(AgentName(seatNo(s)), 13); int(got) != s {
			t.Errorf("%s read back as %d", AgentName(seatNo(s)), got)
		}
	}
	for _, bad := range []string{"Agent[14]", "Agent[00]", "Agent[1]", "agent[01]", " Agent[01]", ""} {
		if seatOf(bad, 13) != 0 {
			t.Errorf("%q names a seat", bad)
		}
	}
	if teamOf("kanolab12") != "kanolab" || teamOf("x") != "x" {
		t.Error("teamOf")
	}
}
