package aiwolf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// The downloads of a finished game (GET /api/rooms/{id}/replay?format=
// aiwolf-csv|aiwolf-json): the contest's CSV game log, from the stored
// events, and the JSON log of every request and reply with its latency,
// from the records the conductor stored. Both are read from the store,
// so they survive a restart; the server gives them only once the game is
// over, as the replay (before that they would tell the roles).

// notes reads the request log back.
func notes(recs []store.Record) []logNote {
	var out []logNote
	for _, r := range recs {
		if r.Kind != NoteKind {
			continue
		}
		var batch []logNote // a batch of lines, or one
		if json.Unmarshal(r.Body, &batch) == nil {
			out = append(out, batch...)
			continue
		}
		var n logNote
		if json.Unmarshal(r.Body, &n) == nil {
			out = append(out, n)
		}
	}
	return out
}

// gameIDOf is the AIWolf game id the game's first log line holds.
func gameIDOf(recs []store.Record) string {
	// Record by record: the id is in the first, and a game's log is long.
	for i := range recs {
		for _, n := range notes(recs[i : i+1]) {
			if n.GameID != "" {
				return n.GameID
			}
		}
	}
	return ""
}

// restoreTalk takes back the last day's talk and whisper after a
// restart: the history goes on where it was (the rounds begin again).
func (t *table) restoreTalk(recs []store.Record) {
	for _, n := range notes(recs) {
		if n.Talk == nil {
			continue
		}
		switch n.Request {
		case ReqTalk:
			t.ensureDay(n.Talk.Day)
			t.talks = append(t.talks, *n.Talk)
		case ReqWhisper:
			t.ensureNight(n.Talk.Day)
			t.whispers = append(t.whispers, *n.Talk)
		}
	}
}

// HasLog reports whether a game's records hold an AIWolf request log.
func HasLog(recs []store.Record) bool { return gameIDOf(recs) != "" }

// The JSON log is the reference server's (aiwolf-nlp-server's json_logger,
// which the contest's scorer reads: aiwolf-nlp-calculate-score takes
// "agents" and "win_side" from it and holds them against the CSV log):
//
//	{"game_id":…,"win_side":"VILLAGER"|"WEREWOLF"|"NONE",
//	 "agents":[{"idx":1,"team":"kanolab","name":"kanolab1","role":"SEER"},…],
//	 "entries":[{"agent":"Agent[01]","request_timestamp":ms,"response_timestamp":ms,
//	             "request":"{\"request\":\"VOTE\",…}","response":"Agent[03]","error":…},…]}
//
// wolfden adds "room" and, per entry, what it measured and made: "seat",
// "name", "day", "request_type", "latency_us" and "talk". An entry's
// "request" is the packet abridged to its request and whom and which day
// it concerned: the whole packets are not stored (each repeats the
// status and role maps; the request log is stored with every game).
type jsonLog struct {
	GameID  string      `json:"game_id"`
	Room    string      `json:"room"`
	WinSide string      `json:"win_side"`
	Agents  []jsonAgent `json:"agents"`
	Entries []jsonEntry `json:"entries"`
}

type jsonAgent struct {
	Idx  int    `json:"idx"`
	Team string `json:"team"`
	Name string `json:"name"`
	Role string `json:"role"`
}

type jsonEntry struct {
	Agent       string     `json:"agent"`
	RequestAt   int64      `json:"request_timestamp"`  // unix ms
	ResponseAt  int64      `json:"response_timestamp"` // unix ms
	Request     string     `json:"request"`
	Response    string     `json:"response,omitempty"`
	Error       string     `json:"error,omitempty"`
	Seat        rules.Seat `json:"seat"`
	Name        string     `json:"name"`
	Day         int        `json:"day"`
	RequestType string     `json:"request_type"`
	Micros      int64      `json:"latency_us"`
	Talk        *Talk      `json:"talk,omitempty"`
}

