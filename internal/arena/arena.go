// Package arena plays a tournament between programs (bot levels, and
// models through an OpenAI-compatible endpoint) on one board and rates each program on each side with the team rating system
// of package rating (docs/arena.md).
//
// Each game's seats are shared out among the programs, drawn from the
// game's seed, so that every program plays on both sides. After a game
// each camp at the table is one team, its seats its members, each seat
// holding its program's rating for its side (village, wolf, and lovers
// or piper for a third party); the winning camp is placed first,
// every other camp second (a draw: all tied), and rating.Rate updates
// them. A program holding several seats of one team gets the sum of their
// changes of mean, and the product of their factors of sigma: it is
// credited with each seat it played, as if the seats' results were told
// to it one after another. (Were it given one seat's change only, two
// programs sharing a side in every game would get the same change in
// every game and never part.)
//
// With bots alone the result depends only on the configuration and the
// seed, never on the number of workers: game i has the seed
// GameSeed(seed, i), its seats' programs and bots are drawn from that, and
// the ratings are updated game after game in order once every game has
// been played. A game with a model is played live (playLive) and depends
// on the model's answers and their timing.
package arena

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/llm"
	"github.com/wolfden/wolfden/internal/rating"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
	"github.com/wolfden/wolfden/sim"
)

// Sides a program is rated on: the village, the wolves, and a third
// party's camp by its name (lovers, piper), each its own.
const (
	Village = "village"
	Wolf    = "wolf"
)

var sides = []string{Village, Wolf, rules.Lovers.String(), rules.PiperCamp.String()}

// sideOf is the side a camp's players are rated on.
func sideOf(c rules.Camp) string {
	switch c {
	case rules.Village:
		return Village
	case rules.Wolves:
		return Wolf
	}
	return c.String()
}

// camps are the camps that may hold seats at the end, in a fixed order.
var camps = []rules.Camp{rules.Village, rules.Wolves, rules.Lovers, rules.PiperCamp}

// Program is one player of the tournament: a bot level, or a model
// reached through an OpenAI-compatible endpoint.
type Program struct {
	Name  string      // as --players gives it: "smart", "llm:qwen2.5"
	Level bot.Level   // a bot's level ("" for a model)
	LLM   *llm.Config // a model's endpoint and model; its Usage counts its calls
}

// ParsePrograms reads --players: a comma list of at least two different
// programs, each a bot level (random, smart) or llm:MODEL, a model asked
// through endpoint (--llm-url and its flags; nil when none was given).
func ParsePrograms(s string, endpoint *llm.Config) ([]Program, error) {
	var out []Program
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if slices.ContainsFunc(out, func(p Program) bool { return p.Name == item }) {
			return nil, fmt.Errorf("arena: --players: %q is given twice", item)
		}
		if model, ok := strings.CutPrefix(item, "llm:"); ok {
			if strings.TrimSpace(model) == "" {
				return nil, fmt.Errorf("arena: --players: %q names no model (llm:MODEL)", item)
			}
			if endpoint == nil {
				return nil, fmt.Errorf("arena: --players: %q needs an endpoint: --llm-url URL (key in %s)", item, llm.KeyEnv)
			}
			c := *endpoint
			c.Model, c.Usage = model, &llm.Usage{}
			out = append(out, Program{Name: item, LLM: &c})
			continue
		}
		l, err := bot.ParseLevel(item)
		if err != nil {
			return nil, fmt.Errorf("arena: --players: unknown program %q (known: random, smart, llm:MODEL)", item)
		}
		out = append(out, Program{Name: item, Level: l})
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("arena: --players %q: give two programs or more, e.g. smart,random", s)
	}
	return out, nil
}

// Bots is the programs of the given bot levels.
func Bots(levels ...bot.Level) []Program {
	out := make([]Program, len(levels))
	for i, l := range levels {
		out[i] = Program{Name: string(l), Level: l}
	}
	return out
}

// Config says what to play.
type Config struct {
	Board    sim.Board
	Programs []Program
	Games    int
	Seed     uint64
	Workers  int // goroutines playing games; 0: one per CPU
	// Timers are a game's timers when a model holds a seat (the table is
	// then a live game, internal/game); zero: the quick pace, bots acting
	// at once.
	Timers game.Timers
	// Keep, if set, is given every finished game, from the workers (it
	// must be safe for concurrent use), to store it; an error stops the
	// run.
	Keep func(ctx context.Context, g *Game) error
}

