package i18n

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wolfden/wolfden/rules"
)

var update = flag.Bool("update", false, "rewrite the locale files in canonical form (sorted keys, 2-space indent)")

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
	for _, r := range append(rules.Roles(), rules.CallLovers, rules.CallCharmed, rules.CallSisters, rules.CallBrothers, rules.CallWed, rules.CallLucky, rules.CallTraders) {
		for _, l := range Languages {
			if n := Role(l, r); n == "" || n == r.String() && l != "en" || strings.HasPrefix(n, "role(") {
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
		{"zh-Hant", rules.Call{Key: "role.close", Role: rules.Werewolf}, "狼人請閉眼。"},
		{"en", rules.Call{Key: "role.close", Role: rules.Werewolf}, "Wolves, close your eyes."},
		{"en", rules.Call{Key: "role.open", Role: rules.WhiteWolfKing}, "White wolf king, open your eyes."},
		{"en", rules.Call{Key: "role.open", Role: rules.NineTailedFox}, "Nine-tailed fox, open your eyes."},
		{"zh-Hans", rules.Call{Key: "night.falls"}, "天黑请闭眼。"},
		{"zh-Hant", rules.Call{Key: "day.breaks"}, "天亮了，請睜眼。"},
		{"en", rules.Call{Key: "night.falls"}, "Night falls: everyone, close your eyes."},
		{"en", rules.Call{Key: "role.open", Role: rules.CallLovers}, "Lovers, open your eyes."},
		{"zh-Hans", rules.Call{Key: "role.open", Role: rules.CallCharmed}, "被魅惑的人请睁眼。"},
		{"en", rules.Call{Key: "no.such.key"}, "no.such.key"},
	}
	for _, c := range cases {
		if got := Call(c.lang, c.call); got != c.want {
			t.Errorf("%s %v: %q, want %q", c.lang, c.call, got, c.want)
		}
	}
}

// TestTextFillsNamedPlaceholders: {name} is replaced from args in one pass;
// a blank without an arg stays; a missing key is the key itself; an unknown
// language reads the default one.
func TestTextFillsNamedPlaceholders(t *testing.T) {
	cases := []struct {
		lang, key string
		args      map[string]string
		want      string
	}{
		{"en", "event.check", map[string]string{"target": "5", "role": "werewolf"}, "Your check: seat 5 is werewolf."},
		{"zh-Hans", "event.check.wolf", map[string]string{"target": "5"}, "查验结果：5号是狼人（查杀）。"},
		{"zh-Hant", "event.shoot", map[string]string{"seat": "3", "target": "7"}, "3號開槍帶走了7號。"},
		{"en", "event.shoot", map[string]string{"seat": "3"}, "Seat 3 shoots seat {target}."},
		{"en", "event.shoot", map[string]string{"seat": "{target}", "target": "7"}, "Seat {target} shoots seat 7."},
		{"en", "event.shoot", nil, "Seat {seat} shoots seat {target}."},
		{"en", "no.such.key", map[string]string{"seat": "1"}, "no.such.key"},
		{"fr", "role.seer", nil, "预言家"},
		{"en", "winner.village", nil, "The village wins"},
	}
	for _, c := range cases {
		if got := Text(c.lang, c.key, c.args); got != c.want {
			t.Errorf("Text(%q, %q, %v) = %q, want %q", c.lang, c.key, c.args, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"{a} {b} {a}", "1 {b} 1"}, {"{", "{"}, {"}{a", "}{a"}, {"{{a}}", "{1}"}, {"x{}y", "x{}y"},
	} {
		if got := fill(c.in, map[string]string{"a": "1"}); got != c.want {
			t.Errorf("fill(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestKeysAreSortedAndComplete: Keys lists every key of the catalogue, sorted.
func TestKeysAreSortedAndComplete(t *testing.T) {
	for _, l := range Languages {
		keys := Keys(l)
		if !slices.IsSorted(keys) {
			t.Errorf("%s: Keys is not sorted", l)
		}
		if len(keys) != len(catalogues[l]) {
			t.Errorf("%s: Keys has %d keys, the catalogue %d", l, len(keys), len(catalogues[l]))
		}
	}
}

// TestEveryLanguageHasTheSameKeys: domain and ui files alike.
func TestEveryLanguageHasTheSameKeys(t *testing.T) {
	ref := Languages[0]
	for _, l := range Languages[1:] {
		for _, k := range Keys(ref) {
			if _, ok := catalogues[l][k]; !ok {
				t.Errorf("%s lacks %q (in %s)", l, k, ref)
			}
		}
		for _, k := range Keys(l) {
			if _, ok := catalogues[ref][k]; !ok {
				t.Errorf("%s has %q, %s does not", l, k, ref)
			}
		}
	}
}

func TestNoValueIsEmpty(t *testing.T) {
	for _, l := range Languages {
		for k, v := range catalogues[l] {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s %q is empty", l, k)
			}
		}
	}
}

// eventVariants are the suffixed event keys documented in i18n.go.
var eventVariants = []string{
	"step.turn", "step.role",
	"check.good", "check.wolf", "check.not_village",
	"attack_pick.none", "attack.none", "attack.drawn", "witch_told.none", "dawn.none", "ballot.none",
	"vote_result.none", "vote_result.candidates", "vote_result.drawn", "vote_result.tie",
	"sheriff.no_candidate", "sheriff.no_voter", "sheriff.tie", "sheriff.explosion", "sheriff.idiot", "sheriff.red_card",
	"badge.none", "order.ccw", "exile.none", "reveal.idiot",
	"explode.target.kept", "explode.target", "explode.kept",
	"task.first", "resume.cut", "game_over.draw", "event_card.wolf_ally", "spy.none", "voters.none",
	"attack_result.survived", "feedback.missed", "claim.wolf", "claim.good",
	"duel.wolf", "grave.wolf", "grave.none", "grave.none_yet", "growl.silent",
	"ask.no",
	"trade_choice.betray", "trade_result.seat_betrays", "trade_result.target_betrays", "trade_result.both_betray",
	"gift.poison", "gift.shield", "lucky.poison", "lucky.shield", "gift_use.poison", "gift_use.shield",
}

// names lists an enumeration's names from 1 up to the first that String
// formats as unknown ("step(29)"), the zero value ("none") left out.
func names[T ~uint8](unknown string, str func(T) string) []string {
	var out []string
	for v := T(1); v != 0; v++ {
		s := str(v)
		if strings.HasPrefix(s, unknown+"(") {
			break
		}
		out = append(out, s)
	}
	return out
}

func steps() []string  { return names("step", rules.Step.String) }
func events() []string { return names("event", rules.EventKind.String) }
func causes() []string { return names("cause", rules.Cause.String) }
func camps() []string  { return names("camp", rules.Camp.String) }

// requiredKeys are the keys the rules' vocabulary needs.
func requiredKeys() []string {
	keys := []string{"group.lovers", "group.charmed", "group.wolves", "group.sisters", "group.brothers", "group.newlyweds", "group.lucky", "group.traders", "night.falls", "day.breaks", "role.open", "role.close"}
	for _, r := range rules.Roles() {
		keys = append(keys, "role."+r.String(), "role."+r.String()+".desc")
	}
	for _, s := range steps() {
		keys = append(keys, "step."+s)
	}
	for _, e := range events() {
		keys = append(keys, "event."+e)
	}
	for _, v := range eventVariants {
		keys = append(keys, "event."+v)
	}
	for _, c := range causes() {
		keys = append(keys, "cause."+c)
	}
	for _, c := range camps() {
		keys = append(keys, "camp."+c, "winner."+c)
	}
	for _, o := range rules.AllOptions() {
		keys = append(keys, "option."+o.Name(), "option."+o.Name()+".doc")
		for _, v := range o.Values() {
			keys = append(keys, "option."+o.Name()+"."+v)
		}
	}
	for _, p := range rules.Presets() {
		keys = append(keys, "preset."+p.Name, "preset."+p.Name+".desc")
	}
	return keys
}

// TestEveryRuleTermHasItsKeysInEveryLanguage: every role, step, event kind
// (and documented variant), cause, camp, option, option value and preset.
func TestEveryRuleTermHasItsKeysInEveryLanguage(t *testing.T) {
	if n := len(steps()); n < 28 {
		t.Fatalf("only %d steps found", n)
	}
	if n := len(events()); n < 52 {
		t.Fatalf("only %d event kinds found", n)
	}
	for _, l := range Languages {
		for _, k := range requiredKeys() {
			if _, ok := catalogues[l][k]; !ok {
				t.Errorf("%s lacks %q", l, k)
			}
		}
	}
}

// TestNoKeyOutsideTheRulesVocabulary: a domain key the rules do not name is a
// typo or a leftover (ui.* keys belong to the web client).
func TestNoKeyOutsideTheRulesVocabulary(t *testing.T) {
	known := make(map[string]bool)
	for _, k := range requiredKeys() {
		known[k] = true
	}
	for _, k := range Keys(Languages[0]) {
		if !known[k] && !strings.HasPrefix(k, "ui.") && !strings.HasPrefix(k, "chat.") {
			t.Errorf("%q is not a key of the rules' vocabulary (nor ui.*)", k)
		}
	}
}

// TestPlaceholdersAreTheSameInEveryLanguage: a translation neither drops
// nor invents a blank.
func TestPlaceholdersAreTheSameInEveryLanguage(t *testing.T) {
	ref := Languages[0]
	for _, k := range Keys(ref) {
		want := placeholders(catalogues[ref][k])
		for _, l := range Languages[1:] {
			if v, ok := catalogues[l][k]; ok && !slices.Equal(placeholders(v), want) {
				t.Errorf("%q: %s has %v, %s has %v", k, l, placeholders(v), ref, want)
			}
		}
	}
}

// TestTemplatesUseOnlyKnownPlaceholders: event templates name only the
// event's fields; the narration's role calls take {role}; the other rules
// texts take none.
func TestTemplatesUseOnlyKnownPlaceholders(t *testing.T) {
	fields := []string{"camp", "cause", "mask", "role", "seat", "step", "target", "value"}
	for _, l := range Languages {
		for k, v := range catalogues[l] {
			ph := placeholders(v)
			switch {
			case strings.HasPrefix(k, "ui."), strings.HasPrefix(k, "chat."):
			case strings.HasPrefix(k, "event."):
				for _, p := range ph {
					if !slices.Contains(fields, p) {
						t.Errorf("%s %q: unknown placeholder {%s}", l, k, p)
					}
				}
			case k == "role.open" || k == "role.close":
				if !slices.Equal(ph, []string{"role"}) {
					t.Errorf("%s %q: placeholders %v, want [role]", l, k, ph)
				}
			case len(ph) > 0:
				t.Errorf("%s %q: no placeholder expected, found %v", l, k, ph)
			}
			if strings.Contains(v, "%s") || strings.Contains(v, "%d") {
				t.Errorf("%s %q: printf verb in %q; use {name}", l, k, v)
			}
		}
	}
}

// simplifiedTraditional are characters written differently in the two
// scripts, each form unused in the other (ambiguous pairs such as 后/後 and
// 布/佈 are left out).
var simplifiedTraditional = [][2]string{
	{"预", "預"}, {"猎", "獵"}, {"卫", "衛"}, {"长", "長"}, {"护", "護"}, {"验", "驗"}, {"杀", "殺"},
	{"请", "請"}, {"闭", "閉"}, {"睁", "睜"}, {"说", "說"}, {"这", "這"}, {"个", "個"}, {"们", "們"},
	{"时", "時"}, {"为", "為"}, {"对", "對"}, {"发", "發"}, {"进", "進"}, {"过", "過"}, {"还", "還"},
	{"选", "選"}, {"举", "舉"}, {"遗", "遺"}, {"胜", "勝"}, {"负", "負"}, {"阵", "陣"}, {"营", "營"},
	{"侣", "侶"}, {"边", "邊"}, {"无", "無"}, {"没", "沒"}, {"从", "從"}, {"给", "給"}, {"轮", "輪"},
	{"顺", "順"}, {"号", "號"}, {"开", "開"}, {"枪", "槍"}, {"带", "帶"}, {"药", "藥"}, {"两", "兩"},
	{"张", "張"}, {"换", "換"}, {"获", "獲"}, {"独", "獨"}, {"动", "動"}, {"规", "規"},
	{"则", "則"}, {"经", "經"}, {"础", "礎"}, {"连", "連"}, {"处", "處"}, {"决", "決"}, {"结", "結"},
	{"讨", "討"}, {"论", "論"}, {"职", "職"}, {"条", "條"}, {"随", "隨"}, {"机", "機"}, {"见", "見"},
	{"会", "會"}, {"么", "麼"}, {"样", "樣"}, {"导", "導"}, {"页", "頁"}, {"设", "設"},
	{"确", "確"}, {"认", "認"}, {"线", "線"}, {"网", "網"}, {"间", "間"}, {"钟", "鐘"}, {"数", "數"},
	{"红", "紅"}, {"罚", "罰"}, {"弃", "棄"}, {"权", "權"}, {"关", "關"}, {"启", "啟"}, {"态", "態"},
}

// TestTraditionalDiffersFromSimplified: zh-Hant is written in Traditional
// characters and zh-Hans in Simplified ones.
func TestTraditionalDiffersFromSimplified(t *testing.T) {
	hans, hant := catalogues["zh-Hans"], catalogues["zh-Hant"]
	for _, k := range []string{"role.seer", "role.hunter", "role.guard", "role.elder", "night.falls", "step.last_words"} {
		if hans[k] == hant[k] {
			t.Errorf("%q is %q in both scripts", k, hans[k])
		}
	}
	for _, p := range simplifiedTraditional {
		for k, v := range hant {
			if strings.Contains(v, p[0]) {
				t.Errorf("zh-Hant %q: simplified %s in %q (write %s)", k, p[0], v, p[1])
			}
		}
		for k, v := range hans {
			if strings.Contains(v, p[1]) {
				t.Errorf("zh-Hans %q: traditional %s in %q (write %s)", k, p[1], v, p[0])
			}
		}
	}
}

// TestUIKeysStayInTheUIFiles: the web client's strings are all ui.*, and
// only they; the chat groups' are all chat.*, in locales/chat.
func TestUIKeysStayInTheUIFiles(t *testing.T) {
	for _, name := range localeFiles(t) {
		m := readFlat(t, name)
		dir := filepath.Base(filepath.Dir(name))
		for k := range m {
			if strings.HasPrefix(k, "ui.") != (dir == "ui") || strings.HasPrefix(k, "chat.") != (dir == "chat") {
				t.Errorf("%s: key %q does not belong in this file", name, k)
			}
		}
	}
}

// TestFilesAreCanonical: keys sorted, two-space indent, UTF-8 unescaped,
// a final newline; -update rewrites them so.
func TestFilesAreCanonical(t *testing.T) {
	for _, name := range localeFiles(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want := canonical(t, readFlat(t, name))
		if bytes.Equal(data, want) {
			continue
		}
		if *update {
			if err := os.WriteFile(name, want, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote %s", name)
			continue
		}
		t.Errorf("%s is not in canonical form (go test ./internal/i18n -update rewrites it)", name)
	}
}

// TestLoadRefusesBadCatalogues: a key defined twice in one language, a
// file of an unknown language, a nested value, a missing language.
func TestLoadRefusesBadCatalogues(t *testing.T) {
	good := func() fstest.MapFS {
		fsys := fstest.MapFS{}
		for _, l := range Languages {
			fsys["locales/"+l+".json"] = &fstest.MapFile{Data: []byte(`{"role.seer": "x"}`)}
			fsys["locales/ui/"+l+".json"] = &fstest.MapFile{Data: []byte(`{"ui.ok": "y"}`)}
		}
		return fsys
	}
	if c, err := load(good()); err != nil || c["en"]["ui.ok"] != "y" || c["zh-Hant"]["role.seer"] != "x" {
		t.Fatalf("a good catalogue: %v, %v", c, err)
	}
	cases := []struct {
		name string
		edit func(fstest.MapFS)
	}{
		{"duplicate key", func(f fstest.MapFS) { f["locales/ui/en.json"].Data = []byte(`{"role.seer": "z"}`) }},
		{"unknown language", func(f fstest.MapFS) { f["locales/ui/fr.json"] = &fstest.MapFile{Data: []byte(`{}`)} }},
		{"nested value", func(f fstest.MapFS) { f["locales/en.json"].Data = []byte(`{"a": {"b": "c"}}`) }},
		{"bad JSON", func(f fstest.MapFS) { f["locales/en.json"].Data = []byte(`{"a": `) }},
		{"missing language", func(f fstest.MapFS) {
			delete(f, "locales/en.json")
			delete(f, "locales/ui/en.json")
		}},
	}
	for _, c := range cases {
		fsys := good()
		c.edit(fsys)
		if _, err := load(fsys); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

func localeFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{"locales/*.json", "locales/ui/*.json", "locales/chat/*.json"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) < 2*len(Languages) {
		t.Fatalf("found only %v", out)
	}
	return out
}

func readFlat(t *testing.T, name string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// canonical is m as the locale files are written: sorted keys, two-space
// indent, no HTML escaping, a final newline.
func canonical(t *testing.T, m map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
