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
	fl.DurationVar(&f.pingTo, "aiwolf-ping-timeout", 0, "a ping not answered by then ends the connection (the bot plays until the agent reconnects); 0: the action timeout")
}

// config is the gateway's options, or nil when it is off.
func (f *aiwolfFlags) config() (*aiwolf.Options, error) {
	if !f.on && f.addr == "" {
		return nil, nil
	}
	if _, err := aiwolf.Preset(f.players); err != nil {
		return nil, fmt.Errorf("--aiwolf-players: %v", err)
	}
	if f.action <= 0 || f.response <= 0 || f.pingEvery <= 0 || f.pingTo < 0 {
		return nil, errors.New("--aiwolf-action-timeout, --aiwolf-response-timeout and --aiwolf-ping must be positive, --aiwolf-ping-timeout not negative")
	}
	o := &aiwolf.Options{Players: f.players, Contest: f.contest, ActionTimeout: f.action, ResponseTimeout: f.response,
		PingEvery: f.pingEvery, PingWait: f.pingTo}
	if f.auth {
		key := os.Getenv("SECRET_KEY")
		if key == "" {
			return nil, errors.New("--aiwolf-auth needs the signing secret in the environment variable SECRET_KEY")
		}
		o.Secret = []byte(key)
	}
	return o, nil
}