// Game is one finished game of the tournament.
type Game struct {
	Index  int
	Seed   uint64
	Board  rules.Board
	Seats  []string // seat i+1's program
	Winner rules.Camp
	// Log is the game as stored (set when Keep is): a live game's records,
	// messages included; a bots' game's events in one record.
	Log     []store.Record
	outcome outcome
}

// outcome is what the ratings need of a game: each camp's seats.
type outcome struct {
	winner rules.Camp
	teams  [][]rules.Seat // by camps' order; empty for a camp not at the table
	roles  []rules.Camp   // the camp of each team (same order as teams)
}

// teamOf is camp c's seats (none if it was not at the table).
func (o *outcome) teamOf(c rules.Camp) []rules.Seat {
	if i := slices.Index(o.roles, c); i >= 0 {
		return o.teams[i]
	}
	return nil
}

// GameSeed is the seed of game i of a run seeded with seed.
func GameSeed(seed uint64, i int) uint64 { return sim.GameSeed(seed, 0, i) }

// Seats shares a game's seats among the programs: as evenly as they go
// (a program has n/k seats or one more), in an order drawn from the game's
// seed, which the deal does not use.
func Seats(programs []Program, players int, gameSeed uint64) []Program {
	seats := make([]Program, players)
	for i := range seats {
		seats[i] = programs[i%len(programs)]
	}
	r := rand.New(rand.NewPCG(gameSeed, 0xA7E4A5EA7))
	r.Shuffle(len(seats), func(i, j int) { seats[i], seats[j] = seats[j], seats[i] })
	return seats
}

