package aiwolf_test

import (
	"sync"
	"testing"

	"github.com/wolfden/wolfden/internal/aiwolf"
)

// TestAWolfIsNeverAttackedByTheWolves: on the AIWolf presets
// (wolf_attack_wolves=off) an ATTACK naming a werewolf, here the wolf's
// own name every night, is refused, as the reference ignores an attack
// vote on a werewolf: the wolf, whom the village never votes for, lives
// to the end, and no DAILY_INITIALIZE tells it attacked.
func TestAWolfIsNeverAttackedByTheWolves(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 5})
	var mu sync.Mutex
	wolf, attacks := "", 0
	agents := startAgents(t, g, "self", 5, func(i int, a *testAgent) {
		a.reply = func(a *testAgent, p *packet) (string, bool) {
			mu.Lock()
			defer mu.Unlock()
			switch p.Request {
			case "INITIALIZE":
				if p.Info.RoleMap[p.Info.Agent] == "WEREWOLF" {
					wolf = p.Info.Agent
				}
			case "ATTACK":
				attacks++
				return p.Info.Agent, true
			case "VOTE": // the village spares the wolf: the wolves must attack
				for i := 1; i <= 5; i++ {
					if n := aiwolf.AgentName(seatNo(i)); n != p.Info.Agent && n != wolf && p.Info.StatusMap[n] == "ALIVE" {
						return n, true
					}
				}
			}
			return honest(a, p)
		}
	})
	waitAll(t, agents)
	if wolf == "" || attacks == 0 {
		t.Fatalf("the werewolf %q was asked ATTACK %d times", wolf, attacks)
	}
	for _, a := range agents {
		for _, p := range a.got() {
			if p.Info != nil && p.Info.AttackedAgent == wolf {
				t.Errorf("%s: %s tells the werewolf %s attacked", a.name, p.Request, wolf)
			}
		}
		// Nobody votes for the wolf: only its own attack could kill it.
		if ps := a.got(); ps[len(ps)-1].Request != "FINISH" || ps[len(ps)-1].Info.StatusMap[wolf] != "ALIVE" {
			t.Errorf("%s: the werewolf %s is not alive at the end: %v", a.name, wolf, ps[len(ps)-1].Info.StatusMap)
		}
	}
}

// TestNight0WhisperIsHeardOnDay0: on 13 players the wolves whisper on
// day 0 as the reference's: in the morning, before the day's talk, and
// on night 0, after DAILY_FINISH and before the dawn of day 1, in packets
// of day 0, each hearing the others in whisper_history; no WHISPER comes
// between day 1's DAILY_INITIALIZE and its DAILY_FINISH.
func TestNight0WhisperIsHeardOnDay0(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 13})
	agents := startAgents(t, g, "pack", 13, nil)
	waitAll(t, agents)
	wolves := 0
	for _, a := range agents {
		ps := a.got()
		if ps[1].Info.RoleMap[ps[1].Info.Agent] != "WEREWOLF" {
			continue
		}
		wolves++
		me := ps[1].Info.Agent
		stage := 0 // 0: before night 0's DAILY_FINISH; 1: night 0; 2: day 1; 3: later
		whispers, morning, talked, heard := 0, 0, false, map[string]bool{}
		for _, p := range ps[1:] {
			talked = talked || p.Request == "TALK"
			if stage == 0 && p.Request == "WHISPER" {
				if talked {
					t.Errorf("%s: a WHISPER of day 0 after its talk began", me)
				}
				morning++
			}
			switch {
			case p.Request == "DAILY_FINISH" && stage == 0:
				stage = 1
			case p.Request == "DAILY_INITIALIZE" && stage == 1:
				stage = 2
			case p.Request == "DAILY_FINISH" && stage == 2:
				stage = 3
			}
			if p.Request == "WHISPER" {
				switch stage {
				case 1:
					whispers++
					if p.Info.Day != 0 {
						t.Errorf("%s: night 0's WHISPER carries day %d", me, p.Info.Day)
					}
				case 2:
					t.Errorf("%s: a WHISPER between day 1's DAILY_INITIALIZE and DAILY_FINISH (day %d)", me, p.Info.Day)
				}
			}
			if stage == 1 {
				for _, w := range p.WhisperHistory {
					if w.Agent != me && w.Day == 0 && !w.Over && !w.Skip {
						heard[w.Agent] = true
					}
				}
			}
		}
		if morning == 0 {
			t.Errorf("%s was never asked to WHISPER on day 0's morning: %v", me, lastRequests(ps, 200))
		}
		if whispers == 0 {
			t.Errorf("%s was never asked to WHISPER on night 0: %v", me, lastRequests(ps, 200))
		}
		if len(heard) != 2 {
			t.Errorf("%s heard the whispers of %v on night 0, not its two mates", me, heard)
		}
	}
	if wolves != 3 {
		t.Fatalf("%d wolves among the agents", wolves)
	}
}
