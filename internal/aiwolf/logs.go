package aiwolf

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

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
	for _, n := range notes(recs) {
		if n.GameID != "" {
			return n.GameID
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

// WriteJSON writes the request log: the game's id, then every request
// with its reply, its latency (µs) or why it failed, in order.
func WriteJSON(w io.Writer, room string, recs []store.Record) error {
	ns := notes(recs)
	lines := make([]logNote, 0, len(ns))
	for _, n := range ns {
		if n.GameID == "" {
			lines = append(lines, n)
		}
	}
	return json.NewEncoder(w).Encode(map[string]any{"game_id": gameIDOf(recs), "room": room, "log": lines})
}

// WriteCSV writes the contest's game log: each day's status lines, then
// its talk, votes, execution, divination, guard, attack votes and attack,
// and the result:
//
//	0,status,1,VILLAGER,ALIVE,kanolab1,Agent[01]
//	1,talk,0,0,3,COMINGOUT Agent[03] SEER
//	1,vote,1,5
//	1,execute,5,POSSESSED
//	1,divine,3,1,HUMAN
//	1,attackVote,2,1
//	1,attack,1,true
//	3,result,1,1,WEREWOLF
//
// names are the seats' nicknames (the agents' names).
func WriteCSV(w io.Writer, names map[rules.Seat]string, recs []store.Record) error {
	events, msgs, err := game.Log(recs)
	if err != nil {
		return err
	}
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
	// The agents' talk and whisper, as the limits made them, by day; the
	// others' messages from the chat.
	talks := map[int][]Talk{}
	whispers := map[int][]Talk{}
	for _, nt := range notes(recs) {
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
	_ = msgs
	day, started, attackTarget := 0, false, rules.Seat(0)
	for _, e := range events {
		switch e.Kind {
		case rules.EvNight:
			if !started {
				started = true
				status(0)
				talkLines(0)
			}
			whisperLines(day)
		case rules.EvDay:
			if attackTarget != 0 { // the night's deaths are in by now
				cw.line(day, "attack", int(attackTarget), !alive[attackTarget])
				attackTarget = 0
			}
			day = int(e.Value)
			status(day)
			talkLines(day)
		case rules.EvBallot:
			// Each ballot is stored twice: the voter's own at once, and
			// everyone's when the vote closes. The public copy is the log's.
			if e.Target != 0 && e.Public {
				cw.line(day, "vote", int(e.Seat), int(e.Target))
			}
		case rules.EvExile:
			if e.Seat != 0 {
				cw.line(day, "execute", int(e.Seat), roleName(roles[e.Seat]))
			}
		case rules.EvCheck:
			sp := "HUMAN"
			if e.Value == rules.ResultWolf || e.Value == rules.ResultNotVillage || (e.Role != rules.NoRole && e.Role.Camp() == rules.Wolves && e.Role != rules.Possessed) {
				sp = "WEREWOLF"
			}
			cw.line(day, "divine", int(e.Seat), int(e.Target), sp)
		case rules.EvProtect:
			cw.line(day, "guard", int(e.Seat), int(e.Target), roleName(roles[e.Target]))
		case rules.EvAttackPick:
			if e.Target != 0 {
				cw.line(day, "attackVote", int(e.Seat), int(e.Target))
			}
		case rules.EvAttack:
			attackTarget = e.Target
		case rules.EvDeath:
			alive[e.Seat] = false
		case rules.EvGameOver:
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
			winner := "NONE"
			switch rules.Camp(e.Value) {
			case rules.Village:
				winner = "VILLAGER"
			case rules.Wolves:
				winner = "WEREWOLF"
			}
			cw.line(day, "result", humans, wolves, winner)
		}
	}
	return cw.err
}

type csvw struct {
	w   io.Writer
	err error
	b   strings.Builder
}

// line writes one line; a text field keeps its commas (the reference's
// talk lines do: the text is the last field).
func (c *csvw) line(fields ...any) {
	if c.err != nil {
		return
	}
	c.b.Reset()
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
	c.b.WriteByte('\n')
	_, c.err = io.WriteString(c.w, c.b.String())
}
