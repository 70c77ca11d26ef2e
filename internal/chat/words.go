package chat

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/rules"
)

// The words of the text commands are the catalogue's (chat.word.*,
// chat.verb.*), in every language at once: a group set to English still
// takes 查验 5, and a 繁體 group takes 查验 5 too. A word may start with a
// slash (/join), as bots' commands do on Telegram and Discord.

// Control words: what a user asks of the group's game rather than of his
// seat.
const (
	wordNewGame = "newgame" // 狼人杀 开局 [preset]
	wordJoin    = "join"
	wordLeave   = "leave"
	wordStart   = "start"
	wordPause   = "pause"
	wordResume  = "resume"
	wordExtend  = "extend"  // extend N: the deadline N minutes later
	wordRedCard = "redcard" // redcard N
	wordReplace = "replace" // replace N: a bot plays seat N
	wordLang    = "lang"    // lang en
	wordHelp    = "help"
	wordLink    = "link" // the seat's web page again, privately
	// wordDecoy is what a night's decoy button sends ("#3 decoy 5"): no
	// user types it, and typed it does what the button does.
	wordDecoy = "decoy"
)

var controlWords = []string{wordNewGame, wordJoin, wordLeave, wordStart, wordPause, wordResume,
	wordExtend, wordRedCard, wordReplace, wordLang, wordHelp, wordLink}

// verbCmds are the commands a prompt offers by a verb of the catalogue.
var verbCmds = []rules.CmdKind{rules.CmdAttack, rules.CmdHeal, rules.CmdPoison, rules.CmdProtect,
	rules.CmdCheck, rules.CmdShoot, rules.CmdVote, rules.CmdAbstain, rules.CmdRun, rules.CmdWithdraw,
	rules.CmdBadge, rules.CmdTear, rules.CmdExplode, rules.CmdCharm, rules.CmdSkip, rules.CmdOrder,
	rules.CmdTake, rules.CmdLink, rules.CmdVoters, rules.CmdAlly, rules.CmdDuel, rules.CmdCurse,
	rules.CmdDream, rules.CmdSwap, rules.CmdHunt, rules.CmdFear, rules.CmdModel, rules.CmdSilence,
	rules.CmdVoteBan}

// A parsed line: a control word or a seat's command, with its numbers.
type parsed struct {
	word string        // a control word, or ""
	cmd  rules.CmdKind // else the command
	args []int         // the numbers that followed
	rest string        // the text after the word (a preset, a language)
	seat rules.Seat    // "#3 投 7" / "3号 投 7": the seat it is meant for (0: his own)
}

// vocabulary maps every spelling (lowercase, without the slash) to its
// word or command; longer spellings are tried first.
type vocabulary struct {
	words map[string]string
	cmds  map[string]rules.CmdKind
	order []string // every spelling, longest first
}

var vocab = buildVocabulary()

func buildVocabulary() *vocabulary {
	v := &vocabulary{words: map[string]string{}, cmds: map[string]rules.CmdKind{}}
	add := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if s != "" {
			v.order = append(v.order, s)
		}
		return s
	}
	for _, l := range i18n.Languages {
		for _, w := range controlWords {
			for _, s := range strings.Split(i18n.Text(l, "chat.word."+w, nil), "|") {
				if s = add(s); s != "" {
					v.words[s] = w
				}
			}
		}
		for _, c := range verbCmds {
			for _, s := range strings.Split(i18n.Text(l, "chat.verb."+c.String(), nil), "|") {
				if s = add(s); s != "" {
					v.cmds[s] = c
				}
			}
		}
	}
	for _, c := range verbCmds { // the commands' own names, as the API has them
		if _, ok := v.cmds[c.String()]; !ok && v.words[c.String()] == "" {
			v.cmds[add(c.String())] = c
		}
	}
	if _, ok := v.words["pass"]; !ok {
		v.cmds[add("pass")] = rules.CmdSkip
	}
	// Longest first, so 撕警徽 is not read as 警徽.
	for i := 1; i < len(v.order); i++ {
		for j := i; j > 0 && len(v.order[j]) > len(v.order[j-1]); j-- {
			v.order[j], v.order[j-1] = v.order[j-1], v.order[j]
		}
	}
	return v
}

// maxLine bounds what is parsed: a command is short; a longer line is
// chat, or nonsense.
const maxLine = 300

// parse reads one line; ok false: no word or command starts it.
func parse(text string) (p parsed, ok bool) {
	s := strings.TrimSpace(text)
	if len(s) > maxLine {
		return p, false
	}
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimPrefix(s, "/")
	// A bot's command on Telegram may name the bot: /join@wolfdenbot.
	if i := strings.IndexByte(s, '@'); i > 0 && !strings.ContainsAny(s[:i], " \t") {
		j := strings.IndexAny(s[i:], " \t")
		if j < 0 {
			s = s[:i]
		} else {
			s = s[:i] + s[i+j:]
		}
	}
	s, p.seat = seatPrefix(s)
	low := strings.ToLower(s)
	if strings.HasPrefix(low, wordDecoy) {
		p.word, p.rest = wordDecoy, strings.TrimSpace(s[len(wordDecoy):])
		p.args, _ = numbers(p.rest)
		return p, true
	}
	for _, sp := range vocab.order {
		if !strings.HasPrefix(low, sp) {
			continue
		}
		rest := low[len(sp):]
		// A Latin word must end where the spelling does: "votes" is not
		// "vote"s.
		if r := []rune(sp); r[len(r)-1] < 0x80 && rest != "" && (unicode.IsLetter(rune(rest[0]))) {
			continue
		}
		p.rest = strings.TrimSpace(s[len(sp):])
		if w, isWord := vocab.words[sp]; isWord {
			p.word = w
		} else {
			p.cmd = vocab.cmds[sp]
		}
		var bad bool
		p.args, bad = numbers(p.rest)
		if bad && p.word == "" {
			return p, false
		}
		return p, true
	}
	// A bare number: the prompt's only kind of choice on that seat.
	if n, err := strconv.Atoi(strings.TrimSuffix(s, "号")); err == nil && p.seat == 0 {
		p.args = []int{n}
		return p, true
	}
	return p, false
}

// seatPrefix takes "#3 " or "3号 " off the front: a command meant for seat 3.
func seatPrefix(s string) (string, rules.Seat) {
	num := func(t string) (int, bool) {
		n, err := strconv.Atoi(t)
		return n, err == nil && n > 0 && n <= rules.MaxSeats
	}
	if strings.HasPrefix(s, "#") {
		f := strings.Fields(s[1:])
		if len(f) > 1 {
			if n, ok := num(f[0]); ok {
				return strings.TrimSpace(strings.TrimPrefix(s[1:], f[0])), rules.Seat(n)
			}
		}
	}
	for _, mark := range []string{"号", "號"} {
		if i := strings.Index(s, mark); i > 0 {
			if n, ok := num(s[:i]); ok && strings.TrimSpace(s[i+len(mark):]) != "" {
				return strings.TrimSpace(s[i+len(mark):]), rules.Seat(n)
			}
		}
	}
	return s, 0
}

// numbers reads the seat numbers of "5", "2 5", "2、5", "5号"; bad: there
// is something else in it.
func numbers(s string) (out []int, bad bool) {
	f := strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",，、号號#", r)
	})
	for _, x := range f {
		n, err := strconv.Atoi(x)
		if err != nil || n < 0 || n > 99 {
			return out, true
		}
		out = append(out, n)
	}
	return out, false
}
