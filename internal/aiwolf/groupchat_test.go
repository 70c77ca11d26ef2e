package aiwolf_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/aiwolf"
)

// The group-chat mode, as the reference server plays it (its
// logic/communication_freeform.go): agents that push their talk.

type gpacket struct {
	Request        string          `json:"request"`
	Info           *aiwolf.Info    `json:"info"`
	Setting        *aiwolf.Setting `json:"setting"`
	TalkHistory    []aiwolf.Talk   `json:"talk_history"`
	WhisperHistory []aiwolf.Talk   `json:"whisper_history"`
	NewTalk        json.RawMessage `json:"new_talk"`
	NewWhisper     json.RawMessage `json:"new_whisper"`
}

// chatAgent answers the requests as an honest agent does and, at a
// phase's start, pushes what says gives it, one frame each.
type chatAgent struct {
	name string
	says func(a *chatAgent, p *gpacket) []string
	quit func(p *gpacket) bool // closes the connection when true

	mu      sync.Mutex
	packets []gpacket
	asked   []string // requests it was asked that the mode has not
	done    chan struct{}
}

func (a *chatAgent) got() []gpacket {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]gpacket(nil), a.packets...)
}

func (a *chatAgent) run(t *testing.T, url string) {
	a.done = make(chan struct{})
	ctx := context.Background()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Errorf("%s: dial: %v", a.name, err)
		close(a.done)
		return
	}
	c.SetReadLimit(1 << 20)
	write := func(s string) bool { return c.Write(ctx, websocket.MessageText, []byte(s+"\n")) == nil }
	go func() {
		defer close(a.done)
		defer c.CloseNow()
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			var p gpacket
			if err := json.Unmarshal(data, &p); err != nil {
				t.Errorf("%s: a packet that is not JSON: %q", a.name, data)
				return
			}
			a.mu.Lock()
			a.packets = append(a.packets, p)
			a.mu.Unlock()
			if a.quit != nil && a.quit(&p) {
				return
			}
			var out []string
			switch p.Request {
			case "NAME":
				out = []string{a.name}
			case "TALK", "WHISPER":
				a.mu.Lock()
				a.asked = append(a.asked, p.Request)
				a.mu.Unlock()
				out = []string{"Over"}
			case "VOTE", "DIVINE", "GUARD", "ATTACK":
				out = []string{someoneElse(&packet{Request: p.Request, Info: p.Info})}
			case "TALK_PHASE_START", "WHISPER_PHASE_START":
				out = a.says(a, &p)
			}
			for _, s := range out {
				if !write(s) {
					return
				}
			}
		}
	}()
}

// fakeClock holds the group chats' timers until the test fires them.
type fakeClock struct {
	mu     sync.Mutex
	timers []*fakeTimer
}

type fakeTimer struct {
	d              time.Duration
	f              func()
	fired, stopped bool
}

func (c *fakeClock) after(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	tm := &fakeTimer{d: d, f: f}
	c.timers = append(c.timers, tm)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !tm.fired && !tm.stopped
		tm.stopped = true
		return was
	}
}

// fire runs the timers that neither ran nor were stopped.
func (c *fakeClock) fire() int {
	c.mu.Lock()
	var due []*fakeTimer
	for _, tm := range c.timers {
		if !tm.fired && !tm.stopped {
			tm.fired = true
			due = append(due, tm)
		}
	}
	c.mu.Unlock()
	for _, tm := range due {
		tm.f()
	}
	return len(due)
}

func (c *fakeClock) states() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, tm := range c.timers {
		out = append(out, fmt.Sprintf("%v fired=%v stopped=%v", tm.d, tm.fired, tm.stopped))
	}
	return out
}

// byDay is an agent's requests of each day, a run of one request told once.
func byDay(ps []gpacket) map[int][]string {
	out := map[int][]string{}
	for _, p := range ps {
		if p.Info == nil {
			continue
		}
		d := p.Info.Day
		if l := out[d]; len(l) == 0 || l[len(l)-1] != p.Request {
			out[d] = append(l, p.Request)
		}
	}
	return out
}

