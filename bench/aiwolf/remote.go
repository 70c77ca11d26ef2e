package aiwolf

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf/agent"
)

// RemoteConfig is a run against a server already running in another
// process: wolfden's (wolfden serve --aiwolf-addr) or the contest's
// reference server, so that both are measured the same way, by the same
// agents, each server on its own core.
type RemoteConfig struct {
	URL    string // ws://HOST:PORT/ws
	PID    int    // the server's process, whose CPU time is read from /proc
	Agents int    // K, a multiple of 5
	Games  int
	Seed   uint64
	// Team names each game's agents: a fresh team a game, as Run does.
	Team string
}

// RemoteReport is what a remote run measured. ServerCPU is the server
// process's user and system time over the games (/proc/PID/stat), its
// children's included, and
// the turnaround is the agents': from a reply's write to the next packet
// the agent receives, every reply of every agent.
type RemoteReport struct {
	Agents       int           `json:"agents"`
	Games        int           `json:"games"`
	Failed       int           `json:"failed"`
	FirstError   string        `json:"first_error,omitempty"`
	Elapsed      time.Duration `json:"elapsed_ns"`
	ServerCPU    time.Duration `json:"server_cpu_ns"`
	CPUPerGame   time.Duration `json:"server_cpu_per_game_ns"`
	Replies      int           `json:"replies"`
	TurnP50      time.Duration `json:"turnaround_p50_ns"`
	TurnP90      time.Duration `json:"turnaround_p90_ns"` // the tail's shape: a server can match the p50 and not the p99
	TurnP99      time.Duration `json:"turnaround_p99_ns"`
	TurnP999     time.Duration `json:"turnaround_p999_ns"`
	TurnMax      time.Duration `json:"turnaround_max_ns"`
	GamesPerSecs float64       `json:"games_per_s"`
	// ByRequest splits the turnaround by the packet that ended it (a
	// game's start shows in INITIALIZE, a day's end in DAILY_FINISH), by
	// request name.
	ByRequest []RequestTurns `json:"by_request"`
}

// RequestTurns is the turnaround that ended with one kind of packet.
type RequestTurns struct {
	Request string        `json:"request"`
	Count   int           `json:"count"`
	P50     time.Duration `json:"p50_ns"`
	P99     time.Duration `json:"p99_ns"`
	Max     time.Duration `json:"max_ns"`
}

// RunRemote plays cfg.Games 5-player games of cfg.Agents concurrent
// agents against the server at cfg.URL and measures its CPU.
func RunRemote(ctx context.Context, cfg RemoteConfig) (RemoteReport, error) {
	if cfg.Agents < Players || cfg.Agents%Players != 0 || cfg.Games < 1 {
		return RemoteReport{}, fmt.Errorf("bench aiwolf: %d agents and %d games: the agents a multiple of %d, at least one game", cfg.Agents, cfg.Games, Players)
	}
	if cfg.Team == "" {
		cfg.Team = "r"
	}
	cpu0, err := procCPU(cfg.PID)
	if err != nil {
		return RemoteReport{}, err
	}
	rep := RemoteReport{Agents: cfg.Agents, Games: cfg.Games}
	var mu sync.Mutex
	var turns []time.Duration
	byReq := map[string][]time.Duration{}
	start := time.Now()
	failed, firstErr := playTeams(ctx, cfg.URL, cfg.Team, cfg.Agents, cfg.Games, cfg.Seed, func(o *agent.Options) func() {
		var mine []time.Duration
		var reqs []string
		var last time.Time
		o.Observe = func(req string, received, replied time.Time) {
			if !last.IsZero() {
				mine = append(mine, received.Sub(last))
				reqs = append(reqs, req)
				last = time.Time{}
			}
			if !replied.IsZero() {
				last = replied
			}
		}
		return func() {
			mu.Lock()
			turns = append(turns, mine...)
			for i, r := range reqs {
				byReq[r] = append(byReq[r], mine[i])
			}
			mu.Unlock()
		}
	}, nil)
	rep.Elapsed = time.Since(start)
	cpu1, err := procCPU(cfg.PID)
	if err != nil {
		return rep, err
	}
	rep.ServerCPU = cpu1 - cpu0
	rep.CPUPerGame = rep.ServerCPU / time.Duration(cfg.Games)
	rep.GamesPerSecs = float64(cfg.Games) / rep.Elapsed.Seconds()
	rep.Failed = failed
	if firstErr != nil {
		rep.FirstError = firstErr.Error()
	}
	rep.Replies = len(turns)
	if len(turns) > 0 {
		slices.Sort(turns)
		rep.TurnP50, rep.TurnP90, rep.TurnP99 = pct(turns, 0.50), pct(turns, 0.90), pct(turns, 0.99)
		rep.TurnP999, rep.TurnMax = pct(turns, 0.999), turns[len(turns)-1]
	}
	for _, r := range slices.Sorted(maps.Keys(byReq)) {
		ts := byReq[r]
		slices.Sort(ts)
		rep.ByRequest = append(rep.ByRequest, RequestTurns{Request: r, Count: len(ts), P50: pct(ts, 0.50), P99: pct(ts, 0.99), Max: ts[len(ts)-1]})
	}
	return rep, ctx.Err()
}

