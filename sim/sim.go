// Package sim is the balance simulator: it plays many games of one or more
// boards with bots and counts who wins, how long games last, how players die,
// who survives and how often each special rule comes into play
// (docs/simulator.md).
//
// The result depends only on the boards, the number of games, the seed and
// the bots, never on the number of workers: game i of board b always has the
// seed GameSeed(seed, b, i), each seat's bot the seed bot.Seed(gameSeed,
// seat), and every figure is a sum of integers over games, merged after the
// workers are done.
package sim

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/rules"
)

// Board is one board to simulate, with what to call it.
type Board struct {
	Name    string // the preset's name, or the board file's name
	Chinese string // the preset's 中文 name, if any
	Source  string // "preset", or the board file's path
	Board   rules.Board
}

// Config says what to simulate.
type Config struct {
	Boards  []Board
	Games   int    // games per board
	Seed    uint64 // the run's seed
	Workers int    // goroutines playing games; 0: one per CPU
	Bots    Levels // the bots' level by camp
	// Progress, if set, is called from the workers as games finish, with the
	// number just finished (in batches). It must be safe for concurrent use.
	Progress func(games int)
}

// Array sizes: the rules package keeps its counts unexported; these bound
// them and init checks that they do.
const (
	maxCamps  = 9  // rules.NoCamp … rules.Newlyweds
	maxRoles  = 64 // rules.NoRole … the last role
	maxCauses = 32 // rules.CauseNone … the last cause
	maxDays   = 64 // longer games are counted as maxDays long
)

// Levels is the bots' level for each camp, indexed by rules.Camp: a seat's
// bot plays at the level of the camp of the card it is dealt.
type Levels [maxCamps]bot.Level

// dealtCamps are the camps a card can belong to when dealt, in the order
// they are named. The lovers' camp is formed in play, never dealt.
var dealtCamps = []rules.Camp{rules.Village, rules.Wolves, rules.PiperCamp, rules.FoxCamp, rules.Newlyweds}

// AllAt is the same level for every camp.
func AllAt(l bot.Level) Levels {
	var ls Levels
	for _, c := range dealtCamps {
		ls[c] = l
	}
	return ls
}

// ParseLevels reads the --bots value: a level for everyone ("smart"), or a
// comma list of camp=level items ("village=smart,wolves=random"), which may
// start with a level for the camps not named ("random,village=smart").
// Camps not named play at smart.
func ParseLevels(s string) (Levels, error) {
	ls := AllAt(bot.Smart)
	if strings.TrimSpace(s) == "" {
		return ls, errors.New(`bots: give a level ("random" or "smart") or camp=level items, e.g. village=smart,wolves=random`)
	}
	var set [maxCamps]bool
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		camp, level, perCamp := strings.Cut(item, "=")
		if !perCamp {
			l, err := parseLevel(item)
			if err != nil {
				return ls, err
			}
			if i > 0 {
				return ls, fmt.Errorf("bots: a level for everyone (%q) may only come first", item)
			}
			ls = AllAt(l)
			continue
		}
		c, err := parseCamp(strings.TrimSpace(camp))
		if err != nil {
			return ls, err
		}
		if set[c] {
			return ls, fmt.Errorf("bots: the camp %s is given twice", c)
		}
		set[c] = true
		l, err := parseLevel(strings.TrimSpace(level))
		if err != nil {
			return ls, err
		}
		ls[c] = l
	}
	return ls, nil
}

func parseLevel(s string) (bot.Level, error) {
	l, err := bot.ParseLevel(s)
	if err != nil {
		return "", fmt.Errorf("bots: unknown level %q (known: random, smart)", s)
	}
	return l, nil
}

