package agent

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// The example packets of AIWOLF-PROTOCOL.md, with the document's "…" filled.
const (
	status5  = `{"Agent[01]":"ALIVE","Agent[02]":"ALIVE","Agent[03]":"ALIVE","Agent[04]":"ALIVE","Agent[05]":"ALIVE"}`
	setting5 = `{"agent_count":5,"vote_visibility":true,
  "talk":{"max_count":{"per_agent":4,"per_day":20},"max_length":{"count_in_word":false,"count_spaces":false,"mention_length":50,"base_length":50},"max_skip":0},
  "whisper":{"max_count":{"per_agent":0,"per_day":0},"max_length":{"count_in_word":false,"count_spaces":false,"mention_length":50,"base_length":50},"max_skip":0},
  "vote":{"max_count":1,"allow_self_vote":true},"attack_vote":{"max_count":1,"allow_self_vote":true,"allow_no_target":false},
  "timeout":{"action":60000,"response":120000},
  "role_num_map":{"BODYGUARD":0,"MEDIUM":0,"POSSESSED":1,"SEER":1,"VILLAGER":2,"WEREWOLF":1}}`
	gameID = "01M8P63MZ6AREBCNPV2PE2GTKY"

	docInitialize = `{"request":"INITIALIZE","info":{"game_id":"` + gameID + `","day":0,"agent":"Agent[03]","profile":"年齢: 28\n性別: 男性",
 "status_map":` + status5 + `,"role_map":{"Agent[03]":"SEER"}},"setting":` + setting5 + `}`
	docTalk0       = `{"request":"TALK","info":{"game_id":"` + gameID + `","day":0,"agent":"Agent[03]","remain_count":3,"remain_skip":0,"status_map":` + status5 + `,"role_map":{"Agent[03]":"SEER"}},"talk_history":[]}`
	docDailyFinish = `{"request":"DAILY_FINISH","info":{"game_id":"` + gameID + `","day":0,"agent":"Agent[03]","status_map":` + status5 + `,"role_map":{"Agent[03]":"SEER"}},"talk_history":[{"idx":18,"day":0,"turn":3,"agent":"Agent[05]","text":"Agent[02]が人狼だと思うよ。","skip":false,"over":false}]}`
	docDailyInit2  = `{"request":"DAILY_INITIALIZE","info":{"game_id":"` + gameID + `","day":2,"agent":"Agent[03]",
 "divine_result":{"day":1,"agent":"Agent[03]","target":"Agent[01]","result":"HUMAN"},
 "executed_agent":"Agent[02]","attacked_agent":"Agent[01]",
 "vote_list":[{"day":1,"agent":"Agent[01]","target":"Agent[05]"}],"status_map":{"Agent[01]":"DEAD","Agent[02]":"DEAD","Agent[03]":"ALIVE","Agent[04]":"ALIVE","Agent[05]":"ALIVE"},"role_map":{"Agent[03]":"SEER"}},"setting":` + setting5 + `}`
	docFinish = `{"request":"FINISH","info":{"game_id":"` + gameID + `","day":2,"agent":"Agent[03]","status_map":{"Agent[01]":"DEAD","Agent[02]":"DEAD","Agent[03]":"ALIVE","Agent[04]":"ALIVE","Agent[05]":"DEAD"},
 "role_map":{"Agent[01]":"VILLAGER","Agent[02]":"POSSESSED","Agent[03]":"SEER","Agent[04]":"VILLAGER","Agent[05]":"WEREWOLF"}}}`
)

