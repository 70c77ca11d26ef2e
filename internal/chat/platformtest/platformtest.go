// Package platformtest plays a whole game through one chat platform's
// adapter and a fake of its service: the fake records what the judge sent
// as the service received it, and acts for the users as the service would
// deliver it (a typed line, a button pressed). Each platform's test gives
// its fake as a Driver; PlayStd9 does the rest.
package platformtest

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// Got is one message as the fake service received it: where it went, its
// text as a user reads it, and what he can do to pick each of its choices
// (a button's data, or the text a OneBot user replies).
type Got struct {
	To      chat.Target
	Text    string
	Choices []string
}

// Log records what a fake received; its zero value is not usable: NewLog.
type Log struct {
	mu      sync.Mutex
	got     []Got
	changed chan struct{}
}

func NewLog() *Log { return &Log{changed: make(chan struct{})} }

// Add records one message.
func (l *Log) Add(g Got) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, g)
	close(l.changed)
	l.changed = make(chan struct{})
}

// Wait waits until cond holds of everything received so far, or ctx ends.
func (l *Log) Wait(ctx context.Context, cond func([]Got) bool) bool {
	for {
		l.mu.Lock()
		got, ch := l.got, l.changed
		l.mu.Unlock()
		if cond(got) {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// A Driver is a platform's fake seen from the users' side.
type Driver interface {
	// Say delivers a line a user typed, in the group or (group "")
	// privately.
	Say(group, user, text string)
	// Press picks, for the user, the choice of a message he received.
	Press(user string, g Got, choice string)
	Log() *Log
}

// quick timers: a whole game in well under a minute on an idle machine.
var quick = map[string]string{"setup": "1s", "night": "1500ms", "witch": "900ms", "speech": "900ms",
	"vote": "900ms", "other": "700ms", "bot": "10ms", "tick": "20ms"}

var linkRE = regexp.MustCompile(`#seat=(\d+)&token=([A-Za-z0-9_-]+)`)

// PlayStd9 has users (seven of them; two bots take the other seats) play
// a whole std-9 game in group through p and d, pressing one choice of
// every private prompt, to the end. It checks that the group never
// received a seat's private link and that each user received his own
// seat's link alone.
func PlayStd9(t *testing.T, p chat.Platform, d Driver, group string, users []string) {
	t.Helper()
	const lang = "zh-Hans"
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(20261205)
	srv := server.New(st, server.Options{Chat: []chat.Platform{p}, ChatRoom: func(o *chat.Open) {
		o.Seed, o.Practice, o.Timers = &seed, true, quick
	}})
	if _, err := srv.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Stop()
		st.Close()
	}()
	log := d.Log()
	wait := func(what string, cond func([]Got) bool) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a hang, not a timing
		defer cancel()
		if !log.Wait(ctx, cond) {
			t.Fatalf("waited long for %s", what)
		}
	}
	has := func(to chat.Target, sub string) func([]Got) bool {
		return func(gs []Got) bool {
			for _, g := range gs {
				if g.To == to && strings.Contains(g.Text, sub) {
					return true
				}
			}
			return false
		}
	}
	d.Say(group, users[0], "狼人杀 开局")
	wait("the room", has(chat.Target{Group: group}, "入座"))
	for _, u := range users {
		d.Say(group, u, "加入")
		wait("a seat for "+u, has(chat.Target{User: u}, "#seat="))
	}
	mine := map[string]bool{}
	for _, u := range users {
		mine[u] = true
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // every user presses a choice of each private prompt
		seen := 0
		for {
			var batch []Got
			if !log.Wait(ctx, func(gs []Got) bool {
				batch = gs[seen:]
				seen = len(gs)
				return len(batch) > 0
			}) {
				return
			}
			for i, g := range batch {
				if g.To.Private() && mine[g.To.User] && len(g.Choices) > 0 {
					d.Press(g.To.User, g, g.Choices[(seen-len(batch)+i)*7%len(g.Choices)])
				}
			}
		}
	}()
	d.Say(group, users[0], "开始")
	wait("the end of the game", has(chat.Target{Group: group}, i18n.Text(lang, "chat.over", nil)))
	cancel()

	log.mu.Lock()
	got := log.got
	log.mu.Unlock()
	token := map[string]string{} // user → his seat's token
	for _, g := range got {
		if x := linkRE.FindStringSubmatch(g.Text); x != nil {
			if !g.To.Private() {
				t.Errorf("the group received a seat's private link: %q", g.Text)
				continue
			}
			if old, ok := token[g.To.User]; ok && old != x[2] {
				t.Errorf("%s received two seats' links", g.To.User)
			}
			token[g.To.User] = x[2]
		}
	}
	if len(token) != len(users) {
		t.Errorf("%d users received a seat link, want %d", len(token), len(users))
	}
	privates := 0
	for _, g := range got {
		if !g.To.Private() {
			continue
		}
		privates++
		for u, tok := range token {
			if u != g.To.User && strings.Contains(g.Text, tok) {
				t.Errorf("%s received %s's seat token", g.To.User, u)
			}
		}
	}
	if privates < 3*len(users) {
		t.Errorf("only %d private messages in a whole game of %d users", privates, len(users))
	}
}