func parseCamp(s string) (rules.Camp, error) {
	switch s {
	case "lovers":
		return rules.NoCamp, errors.New("bots: lovers is not a dealt camp: a lover plays at the level of the card he was dealt (camps: village, wolves, piper, fox, newlyweds)")
	case "wolf", "werewolves":
		return rules.NoCamp, fmt.Errorf("bots: unknown camp %q (did you mean wolves?)", s)
	}
	c, err := rules.ParseCamp(s)
	if err != nil || !slices.Contains(dealtCamps, c) {
		return rules.NoCamp, fmt.Errorf("bots: unknown camp %q (camps: village, wolves, piper, fox, newlyweds)", s)
	}
	return c, nil
}

// For is the level of the bot of a seat dealt card r: its camp's.
func (ls Levels) For(r rules.Role) bot.Level { return ls[r.Camp()] }

// String is the levels as --bots takes them: one level when every camp has
// it, else camp=level items.
func (ls Levels) String() string {
	if ls == AllAt(ls[rules.Village]) {
		return string(ls[rules.Village])
	}
	parts := make([]string, len(dealtCamps))
	for i, c := range dealtCamps {
		parts[i] = c.String() + "=" + string(ls[c])
	}
	return strings.Join(parts, ",")
}

func (ls Levels) valid() error {
	for _, c := range dealtCamps {
		if _, err := bot.ParseLevel(string(ls[c])); err != nil {
			return fmt.Errorf("sim: the %s camp's bots have no valid level (%q)", c, ls[c])
		}
	}
	return nil
}

// GameSeed is the seed of game i of board b in a run seeded with seed: a mix
// of the three, so that games and boards draw unrelated deals.
func GameSeed(seed uint64, board, game int) uint64 {
	return mix(mix(seed^mix(uint64(board)+0x632BE59BD9B4E019)) + uint64(game))
}