func TestDecodesEveryFieldOfTheDocumentsPackets(t *testing.T) {
	var p Packet
	if err := json.Unmarshal([]byte(docInitialize), &p); err != nil {
		t.Fatal(err)
	}
	st := p.Setting
	if p.Info.GameID != gameID || p.Info.Agent != "Agent[03]" || p.Info.RoleMap["Agent[03]"] != Seer ||
		len(p.Info.StatusMap) != 5 || !strings.HasPrefix(p.Info.Profile, "年齢") {
		t.Errorf("INITIALIZE info: %+v", p.Info)
	}
	if st == nil || st.AgentCount != 5 || !st.VoteVisibility || st.Talk.MaxCount.PerAgent != 4 ||
		st.Talk.MaxCount.PerDay != 20 || *st.Talk.MaxLength.BaseLength != 50 || *st.Talk.MaxLength.MentionLength != 50 ||
		st.Talk.MaxLength.PerTalk != nil || st.Whisper.MaxCount.PerAgent != 0 || st.Vote.MaxCount != 1 ||
		!st.Vote.AllowSelfVote || st.AttackVote.AllowNoTarget || st.Timeout.Action != 60000 ||
		st.Timeout.Response != 120000 || st.RoleNumMap[Possessed] != 1 || st.RoleNumMap[Villager] != 2 {
		t.Errorf("INITIALIZE setting: %+v", st)
	}
	p = Packet{}
	if err := json.Unmarshal([]byte(docTalk0), &p); err != nil {
		t.Fatal(err)
	}
	if p.Info.RemainCount == nil || *p.Info.RemainCount != 3 || p.Info.RemainSkip == nil || p.Info.RemainLength != nil {
		t.Errorf("TALK remains: %+v", p.Info)
	}
	p = Packet{}
	if err := json.Unmarshal([]byte(docDailyFinish), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.TalkHistory) != 1 || p.TalkHistory[0] != (Talk{Idx: 18, Day: 0, Turn: 3, Agent: "Agent[05]", Text: "Agent[02]が人狼だと思うよ。"}) {
		t.Errorf("DAILY_FINISH history: %+v", p.TalkHistory)
	}
	p = Packet{}
	if err := json.Unmarshal([]byte(docDailyInit2), &p); err != nil {
		t.Fatal(err)
	}
	in := p.Info
	if *in.DivineResult != (Judge{Day: 1, Agent: "Agent[03]", Target: "Agent[01]", Result: Human}) ||
		in.ExecutedAgent != "Agent[02]" || in.AttackedAgent != "Agent[01]" ||
		!slices.Equal(in.VoteList, []Vote{{Day: 1, Agent: "Agent[01]", Target: "Agent[05]"}}) || in.MediumResult != nil {
		t.Errorf("DAILY_INITIALIZE day 2: %+v", in)
	}
	// Fields of a newer server are tolerated.
	p = Packet{}
	if err := json.Unmarshal([]byte(`{"request":"TALK_BROADCAST","future":{"x":1},"new_talk":{"idx":1,"day":1,"turn":0,"agent":"Agent[01]","text":"hi","skip":false,"over":false,"time":1733000000000,"extra":true}}`), &p); err != nil {
		t.Fatal(err)
	}
	if p.NewTalk == nil || p.NewTalk.Time != 1733000000000 {
		t.Errorf("new_talk: %+v", p.NewTalk)
	}
}

// fake is a server of one scripted connection at a time: each handler gets
// the next connection.
type fake struct {
	t        *testing.T
	srv      *httptest.Server
	handlers chan func(*conn)
	wg       sync.WaitGroup
}

type conn struct {
	t   *testing.T
	c   *websocket.Conn
	ctx context.Context
}

func newFake(t *testing.T, handlers ...func(*conn)) *fake {
	f := &fake{t: t, handlers: make(chan func(*conn), len(handlers))}
	for _, h := range handlers {
		f.handlers <- h
	}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var h func(*conn)
		select {
		case h = <-f.handlers:
		default:
			http.Error(w, "no more connections expected", http.StatusGone)
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		c.SetReadLimit(1 << 20)
		f.wg.Add(1)
		defer f.wg.Done()
		defer c.CloseNow()
		h(&conn{t: t, c: c, ctx: r.Context()})
	}))
	t.Cleanup(func() { f.srv.Close() })
	return f
}

func (f *fake) url() string { return "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws" }

