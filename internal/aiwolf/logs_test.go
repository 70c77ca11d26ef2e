package aiwolf

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata: the logs (testdata/logs) and the packets (golden_test.go)")

// seededRecords plays a matched game's board to its end with the
// engine's bots and stores it as the gateway would: the game's id, one
// TALK line per living agent a day and one VOTE line per ballot, at
// fixed times. edit may change the events before they are stored.
func seededRecords(t *testing.T, players int, seed uint64, edit func([]rules.Event) []rules.Event) []store.Record {
	t.Helper()
	preset, err := Preset(players)
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.LookupPreset(preset)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(players)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range MatchOptions() {
		if err := b.Options.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	g, err := rules.New(b, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]bot.Bot, players)
	for i := range bots {
		if bots[i], err = bot.New(bot.Smart, rules.Seat(i+1), players, seed); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := bot.Play(g, bots); err != nil {
		t.Fatal(err)
	}
	// The reference's bodyguard is not asked on night 0, nor is a
	// matched game's on wolfden's first night; the bots were.
	var events []rules.Event
	nights := 0
	for _, e := range g.Events() {
		if e.Kind == rules.EvNight {
			nights++
		}
		if e.Kind == rules.EvProtect && nights == 1 {
			continue
		}
		events = append(events, e)
	}
	if edit != nil {
		events = edit(events)
	}
	at := int64(1_767_225_600_000) // 2026-01-01, then a second a line
	lines := []logNote{{Request: "GAME", GameID: "01JGFJJZ000000000000000000", Sent: at}}
	alive := map[rules.Seat]bool{}
	day := 0
	for _, e := range events {
		switch e.Kind {
		case rules.EvGameStart:
			for s := rules.Seat(1); int(s) <= players; s++ {
				alive[s] = true
			}
		case rules.EvDeath:
			alive[e.Seat] = false
		case rules.EvDay:
			day = int(e.Value)
			idx := 0
			for s := rules.Seat(1); int(s) <= players; s++ {
				if !alive[s] {
					continue
				}
				at += 1000
				tk := &Talk{Idx: idx, Day: day, Agent: AgentName(s), Text: fmt.Sprintf("I, %s, say so, on day %d", AgentName(s), day), Time: at}
				lines = append(lines, logNote{Seat: s, Agent: AgentName(s), Name: fmt.Sprintf("kanolab%d", s), Request: ReqTalk, Day: day,
					Sent: at, Micros: 1500, Reply: tk.Text, Talk: tk})
				idx++
			}
		case rules.EvBallot:
			if e.Public && e.Target != 0 {
				at += 1000
				lines = append(lines, logNote{Seat: e.Seat, Agent: AgentName(e.Seat), Name: fmt.Sprintf("kanolab%d", e.Seat), Request: ReqVote, Day: day,
					Sent: at, Micros: 2400, Reply: AgentName(e.Target)})
			}
		}
	}
	body, _ := json.Marshal(lines)
	return []store.Record{{N: 1, Kind: NoteKind, Body: body, Events: events}}
}

func names(n int) map[rules.Seat]string {
	m := map[rules.Seat]string{}
	for s := 1; s <= n; s++ {
		m[rules.Seat(s)] = fmt.Sprintf("kanolab%d", s)
	}
	return m
}

// findSeed is the first seed whose game ends as want says, without a
// guard of oneself: the engine's bots may guard themselves, a matched
// game's agent may not (the reference ignores it), so no reference log
// has such a line.
func findSeed(t *testing.T, players int, want func(csv string) bool) uint64 {
	t.Helper()
	for seed := uint64(1); seed < 200; seed++ {
		var b bytes.Buffer
		if err := WriteCSV(&b, names(players), seededRecords(t, players, seed, nil)); err != nil {
			t.Fatal(err)
		}
		if want(b.String()) && !guardsHimself(b.String()) {
			return seed
		}
	}
	t.Fatal("no seed below 200 plays such a game")
	return 0
}

// noVictimOnNight2 makes the wolves choose nobody on wolfden's second
// night (the reference's night 1): no pick, an attack on no one, no
// death (what an agent's refused ATTACK leaves).
func noVictimOnNight2(es []rules.Event) []rules.Event {
	night := 0
	var out []rules.Event
	victim := rules.Seat(0)
	for _, e := range es {
		if e.Kind == rules.EvNight {
			night++
		}
		if night == 2 {
			switch {
			case e.Kind == rules.EvAttackPick:
				continue
			case e.Kind == rules.EvAttack:
				victim, e.Target = e.Target, 0
			case e.Kind == rules.EvDeath && e.Seat == victim:
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// The logs of seeded games are the reference's, line for line: a vote
// win and an attack win end with the closing status block and the
// result on the day after the last night; every night from day 1 on has
// its attack line, "-1,true" when the wolves chose nobody, "false" when
// the guard saved the target; the JSON log has the reference's schema.
func TestLogsOfSeededGamesAreTheReferences(t *testing.T) {
	cases := []struct {
		name    string
		players int
		want    func(csv string) bool
		edit    func([]rules.Event) []rules.Event
	}{
		{"5-village-vote-win", 5, func(c string) bool { return strings.HasSuffix(c, ",VILLAGER") && endedBy(c) == "execute" }, nil},
		{"5-wolves-vote-win", 5, func(c string) bool { return strings.HasSuffix(c, ",WEREWOLF") && endedBy(c) == "execute" }, nil},
		{"13-wolves-attack-win", 13, func(c string) bool { return strings.HasSuffix(c, ",WEREWOLF") && endedBy(c) == "attack" }, nil},
		{"13-guarded", 13, func(c string) bool { return strings.Contains(c, ",false\n") || strings.HasSuffix(c, ",false") }, nil},
		{"5-no-victim", 5, func(c string) bool { return strings.Contains(c, ",attack,") }, noVictimOnNight2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seed := findSeed(t, c.players, c.want)
			recs := seededRecords(t, c.players, seed, c.edit)
			var csv, js bytes.Buffer
			if err := WriteCSV(&csv, names(c.players), recs); err != nil {
				t.Fatal(err)
			}
			if err := WriteJSON(&js, "room1", names(c.players), recs); err != nil {
				t.Fatal(err)
			}
			golden(t, c.name+".log", csv.Bytes())
			golden(t, c.name+".json", js.Bytes())
			checkAsTheScorerReads(t, csv.String(), js.Bytes())
		})
	}
}

// endedBy is the kind of the last line before the closing status block.
func endedBy(csv string) string {
	ls := strings.Split(strings.TrimSpace(csv), "\n")
	for i := len(ls) - 1; i >= 0; i-- {
		if k := strings.Split(ls[i], ","); k[1] != "status" && k[1] != "result" {
			return k[1]
		}
	}
	return ""
}

var recordHead = regexp.MustCompile(`^(\d+),([A-Za-z]+),`)

// guardsHimself: a CSV guard line names the bodyguard as his own target.
func guardsHimself(csv string) bool {
	for _, l := range strings.Split(csv, "\n") {
		if f := strings.Split(l, ","); len(f) > 3 && f[1] == "guard" && f[2] == f[3] {
			return true
		}
	}
	return false
}

func mustAtoi(s string) int { n, _ := strconv.Atoi(s); return n }

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "logs", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestLogsOfSeededGames ./internal/aiwolf -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// checkAsTheScorerReads holds a game's logs to what the contest's scorer
// (aiwolf-nlp-calculate-score, parser.py: parse_log, load_json_agents)
// reads and rejects: a record is "day,kind,…" with a fixed field count a
// kind; every status block names every agent; the agents are the last
// status block's; "result" gives the winner, which must be the JSON
// log's win_side; the JSON log's agents (idx, name, role, team) must
// match the status lines; a night from day 1 on is known by its attack
// line.
func checkAsTheScorerReads(t *testing.T, csv string, js []byte) {
	t.Helper()
	fields := map[string]int{"status": 7, "talk": 6, "whisper": 6, "vote": 4, "attackVote": 4,
		"execute": 4, "divine": 5, "guard": 5, "attack": 4, "result": 5}
	statuses := map[int]map[int][2]string{} // day → idx → name, role
	winner, resultDay, finalDay := "", -1, 0
	attackDays := map[int]bool{}
	executed := map[int]bool{}
	// The scorer's split_records: a line that does not start a record
	// ("day,kind,") continues the previous record's text.
	var records []string
	for i, l := range strings.Split(csv, "\n") {
		switch {
		case recordHead.MatchString(l):
			records = append(records, l)
		case len(records) > 0:
			records[len(records)-1] += "\n" + l
		case strings.TrimSpace(l) != "":
			t.Fatalf("line %d %q starts no record", i+1, l)
		}
	}
	for i, l := range records {
		parts := strings.Split(l, ",")
		day, err := strconv.Atoi(parts[0])
		if err != nil || len(parts) < 2 {
			t.Fatalf("line %d %q is no record", i+1, l)
		}
		finalDay = max(finalDay, day)
		want, ok := fields[parts[1]]
		if !ok {
			t.Errorf("line %d: unknown kind %q", i+1, parts[1])
			continue
		}
		if parts[1] == "talk" || parts[1] == "whisper" {
			if len(parts) < want {
				t.Errorf("line %d: %d fields", i+1, len(parts))
			}
			continue
		}
		if len(parts) != want {
			t.Errorf("line %d %q: %d fields, the scorer wants %d", i+1, l, len(parts), want)
			continue
		}
		switch parts[1] {
		case "status":
			if statuses[day] == nil {
				statuses[day] = map[int][2]string{}
			}
			statuses[day][mustAtoi(parts[2])] = [2]string{parts[5], parts[3]}
		case "attack":
			attackDays[day] = true
		case "execute":
			executed[day] = true
		case "result":
			winner, resultDay = parts[4], day
		}
	}
	if winner != "VILLAGER" && winner != "WEREWOLF" {
		t.Errorf("no winner: %q", winner)
	}
	if resultDay != finalDay {
		t.Errorf("the result is on day %d, the log's last day is %d", resultDay, finalDay)
	}
	last := statuses[finalDay]
	if last == nil {
		t.Fatalf("no closing status block on day %d", finalDay)
	}
	for d, per := range statuses {
		if len(per) != len(last) {
			t.Errorf("day %d has %d status lines, %d agents", d, len(per), len(last))
		}
	}
	// Every night from day 1 on that the game reached: the day's night
	// came unless the day's execution ended the game (the last day).
	for d := 1; d < finalDay; d++ {
		if !attackDays[d] && !(d == finalDay-1 && executed[d] && winner == "VILLAGER") && !(d == finalDay-1 && executed[d]) {
			t.Errorf("night %d has no attack line", d)
		}
	}
	var j struct {
		GameID  string `json:"game_id"`
		WinSide string `json:"win_side"`
		Agents  []struct {
			Idx              int
			Name, Role, Team string
		} `json:"agents"`
		Entries []map[string]any `json:"entries"`
	}
	if err := json.Unmarshal(js, &j); err != nil {
		t.Fatal(err)
	}
	if j.WinSide != winner {
		t.Errorf("win_side %q, result %q", j.WinSide, winner)
	}
	if len(j.Agents) != len(last) {
		t.Errorf("%d agents in the JSON log, %d in the status lines", len(j.Agents), len(last))
	}
	for _, a := range j.Agents {
		if st := last[a.Idx]; st != [2]string{a.Name, a.Role} {
			t.Errorf("agent %d: json (%s,%s), log %v", a.Idx, a.Name, a.Role, st)
		}
		if a.Team != strings.TrimRight(a.Name, "0123456789") {
			t.Errorf("agent %d: team %q", a.Idx, a.Team)
		}
	}
	for _, e := range j.Entries {
		for _, k := range []string{"agent", "request_timestamp", "response_timestamp", "request"} {
			if _, ok := e[k]; !ok {
				t.Errorf("entry %v has no %q", e, k)
			}
		}
	}
}
