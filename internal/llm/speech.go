package llm

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/rules"
)

// A speech is checked sentence by sentence against the public facts of the
// seat's record: the seats of the table, who is alive, who was exiled, who
// has been heard. A sentence that states something those facts contradict
// is left out; a speech with nothing left is replaced by a neutral line.
// Lies about what is not public (a card, a check) are the game and stay.

// seatPat matches a mention of a seat: "seat 5", "player 5", "#5", "No. 5",
// "5号", "五号"; one of its groups holds the number.
const seatPat = `(?:(?:seat|player|no\.?|number|#)\s*(\d{1,3})|(\d{1,3})\s*[号號]|([一二两兩三四五六七八九十]{1,3})\s*[号號])`

var seatRe = regexp.MustCompile(`(?i)` + seatPat)

// about compiles a pattern where S stands for a seat mention.
func about(p string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + strings.ReplaceAll(p, "S", seatPat))
}

var (
	// a seat said to be alive
	saidAlive = []*regexp.Regexp{
		about(`S\s*(?:is|are|'s)\s+(?:still\s+)?(?:alive|living|in the game|with us|among us)`),
		about(`S\s+(?:is\s+)?(?:survived|lives on|is not dead|isn't dead|didn't die|did not die|never died|still lives)`),
		about(`S\s*(?:还|仍然?|依然)?\s*(?:活着|活著|没死|沒死|没有死|沒有死|存活|还在场|還在場)`),
	}
	// a seat said to speak now or later
	saidToSpeak = []*regexp.Regexp{
		about(`S\s+(?:will|is going to|is about to|gets to|is|shall|can)\s+(?:speak|speaking|talk|talking|say|saying)`),
		about(`S\s+(?:speaks|talks)\s+(?:next|now|later|after)`),
		about(`(?:let|over to|now|then)\s+S\s+(?:speak|talk)`),
		about(`(?:轮到|輪到|请|請|让|讓|等|下面是|接下来是?|接下來是?)\s*S\s*(?:发言|發言|说话|說話|讲|講)`),
		about(`S\s*(?:正在|将|將|会|會|要|马上|馬上|接着|接著)\s*(?:发言|發言|说话|說話|讲|講)`),
	}
	// a seat said to have spoken
	saidSpoke = []*regexp.Regexp{
		about(`S\s+(?:said|says|claimed|claims|told us|stated|argued|admitted)`),
		about(`S\s*(?:说过|說過|说了|說了|说|說|讲过|講過|声称|聲稱|表示)`),
	}
	// an exile denied
	exileDenied = []*regexp.Regexp{
		about(`S\s+(?:was|were|has|had)?\s*(?:not|never)\s+(?:been\s+)?(?:exiled|voted out|eliminated|banished)`),
		about(`S\s+(?:wasn't|hasn't been|was never)\s+(?:exiled|voted out|eliminated|banished)`),
		about(`S\s*(?:没有?|沒有?|未|并没有?|並沒有?)\s*(?:被)?\s*(?:放逐|投出|票出|出局|公投出局)`),
	}
	// a seat said to be dead; exiled says whether the words name an exile
	saidDead = []*regexp.Regexp{
		about(`S\s+(?:is|was|has been|got)\s+(?:dead|killed|poisoned|shot)`),
		about(`S\s+(?:died|has died)`),
		about(`S\s*(?:已经|已經|已)?\s*(?:死了|死亡|被刀了?|被杀了?|被殺了?|被毒了?)`),
	}
	saidExiled = []*regexp.Regexp{
		about(`S\s+(?:is|was|has been|got)\s+(?:exiled|voted out|eliminated|banished)`),
		about(`S\s*(?:已经|已經|已)?\s*(?:被放逐了?|被投出去?了?|被票出去?了?|出局了)`),
	}
)

// sentenceEnd splits a speech after each sentence's end.
var sentenceEnd = regexp.MustCompile(`[.!?。！？；;\n]+`)

