package aiwolf

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// A contest's file in the reference's format is read as the reference
// means it: the address, timeouts, players, matching, the talk and
// whisper limits, the profiles (text in profile_encoding's order) and
// the file loggers.
func TestTheReferencesConfigurationIsReadAsItMeansIt(t *testing.T) {
	c, err := ReadConfig("testdata/config/contest_13.yml")
	if err != nil {
		t.Fatal(err)
	}
	o := c.Options
	if c.Addr != "127.0.0.1:18780" || c.Auth {
		t.Errorf("addr %q auth %v", c.Addr, c.Auth)
	}
	if o.Players != 13 || !o.Contest || o.ActionTimeout != 30*time.Second || o.ResponseTimeout != 90*time.Second || o.Acceptable != 4*time.Second {
		t.Errorf("options %+v", o)
	}
	wantTalk := TalkSetting{MaxCount: MaxCount{PerAgent: 5, PerDay: 60}, MaxSkip: 1,
		MaxLength: MaxLength{CountInWord: true, PerTalk: intp(120), MentionLength: intp(40), BaseLength: intp(40)}}
	if o.Talk == nil || !reflect.DeepEqual(*o.Talk, wantTalk) {
		t.Errorf("talk %+v, want %+v", o.Talk, wantTalk)
	}
	if o.Whisper == nil || o.Whisper.MaxCount != (MaxCount{PerAgent: 3, PerDay: 9}) || o.Whisper.MaxLength.PerTalk != nil {
		t.Errorf("whisper %+v", o.Whisper)
	}
	if len(c.Options.Profiles) != 14 {
		t.Fatalf("%d profiles", len(c.Options.Profiles))
	}
	if p := c.Options.Profiles[1]; p.Name != "Bo" || p.Text != "Age: 12\nGender: male\nPersonality: Asks why, twice." {
		t.Errorf("profile %+v", p)
	}
	if p := c.Options.Profiles[13]; p.Name != "Nia" || p.Text != "Personality: Has no age to tell." {
		t.Errorf("profile %+v", p)
	}
	if c.JSONLog != (FileLog{true, "./log/json", "{timestamp}_{teams}"}) || c.GameLog != (FileLog{true, "./log/game", "{game_id}"}) {
		t.Errorf("loggers %+v %+v", c.JSONLog, c.GameLog)
	}
}

// Keys wolfden does not serve are named in one error, each with why;
// keys it plays one way only are refused when asked another way.
func TestKeysWolfdenDoesNotServeAreNamedInOneError(t *testing.T) {
	base := "game:\n  agent_count: 5\n"
	cases := []struct {
		name, yml string
		want      []string
	}{
		{"a feature wolfden has not", "realtime_broadcaster:\n  enable: true\n", []string{"realtime_broadcaster.enable: true: wolfden has no realtime broadcaster"}},
		{"speech synthesis", "tts_broadcaster:\n  enable: true\n", []string{"tts_broadcaster.enable"}},
		{"dynamic profiles", "custom_profile:\n  enable: true\n  profiles: [{name: a}, {name: b}, {name: c}, {name: d}, {name: e}]\n  dynamic_profile:\n    enable: true\n", []string{"custom_profile.dynamic_profile.enable"}},
		{"the match optimizer", "matching:\n  is_optimize: true\n", []string{"matching.is_optimize: true: wolfden plays only false"}},
		{"a revote", base + "  vote:\n    max_count: 2\n", []string{"game.vote.max_count: 2: wolfden plays only 1"}},
		{"max_day", base + "  max_day: 3\n", []string{"game.max_day: 3"}},
		{"another size", "game:\n  agent_count: 9\n", []string{"game.agent_count: 9"}},
		{"other roles", "logic:\n  roles:\n    5: {WEREWOLF: 2, VILLAGER: 3}\n", []string{"logic.roles.5"}},
		{"other phases", "logic:\n  day_phases:\n    - {name: daily_talk, actions: [talk]}\n", []string{"logic.day_phases"}},
		{"a typo", "server:\n  timeout:\n    acton: 60s\n", []string{"server.timeout.acton: not a key"}},
		{"a bad value", "server:\n  timeout:\n    action: soon\n", []string{`server.timeout.action: "soon" is not a positive duration`}},
		{"too few profiles", "custom_profile:\n  enable: true\n  profiles: [{name: a}, {name: b}]\n", []string{"custom_profile.profiles: 2 profiles for 5 players"}},
		{"a logger nowhere", "game_logger:\n  enable: true\n  output_dir: \"\"\n", []string{"game_logger.output_dir: missing"}},
		{"all at once", "realtime_broadcaster:\n  enable: true\nmatching:\n  is_optimize: true\nfoo: 1\n",
			[]string{"(3)", "realtime_broadcaster.enable", "matching.is_optimize", "foo: not a key"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(c.yml))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// What the reference's file leaves out is wolfden's default; what is
// off stays off.
func TestAnEmptyConfigurationChangesNothing(t *testing.T) {
	c, err := ParseConfig([]byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "" || c.Options.Talk != nil || c.Options.Players != 0 || c.Options.Profiles != nil || c.JSONLog.Enable || c.GameLog.Enable {
		t.Errorf("%+v", c)
	}
}
