package agent

import (
	"math/rand/v2"
	"strings"
	"unicode"
)

// player chooses the agent's replies from its state. Every random choice
// draws from rng in the order of the requests, so one seed and one series of
// packets give the same replies.
type player struct {
	s   *state
	rng *rand.Rand
}

// wolfSide reports whether the agent plays for the wolves.
func (p *player) wolfSide() bool { return p.s.role == Werewolf || p.s.role == Possessed }

// others is the living agents other than the agent itself (and its fellow
// wolves when it is one), sorted.
func (p *player) others(skipFellows bool) []string {
	var l []string
	for _, n := range p.s.names() {
		if n == p.s.me || !p.s.alive(n) || (skipFellows && p.s.fellow(n)) {
			continue
		}
		l = append(l, n)
	}
	return l
}

// pick draws one of the names with the highest score; nil scores draw
// uniformly. It returns "" for an empty list.
func (p *player) pick(names []string, score func(string) int) string {
	if len(names) == 0 {
		return ""
	}
	best := names[:0:0]
	top := 0
	for _, n := range names {
		v := 0
		if score != nil {
			v = score(n)
		}
		switch {
		case len(best) == 0 || v > top:
			best, top = []string{n}, v
		case v == top:
			best = append(best, n)
		}
	}
	return best[p.rng.IntN(len(best))]
}

// suspicion is how wolfish a villager-side agent finds name.
func (p *player) suspicion(name string) int {
	s := p.s
	switch s.divined[name] {
	case Werewolf:
		return 1000
	case Human:
		return -1000
	}
	v := 0
	for _, by := range s.blacks[name] {
		if !p.liar(by) {
			v += 3
		}
	}
	if p.liar(name) {
		v += 20
	}
	v -= len(s.whites[name])
	v += s.accused[name]
	return v
}

// liar reports whether speaker called a seat wolf that the agent knows is
// human (itself, or one its own results cleared): he is on the wolves' side.
func (p *player) liar(speaker string) bool {
	s := p.s
	for target, by := range s.blacks {
		if !contains(by, speaker) {
			continue
		}
		if (target == s.me && s.role != Werewolf) || s.divined[target] == Human {
			return true
		}
	}
	for target, by := range s.whites {
		if contains(by, speaker) && s.divined[target] == Werewolf {
			return true
		}
	}
	return false
}

func contains(l []string, x string) bool {
	for _, y := range l {
		if y == x {
			return true
		}
	}
	return false
}

// threat is how much a wolf wants name gone: a claimed seer or medium first,
// then whoever called a wolf out.
func (p *player) threat(name string) int {
	s := p.s
	v := 0
	switch s.claims[name] {
	case Seer:
		v += 50
	case Medium:
		v += 30
	case Bodyguard:
		v += 20
	}
	for target, by := range s.blacks {
		if contains(by, name) && (target == s.me || s.fellow(target)) {
			v += 10
		}
	}
	return v + s.accused[name]
}

// voteTarget is the agent's choice for the exile.
func (p *player) voteTarget() string {
	switch p.s.role {
	case Werewolf:
		return p.pick(p.others(true), p.threat)
	case Possessed:
		// The possessed claimed seer: the other claimers are his rivals.
		return p.pick(p.others(false), func(n string) int {
			if p.s.claims[n] == Seer {
				return 10 + p.s.accused[n]
			}
			return p.s.accused[n]
		})
	}
	return p.pick(p.others(false), p.suspicion)
}

// divineTarget is a living agent the seer has not divined yet, the most
// suspect first.
func (p *player) divineTarget() string {
	var l []string
	for _, n := range p.others(false) {
		if _, done := p.s.divined[n]; !done {
			l = append(l, n)
		}
	}
	if len(l) == 0 {
		l = p.others(false)
	}
	return p.pick(l, p.suspicion)
}

