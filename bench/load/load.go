// Package load plays many games at once against a running wolfden server,
// every seat a client over HTTP and WebSocket, and measures the server's
// speed and memory from its /metrics (docs/benchmarks.md). `wolfden bench
// load` runs it.
package load

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wolfden/wolfden/internal/client"
)

// Timers are the timers of a load run unless --timers changes them:
// short but humane for random clients, which answer within milliseconds;
// the fixed night schedule is what makes a game last. The night's beat
// ticks once a slot: every connection gets a 4 KB message a tick at night.
var Timers = map[string]string{"setup": "100ms", "night": "100ms", "witch": "100ms", "tick": "100ms",
	"speech": "5s", "vote": "5s", "other": "5s", "bot": "0s"}

// Config is a load run. `wolfden bench load` checks it flag by flag first.
type Config struct {
	URL string // http://host:port
	// Nodes are a cluster's nodes, URL first: game i is made on node i
	// (in turn) and its seat s dials node i+s. Only URL's metrics are read.
	Nodes      []string
	MetricsURL string // the operator listener: http://host:port
	Games      int
	Players    int // seats a game
	Preset     string
	Ramp       time.Duration
	Stagger    bool // each game plays from its own set-up on, not all at once when everyone is connected
	Seed       uint64
	Timers     map[string]string
	Parallel   int
	Timeout    time.Duration
	Progress   io.Writer // a line per phase and every few seconds; nil: quiet
}

// Report is what a load run measured.
type Report struct {
	URL            string  `json:"url"`
	Preset         string  `json:"preset"`
	PlayersPerGame int     `json:"players_per_game"`
	Games          int     `json:"games"`
	GamesStarted   int     `json:"games_started"`
	GamesOver      int     `json:"games_over"`
	Players        int     `json:"players"`   // seats joined
	Connected      int     `json:"connected"` // WebSockets opened
	ConnectedPeak  int     `json:"connected_peak"`
	LiveGamesPeak  int     `json:"live_games_peak"`
	SetupSeconds   float64 `json:"setup_seconds"`
	Staggered      bool    `json:"staggered"` // --stagger: the wall time runs from the set-up's start
	WallSeconds    float64 `json:"wall_seconds"`
	GamesPerSecond float64 `json:"games_per_second"`
	Commands       int     `json:"commands"`
	CommandsPerSec float64 `json:"commands_per_second"`
	Latency        struct {
		Count int     `json:"count"`
		P50   float64 `json:"p50_ms"`
		P90   float64 `json:"p90_ms"`
		P99   float64 `json:"p99_ms"`
		Max   float64 `json:"max_ms"`
	} `json:"latency"`
	Memory struct {
		Source        string  `json:"source"` // the metric read
		Baseline      float64 `json:"baseline_bytes"`
		Connected     float64 `json:"connected_bytes"`
		PerGame       float64 `json:"per_game_bytes"`
		PerConnection float64 `json:"per_connection_bytes"`
	} `json:"memory"`
	RSS struct {
		Baseline  float64 `json:"baseline_bytes"`
		Connected float64 `json:"connected_bytes"`
		Peak      float64 `json:"peak_bytes"`
		End       float64 `json:"end_bytes"`
	} `json:"server_rss"`
	ServerCommands map[string]int `json:"server_commands"` // wolfden_commands_total during the run, by result
	// ServerLatency is the server's own part of the latency, from a
	// command's arrival to its events queued for every connection
	// (wolfden_command_seconds during the run, interpolated in its buckets).
	ServerLatency struct {
		P50 float64 `json:"p50_ms"`
		P90 float64 `json:"p90_ms"`
		P99 float64 `json:"p99_ms"`
	} `json:"server_latency"`
	// ServerCPU is the server's CPU time (process_cpu_seconds_total) over
	// the whole run and over the play (everyone connected → every game
	// over; with --stagger part of the play is in the set-up, and only Run
	// counts it all), and the play's per game over.
	ServerCPU struct {
		Run     float64 `json:"run_seconds"`
		Play    float64 `json:"play_seconds"`
		PerGame float64 `json:"play_per_game_seconds"`
	} `json:"server_cpu"`
	Refused      map[string]int `json:"refused"` // error frames the clients received, by code
	Frames       int            `json:"frames"`  // frames the clients received while playing
	Retries      int            `json:"retries"` // connections retried during the set-up
	FileLimit    uint64         `json:"open_file_limit"`
	Errors       int            `json:"errors"`
	ErrorSamples []string       `json:"error_samples,omitempty"`
}

