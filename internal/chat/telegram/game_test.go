package telegram

import (
	"html"
	"strconv"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/chat/platformtest"
)

// tgDriver is the fake Bot API as the game's users see it: it records
// sendMessage (its HTML unescaped as a user reads it, the keyboard's
// callback data as the choices) and delivers messages and presses.
type tgDriver struct {
	f   *fakeAPI
	log *platformtest.Log
}

func (d *tgDriver) record() {
	for s := range d.f.sent {
		g := platformtest.Got{Text: html.UnescapeString(s.Text)}
		if id, _ := strconv.ParseInt(s.ChatID, 10, 64); id < 0 {
			g.To.Group = s.ChatID
		} else {
			g.To.User = s.ChatID
		}
		for _, row := range s.Markup.InlineKeyboard {
			for _, b := range row {
				g.Choices = append(g.Choices, b.CallbackData)
			}
		}
		d.log.Add(g)
	}
}

func (d *tgDriver) Say(group, user, text string) {
	uid, _ := strconv.ParseInt(user, 10, 64)
	if group == "" {
		d.f.push(privateMsg(uid, text))
		return
	}
	d.f.push(groupMsg(uid, "u"+user, text))
}

func (d *tgDriver) Press(user string, _ platformtest.Got, choice string) {
	uid, _ := strconv.ParseInt(user, 10, 64)
	d.f.push(map[string]any{"callback_query": map[string]any{"id": "q" + user, "from": from(uid, "u"+user), "chat_instance": "x", "data": choice,
		"message": map[string]any{"message_id": 9, "date": 1, "chat": map[string]any{"id": uid, "type": "private"}}}})
}

func (d *tgDriver) Log() *platformtest.Log { return d.log }

// Seven Telegram users and two bots play std-9 to its end in a group,
// choosing by inline keyboard buttons in their private chats.
func TestAWholeStd9GameThroughTheBotAPI(t *testing.T) {
	f, srv := newFake(t)
	f.sent = make(chan sent, 4096)
	f.answers = make(chan string, 1<<16)
	p, err := New(Options{Token: token, Log: quiet(), serverURL: srv.URL, pollTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	d := &tgDriver{f: f, log: platformtest.NewLog()}
	go d.record()
	var users []string
	for i := 1; i <= 7; i++ {
		users = append(users, strconv.Itoa(1000+i))
	}
	platformtest.PlayStd9(t, p, d, "-100", users)
}
