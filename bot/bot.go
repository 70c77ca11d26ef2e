// Package bot holds the players the system seats in empty chairs and in the
// simulator. A bot sees only what its seat is told — the events of its own
// stream and its View — so it cannot cheat: it is never handed the game.
package bot

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/wolfden/wolfden/rules"
)

// Bot plays one seat.
type Bot interface {
	// Observe receives, in order, every event the seat is told.
	Observe(e rules.Event)
	// Act picks what to do now among the seat's choices (never empty).
	Act(v *rules.View, choices []rules.Choice) rules.Command
}

// TeamPlayer is a bot that can play in a team with people: the server
// tells it, before each question, which seats are played by people now, and
// a smart wolf then follows the people's picks at night (docs/bots.md). A
// bot never told plays as if every seat were a bot.
type TeamPlayer interface {
	People(seats uint32)
}

// Level names how a bot plays.
type Level string

// The levels.
const (
	Random Level = "random" // any legal choice
	Smart  Level = "smart"  // plays its role the way a decent human does
)

// ParseLevel reads a level name.
func ParseLevel(s string) (Level, error) {
	switch Level(s) {
	case Random, Smart:
		return Level(s), nil
	}
	return "", fmt.Errorf("bot: unknown level %q (random, smart)", s)
}

// New makes a bot for a seat. seed makes its choices reproducible: the
// table derives it from the game's seed and the seat.
func New(level Level, seat rules.Seat, players int, seed uint64) (Bot, error) {
	switch level {
	case Random:
		b := &randomBot{}
		b.Reset(seat, players, seed)
		return b, nil
	case Smart:
		b := &smartBot{}
		b.Reset(seat, players, seed)
		return b, nil
	}
	return nil, fmt.Errorf("bot: unknown level %q (random, smart)", level)
}

// Resetter is a bot that can be dealt into a new game: after Reset it is
// the bot New would make with the same arguments, without the allocations.
type Resetter interface {
	Reset(seat rules.Seat, players int, seed uint64)
}

// source is a bot's random source, seeded from the bot's seed and its seat;
// reseeding it starts the same stream again (a rand.Rand holds no state of
// its own).
type source struct {
	pcg rand.PCG
	r   *rand.Rand
}

func (s *source) reset(seat rules.Seat, seed uint64) {
	s.pcg.Seed(seed, uint64(seat))
	if s.r == nil {
		s.r = rand.New(&s.pcg)
	}
}