// WriteJSON writes the request log in the reference's schema (above):
// the game's id, its winner, its agents (names are the seats' nicknames,
// as in the CSV log), then every request with its reply, in order.
func WriteJSON(w io.Writer, room string, names map[rules.Seat]string, recs []store.Record) error {
	events, _, err := game.Log(recs)
	if err != nil {
		return err
	}
	ns := notes(recs)
	out := jsonLog{GameID: gameIDOf(recs), Room: room, WinSide: "NONE", Agents: []jsonAgent{}, Entries: make([]jsonEntry, 0, len(ns))}
	n, roles := 0, map[rules.Seat]rules.Role{}
	for _, e := range events {
		switch e.Kind {
		case rules.EvGameStart:
			n = int(e.Value)
		case rules.EvRole, rules.EvSwap:
			roles[e.Seat] = e.Role
		case rules.EvGameOver:
			out.WinSide = winSide(rules.Camp(e.Value))
		}
	}
	agentOf := seatNames(names, ns)
	for s := rules.Seat(1); int(s) <= n; s++ {
		out.Agents = append(out.Agents, jsonAgent{Idx: int(s), Team: teamOf(agentOf[s]), Name: agentOf[s], Role: roleName(roles[s])})
	}
	for _, nt := range ns {
		if nt.GameID != "" {
			continue
		}
		e := jsonEntry{Agent: nt.Agent, RequestAt: nt.Sent, ResponseAt: nt.Sent + (nt.Micros+500)/1000,
			Response: nt.Reply, Error: nt.Error, Seat: nt.Seat, Name: nt.Name, Day: nt.Day,
			RequestType: nt.Request, Micros: nt.Micros, Talk: nt.Talk}
		e.Request = abridged(nt.Request, out.GameID, nt.Day, nt.Agent)
		out.Entries = append(out.Entries, e)
	}
	return json.NewEncoder(w).Encode(out)
}

// abridged is the packet an entry answered, cut to what the log keeps.
func abridged(req, gameID string, day int, agent string) string {
	type info struct {
		GameID string `json:"game_id"`
		Day    int    `json:"day"`
		Agent  string `json:"agent"`
	}
	b, _ := json.Marshal(struct {
		Request string `json:"request"`
		Info    info   `json:"info"`
	}{req, info{gameID, day, agent}})
	return string(b)
}

// seatNames are the seats' names in the logs: the room's nicknames, or,
// where a seat has none, the name its agent gave.
func seatNames(names map[rules.Seat]string, ns []logNote) map[rules.Seat]string {
	out := map[rules.Seat]string{}
	for _, nt := range ns {
		if nt.Seat != 0 && nt.Name != "" && out[nt.Seat] == "" {
			out[nt.Seat] = nt.Name
		}
	}
	for s, nick := range names {
		if nick != "" {
			out[s] = nick
		}
	}
	return out
}

func winSide(c rules.Camp) string {
	switch c {
	case rules.Village:
		return "VILLAGER"
	case rules.Wolves:
		return "WEREWOLF"
	}
	return "NONE"
}