// guardTarget protects a claimed seer or medium the bodyguard believes.
func (p *player) guardTarget() string {
	return p.pick(p.others(false), func(n string) int {
		v := 0
		switch p.s.claims[n] {
		case Seer:
			v = 20
		case Medium:
			v = 10
		}
		if p.liar(n) {
			v -= 100
		}
		return v - p.suspicion(n)
	})
}

// attackTarget follows a fellow wolf's whispered proposal, else the threat.
func (p *player) attackTarget() string {
	l := p.others(true)
	if t := p.s.attackTo; t != "" && contains(l, t) {
		return t
	}
	return p.pick(l, p.threat)
}

// talk is the next utterance of the day, or Over. A seer comes out once it
// has a result and then tells each result; the possessed claims seer with a
// made-up wolf; the medium tells its results; everyone then declares his vote
// when it changed. remain is the utterances the server still allows.
func (p *player) talk(remain *int, lim LengthSetting, remainLength *int) string {
	s := p.s
	if s.talkDay != s.day {
		s.talkDay, s.declared = s.day, ""
	}
	if remain != nil && *remain <= 0 {
		return Over
	}
	// Each case says what it would change; it changes it only once the text
	// is known to fit, so a refused utterance is tried again later.
	var text string
	var commit func()
	switch {
	case s.day == 0:
		return Over
	case (s.role == Seer || s.role == Medium) && s.told < len(s.judged):
		if !s.cameOut {
			text, commit = "COMINGOUT "+s.me+" "+s.role, func() { s.cameOut = true }
			break
		}
		j := s.judged[s.told]
		verb := "DIVINED"
		if s.role == Medium {
			verb = "IDENTIFIED"
		}
		text, commit = verb+" "+j.Target+" "+j.Result, func() { s.told++ }
	case s.role == Possessed && !s.cameOut:
		text, commit = "COMINGOUT "+s.me+" "+Seer, func() { s.cameOut = true }
	case s.role == Possessed && s.told == 0:
		t := p.pick(p.others(false), func(n string) int { return 2*p.s.accused[n] - len(s.blacks[n]) })
		if t == "" {
			return Over
		}
		text, commit = "DIVINED "+t+" "+Werewolf, func() { s.told = 1 }
	default:
		t := p.voteTarget()
		if t == "" || t == s.declared {
			return Over
		}
		text, commit = "VOTE "+t, func() { s.declared = t }
	}
	if !fits(text, lim, remainLength) {
		return Over
	}
	commit()
	return text
}

// whisper proposes the attack once a day to the other wolves.
func (p *player) whisper(lim LengthSetting, remainLength *int) string {
	s := p.s
	if s.whisperDay == s.day {
		return Over
	}
	s.whisperDay = s.day
	t := p.attackTarget()
	if t == "" {
		return Over
	}
	text := "ATTACK " + t
	if !fits(text, lim, remainLength) {
		return Over
	}
	s.attackTo = t
	return text
}

// Over ends the agent's talk for the day; Skip passes one turn.
const (
	Over = "Over"
	Skip = "Skip"
)

// fits reports whether text may be said under the length rules: per_talk
// would truncate it, and what it has beyond base_length (plus mention_length
// after an @mention) is charged to what remains of per_agent.
func fits(text string, lim LengthSetting, remainLength *int) bool {
	n := length(text, lim)
	if lim.PerTalk != nil && n > *lim.PerTalk {
		return false
	}
	if remainLength == nil {
		return true
	}
	free := 0
	if lim.BaseLength != nil {
		free = *lim.BaseLength
	}
	if lim.MentionLength != nil && strings.Contains(text, "@") {
		free += *lim.MentionLength
	}
	return n-free <= *remainLength
}

// length counts runes (without spaces unless count_spaces) or words.
func length(text string, lim LengthSetting) int {
	if lim.CountInWord {
		return len(strings.Fields(text))
	}
	n := 0
	for _, r := range text {
		if !lim.CountSpaces && unicode.IsSpace(r) {
			continue
		}
		n++
	}
	return n
}