// Seed is the seed of seat's bot in a game: distinct per seat, fixed by the
// game's seed.
func Seed(gameSeed uint64, seat rules.Seat) uint64 {
	z := gameSeed ^ (uint64(seat)+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// ErrIllegal is returned by Play when a bot sends a command the rules refuse.
var ErrIllegal = errors.New("bot: illegal command")

// MaxCommands bounds a game played by bots: a table where nobody can win
// (every camp unable to kill or exile the other) would otherwise never end.
var MaxCommands = 20000

// ErrEndless is returned by Play when a game passes MaxCommands.
var ErrEndless = errors.New("bot: the game does not end")

// Table is what Play needs from game to game, kept so that a table that
// plays many games (a simulator's worker) makes nothing afresh for each:
// the seats' views, the choices' buffer and the bots themselves (Bot).
// Its zero value is ready; it is not safe for concurrent use.
type Table struct {
	views  [rules.MaxSeats + 1]rules.View
	buf    []rules.Choice
	random [rules.MaxSeats + 1]*randomBot
	smart  [rules.MaxSeats + 1]*smartBot

	// The game's smart bots share one ledger (the public record), filed
	// once per public event; shared is false once a private event of a
	// ledger kind (which the engine never sends) gave each its own copy.
	led     ledger
	sharing uint32                        // the seats of the bots sharing led
	sharers [rules.MaxSeats + 1]*smartBot // … by seat
}

// Bot is the bot New(level, seat, players, seed) would make, the table's
// own: the one it made for the seat and level in an earlier game, reset. It
// stays valid until the next call for the same seat and level.
func (t *Table) Bot(level Level, seat rules.Seat, players int, seed uint64) (Bot, error) {
	if seat < 1 || seat > rules.MaxSeats {
		return nil, fmt.Errorf("bot: no seat %d", seat)
	}
	switch level {
	case Random:
		b := t.random[seat]
		if b == nil {
			b = &randomBot{}
			t.random[seat] = b
		}
		b.Reset(seat, players, seed)
		return b, nil
	case Smart:
		b := t.smart[seat]
		if b == nil {
			b = &smartBot{}
			t.smart[seat] = b
		}
		b.Reset(seat, players, seed)
		return b, nil
	}
	return nil, fmt.Errorf("bot: unknown level %q (random, smart)", level)
}

// Play runs g to its end, asking the bot of each awaited seat in turn (the
// lowest seat first) and feeding every bot the events its seat is told. It
// returns the number of commands sent.
func Play(g *rules.Game, bots []Bot) (int, error) {
	return new(Table).Play(g, bots)
}

// Play is the package's Play with the table's views and buffer.
//
// A bot that reads neither its events nor its view (a random bot) is
// handed neither: its view is not brought up to date before it acts.
func (t *Table) Play(g *rules.Game, bots []Bot) (int, error) {
	n := g.Players()
	if len(bots) != n {
		return 0, fmt.Errorf("bot: %d bots for %d seats", len(bots), n)
	}
	var observers uint32 // the seats whose bots read events and views
	t.led, t.sharing = ledger{}, 0
	for i, b := range bots {
		s := rules.Seat(i + 1)
		switch b := b.(type) {
		case *randomBot:
			continue
		case *smartBot:
			b.ledger = &t.led
			t.sharing |= 1 << uint(s)
			t.sharers[s] = b
		}
		observers |= 1 << uint(s)
		t.views[s] = rules.View{Seat: s} // kept up to date, read once per event
	}
	seats := uint32(1)<<uint(n+1) - 2 // seats 1…n
	cursor := 0
	cmds := 0
	for {
		if observers != 0 {
			t.feed(g, bots, observers, &cursor)
		}
		if over, _ := g.Over(); over {
			return cmds, nil
		}
		if cmds >= MaxCommands {
			return cmds, fmt.Errorf("%w after %d commands (day %d)", ErrEndless, cmds, g.Day())
		}
		p := g.Pending() & seats
		if p == 0 {
			return cmds, errors.New("bot: the game awaits nobody")
		}
		s := rules.Seat(bits.TrailingZeros32(p)) // the lowest awaited seat
		v := &t.views[s]
		if observers&(1<<uint(s)) != 0 {
			g.UpdateView(v)
		}
		t.buf = g.Choices(s, t.buf[:0])
		c := bots[s-1].Act(v, t.buf)
		c.Seat = s
		if err := g.Do(c); err != nil {
			if observers&(1<<uint(s)) == 0 {
				*v = g.View(s) // for the message
			}
			return cmds, fmt.Errorf("%w: seat %d (%s) sent %v at %s: %v", ErrIllegal, s, v.Role, c, v.Step, err)
		}
		cmds++
	}
}

// feed hands each bot the events of its seat's stream it has not seen yet:
// each new event once, to the seats of its audience; a public event of the
// ledger's once to the shared ledger, and to the smart bots only if they
// file a part of it themselves.
func (t *Table) feed(g *rules.Game, bots []Bot, observers uint32, cursor *int) {
	ev := g.Events()
	for i := *cursor; i < len(ev); i++ {
		e := &ev[i]
		m := e.To & observers
		if e.Public {
			m = observers
		}
		shared := t.sharing
		if shared != 0 {
			switch {
			case e.Public:
				if ledgerKinds[e.Kind] {
					t.led.observe(e)
				}
				if !bySeat[e.Kind] {
					m &^= shared
				}
			case private(e):
				t.unshare()
				shared = 0
			}
		}
		for ; m != 0; m &= m - 1 {
			s := bits.TrailingZeros32(m)
			if shared&(1<<uint(s)) != 0 {
				t.sharers[s].observe(e)
			} else {
				bots[s-1].Observe(*e)
			}
		}
	}
	*cursor = len(ev)
}

// unshare gives each smart bot its own copy of the shared ledger, to go on
// alone (Observe).
func (t *Table) unshare() {
	for m := t.sharing; m != 0; m &= m - 1 {
		b := t.sharers[bits.TrailingZeros32(m)]
		b.own = t.led
		b.ledger = &b.own
	}
	t.sharing = 0
}

// randomBot picks any legal choice, except claims, which it leaves to
// players who mean something by them.
type randomBot struct{ source }

// Reset deals the bot into a new game (Resetter).
func (b *randomBot) Reset(seat rules.Seat, players int, seed uint64) { b.reset(seat, seed) }

func (b *randomBot) Observe(rules.Event) {}

func (b *randomBot) Act(v *rules.View, choices []rules.Choice) rules.Command {
	var pool [24]uint8
	k := 0
	for i := range choices {
		if choices[i].Kind != rules.CmdClaim && k < len(pool) {
			pool[k] = uint8(i)
			k++
		}
	}
	if k == 0 {
		return rules.Command{Kind: rules.CmdSkip}
	}
	return RandomCommand(b.r, choices[pool[b.r.IntN(k)]])
}

// RandomCommand draws one command of a choice: a target, a set of seats or a
// role, at random.
func RandomCommand(r *rand.Rand, ch rules.Choice) rules.Command {
	c := rules.Command{Kind: ch.Kind, Value: ch.Value}
	switch {
	case ch.Pick == rules.AnySubset:
		c.Mask = ch.Targets & r.Uint32()
	case ch.Pick > 0:
		c.Mask = pickSeats(r, ch.Targets, int(ch.Pick))
	case ch.Roles != 0:
		c.Role = rules.Role(nthBit(ch.Roles, r.IntN(bits.OnesCount64(ch.Roles))))
	default:
		k := popcount(ch.Targets)
		if ch.NoTarget {
			k++
		}
		if i := r.IntN(k); i < popcount(ch.Targets) {
			c.Target = rules.Seat(nthBit(ch.Targets, i))
		}
	}
	return c
}

func pickSeats(r *rand.Rand, m uint32, n int) uint32 {
	var out uint32
	for i := 0; i < n && m&^out != 0; i++ {
		out |= 1 << uint(nthBit(m&^out, r.IntN(popcount(m&^out))))
	}
	return out
}

func popcount(m uint32) int { return bits.OnesCount32(m) }

// nthBit is the position of the i-th set bit of m (from 0).
func nthBit[M uint32 | uint64](m M, i int) int {
	for b := 0; b < 64; b++ {
		if m&(1<<uint(b)) != 0 {
			if i == 0 {
				return b
			}
			i--
		}
	}
	return -1
}