// WriteCSV writes the contest's game log as the reference's game_logger
// does: each day's status lines, then its talk, votes, execution,
// divination, guard, attack votes and attack, and at the end the status
// lines and the result, both on the day after the last night:
//
//	0,status,1,VILLAGER,ALIVE,kanolab1,Agent[01]
//	1,talk,0,0,3,COMINGOUT Agent[03] SEER
//	1,vote,1,5
//	1,execute,5,POSSESSED
//	1,divine,3,1,HUMAN
//	1,attackVote,2,1
//	1,attack,1,true
//	3,status,1,VILLAGER,DEAD,kanolab1,Agent[01]
//	3,result,1,1,WEREWOLF
//
// Every night from day 1 on that the game reaches has its attack line:
// "d,attack,-1,true" when the wolves chose nobody, "d,attack,T,false"
// when T survived (the guard). The scorer counts the nights by them
// (aiwolf-nlp-calculate-score, parser.py, Game.nights). names are the
// seats' nicknames (the agents' names).
func WriteCSV(w io.Writer, names map[rules.Seat]string, recs []store.Record) error {
	events, _, err := game.Log(recs)
	if err != nil {
		return err
	}
	ns := notes(recs)
	names = seatNames(names, ns)
	cw := &csvw{w: w}
	n := 0
	roles := map[rules.Seat]rules.Role{}
	for _, e := range events {
		switch e.Kind {
		case rules.EvGameStart:
			n = int(e.Value)
		case rules.EvRole, rules.EvSwap:
			roles[e.Seat] = e.Role
		}
	}
	inGame, _ := gameNames(recs) // custom names (names.go), or Agent[01]…
	alive := map[rules.Seat]bool{}
	for s := rules.Seat(1); int(s) <= n; s++ {
		alive[s] = true
	}
	status := func(day int) {
		for s := rules.Seat(1); int(s) <= n; s++ {
			st := "DEAD"
			if alive[s] {
				st = "ALIVE"
			}
			cw.line(day, "status", int(s), roleName(roles[s]), st, names[s], inGame.of(s))
		}
	}
	// The agents' talk and whisper, as the limits made them, by day.
	talks := map[int][]Talk{}
	whispers := map[int][]Talk{}
	for _, nt := range ns {
		if nt.Talk != nil && nt.Request == ReqTalk {
			talks[nt.Talk.Day] = append(talks[nt.Talk.Day], *nt.Talk)
		}
		if nt.Talk != nil && nt.Request == ReqWhisper {
			whispers[nt.Talk.Day] = append(whispers[nt.Talk.Day], *nt.Talk)
		}
	}
	agent := func(name string) int { return int(inGame.seat(name, n)) }
	talkLines := func(day int) {
		for _, tk := range talks[day] {
			cw.line(day, "talk", tk.Idx, tk.Turn, agent(tk.Agent), tk.Text)
		}
	}
	whisperLines := func(day int) {
		for _, tk := range whispers[day] {
			cw.line(day, "whisper", tk.Idx, tk.Turn, agent(tk.Agent), tk.Text)
		}
	}
	// wolfden's night d+1 is the reference's night d. The reference has
	// no attack on night 0; from night 1 on it writes one attack line a
	// night, once the night's deaths are in.
	// A day's status lines wait for its first deed: a game the night's
	// attack ended has its dawn in the events but no day in the
	// reference's log, only the closing block.
	day, started, pending := 0, false, false
	openDay := func() {
		if pending {
			pending = false
			status(day)
			talkLines(day)
		}
	}
	night, attackTarget := false, rules.Seat(0)
	endNight := func() {
		if night && day >= 1 {
			if attackTarget == 0 {
				cw.line(day, "attack", -1, true)
			} else {
				cw.line(day, "attack", int(attackTarget), !alive[attackTarget])
			}
		}
		night, attackTarget = false, 0
	}
	for _, e := range events {
		switch e.Kind {
		case rules.EvNight:
			if !started {
				started = true
				status(0)
				talkLines(0)
			}
			openDay()
			night, attackTarget = true, 0
			whisperLines(day)
		case rules.EvDay:
			endNight()
			day, pending = int(e.Value), true
		case rules.EvBallot:
			openDay()
			// Each ballot is stored twice: the voter's own at once, and
			// everyone's when the vote closes. The public copy is the log's.
			if e.Target != 0 && e.Public {
				cw.line(day, "vote", int(e.Seat), int(e.Target))
			}
		case rules.EvExile:
			openDay()
			if e.Seat != 0 {
				cw.line(day, "execute", int(e.Seat), roleName(roles[e.Seat]))
			}
		case rules.EvCheck:
			openDay()
			sp := "HUMAN"
			if e.Value == rules.ResultWolf || e.Value == rules.ResultNotVillage || (e.Role != rules.NoRole && e.Role.Camp() == rules.Wolves && e.Role != rules.Possessed) {
				sp = "WEREWOLF"
			}
			cw.line(day, "divine", int(e.Seat), int(e.Target), sp)
		case rules.EvProtect:
			openDay()
			cw.line(day, "guard", int(e.Seat), int(e.Target), roleName(roles[e.Target]))
		case rules.EvAttackPick:
			openDay()
			if e.Target != 0 {
				cw.line(day, "attackVote", int(e.Seat), int(e.Target))
			}
		case rules.EvAttack:
			attackTarget = e.Target
		case rules.EvDeath:
			alive[e.Seat] = false
		case rules.EvGameOver:
			endNight()
			// The reference ends its last day, counts one more and
			// writes the closing status and result on that day: the
			// day that dawned, if the night ended the game.
			if !pending {
				day++
			}
			pending = false
			status(day)
			humans, wolves := 0, 0
			for s := rules.Seat(1); int(s) <= n; s++ {
				if !alive[s] {
					continue
				}
				if r := roles[s]; r.Camp() == rules.Wolves && r != rules.Possessed {
					wolves++
				} else {
					humans++
				}
			}
			cw.line(day, "result", humans, wolves, winSide(rules.Camp(e.Value)))
		}
	}
	return cw.err
}

