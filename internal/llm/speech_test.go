package llm

import (
	"slices"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// table is a record of a 9-player game on day 2: seats 3 and 7 are dead
// (7 exiled), seats 1, 2 and 5 have been heard.
func table() *record {
	r := newRecord(4, 9)
	r.state = &game.StateFrame{Type: "state", Seat: 4, Day: 2, Alive: []rules.Seat{1, 2, 4, 5, 6, 8, 9}}
	r.exiled = 1 << 7
	r.heard = 1<<1 | 1<<2 | 1<<5
	return r
}

func TestSpeechContradictingThePublicFactsIsCorrected(t *testing.T) {
	for _, tc := range []struct {
		name, speech, want string
		dropped            int
	}{
		{"a true speech is said as it is", "Seat 5 is a wolf. I trust seat 2.", "Seat 5 is a wolf. I trust seat 2.", 0},
		{"a dead player claimed alive", "Seat 3 is still alive. Seat 5 is a wolf.", "Seat 5 is a wolf.", 1},
		{"a dead player claimed alive, in Chinese", "3号还活着。5号是狼。", "5号是狼。", 1},
		{"a dead player claimed to speak next", "Seat 7 will speak after me. Vote 5.", "Vote 5.", 1},
		{"a dead player claimed to speak, in Chinese", "轮到7号发言。我投5号。", "我投5号。", 1},
		{"a player who never spoke claimed to have said something", "Seat 6 said he is the seer. Seat 5 said he is good.", "Seat 5 said he is good.", 1},
		{"an exile denied", "Seat 7 was never exiled. Seat 9 is good.", "Seat 9 is good.", 1},
		{"an exile denied, in Chinese", "7号没有被放逐。", "", 1},
		{"a living player claimed dead", "Seat 8 died last night. I am the seer.", "I am the seer.", 1},
		{"a living player claimed exiled", "Seat 8 was voted out yesterday. Fine.", "Fine.", 1},
		{"the exiled said exiled", "Seat 7 was exiled. Fine.", "Seat 7 was exiled. Fine.", 0},
		{"a seat that does not exist", "Seat 12 is a wolf. Seat 5 is too.", "Seat 5 is too.", 1},
		{"a seat that does not exist, in Chinese numerals", "十二号是狼。", "", 1},
		{"a dead player said dead", "Seat 3 is dead, sadly.", "Seat 3 is dead, sadly.", 0},
		{"a dead player who spoke before may be quoted", "Seat 1 said he is a villager.", "Seat 1 said he is a villager.", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ck := table().checkSpeech(tc.speech, "en")
			want := tc.want
			if want == "" {
				want = "I have nothing to add. I pass."
			}
			if ck.Text != want || len(ck.Dropped) != tc.dropped {
				t.Fatalf("said %q (left out %q), want %q with %d left out", ck.Text, ck.Dropped, want, tc.dropped)
			}
			if ck.Neutral != (tc.want == "") {
				t.Fatalf("neutral %v", ck.Neutral)
			}
		})
	}
}

func TestAnUnfixableSpeechIsTheNeutralLineInTheTablesLanguage(t *testing.T) {
	for lang, want := range map[string]string{"en": "I have nothing to add. I pass.", "zh-Hans": "我没有要补充的，过。", "zh-Hant": "我沒有要補充的，過。"} {
		if ck := table().checkSpeech("Seat 3 is alive!", lang); ck.Text != want || !ck.Neutral {
			t.Errorf("%s: %q", lang, ck.Text)
		}
	}
}

func TestALongSpeechIsCutAtASentenceWithinTheChatLimit(t *testing.T) {
	long := strings.Repeat("I think we should be careful today. ", 40)
	ck := table().checkSpeech(long, "en")
	if n := len([]rune(ck.Text)); n > game.MaxChat || n < game.MaxChat-40 || !strings.HasSuffix(ck.Text, ".") {
		t.Fatalf("%d characters: %q", n, ck.Text)
	}
}

func TestASpeechIsReadIntoStructuredClaims(t *testing.T) {
	for _, tc := range []struct {
		speech string
		want   []claim
	}{
		{"I am the seer. Seat 5 is a wolf and seat 2 is good.", []claim{{Claim: "role", Role: "seer"}, {Claim: "wolf", Seat: 5}, {Claim: "good", Seat: 2}}},
		{"我是预言家，查杀5号，2号金水。", []claim{{Claim: "role", Role: "seer"}, {Claim: "wolf", Seat: 5}, {Claim: "good", Seat: 2}}},
		{"我是女巫。", []claim{{Claim: "role", Role: "witch"}}},
		{"I'm a villager.", []claim{{Claim: "role", Role: "villager"}}},
		{"Seat 5 is not a wolf. 5号不是狼。", nil},
		{"I am the white wolf king.", []claim{{Claim: "role", Role: "white_wolf_king"}}},
	} {
		if got := spokenClaims(tc.speech); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.speech, got, tc.want)
		}
	}
}

func TestClaimsAgainstACardFaceUpAreDropped(t *testing.T) {
	r := table()
	r.revealed[5] = rules.Idiot
	claims := []game.ChoiceJSON{{Cmd: "claim", Value: rules.ClaimRole, NoTarget: true, Roles: []string{"seer", "idiot", "villager"}},
		{Cmd: "claim", Value: rules.ClaimWolf, Targets: []rules.Seat{1, 2, 5}}, {Cmd: "claim", Value: rules.ClaimGood, Targets: []rules.Seat{1, 2, 5}}}
	for _, tc := range []struct {
		c  claim
		ok bool
	}{
		{claim{Claim: "wolf", Seat: 5}, false}, // the idiot's card is face up
		{claim{Claim: "good", Seat: 5}, true},
		{claim{Claim: "wolf", Seat: 2}, true},
		{claim{Claim: "wolf", Seat: 3}, false}, // dead: not a legal target
		{claim{Claim: "role", Role: "witch"}, false},
		{claim{Claim: "role", Role: "seer"}, true},
	} {
		if _, ok := r.claimCommand(tc.c, claims); ok != tc.ok {
			t.Errorf("%v: %v", tc.c, ok)
		}
	}
}