// procCPU is a process's user and system time, from /proc/PID/stat
// (clock ticks of 1/100 s, the kernel's USER_HZ on Linux), with that of
// its children: those it has waited for, and those running, and theirs (a
// server's helper process, such as SQLite's checkpoint copier, works for
// it). Each process's stat is read once.
func procCPU(pid int) (time.Duration, error) {
	f, err := procStat(pid)
	if err != nil {
		return 0, fmt.Errorf("bench aiwolf: the server's CPU time: %w", err)
	}
	total, err := statTicks(f)
	if err != nil {
		return 0, fmt.Errorf("bench aiwolf: /proc/%d/stat: %w", pid, err)
	}
	kids := map[int][]int{} // by the parent's PID
	ticks := map[int]int64{}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		id, err := strconv.Atoi(p.Name())
		if err != nil || id == pid {
			continue
		}
		f, err := procStat(id)
		if err != nil {
			continue // it ended meanwhile
		}
		parent, err1 := strconv.Atoi(f[1])
		t, err2 := statTicks(f)
		if err1 == nil && err2 == nil {
			kids[parent] = append(kids[parent], id)
			ticks[id] = t
		}
	}
	for todo := kids[pid]; len(todo) > 0; {
		id := todo[len(todo)-1]
		todo = append(todo[:len(todo)-1], kids[id]...)
		total += ticks[id]
	}
	return time.Duration(total) * 10 * time.Millisecond, nil
}

// statTicks is a process's utime, stime, cutime and cstime, from its
// stat's fields (procStat).
func statTicks(f []string) (int64, error) {
	var ticks int64
	for _, i := range []int{11, 12, 13, 14} {
		t, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("field %d is %q", i+3, f[i])
		}
		ticks += t
	}
	return ticks, nil
}

// procStat is /proc/PID/stat's fields after the command's name: the
// state is [0], the parent's PID [1], utime [11].
func procStat(pid int) ([]string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, err
	}
	// The command name may hold spaces: the fields start after its ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 15 {
		return nil, fmt.Errorf("/proc/%d/stat has %d fields", pid, len(f))
	}
	return f, nil
}

// PrintByRequest writes each report's turnaround by request as a table.
func PrintByRequest(w io.Writer, reps []RemoteReport) error {
	_, err := fmt.Fprintf(w, "%6s %-18s %9s %10s %10s %10s\n", "agents", "request", "replies", "turn p50", "turn p99", "turn max")
	for _, r := range reps {
		for _, q := range r.ByRequest {
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(w, "%6d %-18s %9d %10s %10s %10s\n", r.Agents, q.Request, q.Count,
				q.P50.Round(time.Microsecond), q.P99.Round(time.Microsecond), q.Max.Round(time.Microsecond))
		}
	}
	return err
}

// PrintRemote writes remote reports as a table.
func PrintRemote(w io.Writer, reps []RemoteReport) error {
	_, err := fmt.Fprintf(w, "%6s %7s %9s %12s %14s %9s %10s %10s %10s %6s\n",
		"agents", "games", "games/s", "server cpu", "cpu per game", "replies", "turn p50", "turn p99", "turn max", "failed")
	for _, r := range reps {
		if err != nil {
			break
		}
		_, err = fmt.Fprintf(w, "%6d %7d %9.1f %12s %14s %9d %10s %10s %10s %6d\n",
			r.Agents, r.Games, r.GamesPerSecs, r.ServerCPU.Round(time.Millisecond), r.CPUPerGame.Round(time.Microsecond), r.Replies,
			r.TurnP50.Round(time.Microsecond), r.TurnP99.Round(time.Microsecond), r.TurnMax.Round(time.Microsecond), r.Failed)
	}
	return err
}
