package aiwolf_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/wolfden/wolfden/internal/aiwolf"
)

// checkPackets holds one agent's packets to the protocol and to its role:
// every info names the agent, every seat's status and its own role; the
// game id is a ULID; the setting comes with INITIALIZE; nothing tells it
// what its role may not know (another's role but the wolves' to a wolf,
// until FINISH; a divination to any but the seer, a medium's result to
// any but the medium, the attack votes and the whisper to any but a
// wolf); it is asked only what its role does; the talk history comes as
// deltas, each utterance once.
func checkPackets(t *testing.T, a *testAgent, players int) {
	t.Helper()
	ps := a.got()
	if len(ps) < 3 || ps[0].Request != "NAME" || ps[1].Request != "INITIALIZE" {
		t.Fatalf("%s: the game does not open NAME, INITIALIZE: %v", a.name, lastRequests(ps, 6))
	}
	if ps[1].Setting == nil || ps[1].Setting.AgentCount != players || ps[1].Setting.Timeout.Action <= 0 {
		t.Errorf("%s: INITIALIZE's setting: %+v", a.name, ps[1].Setting)
	}
	me := ps[1].Info.Agent
	role := ps[1].Info.RoleMap[me]
	if role == "" {
		t.Fatalf("%s: INITIALIZE does not tell its role: %v", a.name, ps[1].Info.RoleMap)
	}
	seen := map[string]bool{} // talk utterances by day and idx
	seenW := map[string]bool{}
	for i, p := range ps[1:] {
		if p.Request == "NAME" { // a probe after a timeout
			continue
		}
		in := p.Info
		if in == nil {
			t.Fatalf("%s: packet %d (%s) has no info", a.name, i+1, p.Request)
		}
		if _, err := ulid.ParseStrict(in.GameID); err != nil {
			t.Errorf("%s: game_id %q is not a ULID: %v", a.name, in.GameID, err)
		}
		if in.Agent != me || len(in.StatusMap) != players || in.RoleMap[me] != role {
			t.Errorf("%s: %s: agent %q, %d statuses, own role %q", a.name, p.Request, in.Agent, len(in.StatusMap), in.RoleMap[me])
		}
		if p.Request != "FINISH" {
			for name, r := range in.RoleMap {
				if name != me && !(role == "WEREWOLF" && r == "WEREWOLF") {
					t.Errorf("%s (%s): %s tells %s is %s", a.name, role, p.Request, name, r)
				}
			}
		} else if len(in.RoleMap) != players {
			t.Errorf("%s: FINISH shows %d roles", a.name, len(in.RoleMap))
		}
		voters := map[string]bool{}
		for _, v := range in.VoteList {
			if voters[v.Agent] {
				t.Errorf("%s: %s lists %s's vote twice: %+v", a.name, p.Request, v.Agent, in.VoteList)
			}
			voters[v.Agent] = true
		}
		if in.DivineResult != nil && role != "SEER" {
			t.Errorf("%s (%s) is told a divination: %+v", a.name, role, in.DivineResult)
		}
		if in.MediumResult != nil && role != "MEDIUM" {
			t.Errorf("%s (%s) is told a medium's result: %+v", a.name, role, in.MediumResult)
		}
		if len(in.AttackVoteList) > 0 && role != "WEREWOLF" {
			t.Errorf("%s (%s) is told the attack votes: %+v", a.name, role, in.AttackVoteList)
		}
		if len(p.WhisperHistory) > 0 && role != "WEREWOLF" {
			t.Errorf("%s (%s) is told the whisper: %+v", a.name, role, p.WhisperHistory)
		}
		asked := map[string]string{"DIVINE": "SEER", "GUARD": "BODYGUARD", "ATTACK": "WEREWOLF", "WHISPER": "WEREWOLF"}
		if want, ok := asked[p.Request]; ok && want != role {
			t.Errorf("%s (%s) is asked %s", a.name, role, p.Request)
		}
		if (p.Request == "TALK" || p.Request == "WHISPER") && in.RemainCount == nil {
			t.Errorf("%s: %s without remain_count", a.name, p.Request)
		}
		if (p.Request == "INITIALIZE" || p.Request == "DAILY_INITIALIZE") != (p.Setting != nil) {
			t.Errorf("%s: %s: setting %v", a.name, p.Request, p.Setting != nil)
		}
		for _, tk := range p.TalkHistory {
			k := fmt.Sprint(tk.Day, "/", tk.Idx)
			if seen[k] {
				t.Errorf("%s: talk %s told twice", a.name, k)
			}
			seen[k] = true
		}
		for _, tk := range p.WhisperHistory {
			k := fmt.Sprint(tk.Day, "/", tk.Idx)
			if seenW[k] {
				t.Errorf("%s: whisper %s told twice", a.name, k)
			}
			seenW[k] = true
		}
	}
	if last := ps[len(ps)-1]; last.Request != "FINISH" {
		t.Errorf("%s: the last packet is %s, not FINISH", a.name, last.Request)
	}
}