// broadcasts are the new_talk (new_whisper) objects an agent received on
// a day, as sent.
func broadcasts(ps []gpacket, req string, day int) []string {
	var out []string
	for _, p := range ps {
		if p.Request == req && p.Info.Day == day {
			raw := p.NewTalk
			if req == "WHISPER_BROADCAST" {
				raw = p.NewWhisper
			}
			out = append(out, string(raw))
		}
	}
	return out
}

func chatRole(ps []gpacket) string {
	for _, p := range ps {
		if p.Request == "INITIALIZE" {
			return p.Info.RoleMap[p.Info.Agent]
		}
	}
	return ""
}

func TestGroupChatPhasesEndByLimitsOrDurationAndTheGameGoesOnToTheVote(t *testing.T) {
	clock := &fakeClock{}
	g := newGateway(t, "", aiwolf.Options{Players: 5, TalkDuration: time.Hour, After: clock.after})
	agents := make([]*chatAgent, 5)
	for i := range agents {
		agents[i] = &chatAgent{name: fmt.Sprintf("chat%d", i+1), says: func(a *chatAgent, p *gpacket) []string {
			if p.Info.Day > 0 { // one utterance, no Over: the duration ends the phase
				return []string{"day talk of " + a.name}
			}
			switch a.name {
			case "chat1": // one more than its four
				return []string{"one", "two", "three", "four", "five"}
			case "chat2":
				return []string{"Over"}
			}
			return []string{"hello from " + a.name, "Over"}
		}}
		agents[i].run(t, g.ws)
	}
	// The clock: a day's phase is let run out once every agent of it has
	// heard every agent of it.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		fired := 0
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if d := allHeard(agents); d > fired && clock.fire() > 0 {
				fired = d
			}
		}
	}()
	for _, a := range agents {
		select {
		case <-a.done:
		case <-time.After(90 * time.Second):
			t.Fatalf("%s: the game did not end (timers %v, day by day %v)", a.name, clock.states(), byDay(a.got()))
		}
	}

	var wolf, seer []gpacket
	for _, a := range agents {
		ps := a.got()
		if ps[len(ps)-1].Request != "FINISH" {
			t.Errorf("%s: the last request is %s, not FINISH", a.name, ps[len(ps)-1].Request)
		}
		if len(a.asked) > 0 {
			t.Errorf("%s: asked %v in the group-chat mode", a.name, a.asked)
		}
		if d := ps[1].Setting.Talk.Duration; ps[1].Request != "INITIALIZE" || d == nil || *d != 3600000 || ps[1].Setting.Whisper.Duration != nil {
			t.Errorf("%s: INITIALIZE's setting does not tell the talk's duration alone (3600000 ms): %+v", a.name, ps[1].Setting)
		}
		days := byDay(ps)
		want0 := "[INITIALIZE DAILY_INITIALIZE TALK_PHASE_START TALK_BROADCAST TALK_PHASE_END DAILY_FINISH"
		if got := fmt.Sprint(days[0]); !strings.HasPrefix(got, want0) {
			t.Errorf("%s: day 0 went %s, want %s…", a.name, got, want0)
		}
		want1 := "[DAILY_INITIALIZE TALK_PHASE_START TALK_BROADCAST TALK_PHASE_END DAILY_FINISH VOTE"
		if got := fmt.Sprint(days[1]); !strings.HasPrefix(got, want1) {
			t.Errorf("%s: day 1 went %s, want %s…", a.name, got, want1)
		}
		switch chatRole(ps) {
		case "WEREWOLF":
			wolf = ps
		case "SEER":
			seer = ps
		}
		// Day 0 ended by the limits: chat1 spent its four, then nothing
		// of it was heard; chat2's Over came at once.
		var day0 []aiwolf.Talk
		for _, raw := range broadcasts(ps, "TALK_BROADCAST", 0) {
			var tk aiwolf.Talk
			_ = json.Unmarshal([]byte(raw), &tk)
			day0 = append(day0, tk)
		}
		if len(day0) != 11 {
			t.Fatalf("%s: %d talks broadcast on day 0, want 11 (4 + Over + 3×(1 + Over)): %+v", a.name, len(day0), day0)
		}
		per := map[string][]aiwolf.Talk{}
		for i, tk := range day0 {
			if tk.Idx != i || tk.Day != 0 || tk.Time == 0 {
				t.Errorf("%s: broadcast %d is %+v", a.name, i, tk)
			}
			per[tk.Agent] = append(per[tk.Agent], tk)
		}
		for name, tks := range per {
			for i, tk := range tks {
				if tk.Turn != i {
					t.Errorf("%s: %s's talk %d has turn %d", a.name, name, i, tk.Turn)
				}
			}
		}
		if c1 := per["Agent[01]"]; len(c1) != 4 || c1[3].Over || c1[0].Text != "one" || c1[3].Text != "four" {
			// Agent[01] is chat1's seat only if matching kept the order;
			// find it by its words instead.
			found := false
			for _, tks := range per {
				if len(tks) == 4 && tks[0].Text == "one" && tks[3].Text == "four" {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: chat1's four talks are not as said: %+v", a.name, per)
			}
		}
		overs := 0
		for _, tks := range per {
			if len(tks) == 1 && tks[0].Over && tks[0].Text == "Over" {
				overs++
			}
		}
		if overs != 1 {
			t.Errorf("%s: want one agent whose only word was Over: %+v", a.name, per)
		}
		// The end came after the broadcasts: nothing of the phase after it.
		end := -1
		for i, p := range ps {
			if p.Request == "TALK_PHASE_END" && p.Info.Day == 1 {
				end = i
			}
			if end >= 0 && p.Request == "TALK_BROADCAST" && p.Info.Day == 1 {
				t.Errorf("%s: a day 1 broadcast after the phase's end", a.name)
			}
		}
		// As the reference: DAILY_FINISH carries the whole day's talk.
		for _, p := range ps {
			if p.Request == "DAILY_FINISH" && p.Info.Day == 1 && len(p.TalkHistory) != 5 {
				t.Errorf("%s: day 1's DAILY_FINISH carries %d talks, want the day's 5", a.name, len(p.TalkHistory))
			}
		}
		// remain_count: what is left to the receiver.
		for _, p := range ps {
			if p.Request == "TALK_BROADCAST" && p.Info.Day == 0 {
				var tk aiwolf.Talk
				_ = json.Unmarshal(p.NewTalk, &tk)
				if tk.Agent == p.Info.Agent && tk.Text == "four" && (p.Info.RemainCount == nil || *p.Info.RemainCount != 0) {
					t.Errorf("%s: after its fourth talk remain_count is %v, want 0", a.name, p.Info.RemainCount)
				}
			}
		}
	}
	for _, a := range agents {
		nested(t, a)
	}
	if wolf == nil || seer == nil {
		t.Fatal("no wolf or no seer among the agents")
	}
	// A talk's broadcast is the same for every agent, whatever its role.
	for d := 0; d <= 1; d++ {
		w, s := broadcasts(wolf, "TALK_BROADCAST", d), broadcasts(seer, "TALK_BROADCAST", d)
		if fmt.Sprint(w) != fmt.Sprint(s) || len(w) == 0 {
			t.Errorf("day %d: the wolf heard %v, the seer %v", d, w, s)
		}
	}
	// The CSV log has every utterance, Overs included, as the reference's.
	csv := download(t, g, g.logs.list()[0], "aiwolf-csv")
	if n := strings.Count(csv, "\n0,talk,"); n != 11 || !strings.Contains(csv, ",four\n") {
		t.Errorf("the CSV log has %d talk lines of day 0, want 11:\n%.1500s", n, csv)
	}
	// Day 0's clock was stopped by the limits; day 1's ran out.
	st := clock.states()
	if len(st) < 2 || !strings.Contains(st[0], "fired=false stopped=true") || !strings.Contains(st[1], "fired=true") {
		t.Errorf("the phases' clocks: %v (want day 0's stopped by the limits, day 1's run out)", st)
	}
}

