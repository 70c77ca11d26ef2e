package main

import (
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
			o, err := f.config()
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