// mix is splitmix64's finaliser.
func mix(z uint64) uint64 {
	z += 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// chunk is how many game indices a worker takes from the shared counter at once.
const chunk = 32

// Run plays cfg.Games games of each board and returns what was counted. It
// stops early, with the context's error, when ctx is cancelled, and with an
// error naming the board, the game and its seed when a bot sends a command
// the rules refuse.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if len(cfg.Boards) == 0 {
		return nil, errors.New("sim: no board to simulate")
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("sim: the number of games must be 1 or more, not %d", cfg.Games)
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("sim: the number of workers must be 1 or more, not %d", cfg.Workers)
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if err := cfg.Bots.valid(); err != nil {
		return nil, err
	}
	for _, b := range cfg.Boards {
		if err := b.Board.Validate(); err != nil {
			return nil, fmt.Errorf("sim: board %s: %w", b.Name, err)
		}
	}
	total := int64(len(cfg.Boards)) * int64(cfg.Games)
	workers := int(min(int64(cfg.Workers), (total+chunk-1)/chunk))

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	tallies := make([][]tally, workers)
	var wg sync.WaitGroup
	for w := range workers {
		tallies[w] = make([]tally, len(cfg.Boards))
		wg.Go(func() {
			p := newPlayer(&cfg, tallies[w])
			for ctx.Err() == nil {
				from := next.Add(chunk) - chunk
				if from >= total {
					return
				}
				to := min(from+chunk, total)
				for k := from; k < to; k++ {
					b, i := int(k/int64(cfg.Games)), int(k%int64(cfg.Games))
					if err := p.play(b, i); err != nil {
						cancel(err)
						return
					}
				}
				if cfg.Progress != nil {
					cfg.Progress(int(to - from))
				}
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	sums := make([]tally, len(cfg.Boards))
	for _, ts := range tallies {
		for b := range ts {
			sums[b].merge(&ts[b])
		}
	}
	return newResult(&cfg, sums), nil
}

// player is one worker's game, table and bots, reused from game to game:
// in the steady state a game allocates nothing.
type player struct {
	cfg     *Config
	game    rules.Game
	table   bot.Table
	bots    []bot.Bot
	tallies []tally
}

func newPlayer(cfg *Config, tallies []tally) *player {
	return &player{cfg: cfg, bots: make([]bot.Bot, 0, rules.MaxSeats), tallies: tallies}
}

func (p *player) play(b, i int) (err error) {
	board := &p.cfg.Boards[b]
	seed := GameSeed(p.cfg.Seed, b, i)
	// A bot or rule that panics fails the run with the game to replay, not
	// the whole program without it.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("sim: board %s, game %d (seed %d): panic: %v", board.Name, i, seed, r)
		}
	}()
	g := &p.game
	if err := g.Reset(board.Board, seed, nil); err != nil {
		return fmt.Errorf("sim: board %s, game %d (seed %d): %w", board.Name, i, seed, err)
	}
	n := g.Players()
	p.bots = p.bots[:n]
	for s := rules.Seat(1); int(s) <= n; s++ {
		bt, err := p.table.Bot(p.cfg.Bots.For(g.Role(s)), s, n, bot.Seed(seed, s))
		if err != nil {
			return err
		}
		p.bots[s-1] = bt
	}
	// bot.Play stops a game that passes bot.MaxCommands (a bot or a rule
	// going round in circles) with an error naming it.
	if _, err := p.table.Play(g, p.bots); err != nil {
		return fmt.Errorf("sim: board %s, game %d (seed %d): %w", board.Name, i, seed, err)
	}
	p.tallies[b].add(g)
	return nil
}

// A rule is a special rule whose use the simulator counts: the games in
// which at least one event matching it happened.
type rule struct {
	id, label string
	kind      rules.EventKind
	match     func(e *rules.Event) bool // nil: every event of the kind
}

// specialRules is the list counted, in the order shown. Append only below a
// maximum of 64 (a game's fired rules are a bit set).
var specialRules = []rule{
	{"sheriff_elected", "a sheriff was elected (警长)", rules.EvSheriff, func(e *rules.Event) bool { return e.Seat != rules.NoSeat }},
	{"sheriff_lost", "the badge was lost (警徽流失)", rules.EvSheriff, func(e *rules.Event) bool { return e.Seat == rules.NoSeat }},
	{"badge_passed", "a dying sheriff passed the badge", rules.EvBadge, func(e *rules.Event) bool { return e.Target != rules.NoSeat }},
	{"badge_torn", "a dying sheriff tore the badge (撕警徽)", rules.EvBadge, func(e *rules.Event) bool { return e.Target == rules.NoSeat }},
	{"empty_attack", "the wolves attacked nobody (空刀)", rules.EvAttack, func(e *rules.Event) bool { return e.Target == rules.NoSeat }},
	{"guard", "the guard protected someone", rules.EvProtect, func(e *rules.Event) bool { return e.Target != rules.NoSeat }},
	{"heal", "the witch healed (救人)", rules.EvHeal, nil},
	{"poison", "the witch poisoned (毒人)", rules.EvPoison, nil},
	{"shoot", "a hunter or wolf king shot (开枪)", rules.EvShoot, nil},
	{"explode", "a wolf self-exploded (自爆)", rules.EvExplode, nil},
	{"explode_take", "the white wolf king took a player with him", rules.EvExplode, func(e *rules.Event) bool { return e.Target != rules.NoSeat }},
	{"idiot_revealed", "the idiot was exiled and revealed (白痴翻牌)", rules.EvReveal, func(e *rules.Event) bool { return e.Role == rules.Idiot && e.Value == 1 }},
	{"pk_exile", "a player was exiled by a PK vote", rules.EvVoteResult, func(e *rules.Event) bool {
		return rules.Step(e.Value) == rules.StepPKVote && e.Target != rules.NoSeat
	}},
	{"no_exile", "a day vote exiled nobody", rules.EvExile, func(e *rules.Event) bool { return e.Seat == rules.NoSeat }},
	{"red_card", "the moderator's red card (红牌)", rules.EvRedCard, nil},
	{"thief_swap", "the thief took a card", rules.EvSwap, nil},
	{"lovers", "cupid made lovers", rules.EvLovers, nil},
	{"black_lovers", "the lovers formed their own camp (黑情侣)", rules.EvBlackLovers, nil},
	{"kill_power", "the black lovers took the night kill", rules.EvKillPower, func(e *rules.Event) bool { return e.Role != rules.GhostBride }},
	{"elder_life", "the elder survived an attack (lost a life)", rules.EvElderLife, nil},
	{"powers_lost", "the village killed the elder: powers lost", rules.EvPowersLost, nil},
	{"scapegoat_voters", "the scapegoat named the voters", rules.EvVoters, nil},
	{"enchant", "the piper charmed players", rules.EvEnchant, nil},
	{"event_card", "an event card was drawn", rules.EvEventCard, nil},
	{"ally", "the wolves gained an ally", rules.EvAlly, nil},
	{"camp_lost", "a camp lost early (优先判负)", rules.EvCampLost, nil},
	{"wed_kill", "the newlyweds took the night kill (鬼魂新娘)", rules.EvKillPower, func(e *rules.Event) bool { return e.Role == rules.GhostBride }},
}

// rulesByKind lists, for each event kind, the special rules it may fire.
var rulesByKind [256][]uint8

func init() {
	if len(specialRules) > 64 {
		panic("sim: more than 64 special rules")
	}
	for i, r := range specialRules {
		rulesByKind[r.kind] = append(rulesByKind[r.kind], uint8(i))
	}
	if len(rules.Roles())+1 > maxRoles || rules.NumCamps > maxCamps || numCauses() > maxCauses {
		panic("sim: the rules package outgrew the simulator's tables")
	}
}

// numCauses counts the causes of death the rules package names.
func numCauses() int {
	n := 0
	for n < 256 && !strings.HasPrefix(rules.Cause(n).String(), "cause(") {
		n++
	}
	return n
}

// tally is what is counted over games: integer sums only, so that merging
// the workers' tallies in any order gives the same figures.
type tally struct {
	games   int64
	wins    [maxCamps]int64
	length  [maxDays + 1]int64 // games by length in days
	days    int64              // sum of the lengths
	deaths  [maxCauses]int64
	players [maxRoles]int64 // players holding each card at the end
	alive   [maxRoles]int64 // … alive at the end
	fired   [64]int64       // games in which each special rule fired
}

// add counts a finished game. It walks the log once and allocates nothing.
func (t *tally) add(g *rules.Game) {
	_, winner := g.Over()
	t.games++
	t.wins[winner]++
	var dead uint32
	var fired uint64
	days, nights := 0, 0
	ev := g.Events()
	for i := range ev {
		e := &ev[i]
		switch e.Kind {
		case rules.EvDay:
			days = int(e.Value)
		case rules.EvNight:
			nights = int(e.Value)
		case rules.EvDeath:
			// A night's dead may die again in public (a poisoned wolf's
			// explosion): the first death is the one counted.
			if bit := uint32(1) << uint(e.Seat); dead&bit == 0 {
				dead |= bit
				t.deaths[e.Value]++
			}
		}
		for _, r := range rulesByKind[e.Kind] {
			if m := specialRules[r].match; m == nil || m(e) {
				fired |= 1 << r
			}
		}
	}
	length := min(max(days, nights), maxDays)
	t.length[length]++
	t.days += int64(length)
	for ; fired != 0; fired &= fired - 1 {
		t.fired[bits.TrailingZeros64(fired)]++
	}
	for s := rules.Seat(1); int(s) <= g.Players(); s++ {
		r := g.Role(s)
		t.players[r]++
		if g.Alive(s) {
			t.alive[r]++
		}
	}
}

func (t *tally) merge(o *tally) {
	t.games += o.games
	t.days += o.days
	sum(t.wins[:], o.wins[:])
	sum(t.length[:], o.length[:])
	sum(t.deaths[:], o.deaths[:])
	sum(t.players[:], o.players[:])
	sum(t.alive[:], o.alive[:])
	sum(t.fired[:], o.fired[:])
}

func sum(dst, src []int64) {
	for i := range dst {
		dst[i] += src[i]
	}
}