// allHeard is the day of the latest talk phase once every agent in it
// has heard one utterance of each agent of it (0 otherwise: day 0 ends
// by its limits alone).
func allHeard(agents []*chatAgent) int {
	day, n := -1, 0
	for _, a := range agents {
		for _, p := range a.got() {
			if p.Request == "TALK_PHASE_START" && p.Info.Day > day {
				day, n = p.Info.Day, 0
				for _, st := range p.Info.StatusMap {
					if st == "ALIVE" {
						n++
					}
				}
			}
		}
	}
	if day < 1 {
		return 0
	}
	for _, a := range agents {
		ps := a.got()
		in := false
		for _, p := range ps {
			if p.Request == "TALK_PHASE_START" && p.Info.Day == day {
				in = true
			}
		}
		if in && len(broadcasts(ps, "TALK_BROADCAST", day)) < n {
			return 0
		}
	}
	return day
}

func TestGroupChatWhispersReachOnlyTheWolves(t *testing.T) {
	clock := &fakeClock{} // never fired: every phase ends by its limits
	g := newGateway(t, "", aiwolf.Options{Players: 13, TalkDuration: time.Hour, WhisperDuration: time.Hour, After: clock.after})
	agents := make([]*chatAgent, 13)
	for i := range agents {
		agents[i] = &chatAgent{name: fmt.Sprintf("pack%d", i+1), says: func(a *chatAgent, p *gpacket) []string {
			if p.Request == "WHISPER_PHASE_START" {
				return []string{"whisper of " + a.name, "Over"}
			}
			return []string{"talk of " + a.name, "Over"}
		}}
		agents[i].run(t, g.ws)
	}
	for _, a := range agents {
		select {
		case <-a.done:
		case <-time.After(120 * time.Second):
			t.Fatalf("%s: the game did not end (timers %v, day by day %v)", a.name, clock.states(), byDay(a.got()))
		}
	}
	var wolves, villagers [][]gpacket
	for _, a := range agents {
		ps := a.got()
		if ps[len(ps)-1].Request != "FINISH" {
			t.Errorf("%s: the last request is %s, not FINISH", a.name, ps[len(ps)-1].Request)
		}
		if len(a.asked) > 0 {
			t.Errorf("%s: asked %v in the group-chat mode", a.name, a.asked)
		}
		switch chatRole(ps) {
		case "WEREWOLF":
			wolves = append(wolves, ps)
		default:
			villagers = append(villagers, ps)
			for _, p := range ps {
				if strings.HasPrefix(p.Request, "WHISPER") || p.NewWhisper != nil || len(p.WhisperHistory) > 0 {
					t.Errorf("%s (%s) was told a whisper: %s", a.name, chatRole(ps), p.Request)
				}
			}
		}
	}
	if len(wolves) != 3 {
		t.Fatalf("%d wolves", len(wolves))
	}
	// Day 0: the morning whisper, the talk, DAILY_FINISH, then night 0's
	// whisper, all before day 1 (the seer's DIVINE waits for it, issue 27
	// point 4). Night 1: the whisper, then the attack.
	for _, w := range wolves {
		var seq []string // the day's requests, a run of broadcasts as one
		for _, r := range byDay(w)[0] {
			if n := len(seq); n > 0 && seq[n-1] == r && strings.HasSuffix(r, "_BROADCAST") {
				continue
			}
			seq = append(seq, r)
		}
		got := fmt.Sprint(seq)
		want := "[INITIALIZE DAILY_INITIALIZE WHISPER_PHASE_START WHISPER_BROADCAST WHISPER_PHASE_END TALK_PHASE_START TALK_BROADCAST TALK_PHASE_END DAILY_FINISH WHISPER_PHASE_START WHISPER_BROADCAST WHISPER_PHASE_END]"
		if got != want {
			t.Errorf("a wolf's day 0 went %s, want %s", got, want)
		}
		if !alive(w, 1) || !hasNight(w, 1) {
			continue
		}
		got = fmt.Sprint(byDay(w)[1])
		want = "DAILY_FINISH VOTE WHISPER_PHASE_START WHISPER_BROADCAST WHISPER_PHASE_END ATTACK"
		if !strings.Contains(got, want) {
			t.Errorf("a wolf's day 1 went %s, want …%s…", got, want)
		}
		if b := broadcasts(w, "WHISPER_BROADCAST", 1); len(b) < 4 || !strings.Contains(b[0], `"text":"whisper of pack`) {
			t.Errorf("a wolf heard night 1's whisper as %v, want the living wolves' whispers and Overs", b)
		}
	}
	for _, a := range agents {
		nested(t, a)
	}
	// The wolves hear the same whispers; everyone the same talk.
	for d := 0; d <= 1; d++ {
		var w0 []string
		for _, w := range wolves {
			if !hasNight(w, d) { // executed that day
				continue
			}
			if b := broadcasts(w, "WHISPER_BROADCAST", d); w0 == nil {
				w0 = b
			} else if fmt.Sprint(b) != fmt.Sprint(w0) {
				t.Errorf("night %d: the wolves heard different whispers: %v and %v", d, w0, b)
			}
		}
		t0 := broadcasts(wolves[0], "TALK_BROADCAST", d)
		for _, v := range villagers {
			if alive(v, d) && alive(wolves[0], d) && fmt.Sprint(broadcasts(v, "TALK_BROADCAST", d)) != fmt.Sprint(t0) {
				t.Errorf("day %d: a villager heard %v, a wolf %v", d, broadcasts(v, "TALK_BROADCAST", d), t0)
			}
		}
	}
	if b := broadcasts(villagers[0], "TALK_BROADCAST", 0); len(b) != 26 || bytes.Contains([]byte(fmt.Sprint(b)), []byte("whisper of")) {
		t.Errorf("day 0's talk as a villager heard it: %v", b)
	}
	for _, st := range clock.states() {
		if !strings.Contains(st, "stopped=true") {
			t.Errorf("a phase did not end by its limits: %v", clock.states())
		}
	}
}