// loadGame is one room of the run.
type loadGame struct {
	idx     int
	id      string
	host    string
	started bool
	seats   []*loadSeat
}

// loadSeat is one client.
type loadSeat struct {
	seat    int
	token   string
	conn    *client.Conn
	stats   client.Stats
	refused map[string]int
	err     error
	end     time.Time
}

// retries counts the set-up's retried connections.
var retries atomic.Int64

// errorLog counts errors and keeps the first few.
type errorLog struct {
	mu      sync.Mutex
	n       int
	samples []string
}

func (e *errorLog) add(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.n++
	if len(e.samples) < 10 {
		e.samples = append(e.samples, fmt.Sprintf(format, args...))
	}
}

// check refuses a run that could not be made; Nodes defaults to URL.
func (c *Config) check() error {
	switch {
	case c.URL == "" || c.MetricsURL == "":
		return errors.New("bench load: the server's address and its metrics' address are both needed")
	case c.Games < 1 || c.Players < 1 || c.Parallel < 1:
		return fmt.Errorf("bench load: %d games of %d players, %d set up at a time: each must be 1 or more", c.Games, c.Players, c.Parallel)
	case c.Timeout <= 0:
		return fmt.Errorf("bench load: the timeout must be positive, not %v", c.Timeout)
	}
	if len(c.Nodes) == 0 {
		c.Nodes = []string{c.URL}
	}
	return nil
}