// Run plays cfg.Games games and rates the programs.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Games < 1 {
		return nil, fmt.Errorf("arena: the number of games must be 1 or more, not %d", cfg.Games)
	}
	if len(cfg.Programs) < 2 {
		return nil, errors.New("arena: give two programs or more")
	}
	if cfg.Timers == (game.Timers{}) {
		cfg.Timers, _ = game.Pace("quick")
		cfg.Timers.Bot = 0
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("arena: the number of workers must be 1 or more, not %d", cfg.Workers)
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if err := cfg.Board.Board.Validate(); err != nil {
		return nil, fmt.Errorf("arena: board %s: %w", cfg.Board.Name, err)
	}
	outcomes := make([]outcome, cfg.Games)
	seats := make([][]string, cfg.Games)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(cfg.Workers, cfg.Games) {
		wg.Go(func() {
			var p player
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= cfg.Games {
					return
				}
				g, err := p.play(ctx, &cfg, i)
				if err == nil && cfg.Keep != nil {
					err = cfg.Keep(ctx, g)
				}
				if err != nil {
					cancel(err)
					return
				}
				outcomes[i], seats[i] = g.outcome, g.Seats
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	return rate(&cfg, seats, outcomes), nil
}

// player is one worker's game and table, reused from game to game.
type player struct {
	game  rules.Game
	table bot.Table
	bots  []bot.Bot
}

func (p *player) play(ctx context.Context, cfg *Config, i int) (_ *Game, err error) {
	seed := GameSeed(cfg.Seed, i)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arena: game %d (seed %d): panic: %v", i, seed, r)
		}
	}()
	seats := Seats(cfg.Programs, cfg.Board.Board.Players(), seed)
	out := &Game{Index: i, Seed: seed, Board: cfg.Board.Board}
	for _, s := range seats {
		out.Seats = append(out.Seats, s.Name)
	}
	var g *rules.Game
	if slices.ContainsFunc(seats, func(p Program) bool { return p.LLM != nil }) {
		g, out.Log, err = playLive(ctx, cfg, i, seed, seats)
	} else {
		g, err = p.playBots(cfg, seed, seats)
		if err == nil && cfg.Keep != nil {
			out.Log = []store.Record{{N: 1, At: time.Now(), Kind: "start", Events: slices.Clone(g.Events())}}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("arena: game %d (seed %d): %w", i, seed, err)
	}
	out.outcome = outcomeOf(g)
	out.Winner = out.outcome.winner
	return out, nil
}

// outcomeOf is a finished game's outcome.
func outcomeOf(g *rules.Game) outcome {
	var o outcome
	_, o.winner = g.Over()
	for _, c := range camps {
		m := g.CampMembers(c)
		if m == 0 {
			continue
		}
		var team []rules.Seat
		for s := rules.Seat(1); int(s) <= g.Players(); s++ {
			if m&(1<<uint(s)) != 0 {
				team = append(team, s)
			}
		}
		o.teams = append(o.teams, team)
		o.roles = append(o.roles, c)
	}
	return o
}

// keyed is the outcome's teams as rated, seat i+1 played by seats[i]:
// each seat's key, each team's rank (rating.Rate's) and whether it won.
func (o *outcome) keyed(seats []string) (teams [][]Key, rank []int, won []bool) {
	teams, rank, won = make([][]Key, len(o.teams)), make([]int, len(o.teams)), make([]bool, len(o.teams))
	for t, team := range o.teams {
		side := sideOf(o.roles[t])
		won[t] = o.winner == o.roles[t]
		if !won[t] && o.winner != rules.Draw {
			rank[t] = 1
		}
		for _, s := range team {
			teams[t] = append(teams[t], Key{seats[s-1], side})
		}
	}
	return teams, rank, won
}

// Teams is a finished game's teams as rated (Credit's teams and rank),
// seat i+1 played by programs[i], and whether each won.
func Teams(g *rules.Game, programs []string) (teams [][]Key, rank []int, won []bool) {
	o := outcomeOf(g)
	return o.keyed(programs)
}

// playBots plays a game of bots alone, in the rules engine, as the
// simulator does: no clock, no server, the same game for the same seed.
func (p *player) playBots(cfg *Config, seed uint64, seats []Program) (*rules.Game, error) {
	g := &p.game
	if err := g.Reset(cfg.Board.Board, seed, nil); err != nil {
		return nil, err
	}
	n := g.Players()
	p.bots = p.bots[:0]
	for s := rules.Seat(1); int(s) <= n; s++ {
		b, err := p.table.Bot(seats[s-1].Level, s, n, bot.Seed(seed, s))
		if err != nil {
			return nil, err
		}
		p.bots = append(p.bots, b)
	}
	if _, err := p.table.Play(g, p.bots); err != nil {
		return nil, err
	}
	return g, nil
}

// playLive plays a game with a model at the table as the server plays a
// room's: an actor (internal/game) with the bots' seats its own and each
// model's seat a connection reading only that seat's frames (internal/llm).
// It is unpaced: nobody at the table reads a phone's timing.
func playLive(ctx context.Context, cfg *Config, i int, seed uint64, seats []Program) (*rules.Game, []store.Record, error) {
	n := len(seats)
	levels := make([]bot.Level, n)
	var bots uint32
	for s, p := range seats {
		if p.LLM == nil {
			levels[s], bots = p.Level, bots|1<<uint(s+1)
		}
	}
	st := memory.New()
	id := fmt.Sprintf("arena-%d", i)
	over := make(chan struct{})
	gc := game.Config{Board: cfg.Board.Board, Seed: seed, Timers: cfg.Timers, Bots: bots, SeatLevels: levels, Unpaced: true}
	a, err := game.Start(ctx, id, gc, st, game.Hooks{Over: func(rules.Camp) { close(over) }}, nil)
	if err != nil {
		return nil, nil, err
	}
	defer a.Stop()
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var notes []game.Note
	for s, p := range seats {
		if p.LLM == nil {
			continue
		}
		seat := rules.Seat(s + 1)
		frames, table, leave, err := llm.Attach(a, seat, cancel)
		if err != nil {
			return nil, nil, err
		}
		pl := llm.NewPlayer(p.LLM, seat, n, llm.SeatSeed(seed, seat), frames, table, nil)
		pl.OnReply = func(content string) {
			mu.Lock()
			defer mu.Unlock()
			notes = append(notes, game.Note{Seat: seat, Text: content, At: time.Now().UnixMilli()})
		}
		wg.Go(func() {
			defer leave()
			_ = pl.Run(pctx) // a player that stops leaves its seat to the timer's default
		})
	}
	select {
	case <-over:
	case <-a.Done():
		return nil, nil, errors.New("the game stopped before its end")
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	cancel()
	wg.Wait()
	recs, err := st.Records(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	var events []rules.Event
	for _, r := range recs {
		events = append(events, r.Events...)
	}
	g, err := rules.Replay(cfg.Board.Board, seed, events)
	if err != nil {
		return nil, nil, err
	}
	if over, _ := g.Over(); !over {
		return nil, nil, errors.New("the stored game has no end")
	}
	// The models' replies, their reasoning in them, follow the game's end
	// in its log: no frame of the game ever held them, and the replay,
	// given only once the game is over, shows them.
	for _, note := range notes {
		body, err := json.Marshal(note)
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, store.Record{N: int64(len(recs) + 1), At: time.UnixMilli(note.At), Kind: game.NoteKind, Body: body})
	}
	return g, recs, nil
}

// Key names one rating: a program (a bot level, a model, an AIWolf agent
// team) on a side.
type Key struct {
	Program string
	Side    string
}

// step is one program's change on one side in one game.
type step struct {
	from  rating.Rating
	mu    float64 // the sum of its seats' changes of mean
	sigma float64 // its new sigma
}

// Credit updates ratings after one game: teams[t] are team t's seats,
// each by the key it is rated under, rank as rating.Rate's. A key not in
// ratings starts at rating.New(). A program holding several seats of a
// team gets the sum of its seats' changes in mean and the product of
// their factors in sigma (after Rate's drift), as if each seat's result
// were told to it in turn.
func Credit(ratings map[Key]rating.Rating, teams [][]Key, rank []int) {
	before := make([][]rating.Rating, len(teams))
	for t, team := range teams {
		for _, k := range team {
			r, ok := ratings[k]
			if !ok {
				r = rating.New()
			}
			before[t] = append(before[t], r)
		}
	}
	updated := rating.Rate(before, rank)
	change := map[Key]*step{}
	for t, team := range teams {
		for j, k := range team {
			c := change[k]
			if c == nil {
				c = &step{from: before[t][j], sigma: math.Hypot(before[t][j].Sigma, rating.Tau)}
				change[k] = c
			}
			c.mu += updated[t][j].Mu - c.from.Mu
			c.sigma *= updated[t][j].Sigma / math.Hypot(c.from.Sigma, rating.Tau)
		}
	}
	for k, c := range change {
		ratings[k] = rating.Rating{Mu: c.from.Mu + c.mu, Sigma: c.sigma}
	}
}

// rate runs the rating updates in game order.
func rate(cfg *Config, seats [][]string, outcomes []outcome) *Result {
	ratings := map[Key]rating.Rating{}
	games := map[Key]int{}
	wins := map[Key]int{}
	for i, o := range outcomes {
		teams, ranks, won := o.keyed(seats[i])
		for t, team := range teams {
			seen := map[string]bool{}
			for _, k := range team {
				if !seen[k.Program] {
					seen[k.Program] = true
					games[k]++
					if won[t] {
						wins[k]++
					}
				}
			}
		}
		Credit(ratings, teams, ranks)
	}
	// A model's cost per game: its calls over the games it had a seat in.
	played := map[string]int{}
	for _, ss := range seats {
		for _, name := range slices.Compact(slices.Sorted(slices.Values(ss))) {
			played[name]++
		}
	}
	res := &Result{Board: cfg.Board.Name, Games: len(outcomes), Seed: cfg.Seed}
	for _, side := range sides {
		var rows []Standing
		for _, p := range cfg.Programs {
			k := Key{p.Name, side}
			if games[k] == 0 {
				continue
			}
			r := ratings[k]
			lo, hi := r.Interval()
			row := Standing{Program: p.Name, Side: side, Ordinal: r.Ordinal(), Mu: r.Mu, Sigma: r.Sigma,
				Low: lo, High: hi, Games: games[k], Wins: wins[k]}
			if u := p.LLM; u != nil && played[p.Name] > 0 {
				g := float64(played[p.Name])
				row.Model = &Cost{Calls: float64(u.Usage.Calls.Load()) / g,
					Tokens:  float64(u.Usage.PromptTokens.Load()+u.Usage.CompletionTokens.Load()) / g,
					Seconds: float64(u.Usage.Nanos.Load()) / 1e9 / g}
			}
			rows = append(rows, row)
		}
		slices.SortStableFunc(rows, func(a, b Standing) int {
			switch {
			case a.Ordinal > b.Ordinal:
				return -1
			case a.Ordinal < b.Ordinal:
				return 1
			}
			return strings.Compare(a.Program, b.Program)
		})
		res.Standings = append(res.Standings, rows...)
	}
	return res
}
