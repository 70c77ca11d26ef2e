package agent

import (
	"slices"
	"strings"
)

// state is what the agent knows, rebuilt from the packets: the last info's
// maps, its own results and what the talk said. The talk arrives as deltas,
// so it is kept by (day, idx) and a delta seen twice (after a reconnect) is
// not counted twice.
type state struct {
	gameID  string
	me      string
	role    string
	day     int
	setting *Setting
	status  map[string]string
	roles   map[string]string

	seen     map[[2]int]bool // (day, idx) of the talk already read
	wseen    map[[2]int]bool // the same for the whisper
	divined  map[string]string
	judged   []Judge             // own divinations and medium results, in order
	told     int                 // how many of judged were said in the talk
	claims   map[string]string   // agent -> role he came out as
	blacks   map[string][]string // target -> speakers who called him a wolf
	whites   map[string][]string // target -> speakers who called him human
	accused  map[string]int      // target -> votes declared or accusations
	attackTo string              // the target a fellow wolf proposed in the whisper

	// this day's talk of the agent itself
	talkDay    int
	cameOut    bool
	declared   string
	whisperDay int
	whispered  string
	executed   []string
	attacked   []string
	lastVotes  []Vote
}

func newState() *state {
	return &state{status: map[string]string{}, roles: map[string]string{},
		seen: map[[2]int]bool{}, wseen: map[[2]int]bool{}, divined: map[string]string{},
		claims: map[string]string{}, blacks: map[string][]string{}, whites: map[string][]string{},
		accused: map[string]int{}, talkDay: -1, whisperDay: -1}
}

// update folds a packet into the state.
func (s *state) update(p *Packet) {
	if p.Setting != nil {
		s.setting = p.Setting
	}
	if in := p.Info; in != nil {
		if in.GameID != "" && in.GameID != s.gameID && s.gameID != "" && p.Request == ReqInitialize {
			// A new game on the same connection: forget the old one.
			*s = *newState()
			s.setting = p.Setting
		}
		if in.GameID != "" {
			s.gameID = in.GameID
		}
		s.day = in.Day
		if in.Agent != "" {
			s.me = in.Agent
		}
		if in.StatusMap != nil {
			s.status = in.StatusMap
		}
		if in.RoleMap != nil {
			s.roles = in.RoleMap
			if r, ok := in.RoleMap[s.me]; ok {
				s.role = r
			}
		}
		for _, j := range []*Judge{in.DivineResult, in.MediumResult} {
			if j != nil && j.Target != "" && !slices.Contains(s.judged, *j) {
				s.judged = append(s.judged, *j)
				s.divined[j.Target] = j.Result
			}
		}
		if in.ExecutedAgent != "" && !slices.Contains(s.executed, in.ExecutedAgent) {
			s.executed = append(s.executed, in.ExecutedAgent)
		}
		if in.AttackedAgent != "" && !slices.Contains(s.attacked, in.AttackedAgent) {
			s.attacked = append(s.attacked, in.AttackedAgent)
		}
		if in.VoteList != nil {
			s.lastVotes = in.VoteList
		}
	}
	for _, t := range p.TalkHistory {
		s.read(t, false)
	}
	for _, t := range p.WhisperHistory {
		s.read(t, true)
	}
	if p.NewTalk != nil {
		s.read(*p.NewTalk, false)
	}
	if p.NewWhisper != nil {
		s.read(*p.NewWhisper, true)
	}
}

// read takes one utterance into account once.
func (s *state) read(t Talk, whisper bool) {
	seen := s.seen
	if whisper {
		seen = s.wseen
	}
	k := [2]int{t.Day, t.Idx}
	if seen[k] {
		return
	}
	seen[k] = true
	if t.Skip || t.Over || t.Agent == s.me {
		return
	}
	for _, st := range parse(t.Text, s.status) {
		switch st.verb {
		case "COMINGOUT":
			if st.target == t.Agent {
				s.claims[t.Agent] = st.object
			}
		case "DIVINED", "IDENTIFIED":
			if st.object == Werewolf {
				s.blacks[st.target] = appendOnce(s.blacks[st.target], t.Agent)
			} else if st.object == Human {
				s.whites[st.target] = appendOnce(s.whites[st.target], t.Agent)
			}
			if st.verb == "DIVINED" && s.claims[t.Agent] == "" {
				s.claims[t.Agent] = Seer
			}
		case "VOTE", "ESTIMATE":
			if st.verb == "VOTE" || st.object == Werewolf || st.object == Possessed {
				s.accused[st.target]++
			}
		case "ATTACK":
			if whisper {
				s.attackTo = st.target
			}
		case "WOLFWORD":
			s.accused[st.target]++
		}
	}
}

func appendOnce(l []string, x string) []string {
	if slices.Contains(l, x) {
		return l
	}
	return append(l, x)
}

func (s *state) alive(name string) bool { return s.status[name] == Alive }

// names is the agents in their sorted order, so that every choice walks them
// in the same order whatever the maps' iteration order.
func (s *state) names() []string {
	l := make([]string, 0, len(s.status))
	for n := range s.status {
		l = append(l, n)
	}
	slices.Sort(l)
	return l
}

// wolf reports whether the agent knows name to be a fellow wolf.
func (s *state) fellow(name string) bool {
	return s.role == Werewolf && name != s.me && s.roles[name] == Werewolf
}

// statement is one clause of the protocol language: VERB TARGET [OBJECT].
type statement struct{ verb, target, object string }

var verbs = map[string]bool{"COMINGOUT": true, "ESTIMATE": true, "DIVINED": true,
	"IDENTIFIED": true, "VOTE": true, "VOTED": true, "ATTACK": true, "ATTACKED": true,
	"DIVINATION": true, "GUARD": true, "GUARDED": true}

var wolfWords = []string{"人狼", "werewolf", "wolf", "狼"}

// parse reads the clauses of the protocol language in a text, nested ones
// included (BECAUSE (…) (…)); a free text that names an agent beside a word
// for wolf counts as an accusation of him (the agents of the NLP contest talk
// in natural language).
func parse(text string, agents map[string]string) []statement {
	known := func(n string) bool { _, ok := agents[n]; return ok }
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '(' || r == ')' || r == '\n' || r == '\t' || r == ',' || r == '、' || r == '。'
	})
	var out []statement
	for i, f := range fields {
		if !verbs[f] || i+1 >= len(fields) || !known(fields[i+1]) {
			continue
		}
		st := statement{verb: f, target: fields[i+1]}
		if i+2 < len(fields) {
			st.object = fields[i+2]
		}
		out = append(out, st)
	}
	if len(out) > 0 {
		return out
	}
	lower := strings.ToLower(text)
	hasWolf := false
	for _, w := range wolfWords {
		if strings.Contains(lower, w) {
			hasWolf = true
			break
		}
	}
	if !hasWolf {
		return nil
	}
	// Names are looked for inside the text: natural language glues them to
	// the words around them ("Agent[02]が人狼だと思うよ").
	for name := range agents {
		if strings.Contains(text, name) {
			out = append(out, statement{verb: "WOLFWORD", target: name})
		}
	}
	return out
}
