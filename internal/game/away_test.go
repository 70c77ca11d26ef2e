package game

import (
	"encoding/json"
	"testing"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

func TestAwayPhasesCountThePhasesABotPlayedASeat(t *testing.T) {
	clock := func(away uint32) []byte {
		b, _ := json.Marshal(storedClock{Away: away})
		return b
	}
	phase := func(k rules.EventKind) []rules.Event { return []rules.Event{{Kind: k}} }
	recs := []store.Record{
		{N: 1, Events: phase(rules.EvNight), Clock: clock(0)},
		{N: 2, Clock: clock(1 << 3)},                          // seat 3 timed out, gone, on night 1
		{N: 3, Events: phase(rules.EvDay)},                    // still gone on day 1
		{N: 4, Events: phase(rules.EvNight), Clock: clock(0)}, // back at night 2: three phases
		{N: 5, Clock: clock(1 << 5)},                          // seat 5 dropped on night 2
		{N: 6, Clock: clock(0)},                               // and came back within it
		{N: 7, Events: phase(rules.EvDay), Clock: clock(0)},
	}
	got, err := AwayPhases(recs)
	if err != nil {
		t.Fatal(err)
	}
	if got[3] != 3 || got[5] != 1 || len(got) != 2 {
		t.Errorf("AwayPhases = %v, want seat 3: 3 phases, seat 5: 1", got)
	}
	if _, err := AwayPhases([]store.Record{{N: 1, Clock: []byte("{")}}); err == nil {
		t.Error("a damaged clock was read")
	}
}
