// Package i18n holds the message catalogues: 简体中文 (zh-Hans), 繁體中文
// (zh-Hant) and English (en). Every user-visible string of the moderator
// goes through it.
package i18n

import (
	"fmt"
	"strings"

	"github.com/wolfden/wolfden/rules"
)

// Languages are the catalogue's languages, the default first.
var Languages = []string{"zh-Hans", "zh-Hant", "en"}

type text struct{ hans, hant, en string }

var roleNames = map[rules.Role]text{
	rules.Werewolf:      {"狼人", "狼人", "werewolf"},
	rules.WhiteWolfKing: {"白狼王", "白狼王", "white wolf king"},
	rules.WolfBeauty:    {"狼美人", "狼美人", "wolf beauty"},
	rules.WolfKing:      {"狼王", "狼王", "wolf king"},
	rules.Villager:      {"村民", "村民", "villager"},
	rules.Seer:          {"预言家", "預言家", "seer"},
	rules.Witch:         {"女巫", "女巫", "witch"},
	rules.Hunter:        {"猎人", "獵人", "hunter"},
	rules.Guard:         {"守卫", "守衛", "guard"},
	rules.Idiot:         {"白痴", "白痴", "idiot"},
	rules.NineTailedFox: {"九尾狐", "九尾狐", "nine-tailed fox"},
	rules.Elder:         {"长者", "長者", "elder"},
	rules.Scapegoat:     {"替罪羊", "替罪羊", "scapegoat"},
	rules.Cupid:         {"丘比特", "丘比特", "cupid"},
	rules.Thief:         {"小偷", "小偷", "thief"},
	rules.LittleGirl:    {"小女孩", "小女孩", "little girl"},
	rules.Piper:         {"吹笛人", "吹笛人", "piper"},
}

var groupNames = map[rules.Role]text{
	rules.CallLovers:  {"情侣", "情侶", "lovers"},
	rules.CallCharmed: {"被魅惑的人", "被魅惑的人", "charmed players"},
}

var messages = map[string]text{
	"night.falls": {"天黑请闭眼。", "天黑請閉眼。", "Night falls: everyone, close your eyes."},
	"day.breaks":  {"天亮了，请睁眼。", "天亮了，請睜眼。", "Day breaks: everyone, open your eyes."},
	"role.open":   {"%s请睁眼。", "%s請睜眼。", "%s, open your eyes."},
	"role.close":  {"%s请闭眼。", "%s請閉眼。", "%s, close your eyes."},
}

func pick(t text, lang string) string {
	switch lang {
	case "zh-Hant":
		return t.hant
	case "en":
		return t.en
	}
	return t.hans
}

// Match returns the supported language closest to tag (zh-TW → zh-Hant,
// zh-CN → zh-Hans, en-GB → en), or an error naming the choices.
func Match(tag string) (string, error) {
	t := strings.ToLower(tag)
	switch {
	case t == "zh-hant" || t == "zh-tw" || t == "zh-hk" || t == "zh-mo" || strings.HasPrefix(t, "zh-hant"):
		return "zh-Hant", nil
	case t == "zh" || strings.HasPrefix(t, "zh-"):
		return "zh-Hans", nil
	case t == "en" || strings.HasPrefix(t, "en-"):
		return "en", nil
	}
	return "", fmt.Errorf("i18n: unknown language %q (known: %s)", tag, strings.Join(Languages, ", "))
}

// Role is a role's name.
func Role(lang string, r rules.Role) string {
	if t, ok := roleNames[r]; ok {
		return pick(t, lang)
	}
	if t, ok := groupNames[r]; ok {
		return pick(t, lang)
	}
	return r.String()
}

// Call renders one line of the narration.
func Call(lang string, c rules.Call) string {
	t, ok := messages[c.Key]
	if !ok {
		return c.Key
	}
	s := pick(t, lang)
	if strings.Contains(s, "%s") {
		name := Role(lang, c.Role)
		if c.Role == rules.Werewolf {
			name = pick(text{"狼人", "狼人", "Wolves"}, lang)
		} else if lang == "en" && name != "" {
			name = strings.ToUpper(name[:1]) + name[1:]
		}
		return fmt.Sprintf(s, name)
	}
	return s
}
