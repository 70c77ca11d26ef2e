package aiwolf

import (
	"testing"
	"time"
)

func TestTalkLimitsAreTheReferences(t *testing.T) {
	base := TalkSetting{MaxCount: MaxCount{PerAgent: 3, PerDay: 20}, MaxSkip: 1}
	withLen := base
	withLen.MaxLength = MaxLength{PerTalk: intp(10), BaseLength: intp(4), PerAgent: intp(5), MentionLength: intp(3)}
	perTalk := base
	perTalk.MaxLength = MaxLength{PerTalk: intp(10)}
	words := base
	words.MaxLength = MaxLength{CountInWord: true, PerTalk: intp(2)}
	cases := []struct {
		name    string
		set     TalkSetting
		replies []string
		want    []string // what each reply becomes; "Over" ends the agent's talk
	}{
		{"Over ends the day's talk", base, []string{"Over", "hi"}, []string{"Over", "Over"}},
		{"an empty reply is an Over", base, []string{"  \n "}, []string{"Over"}},
		{"a Skip beyond max_skip in a row is an Over", base, []string{"Skip", "ForceSkip"}, []string{"Skip", "Over"}},
		{"an utterance resets the Skips", base, []string{"Skip", "a", "Skip", "b"}, []string{"Skip", "a", "Skip", "b"}},
		{"the count runs out", base, []string{"a", "b", "c", "d"}, []string{"a", "b", "c", "Over"}},
		{"per_talk cuts, spaces not counted", perTalk, []string{"abc def ghi jkl"}, []string{"abc def ghi j"}},
		{"per_talk, then what is left of the length budget", withLen, []string{"abc def ghi jkl"}, []string{"abc def ghi"}},
		{"the length past base_length is charged to per_agent", withLen, []string{"abcdefg", "abcdefgh"}, []string{"abcdefg", "abcdef"}},
		{"an @mention is given mention_length more", withLen, []string{"@abcdefgh"}, []string{"@abcdefgh"}},
		{"count_in_word counts words", words, []string{"one two three"}, []string{"one two"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newTalker(&c.set)
			for i, r := range c.replies {
				if got := b.take(&c.set, r).text; got != c.want[i] {
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
