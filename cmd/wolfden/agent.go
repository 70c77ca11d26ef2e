package main

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	benchaiwolf "github.com/wolfden/wolfden/bench/aiwolf"
	"github.com/wolfden/wolfden/internal/aiwolf/agent"
)

func agentCmd() *cobra.Command {
	var rawURL, name, token string
	var count, games int
	var seed uint64
	cmd := &cobra.Command{
		Use:   "agent --url ws://HOST:PORT/ws --name NAME [--count N] [--games N] [--seed S] [--token JWT]",
		Short: "Play AIWolf (人狼知能) games as wolfden's own NLP-protocol agents",
		Long: `Connect --count agents to an AIWolf NLP-protocol server (wolfden serve with
its gateway, or the contest's reference server) and play --games games, then
print each agent's result. With --count 5 and --name kanolab1 the agents are
kanolab1 … kanolab5: one team, which a self-matching server seats together.
The agents play as a decent simple player does (docs/aiwolf.md, "Agents").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			names, err := agentNames(name, count)
			if err != nil {
				return err
			}
			if err := checkAgentURL(rawURL); err != nil {
				return err
			}
			if games < 1 {
				return fmt.Errorf("agent: --games %d: play at least one game", games)
			}
			w := cmd.OutOrStdout()
			for g := 1; g <= games; g++ {
				results := make([]agent.Result, len(names))
				errs := make([]error, len(names))
				var wg sync.WaitGroup
				for i, n := range names {
					wg.Go(func() {
						// Each agent and game has its own seed, from --seed alone.
						s := seed + uint64(g-1)*uint64(len(names)) + uint64(i)
						results[i], errs[i] = agent.Play(cmd.Context(), rawURL, agent.Options{Name: n, Seed: s, Token: token})
					})
				}
				wg.Wait()
				for i, r := range results {
					line := fmt.Sprintf("game %d: %s", g, r.Name)
					if r.Agent != "" {
						line += fmt.Sprintf(" %s %s", r.Agent, r.Role)
					}
					if r.GameID != "" {
						line += " game " + r.GameID
					}
					switch {
					case errs[i] != nil:
						line += " error: " + errs[i].Error()
					case r.Won:
						line += " winner " + r.Winner + " (won)"
					default:
						line += " winner " + r.Winner + " (lost)"
					}
					fmt.Fprintln(w, line)
				}
				failed := 0
				for _, err := range errs {
					if err != nil {
						failed++
					}
				}
				if failed > 0 {
					// Each agent's error is on its line above.
					return fmt.Errorf("agent: game %d: %d of %d agents failed", g, failed, len(names))
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&rawURL, "url", "", "the server's WebSocket URL (ws://HOST:PORT/ws, or /aiwolf/ws on wolfden's main listener)")
	cmd.Flags().StringVar(&name, "name", "", "the agent's name; its team is the name without trailing digits")
	cmd.Flags().IntVar(&count, "count", 1, "how many agents to connect, named from --name on")
	cmd.Flags().IntVar(&games, "games", 1, "how many games each agent plays, one after another")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "the seed of the agents' choices")
	cmd.Flags().StringVar(&token, "token", "", "a JWT for a server that requires one, or an agent seat's token with --url …/aiwolf/ws?room=ID (sent as Authorization: Bearer, never in the URL)")
	return cmd
}

// agentNames numbers count agents from name: kanolab1 with 5 gives
// kanolab1 … kanolab5, kanolab gives kanolab1 … kanolab5; one agent keeps
// the name as given.
func agentNames(name string, count int) ([]string, error) {
	if name == "" {
		return nil, errors.New("agent: --name NAME is required (e.g. kanolab1)")
	}
	if strings.ContainsAny(name, " \t\r\n") {
		return nil, fmt.Errorf("agent: --name %q has white space", name)
	}
	base := strings.TrimRight(name, "0123456789")
	if base == "" {
		return nil, fmt.Errorf("agent: --name %q is only digits: a team is the name without its trailing digits", name)
	}
	if count < 1 || count > 100 {
		return nil, fmt.Errorf("agent: --count %d: between 1 and 100 agents", count)
	}
	if count == 1 {
		return []string{name}, nil
	}
	first := 1
	if digits := name[len(base):]; digits != "" {
		n, err := strconv.Atoi(digits)
		if err != nil {
			return nil, fmt.Errorf("agent: --name %q: %w", name, err)
		}
		first = n
	}
	names := make([]string, count)
	for i := range names {
		names[i] = base + strconv.Itoa(first+i)
	}
	return names, nil
}

func checkAgentURL(raw string) error {
	if raw == "" {
		return errors.New("agent: --url is required (e.g. ws://127.0.0.1:8080/ws)")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("agent: --url %q: %w", raw, err)
	}
	if u.Scheme != "ws" && u.Scheme != "wss" {
		return fmt.Errorf("agent: --url %q: the scheme must be ws or wss, not %q", raw, u.Scheme)
	}
	if u.Host == "" {
		return fmt.Errorf("agent: --url %q has no host", raw)
	}
	if u.Query().Has("token") {
		return errors.New("agent: --url holds a token, which proxies would log with the URL: give it as --token (sent as Authorization: Bearer)")
	}
	return nil
}

func benchAIWolfCmd() *cobra.Command {
	var agents []int
	var games int
	var dir string
	var seed uint64
	var linger time.Duration
	var asJSON bool
	var cpuProfile string
	var remoteURL string
	var serverPID int
	var byRequest bool
	cmd := &cobra.Command{
		Use:   "aiwolf [--agents 5,50,250] [--games N] [--dir DIR] [--seed S] [--linger D] [--cpuprofile FILE] [--json] [--url ws://HOST:PORT/ws --server-pid PID [--by-request]]",
		Short: "Play 5-player AIWolf games of instant agents against an in-process gateway and report its speed and memory",
		Long: `Start a server with the AIWolf gateway in this process, on an SQLite file in
--dir (a temporary directory by default), and play --games 5-player games at
each count of concurrent agents of --agents, every request and reply stored.
Report games/s, the requests' latency as the gateway logged it (p50, p99,
max) and the heap once the server is up, after half the games and after all
of them, and games per CPU-second of the process, which the machine's other
load does not change. The agents share the process: pin it (taskset -c 0,
GOMAXPROCS=1) to measure one core, and split the server's CPU from the
agents' with --cpuprofile and go tool pprof -tags (docs/aiwolf-agent.md).

With --url and --server-pid, play against a server already running in
another process instead (wolfden serve --aiwolf-addr, or the contest's
reference server) and report that process's CPU time per game (with its
children's: wolfden's SQLite checkpoint copier) and the
agents' turnaround, from a reply to the next packet (docs/benchmarks.md);
--by-request splits it by the packet that ended it (the JSON always has it,
and the turnaround's p90 and p99.9 besides).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(agents) == 0 {
				return errors.New("bench aiwolf: --agents lists no count")
			}
			if (remoteURL == "") != (serverPID == 0) {
				return errors.New("bench aiwolf: --url and --server-pid go together (the server to play against and its process)")
			}
			if byRequest && remoteURL == "" {
				return errors.New("bench aiwolf: --by-request splits the turnaround of a --url run")
			}
			if remoteURL != "" {
				if err := checkAgentURL(remoteURL); err != nil {
					return err
				}
				var reps []benchaiwolf.RemoteReport
				for _, k := range agents {
					rep, err := benchaiwolf.RunRemote(cmd.Context(), benchaiwolf.RemoteConfig{URL: remoteURL, PID: serverPID, Agents: k, Games: games, Seed: seed,
						Team: fmt.Sprintf("k%d", k)})
					if err != nil {
						return err
					}
					reps = append(reps, rep)
				}
				if asJSON {
					return writeJSONLine(cmd.OutOrStdout(), reps)
				}
				if err := benchaiwolf.PrintRemote(cmd.OutOrStdout(), reps); err != nil || !byRequest {
					return err
				}
				return benchaiwolf.PrintByRequest(cmd.OutOrStdout(), reps)
			}
			if cpuProfile != "" {
				f, err := os.Create(cpuProfile)
				if err != nil {
					return fmt.Errorf("bench aiwolf: --cpuprofile: %w", err)
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return fmt.Errorf("bench aiwolf: --cpuprofile: %w", err)
				}
				defer pprof.StopCPUProfile()
			}
			var reps []benchaiwolf.Report
			for _, k := range agents {
				rep, err := benchaiwolf.Run(cmd.Context(), benchaiwolf.Config{Agents: k, Games: games, Dir: dir, Seed: seed, Linger: linger})
				if err != nil {
					return err
				}
				reps = append(reps, rep)
			}
			var err error
			if asJSON {
				err = writeJSONLine(cmd.OutOrStdout(), reps)
			} else {
				err = benchaiwolf.Print(cmd.OutOrStdout(), reps)
			}
			if err != nil {
				return err
			}
			for _, r := range reps {
				if r.Failed > 0 {
					return fmt.Errorf("bench aiwolf: at %d agents, %d agents' games ended in an error; the first: %s", r.Agents, r.Failed, r.FirstError)
				}
			}
			return nil
		},
	}
	cmd.Flags().IntSliceVar(&agents, "agents", []int{5, 50, 250}, "the counts of concurrent agents (K), multiples of 5, one run each")
	cmd.Flags().IntVar(&games, "games", 1000, "games played at each count")
	cmd.Flags().StringVar(&dir, "dir", "", "the directory of the SQLite file (default: a temporary one, removed)")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "the seed of the agents' choices")
	cmd.Flags().DurationVar(&linger, "linger", 0, "how long a finished game stays live on the server (0: 1s)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the reports as JSON")
	cmd.Flags().StringVar(&remoteURL, "url", "", "play against the server at this WebSocket URL instead of one in this process (with --server-pid)")
	cmd.Flags().IntVar(&serverPID, "server-pid", 0, "the process id of the --url server, whose CPU time (with its children's) is measured")
	cmd.Flags().BoolVar(&byRequest, "by-request", false, "with --url: also print the turnaround by the packet that ended it")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the runs to FILE (the agents' samples are tagged side=agent)")
	return cmd
}