func sentences(text string) []string {
	var out []string
	last := 0
	for _, m := range sentenceEnd.FindAllStringIndex(text, -1) {
		out = append(out, text[last:m[1]])
		last = m[1]
	}
	if last < len(text) {
		out = append(out, text[last:])
	}
	return out
}

// mentionSeat reads the seat number of a mention's submatches.
func mentionSeat(groups []string) int {
	for _, g := range groups {
		if g == "" {
			continue
		}
		if n, err := strconv.Atoi(g); err == nil {
			return n
		}
		return chineseNumber(g)
	}
	return 0
}

var zhDigits = map[rune]int{'一': 1, '二': 2, '两': 2, '兩': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

// chineseNumber reads 一 … 九十九 (十一, 二十, 二十三).
func chineseNumber(s string) int {
	n, cur := 0, 0
	for _, r := range s {
		if r == '十' {
			if cur == 0 {
				cur = 1
			}
			n, cur = n+cur*10, 0
			continue
		}
		cur = zhDigits[r]
	}
	return n + cur
}

// matched lists the seats that the patterns find stated in s.
func matched(s string, pats []*regexp.Regexp) []int {
	var out []int
	for _, p := range pats {
		for _, m := range p.FindAllStringSubmatch(s, -1) {
			if n := mentionSeat(m[1:4]); n != 0 {
				out = append(out, n)
			}
		}
	}
	return out
}

// checked is a speech once checked: the text to say and why sentences were
// left out.
type checked struct {
	Text    string
	Dropped []string // one reason per sentence left out
	Neutral bool     // nothing was left: the neutral line is said
}

// checkSpeech checks a speech against the record's public facts.
func (r *record) checkSpeech(text, lang string) checked {
	var out checked
	alive := r.alive()
	var keep strings.Builder
	for _, s := range sentences(strings.ReplaceAll(text, "\r", "")) {
		if why := r.contradicts(s, alive); why != "" {
			out.Dropped = append(out.Dropped, why)
			continue
		}
		if utf8.RuneCountInString(keep.String()+s) > game.MaxChat {
			out.Dropped = append(out.Dropped, "too long")
			break
		}
		keep.WriteString(s)
	}
	out.Text = strings.Join(strings.Fields(keep.String()), " ")
	if !hasWords(out.Text) {
		out.Text, out.Neutral = i18n.Text(lang, "ui.llm.neutral", nil), true
	}
	return out
}

func hasWords(s string) bool {
	for _, r := range s {
		if r > 0x7f || ('a' <= r|0x20 && r|0x20 <= 'z') || ('0' <= r && r <= '9') {
			return true
		}
	}
	return false
}

// contradicts names the public fact a sentence denies, or "".
func (r *record) contradicts(s string, alive uint32) string {
	for _, m := range seatRe.FindAllStringSubmatch(s, -1) {
		if n := mentionSeat(m[1:4]); n < 1 || n > r.players {
			return "seat " + strconv.Itoa(n) + " does not exist"
		}
	}
	isAlive := func(n int) bool { return alive&(1<<uint(n)) != 0 }
	for _, n := range matched(s, saidAlive) {
		if !isAlive(n) {
			return "seat " + strconv.Itoa(n) + " is dead, not alive"
		}
	}
	for _, n := range matched(s, saidToSpeak) {
		if !isAlive(n) {
			return "seat " + strconv.Itoa(n) + " is dead and speaks no more"
		}
	}
	for _, n := range matched(s, saidSpoke) {
		if r.heard&(1<<uint(n)) == 0 {
			return "seat " + strconv.Itoa(n) + " has not spoken"
		}
	}
	for _, n := range matched(s, exileDenied) {
		if r.exiled&(1<<uint(n)) != 0 {
			return "seat " + strconv.Itoa(n) + " was exiled"
		}
	}
	for _, n := range matched(s, saidDead) {
		if isAlive(n) {
			return "seat " + strconv.Itoa(n) + " is alive"
		}
	}
	for _, n := range matched(s, saidExiled) {
		if r.exiled&(1<<uint(n)) == 0 {
			return "seat " + strconv.Itoa(n) + " was not exiled"
		}
	}
	return ""
}

// The claims a speech makes, read from its words as our bots' claims are
// structured: "I am the seer", "seat 5 is a wolf", "5号是好人".
var (
	roleWords   = roleAlternation()
	claimsRole  = regexp.MustCompile(`(?i)(?:\bI\s*(?:am|'m)\s+(?:the\s+|a\s+|an\s+|really\s+the\s+)?|我\s*(?:才|就)?\s*是\s*(?:真)?)(` + roleWords + `)`)
	claimsWolf  = []*regexp.Regexp{about(`S\s*(?:is|'s)\s+(?:a\s+)?(?:wolf|werewolf)`), about(`(?:checked|found)\s+S\s+(?:as\s+|to be\s+)?(?:a\s+)?wolf`), about(`S\s*(?:是|是个|是個)?\s*(?:狼人|狼|查杀|查殺)`), about(`(?:查杀|查殺)\s*S`)}
	claimsGood  = []*regexp.Regexp{about(`S\s*(?:is|'s)\s+(?:good|innocent|clean|a villager|a good (?:guy|person|player))`), about(`(?:checked|cleared|vouch for)\s+S`), about(`S\s*(?:是|是个|是個)?\s*(?:好人|金水)`), about(`金水\s*S`)}
	roleAliases = map[string]rules.Role{"平民": rules.Villager, "民": rules.Villager, "预言": rules.Seer, "預言": rules.Seer}
)

// roleAlternation is every card's name in the three languages and its id,
// longest first so that "white wolf king" wins over "wolf".
func roleAlternation() string {
	var words []string
	for _, r := range rules.Roles() {
		if r == rules.NoRole {
			continue
		}
		words = append(words, regexp.QuoteMeta(r.String()), regexp.QuoteMeta(strings.ReplaceAll(r.String(), "_", " ")))
		for _, l := range i18n.Languages {
			words = append(words, regexp.QuoteMeta(strings.ToLower(i18n.Role(l, r))))
		}
	}
	for w := range roleAliases {
		words = append(words, w)
	}
	sortLongestFirst(words)
	return strings.Join(words, "|")
}

func sortLongestFirst(w []string) {
	for i := 1; i < len(w); i++ {
		for j := i; j > 0 && (len(w[j]) > len(w[j-1]) || len(w[j]) == len(w[j-1]) && w[j] < w[j-1]); j-- {
			w[j], w[j-1] = w[j-1], w[j]
		}
	}
}

// roleOf reads a role named in any language.
func roleOf(word string) rules.Role {
	w := strings.ToLower(strings.TrimSpace(word))
	if r, ok := roleAliases[w]; ok {
		return r
	}
	for _, r := range rules.Roles() {
		if r == rules.NoRole {
			continue
		}
		if w == r.String() || w == strings.ReplaceAll(r.String(), "_", " ") {
			return r
		}
		for _, l := range i18n.Languages {
			if w == strings.ToLower(i18n.Role(l, r)) {
				return r
			}
		}
	}
	return rules.NoRole
}

// spokenClaims are the claims a checked speech states, in its order.
func spokenClaims(text string) []claim {
	var out []claim
	for _, m := range claimsRole.FindAllStringSubmatch(text, -1) {
		if r := roleOf(m[1]); r != rules.NoRole {
			out = append(out, claim{Claim: "role", Role: r.String()})
		}
	}
	for _, n := range matched(text, claimsWolf) {
		out = append(out, claim{Claim: "wolf", Seat: seatArg(n)})
	}
	for _, n := range matched(text, claimsGood) {
		out = append(out, claim{Claim: "good", Seat: seatArg(n)})
	}
	return out
}
