package aiwolf

import (
	"fmt"
	"math"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// Config is what wolfden takes from the reference server's YAML
// configuration (aiwolf-nlp-server's config/default_5.yml and its kin,
// doc/en/config.md), so that an organiser can swap servers with the same
// file: `wolfden serve --aiwolf-config FILE`.
//
// Each key of the reference's is one of three kinds here. Applied: the
// address, authentication, timeouts, players, the talk and whisper
// limits, matching, custom profiles and the two file loggers. Fixed:
// what wolfden's engine always plays one way (one vote with ties drawn,
// self-votes allowed, the phases of a day and a night, the roles of the
// 5- and 13-player regulations, no max_day); a file that asks another way
// is refused. Off only: the reference's features wolfden has not
// (realtime and TTS broadcasters, dynamic profiles, the match
// optimizer), accepted while disabled. Any other key is unknown. Every
// key refused is named in one error, with why.
type Config struct {
	Addr    string // server.web_socket host:port ("" when the file has neither)
	Auth    bool   // server.authentication.enable
	Options Options
	// JSONLog and GameLog are the file loggers (json_logger, game_logger):
	// where each matched game's logs are written once it ends.
	JSONLog, GameLog FileLog
}

// FileLog is one of the reference's file loggers: each game's log goes to
// Dir/Filename.log (game_logger) or .json (json_logger), with {game_id},
// {timestamp} (unix seconds) and {teams} (the teams, sorted, joined by
// "_") in Filename replaced.
type FileLog struct {
	Enable   bool
	Dir      string
	Filename string
}

// ReadConfig reads a reference configuration file.
func ReadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--aiwolf-config: %w", err)
	}
	c, err := ParseConfig(b)
	if err != nil {
		return nil, fmt.Errorf("--aiwolf-config %s: %w", path, err)
	}
	return c, nil
}

// ParseConfig reads a reference configuration.
func ParseConfig(b []byte) (*Config, error) {
	var root yaml.MapSlice
	if err := yaml.UnmarshalWithOptions(b, &root, yaml.UseOrderedMap()); err != nil {
		return nil, fmt.Errorf("not YAML: %w", err)
	}
	r := &configReader{c: &Config{}, vals: map[string]any{}}
	r.flatten("", root)
	r.read()
	if len(r.bad) > 0 {
		return nil, fmt.Errorf("wolfden cannot serve these keys (%d): %s", len(r.bad), strings.Join(r.bad, "; "))
	}
	return r.c, nil
}

// configReader walks the file's keys. vals holds each leaf (and each
// list, whole) by its dotted path.
type configReader struct {
	c    *Config
	vals map[string]any
	used map[string]bool
	bad  []string
}

// wholes are the paths read whole rather than key by key.
var wholes = []string{"logic.day_phases", "logic.night_phases", "logic.roles", "custom_profile.profiles",
	"custom_profile.profile_encoding", "custom_profile.dynamic_profile", "tts_broadcaster"}

func (r *configReader) flatten(prefix string, m yaml.MapSlice) {
	for _, it := range m {
		k := prefix + fmt.Sprint(it.Key)
		if sub, ok := it.Value.(yaml.MapSlice); ok && !slices.Contains(wholes, k) {
			r.flatten(k+".", sub)
			continue
		}
		r.vals[k] = it.Value
	}
}

func (r *configReader) refuse(key, format string, args ...any) {
	r.bad = append(r.bad, key+": "+fmt.Sprintf(format, args...))
}

// get takes a key's value (nil, false when the file lacks it).
func (r *configReader) get(key string) (any, bool) {
	v, ok := r.vals[key]
	r.used[key] = true
	return v, ok
}

func (r *configReader) str(key string, set func(string)) {
	if v, ok := r.get(key); ok {
		s, isStr := v.(string)
		if !isStr && v != nil {
			s = fmt.Sprint(v)
		}
		set(s)
	}
}

func (r *configReader) boolean(key string, set func(bool)) {
	if v, ok := r.get(key); ok {
		b, isBool := v.(bool)
		if !isBool {
			r.refuse(key, "%v is not true or false", v)
			return
		}
		set(b)
	}
}

func (r *configReader) integer(key string, set func(int)) {
	if v, ok := r.get(key); ok {
		n, err := toInt(v)
		if err != nil {
			r.refuse(key, "%v", err)
			return
		}
		set(n)
	}
}

func toInt(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case uint64:
		if x <= math.MaxInt32 {
			return int(x), nil
		}
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= math.MaxInt32 {
			return int(x), nil
		}
	}
	return 0, fmt.Errorf("%v is not a whole number", v)
}

