package aiwolf_test

import (
	"encoding/json"
	"testing"

	"github.com/wolfden/wolfden/internal/aiwolf"
)

// A matched game's request log goes to the store in a few large writes,
// a day at a time and at the end (not one write a turn of the
// conductor), and holds every request all the same.
func TestAMatchedGamesRequestLogIsStoredADayAtATime(t *testing.T) {
	g := newGateway(t, "", aiwolf.Options{Players: 5})
	agents := playMatch(t, g, "batch", 5)
	room := g.logs.list()[0]
	var log struct {
		Entries []struct {
			Name        string `json:"name"`
			Day         int    `json:"day"`
			RequestType string `json:"request_type"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(download(t, g, room, "aiwolf-json")), &log); err != nil {
		t.Fatal(err)
	}
	recs, err := g.st.Records(t.Context(), room)
	if err != nil {
		t.Fatal(err)
	}
	writes := 0
	for _, r := range recs {
		if r.Kind == aiwolf.NoteKind {
			writes++
		}
	}
	days := 0
	told := map[string]int{}
	for _, e := range log.Entries {
		days = max(days, e.Day)
		if e.RequestType != "refused" {
			told[e.Name]++
		}
	}
	// The game's id at once, then day 0 … the last day, then the end.
	if limit := days + 3; writes > limit {
		t.Errorf("the request log took %d writes for a game of %d days (at most %d)", writes, days, limit)
	}
	for _, a := range agents {
		want := len(a.got()) - 1 // every packet but NAME, which comes before the game
		if told[a.name] != want {
			t.Errorf("%s was sent %d packets, the log has %d", a.name, want, told[a.name])
		}
	}
}
