// Package aiwolf is the AIWolf (人狼知能) gateway: agents written for the
// AIWolf contest's NLP protocol connect over WebSocket and play seats of
// wolfden games. An AIWolf game is a wolfden room whose agent seats the
// gateway holds as connections of the game (game.Sub): the engine, the
// store, secrecy and the bot that plays an absent seat are the server's.
// One conductor goroutine per game (table.go) turns each agent seat's
// frames into packets and its replies into commands and chat.
// docs/aiwolf.md describes it; ../shared/AIWOLF-PROTOCOL.md the protocol.
package aiwolf

// The NLP protocol's packets, as the reference server (aiwolf-nlp-server)
// writes them: snake_case, absent fields omitted.

// The requests.
const (
	ReqName            = "NAME"
	ReqInitialize      = "INITIALIZE"
	ReqDailyInitialize = "DAILY_INITIALIZE"
	ReqTalk            = "TALK"
	ReqWhisper         = "WHISPER"
	ReqDailyFinish     = "DAILY_FINISH"
	ReqVote            = "VOTE"
	ReqDivine          = "DIVINE"
	ReqGuard           = "GUARD"
	ReqAttack          = "ATTACK"
	ReqFinish          = "FINISH"
)

// needsReply says whether an agent answers the request.
func needsReply(req string) bool {
	switch req {
	case ReqInitialize, ReqDailyInitialize, ReqDailyFinish, ReqFinish,
		ReqTalkPhaseStart, ReqTalkBroadcast, ReqTalkPhaseEnd, ReqWhisperPhaseStart, ReqWhisperBroadcast, ReqWhisperPhaseEnd:
		return false
	}
	return true
}

// Packet is one message to an agent. A history is present, as [] when
// empty, in the packets the reference sends it with (TALK and
// DAILY_FINISH the talk; WHISPER, ATTACK and a werewolf's DAILY_FINISH
// the whisper), and absent from the others: hence the pointers.
type Packet struct {
	Request        string   `json:"request"`
	Info           *Info    `json:"info,omitempty"`
	Setting        *Setting `json:"setting,omitempty"`
	TalkHistory    *[]Talk  `json:"talk_history,omitempty"`
	WhisperHistory *[]Talk  `json:"whisper_history,omitempty"`
}

// Info is what the agent knows now. StatusMap and RoleMap are always
// present; the results describe the previous day and night. The fields
// are in the reference's order on the wire (its Info.MarshalJSON writes
// the two maps last).
type Info struct {
	GameID         string            `json:"game_id"`
	Day            int               `json:"day"`
	Agent          string            `json:"agent"`
	Profile        string            `json:"profile,omitempty"`
	MediumResult   *Judge            `json:"medium_result,omitempty"`
	DivineResult   *Judge            `json:"divine_result,omitempty"`
	ExecutedAgent  string            `json:"executed_agent,omitempty"`
	AttackedAgent  string            `json:"attacked_agent,omitempty"`
	VoteList       []Vote            `json:"vote_list,omitempty"`
	AttackVoteList []Vote            `json:"attack_vote_list,omitempty"`
	RemainCount    *int              `json:"remain_count,omitempty"`
	RemainLength   *int              `json:"remain_length,omitempty"`
	RemainSkip     *int              `json:"remain_skip,omitempty"`
	StatusMap      map[string]string `json:"status_map"`
	RoleMap        map[string]string `json:"role_map"`

	// The table builds the two maps as lists in their keys' order, which
	// encodePacket writes instead when set: a packet then costs no map.
	statusList, roleList []pair
}

// pair is an entry of a packet's map.
type pair struct{ k, v string }

// Judge is a divination's or a medium's result.
type Judge struct {
	Day    int    `json:"day"`
	Agent  string `json:"agent"`
	Target string `json:"target"`
	Result string `json:"result"` // HUMAN or WEREWOLF
}

// Vote is one vote, or one wolf's attack vote.
type Vote struct {
	Day    int    `json:"day"`
	Agent  string `json:"agent"`
	Target string `json:"target"`
}

// Talk is one utterance of the talk or the whisper, Skip and Over
// included. Time (unix ms) is the newer schema's; older agents ignore it.
type Talk struct {
	Idx   int    `json:"idx"`
	Day   int    `json:"day"`
	Turn  int    `json:"turn"`
	Agent string `json:"agent"`
	Text  string `json:"text"`
	Skip  bool   `json:"skip"`
	Over  bool   `json:"over"`
	Time  int64  `json:"time"`
}

// Setting is the game's regulation, sent with INITIALIZE and
// DAILY_INITIALIZE; in the reference's order on the wire (role_num_map
// last).
type Setting struct {
	AgentCount     int            `json:"agent_count"`
	MaxDay         *int           `json:"max_day,omitempty"`
	VoteVisibility bool           `json:"vote_visibility"`
	Talk           TalkSetting    `json:"talk"`
	Whisper        TalkSetting    `json:"whisper"`
	Vote           VoteSetting    `json:"vote"`
	AttackVote     VoteSetting    `json:"attack_vote"`
	Timeout        Timeout        `json:"timeout"`
	RoleNumMap     map[string]int `json:"role_num_map"`
}

// TalkSetting bounds the talk (or the whisper) of a day.
type TalkSetting struct {
	MaxCount  MaxCount  `json:"max_count"`
	MaxLength MaxLength `json:"max_length"`
	MaxSkip   int       `json:"max_skip"`
	// Duration (ms), when set, makes the phase a group chat (groupchat.go).
	Duration *int `json:"duration,omitempty"`
}

// MaxCount: utterances an agent may make a day, and rounds a day.
type MaxCount struct {
	PerAgent int `json:"per_agent"`
	PerDay   int `json:"per_day"`
}

// MaxLength bounds an utterance's length: PerTalk cuts it; the part over
// BaseLength (plus MentionLength after an @mention) is charged to
// PerAgent, the agent's length budget for the day. Lengths are in runes
// (spaces not counted unless CountSpaces) or in words (CountInWord).
type MaxLength struct {
	CountInWord   bool `json:"count_in_word"`
	CountSpaces   bool `json:"count_spaces"`
	PerTalk       *int `json:"per_talk,omitempty"`
	MentionLength *int `json:"mention_length,omitempty"`
	PerAgent      *int `json:"per_agent,omitempty"`
	BaseLength    *int `json:"base_length,omitempty"`
}

// VoteSetting: how many times a tied vote is held, and what it allows.
type VoteSetting struct {
	MaxCount      int   `json:"max_count"`
	AllowSelfVote bool  `json:"allow_self_vote"`
	AllowNoTarget *bool `json:"allow_no_target,omitempty"`
}

// Timeout: how long the server waits for an action's reply, and for an
// answer at all (ms).
type Timeout struct {
	Action   int `json:"action"`
	Response int `json:"response"`
}
