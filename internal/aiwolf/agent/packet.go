// Package agent is an AIWolf (人狼知能) player of the NLP protocol over
// WebSocket, written from ../shared/AIWOLF-PROTOCOL.md alone so that it
// checks the gateway against the document rather than against the
// gateway's own types. It plays as a decent simple agent does: the seer
// divines and comes out, everyone votes for a divined wolf or the most
// accused, the wolves attack a claimed seer. Options make it misbehave
// (silence, garbage, a dropped connection, slowness) for the gateway's tests.
package agent

// The requests of the protocol. Only the kinds in needsReply are answered.
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

// needsReply: INITIALIZE, DAILY_INITIALIZE, DAILY_FINISH and FINISH get no
// reply (a reply to them would be read as the answer to the next request by a
// server that does not number its requests).
var needsReply = map[string]bool{ReqName: true, ReqTalk: true, ReqWhisper: true,
	ReqVote: true, ReqDivine: true, ReqGuard: true, ReqAttack: true}

// NeedsReply reports whether the protocol expects an answer to a request.
func NeedsReply(request string) bool { return needsReply[request] }

// Roles, species and statuses as they are spelled on the wire.
const (
	Werewolf  = "WEREWOLF"
	Possessed = "POSSESSED"
	Seer      = "SEER"
	Bodyguard = "BODYGUARD"
	Villager  = "VILLAGER"
	Medium    = "MEDIUM"
	Human     = "HUMAN"
	Alive     = "ALIVE"
	Dead      = "DEAD"
	// NoWinner is the winner of a game stopped at max_day or aborted.
	NoWinner = "NONE"
)

// Packet is one server-to-agent message. Fields the document does not list
// are ignored by the decoder, so a newer server does not break the agent.
type Packet struct {
	Request        string   `json:"request"`
	Info           *Info    `json:"info,omitempty"`
	Setting        *Setting `json:"setting,omitempty"`
	TalkHistory    []Talk   `json:"talk_history,omitempty"`
	WhisperHistory []Talk   `json:"whisper_history,omitempty"`
	NewTalk        *Talk    `json:"new_talk,omitempty"`
	NewWhisper     *Talk    `json:"new_whisper,omitempty"`
}

// Info is the receiver's view of the game. The results fields describe the
// previous day or night.
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
	StatusMap      map[string]string `json:"status_map"`
	RoleMap        map[string]string `json:"role_map"`
	RemainCount    *int              `json:"remain_count,omitempty"`
	RemainLength   *int              `json:"remain_length,omitempty"`
	RemainSkip     *int              `json:"remain_skip,omitempty"`
}

// Judge is a divination's or a medium's result: HUMAN or WEREWOLF.
type Judge struct {
	Day    int    `json:"day"`
	Agent  string `json:"agent"`
	Target string `json:"target"`
	Result string `json:"result"`
}

// Vote is one vote of an exile or of the wolves' attack.
type Vote struct {
	Day    int    `json:"day"`
	Agent  string `json:"agent"`
	Target string `json:"target"`
}

// Talk is one utterance of the day's talk or of the wolves' whisper.
type Talk struct {
	Idx   int    `json:"idx"`
	Day   int    `json:"day"`
	Turn  int    `json:"turn"`
	Agent string `json:"agent"`
	Text  string `json:"text"`
	Skip  bool   `json:"skip"`
	Over  bool   `json:"over"`
	Time  int64  `json:"time,omitempty"`
}

// Setting is the game's regulation, sent with INITIALIZE and DAILY_INITIALIZE.
type Setting struct {
	AgentCount     int            `json:"agent_count"`
	MaxDay         *int           `json:"max_day,omitempty"`
	RoleNumMap     map[string]int `json:"role_num_map"`
	VoteVisibility bool           `json:"vote_visibility"`
	Talk           TalkSetting    `json:"talk"`
	Whisper        TalkSetting    `json:"whisper"`
	Vote           VoteSetting    `json:"vote"`
	AttackVote     AttackSetting  `json:"attack_vote"`
	Timeout        TimeoutSetting `json:"timeout"`
}

// TalkSetting limits the talk or the whisper of a day.
type TalkSetting struct {
	MaxCount  CountSetting  `json:"max_count"`
	MaxLength LengthSetting `json:"max_length"`
	MaxSkip   int           `json:"max_skip"`
	// Duration set means the newer group-chat mode.
	Duration *int64 `json:"duration,omitempty"`
}

// CountSetting is how many utterances an agent and a day may have.
type CountSetting struct {
	PerAgent int `json:"per_agent"`
	PerDay   int `json:"per_day"`
}

// LengthSetting is how utterances are measured; an absent limit is no limit.
type LengthSetting struct {
	CountInWord   bool `json:"count_in_word"`
	CountSpaces   bool `json:"count_spaces"`
	PerTalk       *int `json:"per_talk,omitempty"`
	MentionLength *int `json:"mention_length,omitempty"`
	PerAgent      *int `json:"per_agent,omitempty"`
	BaseLength    *int `json:"base_length,omitempty"`
}

// VoteSetting rules the exile vote.
type VoteSetting struct {
	MaxCount      int  `json:"max_count"`
	AllowSelfVote bool `json:"allow_self_vote"`
}

// AttackSetting rules the wolves' attack vote.
type AttackSetting struct {
	MaxCount      int  `json:"max_count"`
	AllowSelfVote bool `json:"allow_self_vote"`
	AllowNoTarget bool `json:"allow_no_target"`
}

// TimeoutSetting is in milliseconds.
type TimeoutSetting struct {
	Action   int64 `json:"action"`
	Response int64 `json:"response"`
}
