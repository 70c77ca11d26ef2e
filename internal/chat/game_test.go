package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/chat/chattest"
	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/internal/narrate"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/sqlite"
	"github.com/wolfden/wolfden/internal/wire"
)

const (
	group = "g1"
	lang  = "zh-Hans"
)

// quick timers: a whole game in well under a minute on an idle machine.
var quick = map[string]string{"setup": "1s", "night": "1500ms", "witch": "900ms", "speech": "900ms",
	"vote": "900ms", "other": "700ms", "bot": "10ms", "tick": "20ms"}

// rig is a server with a fake platform, on a SQLite file that outlives it.
type rig struct {
	t    *testing.T
	path string
	p    *chattest.Platform
	seed uint64
	deal []string
	tm   map[string]string // the timers, quick's by default
	rem  string            // the reminders ("": the room's default)
	srv  *server.Server
	hs   *httptest.Server
	st   *sqlite.DB
}

func newRig(t *testing.T, seed uint64, deal ...string) *rig {
	r := &rig{t: t, path: filepath.Join(t.TempDir(), "w.db"), p: chattest.New("fake"), seed: seed, deal: deal, tm: quick}
	r.start()
	t.Cleanup(r.stop)
	return r
}

func (r *rig) start() {
	st, err := sqlite.Open(r.path)
	if err != nil {
		r.t.Fatal(err)
	}
	seed := r.seed
	r.st = st
	r.srv = server.New(st, server.Options{Chat: []chat.Platform{r.p}, ChatRoom: func(o *chat.Open) {
		o.Seed, o.Practice, o.Timers, o.Deal, o.Remind = &seed, true, r.tm, r.deal, r.rem
	}})
	r.hs = httptest.NewServer(r.srv)
	if _, err := r.srv.Restore(context.Background()); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) stop() {
	if r.srv == nil {
		return
	}
	r.hs.Close()
	r.srv.Stop()
	r.st.Close()
	r.srv = nil
}

func user(i int) string { return fmt.Sprintf("u%d", i) }

func text(key string) string { return i18n.Text(lang, key, nil) }

// wait waits for cond, failing the test after a long while.
func (r *rig) wait(what string, d time.Duration, cond func([]chattest.Sent) bool) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if !r.p.Wait(ctx, cond) {
		r.t.Fatalf("waited %v for %s", d, what)
	}
}

var linkRE = regexp.MustCompile(`/room/([a-z0-9]+)#seat=(\d+)&token=([A-Za-z0-9_-]+)`)

// seat is what a user was told privately when he joined.
type seatLink struct {
	room, token string
	seat        int
}

// open has the host open a room and n users join it; it returns each
// user's seat link.
func (r *rig) open(n int) map[string]seatLink {
	r.p.Say(group, user(1), "狼人杀 开局")
	r.wait("the room", time.Minute, func(s []chattest.Sent) bool {
		return chattest.Has(s, chat.Target{Group: group}, "入座")
	})
	links := map[string]seatLink{}
	for i := 1; i <= n; i++ {
		r.p.Say(group, user(i), "加入")
		u := user(i)
		r.wait("a seat for "+u, time.Minute, func(s []chattest.Sent) bool {
			return chattest.Has(s, chat.Target{User: u}, "#seat=")
		})
		for _, m := range r.p.To(chat.Target{User: u}) {
			if x := linkRE.FindStringSubmatch(m.Msg.Text); x != nil {
				var seat int
				fmt.Sscan(x[2], &seat)
				links[u] = seatLink{room: x[1], seat: seat, token: x[3]}
			}
		}
	}
	return links
}

// responder plays each user as a bot would: it presses one of the buttons
// of every private prompt (decoys too), picked by the message's number.
func (r *rig) responder(ctx context.Context, users []string) {
	mine := map[string]bool{}
	for _, u := range users {
		mine[u] = true
	}
	seen := 0
	go func() {
		for {
			var batch []chattest.Sent
			if !r.p.Wait(ctx, func(s []chattest.Sent) bool {
				if len(s) > seen {
					batch = append(batch, s[seen:]...)
					seen = len(s)
					return true
				}
				return false
			}) {
				return
			}
			for _, m := range batch {
				if !m.To.Private() || !mine[m.To.User] || len(m.Msg.Buttons) == 0 {
					continue
				}
				var all []chat.Button
				for _, row := range m.Msg.Buttons {
					all = append(all, row...)
				}
				b := all[(m.N*7)%len(all)]
				r.p.Say("", m.To.User, b.Command)
			}
		}
	}()
}