func (c *conn) send(packet string) {
	c.t.Helper()
	if err := c.c.Write(c.ctx, websocket.MessageText, []byte(packet)); err != nil {
		c.t.Errorf("send %.40s: %v", packet, err)
	}
}

// recv reads the agent's next reply, its newline deleted as the reference
// server does.
func (c *conn) recv() string {
	c.t.Helper()
	_, b, err := c.c.Read(c.ctx)
	if err != nil {
		c.t.Errorf("recv: %v", err)
		return ""
	}
	return strings.ReplaceAll(string(b), "\n", "")
}

// target reads a reply that must name a living agent other than Agent[03].
func (c *conn) target() {
	c.t.Helper()
	if got := c.recv(); !strings.Contains(status5, `"`+got+`"`) || got == "Agent[03]" {
		c.t.Errorf("target %q is no other agent", got)
	}
}

// ask sends a request and checks the reply.
func (c *conn) ask(packet, want string) {
	c.t.Helper()
	c.send(packet)
	if got := c.recv(); got != want {
		c.t.Errorf("reply to %.60s: %q, want %q", packet, got, want)
	}
}

// closedByAgent checks that the agent sent nothing more and closed.
func (c *conn) closedByAgent() {
	c.t.Helper()
	_, b, err := c.c.Read(c.ctx)
	if err == nil {
		c.t.Errorf("the agent sent %q where it should have sent nothing", b)
		return
	}
	if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		c.t.Errorf("the agent did not close normally: %v", err)
	}
}

func talk(day int, remain int, history string) string {
	return `{"request":"TALK","info":{"game_id":"` + gameID + `","day":` + itoa(day) + `,"agent":"Agent[03]","remain_count":` + itoa(remain) +
		`,"remain_skip":0,"status_map":` + status5 + `,"role_map":{"Agent[03]":"SEER"}},"talk_history":[` + history + `]}`
}

