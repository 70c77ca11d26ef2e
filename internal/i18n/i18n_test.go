package i18n

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

func TestMatchLanguageTags(t *testing.T) {
	for tag, want := range map[string]string{"zh-CN": "zh-Hans", "zh": "zh-Hans", "zh-Hans-CN": "zh-Hans",
		"zh-TW": "zh-Hant", "zh-Hant": "zh-Hant", "zh-HK": "zh-Hant", "en": "en", "en-GB": "en"} {
		if got, err := Match(tag); err != nil || got != want {
			t.Errorf("Match(%q) = %q, %v; want %q", tag, got, err, want)
		}
	}
	if _, err := Match("fr"); err == nil {
		t.Error("fr should be refused")
	}
}

// TestEveryRoleHasANameInEveryLanguage: no role falls back to its id.
func TestEveryRoleHasANameInEveryLanguage(t *testing.T) {
	for _, r := range rules.Roles() {
		for _, l := range Languages {
			if n := Role(l, r); n == "" || (l != "en" && n == r.String()) {
				t.Errorf("%s has no %s name (%q)", r, l, n)
			}
		}
	}
}

func TestNarrationLines(t *testing.T) {
	cases := []struct {
		lang string
		call rules.Call
		want string
	}{
		{"zh-Hans", rules.Call{Key: "role.open", Role: rules.Seer}, "预言家请睁眼。"},
		{"zh-Hant", rules.Call{Key: "role.open", Role: rules.Seer}, "預言家請睜眼。"},
		{"en", rules.Call{Key: "role.close", Role: rules.Werewolf}, "Wolves, close your eyes."},
		{"zh-Hans", rules.Call{Key: "night.falls"}, "天黑请闭眼。"},
		{"en", rules.Call{Key: "role.open", Role: rules.CallLovers}, "Lovers, open your eyes."},
	}
	for _, c := range cases {
		if got := Call(c.lang, c.call); got != c.want {
			t.Errorf("%s %v: %q, want %q", c.lang, c.call, got, c.want)
		}
	}
}