// Run runs a load on the server at cfg.URL. A run that was measured returns
// its report even when clients failed: the report counts the errors.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	progress := func(format string, args ...any) {
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "bench load: "+format+"\n", args...)
		}
	}
	rep := &Report{URL: cfg.URL, Preset: cfg.Preset, PlayersPerGame: cfg.Players, Games: cfg.Games,
		ServerCommands: map[string]int{}, Refused: map[string]int{}}
	need := uint64(cfg.Games*cfg.Players + cfg.Parallel + 32)
	limit, err := raiseFileLimit()
	rep.FileLimit = limit
	if err == nil && limit < need {
		return nil, fmt.Errorf("bench load: %d connections need about %d open files, and this process may open %d: raise the limit (ulimit -n)",
			cfg.Games*cfg.Players, need, limit)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        2 * cfg.Parallel,
		MaxIdleConnsPerHost: 2 * cfg.Parallel,
		IdleConnTimeout:     30 * time.Second,
	}}
	defer hc.CloseIdleConnections()
	apis := make([]*client.API, len(cfg.Nodes))
	for i, n := range cfg.Nodes {
		apis[i] = &client.API{Base: n, HTTP: hc}
	}

	base, err := scrapeMetrics(ctx, hc, cfg.MetricsURL)
	if err != nil {
		return nil, fmt.Errorf("bench load: reading %s/metrics: %w (start the server with --metrics-addr and give that address as --metrics-url)", cfg.MetricsURL, err)
	}
	memKey := "go_memstats_heap_inuse_bytes"
	if _, ok := base[memKey]; !ok {
		memKey = "process_resident_memory_bytes"
	}
	rep.Memory.Source = memKey
	rep.Memory.Baseline = base[memKey]
	rep.RSS.Baseline = base["process_resident_memory_bytes"]

	// The server's peaks, read twice a second for the whole run.
	var peakMu sync.Mutex
	sampleCtx, stopSampling := context.WithCancel(ctx)
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-sampleCtx.Done():
				return
			case <-t.C:
			}
			m, err := scrapeMetrics(sampleCtx, hc, cfg.MetricsURL)
			if err != nil {
				continue
			}
			peakMu.Lock()
			rep.ConnectedPeak = max(rep.ConnectedPeak, int(m["wolfden_connections"]))
			rep.LiveGamesPeak = max(rep.LiveGamesPeak, int(m["wolfden_live_games"]))
			rep.RSS.Peak = max(rep.RSS.Peak, m["process_resident_memory_bytes"])
			peakMu.Unlock()
		}
	}()
	stopSampler := sync.OnceFunc(func() { stopSampling(); <-sampled })
	defer stopSampler()

	var errs errorLog
	games := make([]*loadGame, cfg.Games)
	var connected, startedGames atomic.Int64

	// Set-up: cfg.Parallel workers, each taking a whole game at a time
	// (create, join every seat, start, open every seat's WebSocket), so
	// that no more than cfg.Parallel requests or dials are in flight.
	progress("setting up %d %s games (%d players) on %s, %d at a time", cfg.Games, cfg.Preset, cfg.Games*cfg.Players, cfg.URL, cfg.Parallel)
	t0 := time.Now()
	retried := retries.Load()
	stopTick := ticker(5*time.Second, func() {
		progress("  %s: %d games started, %d of %d players connected", time.Since(t0).Round(time.Second),
			startedGames.Load(), connected.Load(), cfg.Games*cfg.Players)
	})
	// play sets a game's clients playing until it is over.
	var over, acks atomic.Int64
	var plays sync.WaitGroup
	play := func(gi int, g *loadGame) {
		if g == nil || !g.started {
			return
		}
		var once sync.Once
		for _, s := range g.seats {
			if s.conn == nil {
				continue
			}
			plays.Go(func() {
				r := rand.New(rand.NewPCG(cfg.Seed, uint64(gi)<<8|uint64(s.seat)))
				s.refused = map[string]int{}
				s.stats, s.err = s.conn.PlayRandom(ctx, r, func(f client.Frame) bool {
					switch f.Type {
					case "ack":
						acks.Add(1)
					case "error":
						s.refused[f.Code]++
					}
					return false
				})
				s.end = time.Now()
				if s.stats.Winner != "" {
					once.Do(func() { over.Add(1) })
				}
				_ = s.conn.Kill() // the game is over: no need for a closing handshake
			})
		}
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(cfg.Parallel, cfg.Games) {
		wg.Go(func() {
			for i := range jobs {
				g := &loadGame{idx: i}
				games[i] = g
				node := i % len(cfg.Nodes)
				if err := setupGame(ctx, apis[node], cfg, g); err != nil {
					errs.add("game %d: %v", i+1, err)
					continue
				}
				startedGames.Add(1)
				for _, s := range g.seats {
					conn, err := dialSeat(ctx, cfg.Nodes[(node+s.seat)%len(cfg.Nodes)], g.id, s.token)
					if err != nil {
						errs.add("game %d seat %d: connecting: %v", i+1, s.seat, err)
						continue
					}
					s.conn = conn
					connected.Add(1)
				}
				if cfg.Stagger {
					play(i, g)
				}
			}
		})
	}
feed:
	for i := range cfg.Games {
		if cfg.Ramp > 0 {
			at := t0.Add(time.Duration(float64(cfg.Ramp) * float64(i) / float64(cfg.Games)))
			select {
			case <-time.After(time.Until(at)):
			case <-ctx.Done():
				break feed
			}
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	stopTick()
	setup := time.Since(t0)
	rep.SetupSeconds, rep.Staggered = setup.Seconds(), cfg.Stagger
	rep.GamesStarted = int(startedGames.Load())
	rep.Connected = int(connected.Load())
	rep.Retries = int(retries.Load() - retried)
	for _, g := range games {
		if g != nil {
			rep.Players += len(g.seats)
		}
	}
	progress("set up in %s: %d games started, %d players connected, %d connections retried", setup.Round(time.Millisecond), rep.GamesStarted, rep.Connected, rep.Retries)

	// Everyone is connected: the server's memory now, the lowest of three
	// reads (garbage not yet collected only adds to it).
	rep.Memory.Connected = math.Inf(1)
	var cpuPlay float64 // the server's CPU time as the play starts
	for i := range 3 {
		if i > 0 {
			time.Sleep(300 * time.Millisecond)
		}
		m, err := scrapeMetrics(ctx, hc, cfg.MetricsURL)
		if err != nil {
			errs.add("reading /metrics with everyone connected: %v", err)
			continue
		}
		rep.Memory.Connected = min(rep.Memory.Connected, m[memKey])
		cpuPlay = m[cpuKey]
		rep.RSS.Connected = max(rep.RSS.Connected, m["process_resident_memory_bytes"])
		peakMu.Lock()
		rep.ConnectedPeak = max(rep.ConnectedPeak, int(m["wolfden_connections"]))
		rep.LiveGamesPeak = max(rep.LiveGamesPeak, int(m["wolfden_live_games"]))
		peakMu.Unlock()
	}
	if math.IsInf(rep.Memory.Connected, 1) {
		rep.Memory.Connected = 0
	} else {
		grown := rep.Memory.Connected - rep.Memory.Baseline
		if rep.GamesStarted > 0 {
			rep.Memory.PerGame = grown / float64(rep.GamesStarted)
		}
		if rep.Connected > 0 {
			rep.Memory.PerConnection = grown / float64(rep.Connected)
		}
	}

	// Play: every client at once (or, staggered, each game from its
	// set-up on), until every game is over.
	progress("playing")
	t1 := time.Now()
	if cfg.Stagger {
		t1 = t0
	}
	stopTick = ticker(10*time.Second, func() {
		progress("  %s: %d of %d games over, %d commands", time.Since(t1).Round(time.Second), over.Load(), rep.GamesStarted, acks.Load())
	})
	if !cfg.Stagger {
		for gi, g := range games {
			play(gi, g)
		}
	}
	plays.Wait()
	stopTick()
	var end time.Time
	var lat []time.Duration
	for _, g := range games {
		if g == nil || !g.started {
			continue
		}
		winner := ""
		for _, s := range g.seats {
			if s.conn == nil {
				continue
			}
			if s.end.After(end) {
				end = s.end
			}
			if s.err != nil {
				errs.add("game %d seat %d: playing: %v", g.idx+1, s.seat, s.err)
			}
			switch w := s.stats.Winner; {
			case w == "":
			case winner == "":
				winner = w
			case w != winner:
				errs.add("game %d: seat %d saw %s win, another seat %s", g.idx+1, s.seat, w, winner)
			}
			rep.Commands += s.stats.Commands
			rep.Frames += s.stats.Frames
			lat = append(lat, s.stats.Latencies...)
			for code, n := range s.refused {
				rep.Refused[code] += n
			}
		}
		if winner != "" {
			rep.GamesOver++
		}
	}
	wall := time.Duration(0)
	if !end.IsZero() {
		wall = end.Sub(t1)
	}
	rep.WallSeconds = wall.Seconds()
	if wall > 0 {
		rep.GamesPerSecond = float64(rep.GamesOver) / wall.Seconds()
		rep.CommandsPerSec = float64(rep.Commands) / wall.Seconds()
	}
	slices.Sort(lat)
	rep.Latency.Count = len(lat)
	if len(lat) > 0 {
		ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
		rep.Latency.P50, rep.Latency.P90, rep.Latency.P99 = ms(percentile(lat, 0.50)), ms(percentile(lat, 0.90)), ms(percentile(lat, 0.99))
		rep.Latency.Max = ms(lat[len(lat)-1])
	}
	progress("played in %s: %d of %d games over", wall.Round(time.Millisecond), rep.GamesOver, rep.GamesStarted)

	if m, err := scrapeMetrics(ctx, hc, cfg.MetricsURL); err != nil {
		errs.add("reading /metrics at the end: %v", err)
	} else {
		rep.RSS.End = m["process_resident_memory_bytes"]
		rep.ServerCPU.Run = m[cpuKey] - base[cpuKey]
		if cpuPlay > 0 {
			rep.ServerCPU.Play = m[cpuKey] - cpuPlay
			if rep.GamesOver > 0 {
				rep.ServerCPU.PerGame = rep.ServerCPU.Play / float64(rep.GamesOver)
			}
		}
		for _, res := range []string{"ok", "refused", "busy"} {
			k := `wolfden_commands_total{result="` + res + `"}`
			rep.ServerCommands[res] = int(m[k] - base[k])
		}
		h := histogramDelta(base, m, "wolfden_command_seconds")
		rep.ServerLatency.P50 = 1000 * h.quantile(0.50)
		rep.ServerLatency.P90 = 1000 * h.quantile(0.90)
		rep.ServerLatency.P99 = 1000 * h.quantile(0.99)
	}
	stopSampler()
	rep.RSS.Peak = max(rep.RSS.Peak, rep.RSS.Connected, rep.RSS.End)
	rep.Errors, rep.ErrorSamples = errs.n, errs.samples
	return rep, nil
}

// setupGame creates a room, joins every seat and starts the game.
func setupGame(ctx context.Context, api *client.API, cfg Config, g *loadGame) error {
	body := map[string]any{"name": fmt.Sprintf("load %d", g.idx+1), "preset": cfg.Preset,
		"players": cfg.Players, "timers": cfg.Timers, "seed": cfg.Seed + uint64(g.idx), "practice": true}
	var c client.Created
	if err := retryHTTP(ctx, func() error { return api.Do(ctx, "POST", "/api/rooms", "", body, &c) }); err != nil {
		var e *client.Error
		if errors.As(err, &e) && e.Code == "rate" {
			return fmt.Errorf("creating the room: %w (start the server with --room-rate 0 --join-rate 0 for a load run)", err)
		}
		return fmt.Errorf("creating the room: %w", err)
	}
	g.id, g.host = c.Room.ID, c.HostToken
	for i := range c.Room.Players {
		var j struct {
			Seat  int    `json:"seat"`
			Token string `json:"token"`
		}
		nick := map[string]any{"nickname": fmt.Sprintf("load %d", i+1)}
		if err := retryHTTP(ctx, func() error { return api.Do(ctx, "POST", "/api/rooms/"+g.id+"/join", "", nick, &j) }); err != nil {
			var e *client.Error
			if errors.As(err, &e) && e.Code == "rate" {
				return fmt.Errorf("joining: %w (start the server with --room-rate 0 --join-rate 0 for a load run)", err)
			}
			return fmt.Errorf("joining: %w", err)
		}
		g.seats = append(g.seats, &loadSeat{seat: j.Seat, token: j.Token})
	}
	if err := retryHTTP(ctx, func() error { return api.Do(ctx, "POST", "/api/rooms/"+g.id+"/start", g.host, nil, nil) }); err != nil {
		return fmt.Errorf("starting: %w", err)
	}
	g.started = true
	return nil
}

// retryHTTP retries a request that never reached the server (its
// connection could not be made); a request that may have been handled is
// not repeated.
func retryHTTP(ctx context.Context, f func() error) error {
	var err error
	for attempt := range 5 {
		if attempt > 0 {
			retries.Add(1)
			if !sleepCtx(ctx, time.Duration(50<<attempt)*time.Millisecond) {
				return err
			}
		}
		if err = f(); err == nil {
			return nil
		}
		var op *net.OpError
		if !errors.As(err, &op) || op.Op != "dial" {
			return err
		}
	}
	return err
}

// dialSeat opens a seat's WebSocket, retrying briefly when the connection
// fails; a server that refuses the hello is not asked again.
func dialSeat(ctx context.Context, base, room, token string) (*client.Conn, error) {
	var err error
	for attempt := range 5 {
		if attempt > 0 {
			retries.Add(1)
			if !sleepCtx(ctx, time.Duration(50<<attempt)*time.Millisecond) {
				return nil, err
			}
		}
		dctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		var conn *client.Conn
		conn, err = client.Dial(dctx, base, room, token, 0, 0)
		cancel()
		if err == nil {
			return conn, nil
		}
		if strings.HasPrefix(err.Error(), "client: error ") || ctx.Err() != nil {
			return nil, err
		}
	}
	return nil, err
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// ticker calls f every d until the returned function is called.
func ticker(d time.Duration, f func()) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				f()
			case <-done:
				return
			}
		}
	}()
	return func() { close(done); <-finished }
}