// hasNight: the agent was told night d's whisper.
func hasNight(ps []gpacket, d int) bool {
	for _, p := range ps {
		if p.Request == "WHISPER_PHASE_START" && p.Info.Day == d {
			return true
		}
	}
	return false
}

// nested checks an agent's phases: each start is ended before anything
// else begins, and broadcasts come only inside a phase of their kind.
func nested(t *testing.T, a *chatAgent) {
	t.Helper()
	in := ""
	for i, p := range a.got() {
		kind, _, _ := strings.Cut(p.Request, "_")
		switch {
		case strings.HasSuffix(p.Request, "_PHASE_START"):
			if in != "" {
				t.Errorf("%s: packet %d: %s inside the %s phase", a.name, i, p.Request, in)
			}
			in = kind
		case strings.HasSuffix(p.Request, "_PHASE_END"):
			if in != kind {
				t.Errorf("%s: packet %d: %s outside its phase (in %q)", a.name, i, p.Request, in)
			}
			in = ""
		case strings.HasSuffix(p.Request, "_BROADCAST"):
			if in != kind {
				t.Errorf("%s: packet %d: %s outside its phase (in %q)", a.name, i, p.Request, in)
			}
		default:
			if in != "" {
				t.Errorf("%s: packet %d: %s inside the %s phase", a.name, i, p.Request, in)
			}
		}
	}
}

