package narrate

import (
	"testing"

	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// TestEventsReadAsTheLogInEachLanguage: an event's line is the
// catalogue's, its variant picked from its fields, seats listed as the
// language lists them; a kind the catalogue lacks reads plainly.
func TestEventsReadAsTheLogInEachLanguage(t *testing.T) {
	cases := []struct {
		lang string
		f    wire.EventFrame
		want string
	}{
		{"zh-Hans", wire.EventFrame{Kind: "dawn", Mask: []rules.Seat{3, 6}}, "天亮了，昨晚3、6号死亡。"},
		{"zh-Hans", wire.EventFrame{Kind: "dawn"}, "天亮了，昨晚是平安夜。"},
		{"zh-Hant", wire.EventFrame{Kind: "dawn"}, "天亮了，昨晚是平安夜。"},
		{"en", wire.EventFrame{Kind: "spy", Mask: []rules.Seat{2, 5}}, "You spy the wolves naming seats 2, 5."},
		{"en", wire.EventFrame{Kind: "no_such_kind", Seat: 4}, "Event no_such_kind: seat 4, target nobody, value 0."},
	}
	for _, c := range cases {
		if got := (Narrator{Lang: c.lang}).Event(&c.f); got != c.want {
			t.Errorf("%s %+v: %q, want %q", c.lang, c.f, got, c.want)
		}
	}
	named := Narrator{Lang: "en", RoleName: func(id string) string { return "<" + id + ">" }}
	if got := named.Role("seer"); got != "<seer>" {
		t.Errorf("a narrator's own role names: %q", got)
	}
}