// webStream reads a seat's (or, without a token, the spectators') whole
// stream over the web client's WebSocket once the game is over: its
// events rendered as the log shows them, and the seat's card.
func (r *rig) webStream(room, token string) (lines []string, role string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(r.hs.URL, "http")+"/ws/"+room, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 22)
	hello, _ := json.Marshal(map[string]any{"type": "hello", "token": token})
	if err := ws.Write(ctx, websocket.MessageText, hello); err != nil {
		r.t.Fatal(err)
	}
	n := narrate.Narrator{Lang: lang}
	seq := 0
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			r.t.Fatalf("reading the web stream: %v", err)
		}
		for _, f := range strings.Split(string(b), "\n") {
			var h struct{ Type string }
			_ = json.Unmarshal([]byte(f), &h)
			switch h.Type {
			case "event":
				var e wire.EventFrame
				_ = json.Unmarshal([]byte(f), &e)
				if e.Seq > seq {
					seq = e.Seq
					lines = append(lines, n.Event(&e))
				}
			case "state":
				var st wire.StateFrame
				_ = json.Unmarshal([]byte(f), &st)
				role = st.Role
				if st.Over {
					return lines, role
				}
			}
		}
	}
}

// eventLines keeps, of the messages' lines, those that render an event.
func eventLines(ms []chattest.Sent, known map[string]bool) []string {
	var out []string
	for _, m := range ms {
		for _, l := range strings.Split(m.Msg.Text, "\n") {
			if known[l] {
				out = append(out, l)
			}
		}
	}
	return out
}

func over(s []chattest.Sent) bool {
	return chattest.Has(s, chat.Target{Group: group}, text("chat.over"))
}