func request(kind string, day int, role, extra string) string {
	return `{"request":"` + kind + `","info":{"game_id":"` + gameID + `","day":` + itoa(day) + `,"agent":"Agent[03]"` + extra +
		`,"status_map":` + status5 + `,"role_map":{"Agent[03]":"` + role + `"}}}`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// seerGame is the document's 5-player game as the seer Agent[03] sees it,
// up to the day-1 vote; the fake checks each reply, and that the packets
// without reply get none (the next read would be that reply).
func seerGame(c *conn) {
	c.ask(`{"request":"NAME"}`, "kanolab1")
	c.send(docInitialize)
	c.send(request(ReqDailyInitialize, 0, Seer, ""))
	c.ask(docTalk0, Over)
	c.send(docDailyFinish)
	c.send(request(ReqDivine, 0, Seer, ""))
	if got := c.recv(); got != "Agent[02]" {
		// Agent[05] named Agent[02] a wolf: the most suspect is divined first.
		c.t.Errorf("divined %q, want the accused Agent[02]", got)
	}
	c.send(`{"request":"DAILY_INITIALIZE","info":{"game_id":"` + gameID + `","day":1,"agent":"Agent[03]","divine_result":{"day":0,"agent":"Agent[03]","target":"Agent[02]","result":"WEREWOLF"},"status_map":` + status5 + `,"role_map":{"Agent[03]":"SEER"}},"setting":` + setting5 + `}`)
	c.ask(talk(1, 4, ""), "COMINGOUT Agent[03] SEER")
	c.ask(talk(1, 3, `{"idx":0,"day":1,"turn":0,"agent":"Agent[01]","text":"VOTE Agent[04]","skip":false,"over":false}`), "DIVINED Agent[02] WEREWOLF")
	c.ask(talk(1, 2, ""), "VOTE Agent[02]")
	c.ask(talk(1, 1, ""), Over)
	c.send(request(ReqDailyFinish, 1, Seer, ""))
	c.ask(request(ReqVote, 1, Seer, ""), "Agent[02]")
}

func TestTheSeerDivinesComesOutAndVotesTheWolf(t *testing.T) {
	f := newFake(t, func(c *conn) {
		seerGame(c)
		c.send(docFinish)
		c.closedByAgent()
	})
	res, err := Play(t.Context(), f.url(), Options{Name: "kanolab1", Seed: 7})
	f.wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "kanolab1" || res.Agent != "Agent[03]" || res.Role != Seer || res.GameID != gameID ||
		res.Winner != Villager || !res.Won || !res.Finished || len(res.Errors) != 0 {
		t.Errorf("result: %+v", res)
	}
	if len(res.Packets) != 14 || res.Packets[13].Request != ReqFinish {
		t.Errorf("%d packets kept, the last %+v", len(res.Packets), res.Packets[len(res.Packets)-1])
	}
}

func TestSameSeedSameReplies(t *testing.T) {
	play := func(seed uint64) []string {
		f := newFake(t, func(c *conn) {
			c.ask(`{"request":"NAME"}`, "x1")
			c.send(docInitialize)
			for d := 0; d < 6; d++ {
				c.send(request(ReqVote, d, Villager, ""))
				c.recv()
				c.send(request(ReqDivine, d, Seer, ""))
				c.recv()
			}
			c.send(docFinish)
			c.closedByAgent()
		})
		res, err := Play(t.Context(), f.url(), Options{Name: "x1", Seed: seed})
		f.wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		return res.Replies
	}
	a, b := play(1), play(1)
	if !slices.Equal(a, b) {
		t.Errorf("seed 1 twice: %q and %q", a, b)
	}
	differ := false
	for s := uint64(2); s < 12 && !differ; s++ {
		differ = !slices.Equal(a, play(s))
	}
	if !differ {
		t.Errorf("ten other seeds all gave %q: the seed is not used", a)
	}
}

func TestWolvesAttackTheClaimedSeer(t *testing.T) {
	wolfStatus := `,"status_map":` + status5 + `,"role_map":{"Agent[03]":"WEREWOLF","Agent[04]":"WEREWOLF"}`
	f := newFake(t, func(c *conn) {
		c.ask(`{"request":"NAME"}`, "w1")
		c.send(`{"request":"INITIALIZE","info":{"game_id":"` + gameID + `","day":0,"agent":"Agent[03]"` + wolfStatus + `},"setting":` + setting5 + `}`)
		c.send(`{"request":"DAILY_FINISH","info":{"game_id":"` + gameID + `","day":1,"agent":"Agent[03]"` + wolfStatus + `},"talk_history":[` +
			`{"idx":0,"day":1,"turn":0,"agent":"Agent[05]","text":"COMINGOUT Agent[05] SEER","skip":false,"over":false},` +
			`{"idx":1,"day":1,"turn":0,"agent":"Agent[05]","text":"DIVINED Agent[01] HUMAN","skip":false,"over":false},` +
			`{"idx":2,"day":1,"turn":0,"agent":"Agent[02]","text":"VOTE Agent[04]","skip":false,"over":false}]}`)
		// The fellow wolf Agent[04] is accused, but a wolf votes for no wolf.
		c.ask(`{"request":"VOTE","info":{"game_id":"`+gameID+`","day":1,"agent":"Agent[03]"`+wolfStatus+`}}`, "Agent[05]")
		c.ask(`{"request":"ATTACK","info":{"game_id":"`+gameID+`","day":1,"agent":"Agent[03]"`+wolfStatus+`}}`, "Agent[05]")
		c.send(strings.NewReplacer(`"Agent[03]":"SEER"`, `"Agent[03]":"WEREWOLF"`, `"Agent[05]":"WEREWOLF"`, `"Agent[05]":"SEER"`).Replace(docFinish))
		c.closedByAgent()
	})
	res, err := Play(t.Context(), f.url(), Options{Name: "w1"})
	f.wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if res.Role != Werewolf || res.Winner != Werewolf || !res.Won {
		t.Errorf("result: %+v", res)
	}
}

func TestTalkRespectsRemainCountAndLength(t *testing.T) {
	tooLong := strings.Replace(setting5, `"base_length":50},"max_skip":0},
  "whisper"`, `"base_length":5,"per_agent":3},"max_skip":0},
  "whisper"`, 1)
	f := newFake(t, func(c *conn) {
		c.ask(`{"request":"NAME"}`, "s1")
		c.send(strings.Replace(docInitialize, setting5, tooLong, 1))
		c.send(`{"request":"DAILY_INITIALIZE","info":{"game_id":"` + gameID + `","day":1,"agent":"Agent[03]","divine_result":{"day":0,"agent":"Agent[03]","target":"Agent[02]","result":"WEREWOLF"},"status_map":` + status5 + `,"role_map":{"Agent[03]":"SEER"}}}`)
		// "COMINGOUTAgent[03]SEER" is 22 runes: 17 beyond the 5 free, and 3 remain.
		c.ask(strings.Replace(talk(1, 4, ""), `"remain_skip"`, `"remain_length":3,"remain_skip"`, 1), Over)
		// Enough length left, but no count left.
		c.ask(strings.Replace(talk(1, 0, ""), `"remain_skip"`, `"remain_length":300,"remain_skip"`, 1), Over)
		c.ask(strings.Replace(talk(1, 2, ""), `"remain_skip"`, `"remain_length":300,"remain_skip"`, 1), "COMINGOUT Agent[03] SEER")
		c.send(docFinish)
		c.closedByAgent()
	})
	if _, err := Play(t.Context(), f.url(), Options{Name: "s1"}); err != nil {
		t.Fatal(err)
	}
	f.wg.Wait()
}

func TestSilentKindsAreNeverAnswered(t *testing.T) {
	f := newFake(t, func(c *conn) {
		c.ask(`{"request":"NAME"}`, "q1")
		c.send(docInitialize)
		c.send(request(ReqVote, 1, Seer, ""))
		// A silent VOTE: the next frame is the DIVINE's answer.
		c.send(request(ReqDivine, 1, Seer, ""))
		if got := c.recv(); !strings.HasPrefix(got, "Agent[0") || got == "Agent[03]" {
			t.Errorf("after a silent VOTE the DIVINE's answer was %q", got)
		}
		c.send(docFinish)
		c.closedByAgent()
	})
	res, err := Play(t.Context(), f.url(), Options{Name: "q1", Silent: map[string]bool{ReqVote: true}})
	f.wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Replies) != 2 {
		t.Errorf("replies %q: NAME and DIVINE only", res.Replies)
	}
}