// percentile is the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// cpuKey is the server's CPU time in its /metrics.
const cpuKey = "process_cpu_seconds_total"

// scrapeMetrics reads a Prometheus text page into series → value, a
// series being its name with its labels as written ("x{a=\"b\"}").
func scrapeMetrics(ctx context.Context, hc *http.Client, base string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s", resp.Status)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		out[line[:i]] = v
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if _, ok := out["wolfden_connections"]; !ok {
		return nil, errors.New("no wolfden_connections metric: is this a wolfden server?")
	}
	return out, nil
}

// histogram is a Prometheus histogram's cumulative buckets.
type histogram []struct{ le, n float64 }

// histogramDelta is what a histogram gained between two reads.
func histogramDelta(before, after map[string]float64, name string) histogram {
	var h histogram
	prefix := name + `_bucket{le="`
	for k, v := range after {
		le, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		bound, err := strconv.ParseFloat(strings.TrimSuffix(le, `"}`), 64)
		if err != nil {
			continue
		}
		h = append(h, struct{ le, n float64 }{bound, v - before[k]})
	}
	slices.SortFunc(h, func(a, b struct{ le, n float64 }) int {
		switch {
		case a.le < b.le:
			return -1
		case a.le > b.le:
			return 1
		}
		return 0
	})
	return h
}

