package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAIWolfFlagsAreCheckedAndNamed(t *testing.T) {
	base := aiwolfFlags{players: 5, action: time.Second, response: time.Second, pingEvery: time.Second, pingTo: time.Second}
	cases := []struct {
		name   string
		edit   func(f *aiwolfFlags)
		secret string
		want   string // an error's words; "" for none
		on     bool
	}{
		{"off unless asked", func(f *aiwolfFlags) {}, "", "", false},
		{"--aiwolf", func(f *aiwolfFlags) { f.on = true }, "", "", true},
		{"--aiwolf-addr implies --aiwolf", func(f *aiwolfFlags) { f.addr = ":8080" }, "", "", true},
		{"no regulation of 7", func(f *aiwolfFlags) { f.on, f.players = true, 7 }, "", "--aiwolf-players", false},
		{"a timeout of 0", func(f *aiwolfFlags) { f.on, f.action = true, 0 }, "", "must be positive", false},
		{"auth without SECRET_KEY", func(f *aiwolfFlags) { f.on, f.auth = true, true }, "", "SECRET_KEY", false},
		{"auth with SECRET_KEY", func(f *aiwolfFlags) { f.on, f.auth = true, true }, "k", "", true},
		{"a negative talk duration", func(f *aiwolfFlags) { f.on, f.talkDur = true, -time.Second }, "", "--aiwolf-talk-duration", false},
		{"group chat", func(f *aiwolfFlags) { f.on, f.talkDur, f.whisperDur = true, time.Minute, 30*time.Second }, "", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("SECRET_KEY", c.secret)
			f := base
			c.edit(&f)
			o, err := f.config(nil)
			switch {
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want one naming %q", err, c.want)
			case c.want == "" && err != nil:
				t.Fatal(err)
			case (o != nil) != c.on:
				t.Fatalf("options %+v, want on=%v", o, c.on)
			case o != nil && f.auth && string(o.Secret) != c.secret:
				t.Fatalf("secret %q", o.Secret)
			case o != nil && (o.TalkDuration != f.talkDur || o.WhisperDuration != f.whisperDur):
				t.Fatalf("durations %v, %v, want %v, %v", o.TalkDuration, o.WhisperDuration, f.talkDur, f.whisperDur)
			}
		})
	}
}

// --aiwolf-config sets the gateway from the reference's file; a flag
// given as well wins; a key wolfden does not serve stops the start with
// the key's name.
func TestAIWolfConfigFileSetsTheGatewayAndFlagsWin(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yml")
	os.WriteFile(good, []byte("server:\n  web_socket: {host: 127.0.0.1, port: 18781}\n  timeout: {action: 7s, response: 9s, acceptable: 2s}\n"+
		"game:\n  agent_count: 13\nmatching:\n  self_match: false\ngame_logger: {enable: true, output_dir: "+dir+", filename: \"{game_id}\"}\n"), 0o644)
	bad := filepath.Join(dir, "bad.yml")
	os.WriteFile(bad, []byte("realtime_broadcaster: {enable: true}\nserver: {timeout: {acton: 1s}}\n"), 0o644)

	f := aiwolfFlags{players: 5, action: time.Minute, response: time.Minute, pingEvery: time.Second, pingTo: time.Second, file: good}
	o, err := f.config(func(flag string) bool { return flag == "aiwolf-action-timeout" })
	if err != nil {
		t.Fatal(err)
	}
	if f.addr != "127.0.0.1:18781" || o.Players != 13 || !o.Contest || o.ResponseTimeout != 9*time.Second || o.Acceptable != 2*time.Second || !o.GameLog.Enable {
		t.Errorf("addr %q options %+v", f.addr, o)
	}
	if o.ActionTimeout != time.Minute {
		t.Errorf("--aiwolf-action-timeout given on the command line lost to the file: %v", o.ActionTimeout)
	}

	f = aiwolfFlags{players: 5, action: time.Minute, response: time.Minute, pingEvery: time.Second, pingTo: time.Second, file: bad}
	_, err = f.config(nil)
	if err == nil || !strings.Contains(err.Error(), "realtime_broadcaster.enable") || !strings.Contains(err.Error(), "server.timeout.acton") {
		t.Errorf("error %v, want one naming both keys", err)
	}
}