// alive: the agent was alive at day d's talk.
func alive(ps []gpacket, d int) bool {
	for _, p := range ps {
		if p.Request == "TALK_PHASE_START" && p.Info.Day == d {
			return true
		}
	}
	return false
}

func TestAGroupChatDoesNotWaitForAnAgentThatLeft(t *testing.T) {
	clock := &fakeClock{} // never fired: the phase may not wait out its duration
	g := newGateway(t, "", aiwolf.Options{Players: 5, TalkDuration: time.Hour, After: clock.after})
	agents := make([]*chatAgent, 5)
	for i := range agents {
		agents[i] = &chatAgent{name: fmt.Sprintf("left%d", i+1), says: func(a *chatAgent, p *gpacket) []string {
			return []string{"talk of " + a.name, "Over"}
		}}
		if i == 4 {
			agents[i].quit = func(p *gpacket) bool { return p.Request == "TALK_PHASE_START" && p.Info.Day == 1 }
		}
		agents[i].run(t, g.ws)
	}
	for _, a := range agents[:4] {
		select {
		case <-a.done:
		case <-time.After(90 * time.Second):
			t.Fatalf("%s: the game did not end (timers %v, day by day %v)", a.name, clock.states(), byDay(a.got()))
		}
		if got := fmt.Sprint(byDay(a.got())[1]); !strings.HasPrefix(got, "[DAILY_INITIALIZE TALK_PHASE_START TALK_BROADCAST TALK_PHASE_END DAILY_FINISH VOTE") {
			t.Errorf("%s: day 1 went %s", a.name, got)
		}
		if b := broadcasts(a.got(), "TALK_BROADCAST", 1); len(b) != 8 || strings.Contains(fmt.Sprint(b), "left5") {
			t.Errorf("%s: day 1's talk was %v, want the four others' talk and Over", a.name, b)
		}
	}
	for _, st := range clock.states() {
		if strings.Contains(st, "fired=true") || !strings.Contains(st, "stopped=true") {
			t.Errorf("a phase waited for its duration: %v", clock.states())
		}
	}
}

