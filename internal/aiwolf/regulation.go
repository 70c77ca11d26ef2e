package aiwolf

import (
	"fmt"
	"time"

	"github.com/wolfden/wolfden/rules"
)

// AgentName is seat s's in-game name: Agent[01]… (custom profiles off).
func AgentName(s rules.Seat) string {
	if s >= 0 && int(s) < len(agentNames) {
		return agentNames[s]
	}
	return fmt.Sprintf("Agent[%02d]", int(s))
}

// agentNames are the names of seats 0 to 99, made once: every packet
// names every seat.
var agentNames = func() (n [100]string) {
	for i := range n {
		n[i] = fmt.Sprintf("Agent[%02d]", i)
	}
	return n
}()

// seatOf reads an in-game name back; 0 when it names no seat of n.
func seatOf(name string, n int) rules.Seat {
	var x int
	if len(name) != 9 || name[:6] != "Agent[" || name[8] != ']' {
		return 0
	}
	if _, err := fmt.Sscanf(name[6:8], "%02d", &x); err != nil || x < 1 || x > n {
		return 0
	}
	return rules.Seat(x)
}

// roleName is a wolfden card's AIWolf name. The AIWolf regulations hold
// only these cards; another card (a mixed room on another board) is told
// by its nearest AIWolf kind, its camp.
func roleName(r rules.Role) string {
	switch r {
	case rules.Werewolf:
		return "WEREWOLF"
	case rules.Possessed:
		return "POSSESSED"
	case rules.Seer:
		return "SEER"
	case rules.Guard:
		return "BODYGUARD"
	case rules.Gravekeeper:
		return "MEDIUM"
	case rules.Villager:
		return "VILLAGER"
	case rules.NoRole:
		return ""
	}
	if r.Camp() == rules.Wolves {
		return "WEREWOLF"
	}
	return "VILLAGER"
}

// roleByString maps the frames' card names (rules.Role.String) back.
var roleByString = func() map[string]rules.Role {
	m := map[string]rules.Role{}
	for _, r := range rules.Roles() {
		m[r.String()] = r
	}
	return m
}()

// Regulation is what a game's agents are told of its rules, and the talk
// limits the gateway enforces.
type Regulation struct {
	Preset  string
	Setting Setting
}

func intp(v int) *int    { return &v }
func boolp(v bool) *bool { return &v }

// regulation is the AIWolf regulation of a board: the reference's 5- and
// 13-player configs for the presets aiwolf-5 and aiwolf-13, and for any
// other board (a mixed room) the 13-player limits with the board's cards.
func regulation(b *rules.Board, action, response time.Duration) Regulation {
	n := b.Players()
	roles := map[string]int{"WEREWOLF": 0, "POSSESSED": 0, "SEER": 0, "BODYGUARD": 0, "VILLAGER": 0, "MEDIUM": 0}
	for _, c := range b.Cards {
		roles[roleName(c)]++
	}
	length := MaxLength{MentionLength: intp(50), BaseLength: intp(50)}
	talk := TalkSetting{MaxCount: MaxCount{PerAgent: 4, PerDay: 52}, MaxLength: length}
	whisper := TalkSetting{MaxCount: MaxCount{PerAgent: 4, PerDay: 12}, MaxLength: length}
	if n <= 5 {
		talk.MaxCount.PerDay = 20
		whisper.MaxCount = MaxCount{}
	}
	ms := int(action / time.Millisecond)
	return Regulation{Setting: Setting{AgentCount: n, RoleNumMap: roles, VoteVisibility: true,
		Talk: talk, Whisper: whisper,
		Vote:       VoteSetting{MaxCount: 1, AllowSelfVote: true},
		AttackVote: VoteSetting{MaxCount: 1, AllowSelfVote: true, AllowNoTarget: boolp(false)},
		Timeout:    Timeout{Action: ms, Response: int(response / time.Millisecond)}}}
}

func seatNo(s int) rules.Seat { return rules.Seat(s) }
