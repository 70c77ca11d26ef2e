package aiwolf_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/rules"
)

// The packets of a matched game as the reference server (aiwolf-nlp-server,
// logic/common.go's buildInfo and requestToAgent) sends them, issue 27
// points 5 to 11. Each plays a seeded game (golden_test.go's host).

// playSeeded plays a seeded matched game of n agents to its end, seat i
// being agent i; reply, if set, answers for every agent (nil: honest).
func playSeeded(t *testing.T, n int, opts aiwolf.Options, reply func(a *testAgent, p *packet) (string, bool)) ([]*testAgent, *seededHost) {
	t.Helper()
	opts.Players = n
	ws, g, h := seededGateway(t, 27, opts)
	agents := make([]*testAgent, n)
	for i := range agents {
		agents[i] = &testAgent{name: fmt.Sprintf("seeded%d", i+1), reply: reply}
		agents[i].run(t, ws)
		waitFor(t, func() bool { _, w := g.Live(); return w == i+1 || i == n-1 })
	}
	for _, a := range agents {
		a.wait(t, 240*time.Second)
	}
	return agents, h
}

// results is what an info tells of the previous day.
func results(in *aiwolf.Info) string {
	b, _ := json.Marshal([]any{in.ExecutedAgent, in.AttackedAgent, in.VoteList, in.AttackVoteList, in.DivineResult, in.MediumResult})
	return string(b)
}

// Point 5: the previous day's results are in every packet of the day,
// not only in DAILY_INITIALIZE.
func TestEveryPacketOfADayTellsThePreviousDaysResults(t *testing.T) {
	for _, n := range []int{5, 13} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			agents, _ := playSeeded(t, n, aiwolf.Options{}, nil)
			told := 0
			for _, a := range agents {
				day, want := -1, ""
				for _, p := range a.got() {
					switch {
					case p.Info == nil || p.Request == "INITIALIZE":
					case p.Request == "DAILY_INITIALIZE":
						day, want = p.Info.Day, results(p.Info)
					case p.Request == "FINISH":
					case p.Info.Day != day:
						t.Errorf("%s: %s of day %d after DAILY_INITIALIZE of day %d", a.name, p.Request, p.Info.Day, day)
					case results(p.Info) != want:
						t.Errorf("%s: %s of day %d tells %s, its DAILY_INITIALIZE %s", a.name, p.Request, day, results(p.Info), want)
					case day >= 2 && len(p.Info.VoteList) > 0:
						told++
					}
				}
			}
			if told == 0 {
				t.Error("no packet but DAILY_INITIALIZE told a vote list")
			}
		})
	}
}

// Point 6: after a vote's win, FINISH is the next day's and tells that
// day's execution and votes, as after an attack's.
func TestFinishIsTheDayAfterTheLastAndTellsItsResults(t *testing.T) {
	for _, n := range []int{5, 13} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			agents, _ := playSeeded(t, n, aiwolf.Options{}, nil)
			for _, a := range agents {
				ps := a.got()
				fin := ps[len(ps)-1]
				last := -1
				for _, p := range ps {
					if p.Request == "DAILY_INITIALIZE" {
						last = p.Info.Day
					}
				}
				if fin.Request != "FINISH" || fin.Info.Day != last+1 {
					t.Fatalf("%s: %s of day %d, the last day %d", a.name, fin.Request, fin.Info.Day, last)
				}
				if len(fin.Info.VoteList) == 0 || fin.Info.VoteList[0].Day != last {
					t.Errorf("%s: FINISH tells the votes %+v, not day %d's", a.name, fin.Info.VoteList, last)
				}
				if n == 5 && fin.Info.ExecutedAgent == "" { // seed 27's 5-player game ends by a vote
					t.Errorf("%s: FINISH after a vote's win tells no execution", a.name)
				}
			}
		})
	}
}