func roleOf(a *testAgent) string {
	ps := a.got()
	if len(ps) < 2 || ps[1].Info == nil {
		return ""
	}
	return ps[1].Info.RoleMap[ps[1].Info.Agent]
}

// playMatch runs a self-match of n honest agents to its end.
func playMatch(t *testing.T, g *gateway, team string, n int) []*testAgent {
	t.Helper()
	agents := make([]*testAgent, n)
	for i := range agents {
		agents[i] = &testAgent{name: fmt.Sprintf("%s%d", team, i+1)}
		agents[i].run(t, g.ws)
	}
	for _, a := range agents {
		a.wait(t, 120*time.Second)
	}
	return agents
}

func TestAgentsAreToldOnlyWhatTheirRoleMayKnow(t *testing.T) {
	for _, n := range []int{5, 13} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			g := newGateway(t, "", aiwolf.Options{Players: n})
			agents := playMatch(t, g, "team", n)
			roles := map[string]int{}
			for _, a := range agents {
				checkPackets(t, a, n)
				roles[roleOf(a)]++
			}
			want := map[int]map[string]int{5: {"WEREWOLF": 1, "POSSESSED": 1, "SEER": 1, "VILLAGER": 2},
				13: {"WEREWOLF": 3, "POSSESSED": 1, "SEER": 1, "BODYGUARD": 1, "MEDIUM": 1, "VILLAGER": 6}}[n]
			if fmt.Sprint(roles) != fmt.Sprint(want) {
				t.Errorf("roles dealt %v, want %v", roles, want)
			}
			checkCSV(t, download(t, g, g.logs.list()[0], "aiwolf-csv"), n)
			// Two seats of different roles: what the seer is told that a
			// villager is not, and the other way round, is only the seer's.
			var seer, villager *testAgent
			for _, a := range agents {
				switch roleOf(a) {
				case "SEER":
					seer = a
				case "VILLAGER":
					villager = a
				}
			}
			if count(seer, "DIVINE") == 0 || count(villager, "DIVINE") != 0 {
				t.Errorf("DIVINE: the seer was asked %d times, a villager %d", count(seer, "DIVINE"), count(villager, "DIVINE"))
			}
			if n == 13 {
				w := 0
				for _, a := range agents {
					if roleOf(a) == "WEREWOLF" {
						w += count(a, "WHISPER")
					}
				}
				if w == 0 {
					t.Errorf("the 13-player wolves never whispered")
				}
			}
		})
	}
}

// checkCSV holds the contest's game log to its shape: every day's status
// lines for every agent, a vote per voter a day, an execution a day at
// most, one result line, last.
func checkCSV(t *testing.T, csv string, n int) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	status := map[string]int{}
	votes := map[string]bool{}
	results := 0
	for i, l := range lines {
		f := strings.Split(l, ",")
		if len(f) < 3 {
			t.Fatalf("line %d %q", i+1, l)
		}
		switch f[1] {
		case "status":
			status[f[0]]++
			if len(f) != 7 || !strings.HasPrefix(f[6], "Agent[") {
				t.Errorf("status line %q", l)
			}
		case "vote":
			if votes[f[0]+","+f[2]] {
				t.Errorf("day %s: %s votes twice", f[0], f[2])
			}
			votes[f[0]+","+f[2]] = true
		case "result":
			results++
			if i != len(lines)-1 || (f[4] != "VILLAGER" && f[4] != "WEREWOLF") {
				t.Errorf("result line %q at %d of %d", l, i+1, len(lines))
			}
		}
	}
	for d, k := range status {
		if k != n {
			t.Errorf("day %s has %d status lines, want %d", d, k, n)
		}
	}
	if results != 1 {
		t.Errorf("%d result lines", results)
	}
}

func count(a *testAgent, req string) int {
	k := 0
	for _, p := range a.got() {
		if p.Request == req {
			k++
		}
	}
	return k
}