func (r *configReader) duration(key string, set func(time.Duration)) {
	r.str(key, func(s string) {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			r.refuse(key, "%q is not a positive duration (e.g. 60s)", s)
			return
		}
		set(d)
	})
}

// fixed accepts a key whose value is the one wolfden plays.
func (r *configReader) fixed(key string, want any, why string) {
	v, ok := r.get(key)
	if !ok {
		return
	}
	if n, err := toInt(v); err == nil {
		v = n
	}
	if fmt.Sprint(v) != fmt.Sprint(want) {
		r.refuse(key, "%v: wolfden plays only %v (%s)", v, want, why)
	}
}

// offOnly accepts a feature wolfden has not while it is off; its other
// keys are read with it.
func (r *configReader) offOnly(prefix, feature string) {
	r.boolean(prefix+".enable", func(on bool) {
		if on {
			r.refuse(prefix+".enable", "true: wolfden has no %s (set it false)", feature)
		}
	})
	for k := range r.vals {
		if strings.HasPrefix(k, prefix+".") {
			r.used[k] = true
		}
	}
}

func (r *configReader) read() {
	r.used = map[string]bool{}
	c := r.c
	o := &c.Options

	var host string
	port := 0
	r.str("server.web_socket.host", func(s string) { host = s })
	r.integer("server.web_socket.port", func(p int) {
		if p < 1 || p > 65535 {
			r.refuse("server.web_socket.port", "%d is no port", p)
			return
		}
		port = p
	})
	if host != "" || port != 0 {
		if port == 0 {
			port = 8080 // the reference's default
		}
		c.Addr = net.JoinHostPort(host, strconv.Itoa(port))
	}
	r.boolean("server.authentication.enable", func(b bool) { c.Auth = b })
	r.duration("server.timeout.action", func(d time.Duration) { o.ActionTimeout = d })
	r.duration("server.timeout.response", func(d time.Duration) { o.ResponseTimeout = d })
	r.duration("server.timeout.acceptable", func(d time.Duration) { o.Acceptable = d })
	// Read and kept: a failed agent's seat is played by wolfden's bot, so
	// no game is ever aborted, whatever the ratio (docs/aiwolf.md).
	r.get("server.max_continue_error_ratio")

	r.integer("game.agent_count", func(n int) {
		if _, err := Preset(n); err != nil {
			r.refuse("game.agent_count", "%d: wolfden serves the 5- and 13-player regulations", n)
			return
		}
		o.Players = n
	})
	players := o.Players
	if players == 0 {
		players = 5
	}
	r.fixed("game.max_day", -1, "a game ends when a side wins")
	r.fixed("game.vote_visibility", true, "every vote is told")
	for _, ch := range []string{"talk", "whisper"} {
		r.talkSetting("game."+ch, ch == "whisper")
	}
	r.fixed("game.vote.max_count", 1, "a tie is drawn among the tied, no second vote")
	r.fixed("game.vote.allow_self_vote", true, "a self-vote counts")
	r.fixed("game.attack_vote.max_count", 1, "a tie is drawn among the tied")
	r.fixed("game.attack_vote.allow_self_vote", true, "the wolves' votes on a wolf are not counted, as the reference's")
	r.fixed("game.attack_vote.allow_no_target", false, "the wolves must attack someone")

	r.phases("logic.day_phases", "morning_whisper:whisper:only0,daily_talk:talk")
	r.phases("logic.night_phases", "evening_whisper:whisper:only0,execution:execution:except0,divine:divine,night_whisper:whisper:except0,guard:guard:except0,attack:attack:except0")
	r.roles(players)

	r.boolean("matching.self_match", func(b bool) { o.Contest = !b })
	r.fixed("matching.is_optimize", false, "games start as agents come")
	// The optimizer's own keys: read, and unused while it is off.
	for _, k := range []string{"team_count", "game_count", "output_path", "infinite_loop"} {
		r.get("matching." + k)
	}

	r.profiles()
	for _, lg := range []struct {
		key string
		to  *FileLog
	}{{"json_logger", &c.JSONLog}, {"game_logger", &c.GameLog}} {
		r.boolean(lg.key+".enable", func(b bool) { lg.to.Enable = b })
		r.str(lg.key+".output_dir", func(s string) { lg.to.Dir = s })
		r.str(lg.key+".filename", func(s string) { lg.to.Filename = s })
		if lg.to.Enable && lg.to.Dir == "" {
			r.refuse(lg.key+".output_dir", "missing: where the logs go")
		}
		if lg.to.Filename == "" {
			lg.to.Filename = "{game_id}"
		}
	}
	r.offOnly("realtime_broadcaster", "realtime broadcaster (a spectator watches a room at /ws/{id})")
	if v, ok := r.get("tts_broadcaster"); ok {
		if m, isMap := v.(yaml.MapSlice); isMap {
			for _, it := range m {
				if fmt.Sprint(it.Key) == "enable" && it.Value == true {
					r.refuse("tts_broadcaster.enable", "true: wolfden has no speech synthesis (set it false)")
				}
			}
		}
	}

	var unknown []string
	for k := range r.vals {
		if !r.used[k] {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		r.refuse(k, "not a key of the reference's configuration that wolfden knows")
	}
}

// talkSetting reads game.talk or game.whisper: wolfden applies it whole.
func (r *configReader) talkSetting(prefix string, whisper bool) {
	keys := []string{"max_count.per_agent", "max_count.per_day", "max_skip", "max_length.count_in_word", "max_length.count_spaces",
		"max_length.per_talk", "max_length.mention_length", "max_length.per_agent", "max_length.base_length"}
	present := false
	for _, k := range keys {
		if _, ok := r.vals[prefix+"."+k]; ok {
			present = true
		}
	}
	if !present {
		return
	}
	var s TalkSetting
	r.integer(prefix+".max_count.per_agent", func(n int) { s.MaxCount.PerAgent = n })
	r.integer(prefix+".max_count.per_day", func(n int) { s.MaxCount.PerDay = n })
	r.integer(prefix+".max_skip", func(n int) { s.MaxSkip = n })
	r.boolean(prefix+".max_length.count_in_word", func(b bool) { s.MaxLength.CountInWord = b })
	r.boolean(prefix+".max_length.count_spaces", func(b bool) { s.MaxLength.CountSpaces = b })
	// -1 (or no key) is no limit, as the reference's.
	limit := func(k string, to **int) {
		r.integer(prefix+".max_length."+k, func(n int) {
			if n >= 0 {
				*to = intp(n)
			}
		})
	}
	limit("per_talk", &s.MaxLength.PerTalk)
	limit("mention_length", &s.MaxLength.MentionLength)
	limit("per_agent", &s.MaxLength.PerAgent)
	limit("base_length", &s.MaxLength.BaseLength)
	// A duration makes the phase a group chat (groupchat.go).
	r.duration(prefix+".duration", func(d time.Duration) {
		if whisper {
			r.c.Options.WhisperDuration = d
		} else {
			r.c.Options.TalkDuration = d
		}
	})
	if s.MaxCount.PerAgent < 0 || s.MaxCount.PerDay < 0 || s.MaxSkip < 0 {
		r.refuse(prefix+".max_count", "a count may not be negative")
		return
	}
	if whisper {
		r.c.Options.Whisper = &s
	} else {
		r.c.Options.Talk = &s
	}
}

// phases accepts the reference's default order of a day's or a night's
// phases, which is the order wolfden's engine plays; want lists
// name:action[:only0|:except0].
func (r *configReader) phases(key, want string) {
	v, ok := r.get(key)
	if !ok {
		return
	}
	list, isList := v.([]any)
	var got []string
	for _, p := range list {
		m, isMap := p.(yaml.MapSlice)
		if !isMap {
			isList = false
			break
		}
		var name, only, except string
		var actions []string
		for _, it := range m {
			switch fmt.Sprint(it.Key) {
			case "name":
				name = fmt.Sprint(it.Value)
			case "actions":
				as, _ := it.Value.([]any)
				for _, a := range as {
					actions = append(actions, fmt.Sprint(a))
				}
			case "only_day":
				only = ":only" + fmt.Sprint(it.Value)
			case "except_day":
				except = ":except" + fmt.Sprint(it.Value)
			}
		}
		got = append(got, name+":"+strings.Join(actions, "+")+only+except)
	}
	if !isList || strings.Join(got, ",") != want {
		r.refuse(key, "wolfden plays the reference's default order (%s), not %s", want, strings.Join(got, ","))
	}
}

// roles accepts the regulations' roles: for each player count the file
// lists, wolfden's preset of that size must deal the same cards.
func (r *configReader) roles(players int) {
	v, ok := r.get("logic.roles")
	if !ok {
		return
	}
	want := map[int]map[string]int{
		5:  {"WEREWOLF": 1, "POSSESSED": 1, "SEER": 1, "BODYGUARD": 0, "VILLAGER": 2, "MEDIUM": 0},
		13: {"WEREWOLF": 3, "POSSESSED": 1, "SEER": 1, "BODYGUARD": 1, "VILLAGER": 6, "MEDIUM": 1},
	}
	m, isMap := v.(yaml.MapSlice)
	if !isMap {
		r.refuse("logic.roles", "not a map of player counts")
		return
	}
	seen := false
	for _, it := range m {
		n, err := strconv.Atoi(fmt.Sprint(it.Key))
		if err != nil {
			r.refuse("logic.roles", "%v is not a player count", it.Key)
			continue
		}
		roles, _ := it.Value.(yaml.MapSlice)
		got := map[string]int{}
		for _, rc := range roles {
			k, _ := toInt(rc.Value)
			got[fmt.Sprint(rc.Key)] = k
		}
		w, known := want[n]
		for role, k := range w {
			if got[role] != k {
				known = false
			}
		}
		for role, k := range got {
			if w[role] != k {
				known = false
			}
		}
		if !known {
			r.refuse(fmt.Sprintf("logic.roles.%d", n), "%v: wolfden deals the regulations' cards only (5: %v; 13: %v)", got, want[5], want[13])
		}
		seen = seen || n == players
	}
	if !seen {
		r.refuse("logic.roles", "no roles for game.agent_count %d", players)
	}
}

// profiles reads custom_profile: each profile's name and its text, made
// as the reference makes it ("label: value" a line, for each key of
// profile_encoding the profile has; here in the encoding's order, where
// the reference's follows Go's map order and changes from run to run).
func (r *configReader) profiles() {
	on := false
	r.boolean("custom_profile.enable", func(b bool) { on = b })
	if v, ok := r.get("custom_profile.dynamic_profile"); ok {
		if m, isMap := v.(yaml.MapSlice); isMap {
			for _, it := range m {
				if fmt.Sprint(it.Key) == "enable" && it.Value == true && on {
					r.refuse("custom_profile.dynamic_profile.enable", "true: wolfden makes no profiles with a language model (set it false)")
				}
			}
		}
	}
	enc, _ := r.get("custom_profile.profile_encoding")
	ps, hasProfiles := r.get("custom_profile.profiles")
	if !on {
		return
	}
	// The reference draws each game's profiles from the list anew.
	r.c.Options.ShuffleProfiles = true
	encoding, _ := enc.(yaml.MapSlice)
	list, isList := ps.([]any)
	if !hasProfiles || !isList || len(list) == 0 {
		r.refuse("custom_profile.profiles", "enabled, but no profiles are listed")
		return
	}
	for i, p := range list {
		m, isMap := p.(yaml.MapSlice)
		if !isMap {
			r.refuse(fmt.Sprintf("custom_profile.profiles[%d]", i), "not a map")
			continue
		}
		args := map[string]string{}
		for _, it := range m {
			args[fmt.Sprint(it.Key)] = fmt.Sprint(it.Value)
		}
		var lines []string
		for _, e := range encoding {
			if v, ok := args[fmt.Sprint(e.Key)]; ok {
				lines = append(lines, fmt.Sprint(e.Value)+": "+v)
			}
		}
		name := strings.TrimSpace(args["name"])
		if name == "" {
			r.refuse(fmt.Sprintf("custom_profile.profiles[%d].name", i), "missing")
			continue
		}
		r.c.Options.Profiles = append(r.c.Options.Profiles, Profile{Name: name, Text: strings.Join(lines, "\n")})
	}
	players := r.c.Options.Players
	if players == 0 {
		players = 5
	}
	// The gateway's own rule (too few, a name doubled or one the CSV log
	// could not hold), named here with the file's other refusals.
	if err := checkProfiles(r.c.Options.Profiles, players); err != nil {
		r.refuse("custom_profile.profiles", "%s", strings.TrimPrefix(err.Error(), "aiwolf: "))
	}
}

// configuredLimits puts the configured talk and whisper limits in a
// matched game's regulation; a web room keeps the regulation's. It
// reports whether it changed the regulation.
func (t *table) configuredLimits() bool {
	o := t.g.opts
	if !t.matched || (o.Talk == nil && o.Whisper == nil) {
		return false
	}
	if o.Talk != nil {
		t.reg.Setting.Talk = *o.Talk
	}
	if o.Whisper != nil {
		t.reg.Setting.Whisper = *o.Whisper
	}
	return true
}