func TestGarbageKindsAreAnsweredWithGarbage(t *testing.T) {
	f := newFake(t, func(c *conn) {
		c.ask(`{"request":"NAME"}`, "g1")
		c.send(docInitialize)
		c.ask(request(ReqVote, 1, Seer, ""), "}{\x01 not-an-agent[99] \u202e")
		c.send(docFinish)
		c.closedByAgent()
	})
	if _, err := Play(t.Context(), f.url(), Options{Name: "g1", Garbage: map[string]bool{ReqVote: true}}); err != nil {
		t.Fatal(err)
	}
	f.wg.Wait()
}

func TestDropsAfterNRequestsAndRejoinsWithTheSameName(t *testing.T) {
	f := newFake(t, func(c *conn) {
		c.ask(`{"request":"NAME"}`, "d1")
		c.send(docInitialize)
		c.send(request(ReqDivine, 0, Seer, ""))
		c.target()
		c.send(request(ReqVote, 1, Seer, ""))
		// The second request: the agent drops without a close frame.
		if _, b, err := c.c.Read(c.ctx); err == nil || websocket.CloseStatus(err) != -1 {
			t.Errorf("read after the drop: %q, %v (want a connection cut without close frame)", b, err)
		}
	}, func(c *conn) {
		c.ask(`{"request":"NAME"}`, "d1")
		c.send(request(ReqVote, 1, Seer, ""))
		c.target()
		c.send(docFinish)
		c.closedByAgent()
	})
	res, err := Play(t.Context(), f.url(), Options{Name: "d1", Seed: 3, DropAfter: 1, Rejoin: true, RejoinDelay: time.Millisecond}) // every target scored alike draws Agent[01] with this seed? No: the
	// choice is fixed below by making the others dead.

	f.wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if !res.Finished || res.GameID != gameID {
		t.Errorf("result after the rejoin: %+v", res)
	}
}

