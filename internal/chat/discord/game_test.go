package discord

import (
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wolfden/wolfden/internal/chat/platformtest"
)

// dcDriver is the fake Discord as the game's users see it: it records the
// messages posted (a DM channel "9<user>" is that user's private chat),
// their components' custom ids and select options as the choices, and
// delivers messages and component interactions.
type dcDriver struct {
	f   *fakeDiscord
	log *platformtest.Log
	n   atomic.Int64
}

func (d *dcDriver) record() {
	for c := range d.f.rest {
		if c.Method != "POST" || !strings.HasPrefix(c.Path, "/api/v9/channels/") {
			continue
		}
		ch := strings.TrimSuffix(strings.TrimPrefix(c.Path, "/api/v9/channels/"), "/messages")
		g := platformtest.Got{}
		g.Text, _ = c.Body["content"].(string)
		if strings.HasPrefix(ch, "9") {
			g.To.User = ch[1:]
		} else {
			g.To.Group = ch
		}
		rows, _ := c.Body["components"].([]any)
		for _, r := range rows {
			comps, _ := r.(map[string]any)["components"].([]any)
			for _, x := range comps {
				comp := x.(map[string]any)
				if opts, ok := comp["options"].([]any); ok {
					for _, o := range opts {
						g.Choices = append(g.Choices, comp["custom_id"].(string)+"\x00"+o.(map[string]any)["value"].(string))
					}
					continue
				}
				g.Choices = append(g.Choices, comp["custom_id"].(string))
			}
		}
		d.log.Add(g)
	}
}

func (d *dcDriver) Say(group, user, text string) {
	m := map[string]any{"id": strconv.FormatInt(d.n.Add(1), 10), "channel_id": "9" + user, "author": author(user), "content": text}
	if group != "" {
		m["channel_id"], m["guild_id"] = group, "7"
	}
	d.f.events <- map[string]any{"t": "MESSAGE_CREATE", "d": m}
}

func (d *dcDriver) Press(user string, _ platformtest.Got, choice string) {
	data := map[string]any{"custom_id": choice, "component_type": 2}
	if id, value, ok := strings.Cut(choice, "\x00"); ok {
		data = map[string]any{"custom_id": id, "component_type": 3, "values": []any{value}}
	}
	id := "p" + strconv.FormatInt(d.n.Add(1), 10)
	d.f.events <- map[string]any{"t": "INTERACTION_CREATE", "d": map[string]any{"id": id, "application_id": botID, "type": 3,
		"token": "tok-" + id, "channel_id": "9" + user, "locale": "zh-CN", "user": author(user), "data": data}}
}

func (d *dcDriver) Log() *platformtest.Log { return d.log }

// Seven Discord users and two bots play std-9 to its end in a channel,
// choosing by the components of their direct messages.
func TestAWholeStd9GameThroughDiscord(t *testing.T) {
	f := newFake(t)
	f.rest = make(chan restCall, 1<<14)
	f.events = make(chan any, 1<<12)
	p, err := New(Options{Token: token, Log: quiet(), client: f.client()})
	if err != nil {
		t.Fatal(err)
	}
	d := &dcDriver{f: f, log: platformtest.NewLog()}
	go d.record()
	var users []string
	for i := 1; i <= 7; i++ {
		users = append(users, strconv.Itoa(1000+i))
	}
	platformtest.PlayStd9(t, p, d, "500", users)
}