// Point 8: asking spends the utterance: the first TALK of a day tells
// per_agent - 1 left.
func TestRemainCountIsWhatIsLeftAfterTheUtteranceAsked(t *testing.T) {
	agents, _ := playSeeded(t, 5, aiwolf.Options{}, nil)
	for _, a := range agents {
		day := -1
		for _, p := range a.got() {
			if p.Request == "TALK" && p.Info.Day != day {
				day = p.Info.Day
				if p.Info.RemainCount == nil || *p.Info.RemainCount != 3 {
					t.Errorf("%s: day %d's first TALK tells remain_count %v, want 3 (per_agent 4, this one asked)", a.name, day, p.Info.RemainCount)
				}
			}
		}
	}
}

// Point 9: an empty history is sent as [] where the reference sends one.
func TestEmptyHistoriesAreSentAsEmptyLists(t *testing.T) {
	agents, _ := playSeeded(t, 13, aiwolf.Options{}, nil)
	empty := 0
	for _, a := range agents {
		wolf := roleOf(a) == "WEREWOLF"
		a.mu.Lock()
		raw := append([]string(nil), a.raw...)
		a.mu.Unlock()
		for _, r := range raw {
			var p map[string]json.RawMessage
			if err := json.Unmarshal([]byte(r), &p); err != nil {
				t.Fatal(err)
			}
			var req string
			_ = json.Unmarshal(p["request"], &req)
			_, talk := p["talk_history"]
			_, whisper := p["whisper_history"]
			wantTalk := req == "TALK" || req == "DAILY_FINISH"
			wantWhisper := req == "WHISPER" || req == "ATTACK" || req == "DAILY_FINISH" && wolf
			if talk != wantTalk || whisper != wantWhisper {
				t.Errorf("%s: %s has talk_history %v, whisper_history %v; want %v, %v", a.name, req, talk, whisper, wantTalk, wantWhisper)
			}
			if string(p["talk_history"]) == "[]" || string(p["whisper_history"]) == "[]" {
				empty++
			}
		}
	}
	if empty == 0 {
		t.Error("no empty history was sent")
	}
}

// Point 10: an illegal DIVINE, GUARD or VOTE reply of a matched game is no
// action, as the reference's: no divination, no guard, no vote.
func TestAnIllegalTargetOfAMatchedGameIsNoAction(t *testing.T) {
	var mu sync.Mutex
	role := map[*testAgent]string{}
	liar := func(a *testAgent, p *packet) (string, bool) {
		mu.Lock()
		if p.Request == "INITIALIZE" {
			role[a] = p.Info.RoleMap[p.Info.Agent]
		}
		r := role[a]
		mu.Unlock()
		switch {
		case p.Request == "DIVINE":
			return "Agent[99]", true
		case p.Request == "GUARD":
			return p.Info.Agent, true // oneself: the reference ignores it
		case p.Request == "VOTE" && r == "VILLAGER":
			return "nobody", true
		}
		return honest(a, p)
	}
	for _, n := range []int{5, 13} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			agents, h := playSeeded(t, n, aiwolf.Options{}, liar)
			villagers := map[string]bool{}
			for _, a := range agents {
				if roleOf(a) == "VILLAGER" {
					ps := a.got()
					villagers[ps[1].Info.Agent] = true
				}
			}
			votes := 0
			for _, a := range agents {
				for _, p := range a.got() {
					if p.Info == nil {
						continue
					}
					if p.Info.DivineResult != nil {
						t.Errorf("%s: %s tells a divination the seer never made: %+v", a.name, p.Request, p.Info.DivineResult)
					}
					for _, v := range p.Info.VoteList {
						votes++
						if villagers[v.Agent] {
							t.Errorf("%s: %s lists a vote of %s, who named nobody: %+v", a.name, p.Request, v.Agent, v)
						}
					}
				}
			}
			if votes == 0 {
				t.Error("no vote was told at all")
			}
			// The guard named himself (wolfden's guard may protect himself):
			// nobody was guarded, as the reference's log would show.
			h.over(t)
			room := fmt.Sprintf("golden%d", 1)
			recs, err := h.stores[room].Records(t.Context(), room)
			if err != nil {
				t.Fatal(err)
			}
			var csv strings.Builder
			if err := aiwolf.WriteCSV(&csv, map[rules.Seat]string{}, recs); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(csv.String(), ",guard,") || strings.Contains(csv.String(), ",divine,") {
				t.Errorf("a guard or a divination was played:\n%s", csv.String())
			}
		})
	}
}