// TestAWholeGameInAGroupSendsEachUserOnlyHisSeatsStream: a whole std-9
// game of nine chat users, played by the responder; what each was sent is
// checked against the web client's stream of his seat, the group's against
// the spectators', and the first night's messages of the seer and a
// villager against each other.
func TestAWholeGameInAGroupSendsEachUserOnlyHisSeatsStream(t *testing.T) {
	r := newRig(t, 20261205)
	links := r.open(9)
	var users []string
	for i := 1; i <= 9; i++ {
		users = append(users, user(i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.responder(ctx, users)
	r.p.Say(group, user(1), "开始")
	r.wait("the end of the game", 5*time.Minute, over)
	cancel()
	checkStreams(t, r, links)
	checkNightSecrecy(t, r, links)
}

// checkStreams: each user's private event lines are exactly his seat's
// stream on the web; the group's, exactly the spectators'.
func checkStreams(t *testing.T, r *rig, links map[string]seatLink) {
	t.Helper()
	room := links[user(1)].room
	known := map[string]bool{}
	web := map[string][]string{}
	for u, l := range links {
		web[u], _ = r.webStream(room, l.token)
		for _, x := range web[u] {
			known[x] = true
		}
	}
	public, _ := r.webStream(room, "")
	for _, x := range public {
		known[x] = true
	}
	if len(public) < 5 {
		t.Fatalf("the spectators' stream holds only %d events", len(public))
	}
	for u := range links {
		got := eventLines(r.p.To(chat.Target{User: u}), known)
		if !slices.Equal(got, web[u]) {
			t.Errorf("%s (seat %d) was sent %d event lines, his seat's stream holds %d:\n got %q\nwant %q",
				u, links[u].seat, len(got), len(web[u]), got, web[u])
		}
	}
	if got := eventLines(r.p.To(chat.Target{Group: group}), known); !slices.Equal(got, public) {
		t.Errorf("the group was sent %d event lines, the spectators' stream holds %d:\n got %q\nwant %q",
			len(got), len(public), got, public)
	}
}

// checkNightSecrecy: on the first night the seer and a villager are sent
// as many messages, in the same rounds, a real prompt and a decoy of the
// same shape; the group nothing.
func checkNightSecrecy(t *testing.T, r *rig, links map[string]seatLink) {
	t.Helper()
	room := links[user(1)].room
	roleOf := map[string]string{}
	for u, l := range links {
		_, roleOf[u] = r.webStream(room, l.token)
	}
	var seer, villager string
	for u, role := range roleOf {
		switch {
		case role == "seer":
			seer = u
		case role == "villager" && (villager == "" || u < villager):
			villager = u
		}
	}
	if seer == "" || villager == "" {
		t.Fatalf("no seer or no villager among the users: %v", roleOf)
	}
	all := r.p.Sent()
	first := slices.IndexFunc(all, func(m chattest.Sent) bool {
		return m.To == chat.Target{User: seer} && len(m.Msg.Buttons) > 0
	})
	if first < 0 {
		t.Fatal("the seer was never prompted")
	}
	start, dawn := -1, -1
	for i, m := range all {
		if m.To.Group != group {
			continue
		}
		if i < first {
			start = i
		} else if dawn < 0 {
			dawn = i
		}
	}
	if start < 0 || dawn < 0 {
		t.Fatal("no first night in the group's messages")
	}
	// Nothing in the group between nightfall and dawn: the night's first
	// line comes with the dawn, in one message.
	if g := all[dawn].Msg.Text; !strings.Contains(g, "天黑请闭眼") || !strings.Contains(g, "天亮了") {
		t.Errorf("the group's first message after nightfall is not the whole night at dawn: %q", g)
	}
	// The night ends for each at the dawn's tick: the first message that
	// tells the dawn, to anyone, ends the window (each stream reads it on
	// its own).
	end := slices.IndexFunc(all[first:], func(m chattest.Sent) bool { return strings.Contains(m.Msg.Text, "天亮了") })
	if end < 0 {
		t.Fatal("no dawn")
	}
	night := all[start+1 : first+end]
	var rounds = map[string][]chattest.Sent{}
	count := map[string]int{}
	answer := func(m chattest.Sent) bool {
		for _, k := range []string{"chat.ack", "chat.bad.refused", "chat.bad.not_now", "chat.bad.args"} {
			if p, _, _ := strings.Cut(text(k), "{"); p != "" && strings.HasPrefix(m.Msg.Text, p) {
				return true
			}
		}
		return false
	}
	for _, m := range night {
		// The answers to his own presses come when he pressed; what he is
		// sent unasked must not depend on his role.
		if m.To.Private() && !answer(m) {
			count[m.To.User]++
			if len(m.Msg.Buttons) > 0 {
				rounds[m.To.User] = append(rounds[m.To.User], m)
			}
		}
	}
	s, v := rounds[seer], rounds[villager]
	if len(s) == 0 || len(s) != len(v) {
		t.Fatalf("night 1: the seer was sent %d prompts, a villager %d", len(s), len(v))
	}
	if count[seer] != count[villager] {
		t.Errorf("night 1: the seer was sent %d messages unasked, a villager %d", count[seer], count[villager])
	}
	for i := range s {
		// One round's messages go out together (the players' own answers
		// may come between them): far fewer apart than a round's length.
		if d := s[i].N - v[i].N; d > 20 || d < -20 {
			t.Errorf("night 1, round %d: the seer's prompt is message %d, the villager's %d: not one round", i, s[i].N, v[i].N)
		}
	}
	lines := func(m chattest.Sent) int { return strings.Count(m.Msg.Text, "\n") }
	checked := false
	for i := range s {
		real := slices.ContainsFunc(slices.Concat(s[i].Msg.Buttons...), func(b chat.Button) bool { return strings.Contains(b.Command, " check ") })
		checked = checked || real
		if !strings.Contains(v[i].Msg.Text, text("chat.night.decoy")) || !strings.Contains(v[i].Msg.Buttons[0][0].Command, " decoy ") {
			t.Errorf("night 1, round %d: the villager's prompt is not a decoy: %+v", i, v[i].Msg)
		}
		if real && (lines(v[i]) < 3 || lines(s[i]) < 3) {
			t.Errorf("night 1, round %d: the prompts do not both list numbered choices: %q / %q", i, s[i].Msg.Text, v[i].Msg.Text)
		}
	}
	if !checked {
		t.Errorf("the seer was never asked for his check on night 1: %+v", s)
	}
}

// TestARestartInTheMiddleOfANightResumes: wolfden stops while the first
// night runs and starts again on the same store; the game goes on to its
// end, and no user is sent a line twice or misses one.
func TestARestartInTheMiddleOfANightResumes(t *testing.T) {
	r := newRig(t, 7)
	links := r.open(9)
	var users []string
	for i := 1; i <= 9; i++ {
		users = append(users, user(i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.responder(ctx, users)
	r.p.Say(group, user(1), "开始")
	// The first round: every user has his night prompt or his decoy.
	r.wait("the first night's round", 2*time.Minute, func(s []chattest.Sent) bool {
		got := map[string]bool{}
		for _, m := range s {
			if m.To.Private() && len(m.Msg.Buttons) > 0 {
				got[m.To.User] = true
			}
		}
		return len(got) == 9
	})
	r.stop()
	before := len(r.p.Sent())
	r.start()
	// A player's seat page after the restart: the same credential
	if got := r.linkAgain(user(4)); got != links[user(4)] {
		t.Errorf("/link after the restart gave %+v, want %+v", got, links[user(4)])
	}
	r.wait("the end of the game after the restart", 5*time.Minute, over)
	cancel()
	if len(r.p.Sent()) <= before {
		t.Fatal("nothing was sent after the restart")
	}
	checkStreams(t, r, links)
}

// linkAgain asks for u's seat page (/link) and returns the link he is
// sent privately.
func (r *rig) linkAgain(u string) seatLink {
	r.t.Helper()
	to := chat.Target{User: u}
	n := len(r.p.To(to))
	r.p.Say(group, u, "/link")
	var got seatLink
	r.wait("the seat page again for "+u, time.Minute, func(sent []chattest.Sent) bool {
		var mine []chattest.Sent
		for _, m := range sent {
			if m.To == to {
				mine = append(mine, m)
			}
		}
		for _, m := range mine[n:] {
			if x := linkRE.FindStringSubmatch(m.Msg.Text); x != nil {
				var seat int
				fmt.Sscan(x[2], &seat)
				got = seatLink{room: x[1], seat: seat, token: x[3]}
				return true
			}
			if strings.Contains(m.Msg.Text, text("chat.bad.not_player")) {
				return true
			}
		}
		return false
	})
	return got
}

// TestLinkAndLeaveWorkAfterARestart: the seats' credentials are stored
// with their bindings, so after a restart, before the start, a player is
// given his seat's page again (/link, the same credential) and gives his
// seat back (/leave): the room's seat is free again.
func TestLinkAndLeaveWorkAfterARestart(t *testing.T) {
	r := newRig(t, 7)
	links := r.open(3)
	r.stop()
	r.start()
	if got := r.linkAgain(user(2)); got != links[user(2)] {
		t.Errorf("/link after the restart gave %+v, want %+v", got, links[user(2)])
	}
	u3 := links[user(3)]
	r.p.Say(group, user(3), "/leave")
	left := i18n.Text(lang, "chat.left", map[string]string{"name": "u" + user(3), "seat": fmt.Sprint(u3.seat)})
	r.wait("seat 3 given back", time.Minute, func(s []chattest.Sent) bool { return chattest.Has(s, chat.Target{Group: group}, left) })
	res, err := http.Get(r.hs.URL + "/api/rooms/" + u3.room)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var room struct {
		Seats []struct {
			Nick string `json:"nick"`
		} `json:"seats"`
	}
	if err := json.NewDecoder(res.Body).Decode(&room); err != nil {
		t.Fatal(err)
	}
	if len(room.Seats) < u3.seat || room.Seats[u3.seat-1].Nick != "" || room.Seats[links[user(2)].seat-1].Nick == "" {
		t.Errorf("the room's seats after /leave: %+v", room.Seats)
	}
}

// TestBadInputIsAnsweredAndLeavesTheGameAlone: an unknown command, a
// command for another seat, a user not in the game, a player's command in
// the group, a host's command from another, a flood: each is answered with
// its line, and the game's log does not change.
func TestBadInputIsAnsweredAndLeavesTheGameAlone(t *testing.T) {
	r := newRig(t, 11)
	links := r.open(3)
	r.p.Say(group, user(1), "开始")
	r.wait("the start", time.Minute, func(s []chattest.Sent) bool {
		return chattest.Has(s, chat.Target{Group: group}, text("chat.started")[:12])
	})
	r.p.Say(group, user(1), "暂停")
	r.wait("the pause", time.Minute, func(s []chattest.Sent) bool {
		return chattest.Has(s, chat.Target{Group: group}, text("chat.paused"))
	})
	room := links[user(1)].room
	records := func() int {
		recs, err := store.Store(r.st).Records(context.Background(), room)
		if err != nil {
			t.Fatal(err)
		}
		return len(recs)
	}
	n := records()
	other := links[user(2)].seat%9 + 1
	cases := []struct {
		name, group, user, say, want string
	}{
		{"an unknown command", "", user(2), "/frobnicate", "看不懂「/frobnicate」"},
		{"a command for another seat", "", user(2), fmt.Sprintf("#%d 投 1", other),
			fmt.Sprintf("你是%d号，不能替%d号操作。", links[user(2)].seat, other)},
		{"a user not in the game", "", "stranger", "投 3", text("chat.bad.not_player")},
		{"a stranger in the group", group, "stranger", "加入", text("chat.bad.started")},
		{"a player's command in the group", group, user(2), "投 3", text("chat.bad.group_act")},
		{"a host's command from a player", group, user(3), "继续", text("chat.bad.not_host")},
		{"a seat out of the game", group, user(1), "红牌 12", "12号不是这局的玩家座位。"},
		{"an action while paused", "", user(3), "查验 1", "现在不能这样做"},
	}
	for _, c := range cases {
		to := chat.Target{Group: c.group, User: c.user}
		if c.group != "" {
			to = chat.Target{Group: c.group}
		}
		before := len(r.p.To(to))
		r.p.Say(c.group, c.user, c.say)
		r.wait(c.name+"'s answer", time.Minute, func(s []chattest.Sent) bool {
			k := 0
			for _, m := range s {
				if m.To == to {
					if k >= before && strings.Contains(m.Msg.Text, c.want) {
						return true
					}
					k++
				}
			}
			return false
		})
	}
	// A flood: answered once, then ignored.
	flood := chat.Target{User: user(3)}
	before := len(r.p.To(flood))
	for range chat.DefaultPerMinute + 10 {
		r.p.Say("", user(3), "/frobnicate")
	}
	r.p.Say("", user(2), "/help") // someone else is still answered, after the flood
	r.wait("the flood's answers", time.Minute, func(s []chattest.Sent) bool {
		return chattest.Has(s[len(s)-1:], chat.Target{User: user(2)}, text("chat.help")[:6])
	})
	got := r.p.To(flood)[before:]
	floods := 0
	for _, m := range got {
		if m.Msg.Text == text("chat.bad.flood") {
			floods++
		}
	}
	if floods != 1 || len(got) > chat.DefaultPerMinute+1 {
		t.Errorf("a flood of %d lines was answered %d times, %d of them as a flood", chat.DefaultPerMinute+10, len(got), floods)
	}
	if m := records(); m != n {
		t.Errorf("the game's log went from %d records to %d on bad input", n, m)
	}
}

// TestAWolfsPrivateTextGoesToTheWolvesAtNight: what a wolf writes the judge
// privately at night that is no command reaches his fellow wolves at once,
// and nobody else.
func TestAWolfsPrivateTextGoesToTheWolvesAtNight(t *testing.T) {
	r := newRig(t, 5, "werewolf", "werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager")
	r.stop()
	r.tm = map[string]string{"night": "20s", "tick": "20ms", "bot": "10ms"}
	r.start()
	r.open(9)
	r.p.Say(group, user(1), "开始")
	r.wait("the wolves' prompt", time.Minute, func(s []chattest.Sent) bool {
		for _, m := range s {
			if m.To == (chat.Target{User: user(1)}) && slices.ContainsFunc(slices.Concat(m.Msg.Buttons...), func(b chat.Button) bool {
				return strings.Contains(b.Command, " attack ")
			}) {
				return true
			}
		}
		return false
	})
	r.p.Say("", user(1), "今晚刀谁")
	line := "[狼队] 1号：今晚刀谁"
	r.wait("the wolves' talk", time.Minute, func(s []chattest.Sent) bool {
		return chattest.Has(s, chat.Target{User: user(2)}, line) && chattest.Has(s, chat.Target{User: user(3)}, line)
	})
	for _, m := range r.p.Sent() {
		if m.To.Group != "" && strings.Contains(m.Msg.Text, "天亮了") {
			t.Fatal("the wolves' talk came only at dawn")
		}
		if strings.Contains(m.Msg.Text, "今晚刀谁") && m.To != (chat.Target{User: user(2)}) && m.To != (chat.Target{User: user(3)}) && m.To != (chat.Target{User: user(1)}) {
			t.Errorf("%+v was sent the wolves' talk", m.To)
		}
	}
}

// TestAnAbortedGameFreesTheGroup: when the host aborts the game from the
// web page, the group is told, and may open another.
func TestAnAbortedGameFreesTheGroup(t *testing.T) {
	r := newRig(t, 3)
	links := r.open(2)
	r.p.Say(group, user(1), "开始")
	r.wait("the start", time.Minute, func(s []chattest.Sent) bool {
		return chattest.Has(s, chat.Target{Group: group}, text("chat.started")[:12])
	})
	bs, err := store.Chat(r.st).ChatBindings(context.Background(), "fake")
	if err != nil || len(bs) == 0 || bs[0].Seat != 0 {
		t.Fatalf("the bindings: %+v, %v", bs, err)
	}
	req, _ := http.NewRequest("POST", r.hs.URL+"/api/rooms/"+links[user(1)].room+"/abort", nil)
	req.Header.Set("Authorization", "Bearer "+bs[0].Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("abort: %v %v", res, err)
	}
	res.Body.Close()
	r.wait("the group told", time.Minute, func(s []chattest.Sent) bool {
		return chattest.Has(s, chat.Target{Group: group}, text("chat.aborted"))
	})
	before := len(r.p.To(chat.Target{Group: group}))
	defer func() {
		if t.Failed() {
			for _, m := range r.p.To(chat.Target{Group: group}) {
				t.Logf("group: %q", m.Msg.Text)
			}
		}
	}()
	r.p.Say(group, user(2), "狼人杀 开局")
	r.wait("another game", time.Minute, func(s []chattest.Sent) bool {
		k := 0
		for _, m := range s {
			if m.To.Group == group {
				if k >= before && strings.Contains(m.Msg.Text, "入座") {
					return true
				}
				k++
			}
		}
		return false
	})
	if bs, _ := store.Chat(r.st).ChatBindings(context.Background(), "fake"); len(bs) != 1 || bs[0].User != user(2) {
		t.Errorf("after the abort and a new game, the bindings are %+v", bs)
	}
}

// TestRemindersAndExtensionsReachEveryLivingPlayerAtNight: a night's
// reminder goes privately to every living player at once (the same line,
// whether he owes an act or not), and the group hears nothing of it; the
// host's extension at night reaches every player at once and the group at
// dawn.
func TestRemindersAndExtensionsReachEveryLivingPlayerAtNight(t *testing.T) {
	r := newRig(t, 5, "werewolf", "werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager")
	r.stop()
	r.tm = map[string]string{"night": "8s", "witch": "2s", "tick": "20ms", "bot": "10ms", "speech": "2s", "vote": "2s", "other": "2s"}
	r.rem = "6s"
	r.start()
	r.open(9)
	r.p.Say(group, user(1), "开始")
	remind := strings.SplitN(i18n.Text(lang, "ui.remind", map[string]string{"deadline": "X"}), "X", 2)[0]
	everyone := func(s []chattest.Sent, part string) bool {
		for i := 1; i <= 9; i++ {
			if !chattest.Has(s, chat.Target{User: user(i)}, part) {
				return false
			}
		}
		return true
	}
	r.wait("every player's night reminder", time.Minute, func(s []chattest.Sent) bool { return everyone(s, remind) })
	r.p.Say(group, user(1), "延时 5")
	extended := strings.SplitN(i18n.Text(lang, "ui.extended", map[string]string{"left": "X"}), "X", 2)[0]
	r.wait("every player told of the extension", time.Minute, func(s []chattest.Sent) bool { return everyone(s, extended) })
	for _, m := range r.p.To(chat.Target{Group: group}) {
		if strings.Contains(m.Msg.Text, remind) || strings.Contains(m.Msg.Text, extended) {
			t.Fatalf("the group was told at night: %q", m.Msg.Text)
		}
	}
	// Each player got the night's reminder once, and the same line.
	var first string
	for i := 1; i <= 9; i++ {
		var got []string
		for _, m := range r.p.To(chat.Target{User: user(i)}) {
			for _, l := range strings.Split(m.Msg.Text, "\n") {
				if strings.HasPrefix(l, remind) {
					got = append(got, l)
				}
			}
		}
		if len(got) != 1 {
			t.Fatalf("%s got %d reminders: %q", user(i), len(got), got)
		}
		if first == "" {
			first = got[0]
		} else if got[0] != first {
			t.Fatalf("%s's reminder %q differs from %s's %q", user(i), got[0], user(1), first)
		}
	}
}