// WriteFiles writes a finished matched game's logs where the options'
// file loggers say (json_logger, game_logger of --aiwolf-config): the
// JSON log as DIR/NAME.json, the CSV log as DIR/NAME.log, NAME the
// logger's filename with {game_id}, {timestamp} (the game's start, unix
// seconds) and {teams} (its agents' teams, sorted, joined by "_") put in,
// as the reference names them. A file is written whole, then renamed
// into place: a scorer reading the directory never sees half of one.
func WriteFiles(o *Options, room string, names map[rules.Seat]string, recs []store.Record) error {
	if o == nil || (!o.JSONLog.Enable && !o.GameLog.Enable) || !HasLog(recs) {
		return nil
	}
	var errs []error
	for _, f := range []struct {
		log   FileLog
		ext   string
		write func(io.Writer) error
	}{
		{o.JSONLog, ".json", func(w io.Writer) error { return WriteJSON(w, room, names, recs) }},
		{o.GameLog, ".log", func(w io.Writer) error { return WriteCSV(w, names, recs) }},
	} {
		if !f.log.Enable {
			continue
		}
		var b bytes.Buffer
		if err := f.write(&b); err != nil {
			errs = append(errs, err)
			continue
		}
		name := filepath.Join(f.log.Dir, fileName(f.log.Filename, recs, names))
		// Two games of one team that start in one second have one
		// "{timestamp}_{teams}": the second keeps both (the reference's
		// would overwrite the first).
		if _, err := os.Stat(name + f.ext); err == nil {
			name += "_" + gameIDOf(recs)
		}
		errs = append(errs, writeWhole(name+f.ext, b.Bytes()))
	}
	return errors.Join(errs...)
}

func fileName(pattern string, recs []store.Record, names map[rules.Seat]string) string {
	var teams []string
	for _, name := range seatNames(names, notes(recs)) {
		teams = append(teams, teamOf(name))
	}
	slices.Sort(teams)
	start := time.Now()
	if len(recs) > 0 {
		start = recs[0].At
	}
	// An agent's name never makes a path of its own.
	safe := strings.NewReplacer("/", "_", `\`, "_", "..", "_")
	r := strings.NewReplacer("{game_id}", gameIDOf(recs), "{timestamp}", strconv.FormatInt(start.Unix(), 10),
		"{teams}", safe.Replace(strings.Join(teams, "_")))
	return r.Replace(pattern)
}

func writeWhole(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// csvw writes the lines joined by "\n", with none after the last, as
// the reference's game_logger does: the scorer takes any line that does
// not start a record for the previous record's continuation, so a
// trailing newline would put "\n" into the result line's winner and void
// the game (aiwolf-nlp-calculate-score, parser.py, split_records).
type csvw struct {
	w     io.Writer
	err   error
	b     strings.Builder
	lines int
}

// line writes one line; a text field keeps its commas (the reference's
// talk lines do: the text is the last field).
func (c *csvw) line(fields ...any) {
	if c.err != nil {
		return
	}
	c.b.Reset()
	if c.lines > 0 {
		c.b.WriteByte('\n')
	}
	c.lines++
	for i, f := range fields {
		if i > 0 {
			c.b.WriteByte(',')
		}
		switch v := f.(type) {
		case int:
			c.b.WriteString(strconv.Itoa(v))
		case bool:
			c.b.WriteString(strconv.FormatBool(v))
		case string:
			c.b.WriteString(strings.NewReplacer("\n", " ", "\r", " ").Replace(v))
		default:
			fmt.Fprint(&c.b, v)
		}
	}
	_, c.err = io.WriteString(c.w, c.b.String())
}