// The reference's bodyguard may guard the same agent night after night
// (its guard phase keeps no history; aiwolf-13: guard_repeat=any): every
// GUARD of a living other agent is played, a repeat too.
func TestTheBodyguardMayGuardTheSameAgentOnConsecutiveNights(t *testing.T) {
	// The bodyguard names the last living agent other than himself; the
	// honest voters exile the first, so his target lives on.
	var mu sync.Mutex
	guards := map[int]string{} // day → the GUARD reply
	reply := func(a *testAgent, p *packet) (string, bool) {
		if p.Request != "GUARD" {
			return honest(a, p)
		}
		for i := len(p.Info.StatusMap); i >= 1; i-- {
			if n := aiwolf.AgentName(seatNo(i)); n != p.Info.Agent && p.Info.StatusMap[n] == "ALIVE" {
				mu.Lock()
				guards[p.Info.Day] = n
				mu.Unlock()
				return n, true
			}
		}
		return p.Info.Agent, true
	}
	_, h := playSeeded(t, 13, aiwolf.Options{}, reply)
	h.over(t)
	recs, err := h.stores["golden1"].Records(t.Context(), "golden1")
	if err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	if err := aiwolf.WriteCSV(&csv, map[rules.Seat]string{}, recs); err != nil {
		t.Fatal(err)
	}
	played := map[int]string{} // day → the guard line's target
	for _, l := range strings.Split(csv.String(), "\n") {
		if f := strings.Split(l, ","); len(f) > 3 && f[1] == "guard" {
			var d, x int
			fmt.Sscan(f[0], &d)
			fmt.Sscan(f[3], &x)
			played[d] = aiwolf.AgentName(seatNo(x))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	repeats := 0
	for d, n := range guards {
		if played[d] != n {
			t.Errorf("day %d: the bodyguard guarded %s, the log has %q:\n%s", d, n, played[d], csv.String())
		}
		if guards[d-1] == n {
			repeats++
		}
	}
	if repeats == 0 {
		t.Fatalf("the bodyguard never guarded one agent two nights running (%v): the test proves nothing", guards)
	}
}

// Point 11: custom names and profiles stand for the agents everywhere,
// and the profile comes with INITIALIZE.
func TestCustomNamesAndProfilesStandForTheAgents(t *testing.T) {
	var profiles []aiwolf.Profile
	for _, name := range []string{"ミナト", "タクミ", "ケンジ", "リュウジ", "ダイスケ", "シオン", "サクラ"} {
		profiles = append(profiles, aiwolf.Profile{Name: name, Text: "年齢: 10\n性格: " + name + "は穏やか"})
	}
	byName := map[string]string{}
	for _, p := range profiles {
		byName[p.Name] = p.Text
	}
	// An agent that names its targets from status_map, as a real one does.
	named := func(a *testAgent, p *packet) (string, bool) {
		switch p.Request {
		case "VOTE", "DIVINE", "GUARD", "ATTACK":
			for name, st := range p.Info.StatusMap {
				if name != p.Info.Agent && st == "ALIVE" && p.Info.RoleMap[name] != "WEREWOLF" {
					return name, true
				}
			}
		case "TALK":
			for name := range p.Info.StatusMap {
				if name != p.Info.Agent && p.Info.RemainCount != nil && *p.Info.RemainCount > 2 {
					return "@" + name + " どう思う?", true
				}
			}
			return "Over", true
		}
		return honest(a, p)
	}
	agents, h := playSeeded(t, 5, aiwolf.Options{Profiles: profiles, ShuffleProfiles: true}, named)
	seen := map[string]bool{}
	for _, a := range agents {
		ps := a.got()
		me := ps[1].Info.Agent
		if byName[me] == "" || seen[me] {
			t.Fatalf("%s is named %q (profiles %v, taken %v)", a.name, me, byName, seen)
		}
		seen[me] = true
		if ps[1].Info.Profile != byName[me] {
			t.Errorf("%s: INITIALIZE's profile %q, want %q", a.name, ps[1].Info.Profile, byName[me])
		}
		for _, p := range ps[2:] {
			if p.Info == nil {
				continue
			}
			if p.Info.Profile != "" {
				t.Errorf("%s: %s has a profile (INITIALIZE only)", a.name, p.Request)
			}
			for name := range p.Info.StatusMap {
				if byName[name] == "" {
					t.Errorf("%s: %s names %q", a.name, p.Request, name)
				}
			}
			for _, v := range p.Info.VoteList {
				if byName[v.Agent] == "" || byName[v.Target] == "" {
					t.Errorf("%s: a vote %+v", a.name, v)
				}
			}
			for _, tk := range p.TalkHistory {
				if byName[tk.Agent] == "" || strings.Contains(tk.Text, "Agent[") {
					t.Errorf("%s: a talk %+v", a.name, tk)
				}
			}
		}
		if fin := ps[len(ps)-1]; fin.Request != "FINISH" || len(fin.Info.VoteList) == 0 {
			t.Errorf("%s: the game did not end with the agents' votes counted: %s %+v", a.name, fin.Request, fin.Info.VoteList)
		}
	}
	// The contest's CSV log names the seats by them, and reads the talk's
	// speakers back.
	h.over(t)
	recs, err := h.stores["golden1"].Records(t.Context(), "golden1")
	if err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	if err := aiwolf.WriteCSV(&csv, map[rules.Seat]string{}, recs); err != nil {
		t.Fatal(err)
	}
	talks := 0
	for _, l := range strings.Split(strings.TrimSpace(csv.String()), "\n") {
		f := strings.Split(l, ",")
		switch f[1] {
		case "status":
			if byName[f[6]] == "" {
				t.Errorf("CSV: %q names the seat %q", l, f[6])
			}
		case "talk":
			talks++
			if f[4] == "0" {
				t.Errorf("CSV: %q names no speaker", l)
			}
		}
	}
	if talks == 0 {
		t.Errorf("CSV: no talk:\n%s", csv.String())
	}
	// The same seed draws the same names; without the draw, seat i takes
	// the i-th.
	again, _ := playSeeded(t, 5, aiwolf.Options{Profiles: profiles, ShuffleProfiles: true}, named)
	fixed, _ := playSeeded(t, 5, aiwolf.Options{Profiles: profiles}, named)
	drawn := false
	for i := range agents {
		x, y, z := agents[i].got()[1].Info.Agent, again[i].got()[1].Info.Agent, fixed[i].got()[1].Info.Agent
		if x != y {
			t.Errorf("seat %d: %q, then %q from the same seed", i+1, x, y)
		}
		if z != profiles[i].Name {
			t.Errorf("seat %d without the draw is %q, want %q", i+1, z, profiles[i].Name)
		}
		drawn = drawn || x != z
	}
	if !drawn {
		t.Error("the draw named every seat as the list does")
	}
}

func TestProfilesNoGameCouldUseAreRefused(t *testing.T) {
	five := func(names ...string) []aiwolf.Profile {
		var ps []aiwolf.Profile
		for _, n := range names {
			ps = append(ps, aiwolf.Profile{Name: n})
		}
		return ps
	}
	for _, c := range []struct {
		name string
		ps   []aiwolf.Profile
		want string
	}{
		{"too few", five("a", "b", "c", "d"), "4 profiles for 5 players"},
		{"a name empty", five("a", "", "c", "d", "e"), "profile 2 has no name"},
		{"a name twice", five("a", "b", "c", "b", "e"), "profiles 2 and 4 are both named \"b\""},
		{"a comma", five("a", "b,c", "c", "d", "e"), "no comma"},
		{"a space around", five("a", "b", " c", "d", "e"), "begins or ends with a space"},
	} {
		_, err := aiwolf.New(&seededHost{}, aiwolf.Options{Players: 5, Profiles: c.ps})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
	if _, err := aiwolf.New(&seededHost{}, aiwolf.Options{Players: 5, Profiles: five("a", "b", "c", "d", "e")}); err != nil {
		t.Errorf("five good profiles: %v", err)
	}
}
