package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/aiwolf"
)

// aiwolfFlags are serve's flags for the AIWolf gateway (docs/aiwolf.md).
type aiwolfFlags struct {
	on                bool
	addr              string
	players           int
	contest, auth     bool
	action, response  time.Duration
	pingEvery, pingTo time.Duration
	file              string // --aiwolf-config

	talkDur, whisperDur time.Duration // group chat (0: rounds)
}

func (f *aiwolfFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.on, "aiwolf", false, "run the AIWolf (人狼知能) gateway: agents connect at /aiwolf/ws (docs/aiwolf.md)")
	fl.StringVar(&f.addr, "aiwolf-addr", "", "also serve the gateway as ws://ADDR/ws, the reference server's address (e.g. :8080; implies --aiwolf)")
	fl.IntVar(&f.players, "aiwolf-players", 5, "the regulation matched games are played on: 5 (aiwolf-5) or 13 (aiwolf-13)")
	fl.BoolVar(&f.contest, "aiwolf-contest", false, "contest matching: a game starts with one agent of each of N teams (default: self-match, N agents of one team)")
	fl.BoolVar(&f.auth, "aiwolf-auth", false, "require an HS256 JWT signed with $SECRET_KEY (claims role PLAYER and team), as Authorization: Bearer or a one-use ?code= (POST /aiwolf/code)")
	fl.DurationVar(&f.action, "aiwolf-action-timeout", 60*time.Second, "how long a request waits for the agent's reply before the bot plays it")
	fl.DurationVar(&f.response, "aiwolf-response-timeout", 120*time.Second, "how long the NAME probe after a timeout waits, and a new connection's NAME")
	fl.DurationVar(&f.pingEvery, "aiwolf-ping", 2*time.Second, "how often an agent that owes no reply is pinged")
	fl.StringVar(&f.file, "aiwolf-config", "", "the reference server's YAML configuration (aiwolf-nlp-server's config/default_5.yml and kin): its address, timeouts, regulation, talk limits, matching, profiles and file loggers; a flag given as well wins (implies --aiwolf)")
	fl.DurationVar(&f.pingTo, "aiwolf-ping-timeout", 0, "a ping not answered by then ends the connection (the bot plays until the agent reconnects); 0: the action timeout")
	fl.DurationVar(&f.talkDur, "aiwolf-talk-duration", 0, "play matched games' talk as a group chat lasting at most this long (the reference's talk.duration); 0: TALK rounds")
	fl.DurationVar(&f.whisperDur, "aiwolf-whisper-duration", 0, "play matched games' whisper as a group chat lasting at most this long (whisper.duration); 0: WHISPER rounds")
}

// config is the gateway's options, or nil when it is off. changed tells
// the flags given on the command line (nil: none): with --aiwolf-config
// they win over the file's values, which win over the flags' defaults.
func (f *aiwolfFlags) config(changed func(string) bool) (*aiwolf.Options, error) {
	if !f.on && f.addr == "" && f.file == "" {
		return nil, nil
	}
	if changed == nil {
		changed = func(string) bool { return false }
	}
	var file aiwolf.Options
	if f.file != "" {
		c, err := aiwolf.ReadConfig(f.file)
		if err != nil {
			return nil, err
		}
		file = c.Options
		take := func(flag string, set func()) {
			if !changed(flag) {
				set()
			}
		}
		take("aiwolf-addr", func() { f.addr = c.Addr })
		take("aiwolf-auth", func() { f.auth = c.Auth })
		take("aiwolf-contest", func() { f.contest = file.Contest })
		if file.Players != 0 {
			take("aiwolf-players", func() { f.players = file.Players })
		}
		if file.ActionTimeout != 0 {
			take("aiwolf-action-timeout", func() { f.action = file.ActionTimeout })
		}
		if file.ResponseTimeout != 0 {
			take("aiwolf-response-timeout", func() { f.response = file.ResponseTimeout })
		}
		file.JSONLog, file.GameLog = c.JSONLog, c.GameLog
		if file.TalkDuration != 0 {
			take("aiwolf-talk-duration", func() { f.talkDur = file.TalkDuration })
		}
		if file.WhisperDuration != 0 {
			take("aiwolf-whisper-duration", func() { f.whisperDur = file.WhisperDuration })
		}
	}
	if _, err := aiwolf.Preset(f.players); err != nil {
		return nil, fmt.Errorf("--aiwolf-players: %v", err)
	}
	if f.talkDur < 0 || f.whisperDur < 0 {
		return nil, errors.New("--aiwolf-talk-duration and --aiwolf-whisper-duration may not be negative")
	}
	if f.action <= 0 || f.response <= 0 || f.pingEvery <= 0 || f.pingTo < 0 {
		return nil, errors.New("--aiwolf-action-timeout, --aiwolf-response-timeout and --aiwolf-ping must be positive, --aiwolf-ping-timeout not negative")
	}
	o := &aiwolf.Options{Players: f.players, Contest: f.contest, ActionTimeout: f.action, ResponseTimeout: f.response,
		PingEvery: f.pingEvery, PingWait: f.pingTo, TalkDuration: f.talkDur, WhisperDuration: f.whisperDur,
		Acceptable: file.Acceptable, Talk: file.Talk, Whisper: file.Whisper,
		JSONLog: file.JSONLog, GameLog: file.GameLog, Profiles: file.Profiles, ShuffleProfiles: file.ShuffleProfiles}
	if f.auth {
		key := os.Getenv("SECRET_KEY")
		if key == "" {
			return nil, errors.New("--aiwolf-auth needs the signing secret in the environment variable SECRET_KEY")
		}
		o.Secret = []byte(key)
	}
	return o, nil
}
