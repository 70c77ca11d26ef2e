// Package arena plays a tournament between programs (bot levels) on one
// board and rates each program on each side with the team rating system
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
// The result depends only on the configuration and the seed, never on the
// number of workers: game i has the seed GameSeed(seed, i), its seats'
// programs and bots are drawn from that, and the ratings are updated
// game after game in order once every game has been played.
package arena

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/rating"
	"github.com/wolfden/wolfden/rules"
	"github.com/wolfden/wolfden/sim"
)

// Sides a program is rated on.
const (
	Village = "village"
	Wolf    = "wolf"
	Third   = "third" // a third party: the lovers' camp, the piper
)

var sides = []string{Village, Wolf, Third}

// sideOf is the side a camp's players are rated on.
func sideOf(c rules.Camp) string {
	switch c {
	case rules.Village:
		return Village
	case rules.Wolves:
		return Wolf
	}
	return Third
}

// camps are the camps that may hold seats at the end, in a fixed order.
var camps = []rules.Camp{rules.Village, rules.Wolves, rules.Lovers, rules.PiperCamp}

// ParsePrograms reads --players: a comma list of at least two different
// programs, each a bot level (random, smart).
func ParsePrograms(s string) ([]bot.Level, error) {
	var out []bot.Level
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if strings.HasPrefix(item, "llm:") {
			return nil, fmt.Errorf("arena: --players %q: seats played by a language model are not in the arena yet (docs/arena.md); give bot levels: random, smart", item)
		}
		l, err := bot.ParseLevel(item)
		if err != nil {
			return nil, fmt.Errorf("arena: --players: unknown program %q (known: random, smart)", item)
		}
		if slices.Contains(out, l) {
			return nil, fmt.Errorf("arena: --players: %q is given twice", item)
		}
		out = append(out, l)
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("arena: --players %q: give two programs or more, e.g. smart,random", s)
	}
	return out, nil
}

// Config says what to play.
type Config struct {
	Board    sim.Board
	Programs []bot.Level
	Games    int
	Seed     uint64
	Workers  int // goroutines playing games; 0: one per CPU
	// Keep, if set, is given every finished game, from the workers (it
	// must be safe for concurrent use), to store it; an error stops the
	// run.
	Keep func(ctx context.Context, g *Game) error
}

// Game is one finished game of the tournament.
type Game struct {
	Index   int
	Seed    uint64
	Board   rules.Board
	Seats   []bot.Level // seat i+1's program
	Events  []rules.Event
	Winner  rules.Camp
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
func Seats(programs []bot.Level, players int, gameSeed uint64) []bot.Level {
	seats := make([]bot.Level, players)
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
	seats := make([][]bot.Level, cfg.Games)
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
				g, err := p.play(&cfg, i)
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

func (p *player) play(cfg *Config, i int) (_ *Game, err error) {
	seed := GameSeed(cfg.Seed, i)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arena: game %d (seed %d): panic: %v", i, seed, r)
		}
	}()
	g := &p.game
	if err := g.Reset(cfg.Board.Board, seed, nil); err != nil {
		return nil, fmt.Errorf("arena: game %d (seed %d): %w", i, seed, err)
	}
	n := g.Players()
	levels := Seats(cfg.Programs, n, seed)
	p.bots = p.bots[:0]
	for s := rules.Seat(1); int(s) <= n; s++ {
		b, err := p.table.Bot(levels[s-1], s, n, bot.Seed(seed, s))
		if err != nil {
			return nil, err
		}
		p.bots = append(p.bots, b)
	}
	if _, err := p.table.Play(g, p.bots); err != nil {
		return nil, fmt.Errorf("arena: game %d (seed %d): %w", i, seed, err)
	}
	_, winner := g.Over()
	out := &Game{Index: i, Seed: seed, Board: cfg.Board.Board, Seats: levels, Winner: winner}
	if cfg.Keep != nil {
		out.Events = slices.Clone(g.Events())
	}
	out.outcome.winner = winner
	for _, c := range camps {
		m := g.CampMembers(c)
		if m == 0 {
			continue
		}
		var team []rules.Seat
		for s := rules.Seat(1); int(s) <= n; s++ {
			if m&(1<<uint(s)) != 0 {
				team = append(team, s)
			}
		}
		out.outcome.teams = append(out.outcome.teams, team)
		out.outcome.roles = append(out.outcome.roles, c)
	}
	return out, nil
}

// key names one rating: a program on a side.
type key struct {
	program bot.Level
	side    string
}

// step is one program's change on one side in one game.
type step struct {
	from  rating.Rating
	mu    float64 // the sum of its seats' changes of mean
	sigma float64 // its new sigma
}

// rate runs the rating updates in game order.
func rate(cfg *Config, seats [][]bot.Level, outcomes []outcome) *Result {
	ratings := map[key]rating.Rating{}
	games := map[key]int{}
	wins := map[key]int{}
	for i, o := range outcomes {
		teams := make([][]rating.Rating, len(o.teams))
		ranks := make([]int, len(o.teams))
		for t, team := range o.teams {
			side := sideOf(o.roles[t])
			won := o.winner == o.roles[t]
			if !won && o.winner != rules.Draw {
				ranks[t] = 1
			}
			seen := map[bot.Level]bool{}
			for _, s := range team {
				k := key{seats[i][s-1], side}
				r, ok := ratings[k]
				if !ok {
					r = rating.New()
				}
				teams[t] = append(teams[t], r)
				if !seen[k.program] {
					seen[k.program] = true
					games[k]++
					if won {
						wins[k]++
					}
				}
			}
		}
		updated := rating.Rate(teams, ranks)
		// A program's change is the sum of its seats' changes in mean, and
		// the product of their factors in sigma (after Rate's drift), as if
		// each seat's result were told to it in turn.
		change := map[key]*step{}
		for t, team := range o.teams {
			side := sideOf(o.roles[t])
			for j, s := range team {
				k := key{seats[i][s-1], side}
				c := change[k]
				if c == nil {
					c = &step{from: teams[t][j], sigma: math.Hypot(teams[t][j].Sigma, rating.Tau)}
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
	res := &Result{Board: cfg.Board.Name, Games: len(outcomes), Seed: cfg.Seed}
	for _, side := range sides {
		var rows []Standing
		for _, p := range cfg.Programs {
			k := key{p, side}
			if games[k] == 0 {
				continue
			}
			r := ratings[k]
			lo, hi := r.Interval()
			rows = append(rows, Standing{Program: string(p), Side: side, Ordinal: r.Ordinal(), Mu: r.Mu, Sigma: r.Sigma,
				Low: lo, High: hi, Games: games[k], Wins: wins[k]})
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