func TestPingsAreAnsweredDuringASlowReply(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	f := newFake(t, func(c *conn) {
		c.ask(`{"request":"NAME"}`, "p1")
		c.send(docInitialize)
		c.send(request(ReqVote, 1, Seer, ""))
		// The agent waits an hour before its vote; it still answers a ping
		// (read here by a reader of the fake's own).
		go c.c.Read(c.ctx)
		if err := c.c.Ping(c.ctx); err != nil {
			t.Errorf("ping while the agent delays: %v", err)
		}
		cancel()
	})
	_, err := Play(ctx, f.url(), Options{Name: "p1", Delay: time.Hour, DelayOn: map[string]bool{ReqVote: true}})
	f.wg.Wait()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Play ended with %v, want the context's cancellation", err)
	}
}

func TestAConnectionClosedBeforeFinishIsAnError(t *testing.T) {
	f := newFake(t, func(c *conn) {
		c.ask(`{"request":"NAME"}`, "e1")
		c.send(docInitialize)
		c.c.Close(websocket.StatusGoingAway, "bye")
	})
	res, err := Play(t.Context(), f.url(), Options{Name: "e1"})
	f.wg.Wait()
	if err == nil || res.Finished || !strings.Contains(err.Error(), "before FINISH") {
		t.Errorf("Play: %+v, %v", res, err)
	}
	if _, err := Play(t.Context(), f.url(), Options{}); !errors.Is(err, ErrNoName) {
		t.Errorf("no name: %v", err)
	}
}

func TestWinnerFromFinishMaps(t *testing.T) {
	roles := map[string]string{"a": Werewolf, "b": Possessed, "c": Seer, "d": Villager, "e": Villager}
	for _, tc := range []struct {
		name  string
		alive string
		want  string
	}{
		{"no wolf alive: the village", "bcde", Villager},
		{"the possessed counts as human: one wolf, one possessed", "ab", Werewolf},
		{"humans no more than wolves", "ac", Werewolf},
		{"game stopped with both alive", "acd", NoWinner},
	} {
		st := map[string]string{}
		for n := range roles {
			st[n] = Dead
			if strings.Contains(tc.alive, n) {
				st[n] = Alive
			}
		}
		if got := winner(roles, st); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestParseReadsProtocolAndNaturalLanguage(t *testing.T) {
	agents := map[string]string{"Agent[01]": Alive, "Agent[02]": Alive, "ミナト": Alive}
	for _, tc := range []struct {
		text string
		want []statement
	}{
		{"COMINGOUT Agent[01] SEER", []statement{{"COMINGOUT", "Agent[01]", Seer}}},
		{"Agent[01] DIVINED Agent[02] WEREWOLF", []statement{{"DIVINED", "Agent[02]", Werewolf}}},
		{"BECAUSE (DIVINED Agent[02] WEREWOLF) (VOTE Agent[02])", []statement{{"DIVINED", "Agent[02]", Werewolf}, {"VOTE", "Agent[02]", ""}}},
		{"VOTE Agent[09]", nil},
		{"Agent[02]が人狼だと思うよ。", []statement{{"WOLFWORD", "Agent[02]", ""}}},
		{"ミナトは人狼", []statement{{"WOLFWORD", "ミナト", ""}}},
		{"hello Agent[01]", nil},
	} {
		if got := parse(tc.text, agents); !slices.Equal(got, tc.want) {
			t.Errorf("parse(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
