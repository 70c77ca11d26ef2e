package aiwolf_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/store"
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

// slowDisk is a store whose appends take a while.
type slowDisk struct{ store.Store }

func (s slowDisk) Append(ctx context.Context, room string, recs ...store.Record) error {
	time.Sleep(5 * time.Millisecond)
	return s.Store.Append(ctx, room, recs...)
}

// An agent let go may read its game's log at once: the gateway closes the
// connections once the log's last lines are stored, not only handed to
// the game, however slow the disk.
func TestALetGoAgentReadsItsGamesWholeLog(t *testing.T) {
	g := newGatewayOn(t, "", aiwolf.Options{Players: 5}, func(st store.Store) store.Store { return slowDisk{st} })
	agents := playMatch(t, g, "slow", 5)
	var log struct {
		Entries []struct {
			Name        string `json:"name"`
			RequestType string `json:"request_type"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(download(t, g, g.logs.list()[0], "aiwolf-json")), &log); err != nil {
		t.Fatal(err)
	}
	told := map[string]int{}
	for _, e := range log.Entries {
		if e.RequestType != "refused" {
			told[e.Name]++
		}
	}
	for _, a := range agents {
		if want := len(a.got()) - 1; told[a.name] != want { // NAME comes before the game
			t.Errorf("%s was sent %d packets; the log read as it was let go has %d", a.name, want, told[a.name])
		}
	}
}

// The talk and whisper limits of --aiwolf-config reach a matched game:
// its agents are told them and held to them.
func TestConfiguredTalkLimitsGoverAMatchedGame(t *testing.T) {
	talk := aiwolf.TalkSetting{MaxCount: aiwolf.MaxCount{PerAgent: 1, PerDay: 3}, MaxLength: aiwolf.MaxLength{BaseLength: intp(50), MentionLength: intp(50)}}
	g := newGateway(t, "", aiwolf.Options{Players: 5, Talk: &talk})
	agents := playMatch(t, g, "limits", 5)
	for _, a := range agents {
		ps := a.got()
		if ps[1].Setting == nil || ps[1].Setting.Talk.MaxCount != talk.MaxCount {
			t.Fatalf("%s: INITIALIZE's setting %+v", a.name, ps[1].Setting)
		}
		perDay := map[int]int{}
		for _, p := range ps {
			if p.Request == "TALK" {
				perDay[p.Info.Day]++
			}
		}
		for d, k := range perDay {
			if k > 1 {
				t.Errorf("%s was asked to talk %d times on day %d (per_agent 1)", a.name, k, d)
			}
		}
	}
}

func intp(v int) *int { return &v }

// With the reference's file loggers configured, each matched game's logs
// are written to files as the reference names them, the same logs the
// replay endpoint gives.
func TestConfiguredLoggersWriteEachGamesLogsToFiles(t *testing.T) {
	dir := t.TempDir()
	g := newGateway(t, "", aiwolf.Options{Players: 5,
		JSONLog: aiwolf.FileLog{Enable: true, Dir: filepath.Join(dir, "json"), Filename: "{timestamp}_{teams}"},
		GameLog: aiwolf.FileLog{Enable: true, Dir: filepath.Join(dir, "game"), Filename: "{game_id}"}})
	playMatch(t, g, "files", 5)
	room := g.logs.list()[0]
	csv := download(t, g, room, "aiwolf-csv")
	var log struct {
		GameID  string `json:"game_id"`
		WinSide string `json:"win_side"`
	}
	js := download(t, g, room, "aiwolf-json")
	if err := json.Unmarshal([]byte(js), &log); err != nil {
		t.Fatal(err)
	}
	gamePath := filepath.Join(dir, "game", log.GameID+".log")
	var jsonFiles []string
	deadline := time.Now().Add(30 * time.Second)
	for {
		jsonFiles, _ = filepath.Glob(filepath.Join(dir, "json", "*_files_files_files_files_files.json"))
		if _, err := os.Stat(gamePath); err == nil && len(jsonFiles) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no log files after the game: %s, %v", gamePath, jsonFiles)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if b, _ := os.ReadFile(gamePath); string(b) != csv {
		t.Errorf("the CSV file differs from the replay's:\n%s\n---\n%s", b, csv)
	}
	if b, _ := os.ReadFile(jsonFiles[0]); string(b) != js {
		t.Errorf("the JSON file differs from the replay's")
	}
}