func TestAnAgentBackInAGroupChatIsToldItsStartAgain(t *testing.T) {
	clock := &fakeClock{}
	g := newGateway(t, "", aiwolf.Options{Players: 5, TalkDuration: time.Hour, After: clock.after})
	says := func(a *chatAgent, p *gpacket) []string {
		if p.Info.Day == 1 { // no Over: the phase stays open for the one that comes back
			return []string{"day talk of " + a.name}
		}
		return []string{"talk of " + a.name, "Over"}
	}
	agents := make([]*chatAgent, 5)
	for i := range agents {
		agents[i] = &chatAgent{name: fmt.Sprintf("back%d", i+1), says: says}
		if i == 4 {
			agents[i].quit = func(p *gpacket) bool { return p.Request == "TALK_PHASE_START" && p.Info.Day == 1 }
		}
		agents[i].run(t, g.ws)
	}
	select {
	case <-agents[4].done:
	case <-time.After(60 * time.Second):
		t.Fatalf("back5 was never told day 1's talk: %v", byDay(agents[4].got()))
	}
	again := &chatAgent{name: "back5", says: func(a *chatAgent, p *gpacket) []string {
		if p.Info.Day == 1 {
			return []string{"back again"}
		}
		return says(a, p)
	}}
	again.run(t, g.ws)
	heard := func() bool {
		for _, a := range append([]*chatAgent{again}, agents[:4]...) {
			if !strings.Contains(fmt.Sprint(broadcasts(a.got(), "TALK_BROADCAST", 1)), `"text":"back again"`) {
				return false
			}
		}
		return true
	}
	for end := time.Now().Add(60 * time.Second); !heard(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the agent back in the phase was not heard: its requests %v", byDay(again.got()))
		}
	}
	if clock.fire() != 1 {
		t.Fatalf("day 1's phase is not the one open: %v", clock.states())
	}
	for _, a := range append([]*chatAgent{again}, agents[:4]...) {
		select {
		case <-a.done:
		case <-time.After(90 * time.Second):
			t.Fatalf("%s: the game did not end (timers %v, day by day %v)", a.name, clock.states(), byDay(a.got()))
		}
		nested(t, a)
	}
	got := fmt.Sprint(byDay(again.got())[1])
	if want := "[INITIALIZE DAILY_INITIALIZE TALK_PHASE_START TALK_BROADCAST TALK_PHASE_END DAILY_FINISH VOTE"; !strings.HasPrefix(got, want) {
		t.Errorf("back5 back on day 1 went %s, want %s…", got, want)
	}
	if ps := again.got(); ps[0].Request != "NAME" {
		t.Errorf("back5 back was not asked its name first: %v", byDay(ps))
	}
}
