package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/bench/load"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

func benchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure a running server (docs/benchmarks.md)",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return fmt.Errorf("unknown command %q for \"wolfden bench\" (known: load, aiwolf, voice)", args[0])
		},
	}
	cmd.AddCommand(benchLoadCmd(), benchAIWolfCmd(), benchVoiceCmd())
	return cmd
}

func benchLoadCmd() *cobra.Command {
	var cfg load.Config
	var rawURL, metricsURL, timers string
	var nodes []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "load --url URL --metrics-url URL --games N [--players N] [--preset NAME] [--ramp DURATION] [--seed S] [--timers NAME=DURATION,...] [--json]",
		Short: "Play many games at once against a server, every seat a client, and report its speed and memory",
		Long: `Create N rooms on a running server (wolfden serve) in which every seat is
a load client: each seat joins over HTTP, the host starts the game, and every
seat opens its WebSocket. Once all are connected the server's /metrics (on
its operator listener, --metrics-url: the server's --metrics-addr) are read to work out its memory per live game and per connection (heap in use
then, less a baseline read before the run); then every client plays random
legal choices until every game is over.

The report gives the games, the players, the server's peak of connections,
the wall time of the play, games and commands per second, the latency of a
command (from sending it to its ack, which the server sends once the
command's events are stored and queued to every connection: p50, p90, p99,
max) and the server's part of it (its wolfden_command_seconds), the memory
per game and per connection, the server's RSS, and the errors. The command
fails when there was an error or a game did not end.

The rooms' timers are
  ` + timerList(load.Timers) + `
unless --timers changes some of them; nights last the sum of their timers
whatever the players do, which is what makes a game last. Room i gets the
seed S+i. The set-up keeps --parallel requests or dials in flight (--ramp
spreads it over a time) and retries briefly a connection that fails.
With --stagger each game is played as soon as its seats are connected, as
real rooms start when they are ready: with --ramp the games' play is spread
as their set-up is, rather than every client starting at once.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if cfg.URL, err = checkLoadURL("url", rawURL); err != nil {
				return err
			}
			cfg.Nodes = []string{cfg.URL}
			for _, n := range nodes {
				u, err := checkLoadURL("nodes", n)
				if err != nil {
					return err
				}
				cfg.Nodes = append(cfg.Nodes, u)
			}
			if metricsURL == "" {
				metricsURL = rawURL
			}
			if cfg.MetricsURL, err = checkLoadURL("metrics-url", metricsURL); err != nil {
				return err
			}
			if cfg.Games < 1 {
				return fmt.Errorf("bench load: --games must be 1 or more, not %d", cfg.Games)
			}
			if cfg.Players < 0 {
				return fmt.Errorf("bench load: --players cannot be negative (%d)", cfg.Players)
			}
			if cfg.Ramp < 0 {
				return fmt.Errorf("bench load: --ramp cannot be negative (%v)", cfg.Ramp)
			}
			if cfg.Parallel < 1 {
				return fmt.Errorf("bench load: --parallel must be 1 or more, not %d", cfg.Parallel)
			}
			if cfg.Timeout <= 0 {
				return fmt.Errorf("bench load: --timeout must be positive, not %v", cfg.Timeout)
			}
			p, err := rules.LookupPreset(cfg.Preset)
			if err != nil {
				return fmt.Errorf("bench load: --preset: %w", err)
			}
			b, err := p.Board(cfg.Players)
			if err != nil {
				return fmt.Errorf("bench load: --players: %w", err)
			}
			cfg.Players = b.Players()
			if cfg.Timers, err = parseLoadTimers(timers); err != nil {
				return err
			}
			cfg.Progress = cmd.ErrOrStderr()
			rep, err := load.Run(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return err
				}
			} else {
				rep.WriteText(cmd.OutOrStdout())
			}
			switch {
			case rep.Errors > 0:
				return fmt.Errorf("bench load: %d errors (first: %s)", rep.Errors, rep.ErrorSamples[0])
			case rep.GamesOver < rep.Games:
				return fmt.Errorf("bench load: only %d of %d games ended", rep.GamesOver, rep.Games)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&rawURL, "url", "http://127.0.0.1:8080", "the server's address")
	f.StringSliceVar(&nodes, "nodes", nil, "the other nodes of a cluster (docs/cluster.md): game i is made on node i of --url and these in turn, and its seats connect to one node after another, so that most connections are relayed to their game's owner")
	f.StringVar(&metricsURL, "metrics-url", "", "the server's operator listener, where /metrics is (its --metrics-addr; default: --url)")
	f.IntVar(&cfg.Games, "games", 10, "games played at once")
	f.IntVar(&cfg.Players, "players", 0, "players a game, for presets with a range (default: the preset's smallest size; 12 for std-12)")
	f.StringVar(&cfg.Preset, "preset", "std-12", "the preset of every room (wolfden presets)")
	f.DurationVar(&cfg.Ramp, "ramp", 0, "spread the games' set-up evenly over this long (default: as fast as --parallel allows)")
	f.BoolVar(&cfg.Stagger, "stagger", false, "each game's clients play as soon as its seats are connected, as real rooms do, rather than all at once when everyone is (the memory is then read mid-play)")
	f.Uint64Var(&cfg.Seed, "seed", 1, "seeds the deals (room i gets S+i) and each client's random choices")
	f.StringVar(&timers, "timers", "", "timer overrides, NAME=DURATION,... (setup, night, witch, check, speech, vote, other, bot, tick)")
	f.IntVar(&cfg.Parallel, "parallel", 64, "HTTP requests and WebSocket dials in flight at once during the set-up")
	f.DurationVar(&cfg.Timeout, "timeout", 30*time.Minute, "give up on the run after this long")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func timerList(m map[string]string) string {
	var out []string
	for _, n := range game.TimerNames {
		if m[n] != "" { // check, unset, is the witch's
			out = append(out, n+"="+m[n])
		}
	}
	return strings.Join(out, ",")
}

// checkLoadURL accepts the http(s) address of a server, without a path.
func checkLoadURL(flag, raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("bench load: --%s %q is not the address of a server, such as http://127.0.0.1:8080", flag, raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// parseLoadTimers reads NAME=DURATION,... over the load's default timers.
func parseLoadTimers(s string) (map[string]string, error) {
	out := map[string]string{}
	for k, v := range load.Timers {
		out[k] = v
	}
	check := game.DefaultTimers
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, value, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("bench load: --timers: %q is not NAME=DURATION (such as night=100ms)", item)
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if err := check.Set(name, value); err != nil {
			return nil, fmt.Errorf("bench load: --timers: %w", err)
		}
		out[name] = value
	}
	return out, nil
}