// quantile interpolates linearly within the bucket that holds q, as
// Prometheus's histogram_quantile does; in the last (+Inf) bucket it is
// the highest finite bound.
func (h histogram) quantile(q float64) float64 {
	if len(h) == 0 || h[len(h)-1].n == 0 {
		return 0
	}
	rank := q * h[len(h)-1].n
	lo, below := 0.0, 0.0
	for _, b := range h {
		if b.n >= rank {
			if math.IsInf(b.le, 1) {
				return lo
			}
			if b.n == below {
				return b.le
			}
			return lo + (b.le-lo)*(rank-below)/(b.n-below)
		}
		lo, below = b.le, b.n
	}
	return lo
}

// raiseFileLimit lifts this process's open-file limit to its hard limit
// and returns the limit.
func raiseFileLimit() (uint64, error) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0, err
	}
	if r.Cur < r.Max {
		want := r
		want.Cur = r.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err != nil {
			return r.Cur, nil
		}
		r = want
	}
	return r.Cur, nil
}

// WriteText writes the report for a reader.
func (rep *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "wolfden bench load: %d %s games (%d players each) on %s\n", rep.Games, rep.Preset, rep.PlayersPerGame, rep.URL)
	fmt.Fprintf(w, "  games            %d started, %d over\n", rep.GamesStarted, rep.GamesOver)
	fmt.Fprintf(w, "  players          %d joined, %d connected (server peak: %d connections, %d live games)\n",
		rep.Players, rep.Connected, rep.ConnectedPeak, rep.LiveGamesPeak)
	fmt.Fprintf(w, "  set-up           %.1fs (create, join, start, connect every seat)\n", rep.SetupSeconds)
	if rep.Staggered {
		fmt.Fprintf(w, "  wall time        %.1fs (each game played from its set-up on: from the set-up's start to every game over)\n", rep.WallSeconds)
	} else {
		fmt.Fprintf(w, "  wall time        %.1fs (from everyone connected to every game over)\n", rep.WallSeconds)
	}
	fmt.Fprintf(w, "  games/s          %.2f\n", rep.GamesPerSecond)
	fmt.Fprintf(w, "  commands/s       %.0f (%d commands acknowledged, %d frames received)\n", rep.CommandsPerSec, rep.Commands, rep.Frames)
	fmt.Fprintf(w, "  latency          p50 %s  p90 %s  p99 %s  max %s (%d commands, send → ack; the ack follows the broadcast)\n",
		fmtMs(rep.Latency.P50), fmtMs(rep.Latency.P90), fmtMs(rep.Latency.P99), fmtMs(rep.Latency.Max), rep.Latency.Count)
	name := "heap in use"
	if rep.Memory.Source == "process_resident_memory_bytes" {
		name = "RSS"
	}
	fmt.Fprintf(w, "  server's part    p50 %s  p90 %s  p99 %s (arrival → events stored and queued to every connection: wolfden_command_seconds)\n",
		fmtMs(rep.ServerLatency.P50), fmtMs(rep.ServerLatency.P90), fmtMs(rep.ServerLatency.P99))
	fmt.Fprintf(w, "  memory           %s %s with everyone connected, %s before: %s per game, %s per connection\n",
		name, fmtBytes(rep.Memory.Connected), fmtBytes(rep.Memory.Baseline), fmtBytes(rep.Memory.PerGame), fmtBytes(rep.Memory.PerConnection))
	fmt.Fprintf(w, "  server RSS       %s before, %s connected, %s peak, %s at the end\n",
		fmtBytes(rep.RSS.Baseline), fmtBytes(rep.RSS.Connected), fmtBytes(rep.RSS.Peak), fmtBytes(rep.RSS.End))
	fmt.Fprintf(w, "  server CPU       %.1fs in the run, %.1fs in the play: %.1f ms per game\n",
		rep.ServerCPU.Run, rep.ServerCPU.Play, 1000*rep.ServerCPU.PerGame)
	fmt.Fprintf(w, "  server commands  ok %d, refused %d, busy %d\n", rep.ServerCommands["ok"], rep.ServerCommands["refused"], rep.ServerCommands["busy"])
	if len(rep.Refused) > 0 {
		codes := make([]string, 0, len(rep.Refused))
		for c := range rep.Refused {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		var parts []string
		for _, c := range codes {
			parts = append(parts, fmt.Sprintf("%s %d", c, rep.Refused[c]))
		}
		fmt.Fprintf(w, "  refused          %s (random clients acting on a state that has moved on)\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "  errors           %d\n", rep.Errors)
	for _, e := range rep.ErrorSamples {
		fmt.Fprintf(w, "    %s\n", e)
	}
}

func fmtMs(ms float64) string {
	if ms < 10 {
		return strconv.FormatFloat(ms, 'f', 2, 64) + "ms"
	}
	return strconv.FormatFloat(ms, 'f', 0, 64) + "ms"
}

func fmtBytes(b float64) string {
	sign := ""
	if b < 0 {
		sign, b = "-", -b
	}
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%s%.2f GiB", sign, b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%s%.1f MiB", sign, b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%s%.1f KiB", sign, b/(1<<10))
	}
	return fmt.Sprintf("%s%.0f B", sign, b)
}
