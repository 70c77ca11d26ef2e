package bot

import (
	"errors"
	"flag"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/wolfden/wolfden/rules"
)

var strength = flag.Int("strength", 0, "play this many games per match-up and report the win rates (slow; see docs/bots.md)")

// errLong: the game was not over after the bound.
var errLong = errors.New("bot: the game does not end")

// decision is one question the driver asked a seat: what the seat had been
// told until then (its own stream, numbered for it), its view and choices,
// and the bot's answer.
type decision struct {
	seat    rules.Seat
	told    int // events of the seat's stream observed before the question
	view    rules.View
	choices []rules.Choice
	cmd     rules.Command
}

// playBounded is Play with a bound on the commands, so that a game the
// bots cannot finish fails a test instead of hanging it. With rec it
// records every decision.
func playBounded(g *rules.Game, bots []Bot, bound int, rec *[]decision) (int, error) {
	n := g.Players()
	var cursor, told [rules.MaxSeats + 1]int
	var buf []rules.Choice
	for cmds := 0; ; cmds++ {
		ev := g.Events()
		for i, b := range bots {
			s := rules.Seat(i + 1)
			for _, e := range ev[cursor[s]:] {
				if e.Visible(s) {
					b.Observe(e)
					told[s]++
				}
			}
			cursor[s] = len(ev)
		}
		if over, _ := g.Over(); over {
			return cmds, nil
		}
		if cmds >= bound {
			st, seat := g.Step()
			return cmds, fmt.Errorf("%w: %d commands, day %d, step %s %d", errLong, cmds, g.Day(), st, seat)
		}
		p := g.Pending()
		s := rules.Seat(1)
		for ; s <= rules.Seat(n) && p&(1<<uint(s)) == 0; s++ {
		}
		if s > rules.Seat(n) {
			return cmds, errors.New("bot: the game awaits nobody")
		}
		v := g.View(s)
		buf = g.Choices(s, buf[:0])
		c := bots[s-1].Act(&v, buf)
		c.Seat = s
		if rec != nil {
			*rec = append(*rec, decision{seat: s, told: told[s], view: v, choices: slices.Clone(buf), cmd: c})
		}
		if err := g.Do(c); err != nil {
			return cmds, fmt.Errorf("%w: seat %d (%s) sent %v at %s: %v", ErrIllegal, s, v.Role, c, v.Step, err)
		}
	}
}

func smartBots(t testing.TB, n int, seed uint64) []Bot {
	bots := make([]Bot, n)
	for i := range bots {
		var err error
		if bots[i], err = New(Smart, rules.Seat(i+1), n, Seed(seed, rules.Seat(i+1))); err != nil {
			t.Fatal(err)
		}
	}
	return bots
}

// stream is what seat s was told, as a client receives it: numbered in its
// own stream, and with no trace of the other receivers of an event.
func stream(g *rules.Game, s rules.Seat) []rules.Event {
	ev := g.Stream(s, 0, nil)
	for i := range ev {
		if ev[i].Public {
			ev[i].To = 0
		} else {
			ev[i].To = 1 << uint(s)
		}
	}
	return ev
}

// randomBoard draws a board with rules.RandomBoard, each choice a rapid draw.
func randomBoard(rt *rapid.T) rules.Board {
	return rules.RandomBoard(func(name string, lo, hi int) int { return rapid.IntRange(lo, hi).Draw(rt, name) })
}

// TestSmartRandomBoards: on any board with any options, smart bots (alone
// or mixed with random ones) never send an illegal command, and the game
// ends.
func TestSmartRandomBoards(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		b := randomBoard(rt)
		if err := b.Validate(); err != nil {
			rt.Skip(err)
		}
		seed := rapid.Uint64().Draw(rt, "seed")
		g, err := rules.New(b, seed, nil)
		if err != nil {
			rt.Fatal(err)
		}
		n := g.Players()
		mixed := rapid.Bool().Draw(rt, "mixed")
		bots := make([]Bot, n)
		for i := range bots {
			l := Smart
			if mixed && rapid.Bool().Draw(rt, fmt.Sprintf("random %d", i+1)) {
				l = Random
			}
			bots[i], _ = New(l, rules.Seat(i+1), n, Seed(seed, rules.Seat(i+1)))
		}
		if _, err := playBounded(g, bots, 5000, nil); err != nil {
			rt.Fatalf("%v (cards %v)", err, b.Cards)
		}
	})
}

// TestSmartEveryPresetEnds: on every preset and size, many games of smart
// bots end without an illegal command.
func TestSmartEveryPresetEnds(t *testing.T) {
	games := uint64(40)
	if testing.Short() {
		games = 5
	}
	for _, p := range rules.Presets() {
		for n := p.MinPlayers; n <= p.MaxPlayers; n++ {
			b, err := p.Board(n)
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(0); seed < games; seed++ {
				g, err := rules.New(b, seed, nil)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := playBounded(g, smartBots(t, n, seed), 5000, nil); err != nil {
					t.Fatalf("%s %d players seed %d: %v", p.Name, n, seed, err)
				}
			}
		}
	}
}

// TestSmartDeterministic: the same seed gives the same game.
func TestSmartDeterministic(t *testing.T) {
	for _, p := range rules.Presets() {
		b, err := p.Board(p.MaxPlayers)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 5; seed++ {
			var logs [2][]rules.Event
			for i := range logs {
				g, _ := rules.New(b, seed, nil)
				if _, err := playBounded(g, smartBots(t, b.Players(), seed), 5000, nil); err != nil {
					t.Fatal(err)
				}
				logs[i] = slices.Clone(g.Events())
			}
			if !reflect.DeepEqual(logs[0], logs[1]) {
				t.Fatalf("%s seed %d: two games of the same seed differ", p.Name, seed)
			}
		}
	}
}

// TestSmartReplaysTheSeatStream: a fresh bot of the same seat and seed, fed
// only the seat's own stream as a client receives it (numbered for the
// seat, with no trace of the other receivers), answers every question
// exactly as the bot that played: the bot reads nothing but its stream, its
// view and its choices, and the same inputs give the same command.
func TestSmartReplaysTheSeatStream(t *testing.T) {
	for _, p := range rules.Presets() {
		b, err := p.Board(p.MaxPlayers)
		if err != nil {
			t.Fatal(err)
		}
		n := b.Players()
		for seed := uint64(0); seed < 8; seed++ {
			g, _ := rules.New(b, seed, nil)
			var rec []decision
			if _, err := playBounded(g, smartBots(t, n, seed), 5000, &rec); err != nil {
				t.Fatal(err)
			}
			fresh := smartBots(t, n, seed)
			var streams [rules.MaxSeats + 1][]rules.Event
			var fed [rules.MaxSeats + 1]int
			for s := rules.Seat(1); s <= rules.Seat(n); s++ {
				streams[s] = stream(g, s)
			}
			for i, d := range rec {
				for ; fed[d.seat] < d.told; fed[d.seat]++ {
					fresh[d.seat-1].Observe(streams[d.seat][fed[d.seat]])
				}
				v := d.view
				c := fresh[d.seat-1].Act(&v, slices.Clone(d.choices))
				c.Seat = d.seat
				if c != d.cmd {
					t.Fatalf("%s seed %d, question %d to seat %d at %s: played %v, replayed %v",
						p.Name, seed, i, d.seat, d.view.Step, d.cmd, c)
				}
			}
		}
	}
}

// TestSmartIgnoresHiddenCards: two games differ only in the cards of two
// other seats. As long as seat s has been told the same things in both, its
// bot decides the same: what it may not see cannot change what it does.
func TestSmartIgnoresHiddenCards(t *testing.T) {
	compared := 0
	for _, p := range rules.Presets() {
		b, err := p.Board(p.MinPlayers)
		if err != nil {
			t.Fatal(err)
		}
		n := b.Players()
		for seed := uint64(0); seed < 12; seed++ {
			g0, _ := rules.New(b, seed, nil)
			deal := make([]rules.Role, 0, len(b.Cards))
			for s := rules.Seat(1); s <= rules.Seat(n); s++ {
				deal = append(deal, g0.Role(s))
			}
			if len(deal) < len(b.Cards) {
				continue // the thief's extra cards are not readable here
			}
			for s := rules.Seat(1); s <= rules.Seat(n); s++ {
				// Swap the cards of two other seats holding different cards.
				x := rules.Seat((int(s)+int(seed))%n + 1)
				y := rules.Seat((int(s)+int(seed)+3)%n + 1)
				if x == s || y == s || x == y || deal[x-1] == deal[y-1] {
					continue
				}
				other := slices.Clone(deal)
				other[x-1], other[y-1] = other[y-1], other[x-1]
				var recs [2][]decision
				var games [2]*rules.Game
				for i, d := range [][]rules.Role{deal, other} {
					g, err := rules.New(b, seed, d)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := playBounded(g, smartBots(t, n, seed), 5000, &recs[i]); err != nil {
						t.Fatal(err)
					}
					games[i] = g
				}
				compared += sameWhileTold(t, s, games, recs, fmt.Sprintf("%s seed %d seat %d (swap %d-%d)", p.Name, seed, s, x, y))
			}
		}
	}
	if compared < 500 {
		t.Fatalf("only %d decisions compared", compared)
	}
	t.Logf("%d decisions compared", compared)
}

// sameWhileTold compares seat s's decisions in two games while its stream,
// view and choices are the same in both; it returns how many it compared.
func sameWhileTold(t *testing.T, s rules.Seat, games [2]*rules.Game, recs [2][]decision, what string) int {
	st := [2][]rules.Event{stream(games[0], s), stream(games[1], s)}
	var qs [2][]decision
	for i := range recs {
		for _, d := range recs[i] {
			if d.seat == s {
				qs[i] = append(qs[i], d)
			}
		}
	}
	k := 0
	for ; k < len(qs[0]) && k < len(qs[1]); k++ {
		a, b := qs[0][k], qs[1][k]
		if a.told != b.told || !slices.Equal(st[0][:a.told], st[1][:b.told]) ||
			a.view != b.view || !slices.Equal(a.choices, b.choices) {
			break // the seat has been told something different
		}
		if a.cmd != b.cmd {
			t.Fatalf("%s: question %d at %s: %v in one game, %v in the other, though the seat was told the same",
				what, k, a.view.Step, a.cmd, b.cmd)
		}
	}
	return k
}

// match plays games of a preset with village seats at one level and wolf
// seats (by the card dealt) at another; it returns the wins per camp.
func match(t testing.TB, preset string, n int, village, wolves Level, games int, first uint64) (wins [8]int) {
	p, err := rules.LookupPreset(preset)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(n)
	if err != nil {
		t.Fatal(err)
	}
	n = b.Players()
	bots := make([]Bot, n)
	for seed := first; seed < first+uint64(games); seed++ {
		g, err := rules.New(b, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range bots {
			s := rules.Seat(i + 1)
			l := village
			if g.Role(s).IsWolf() {
				l = wolves
			}
			if bots[i], err = New(l, s, n, Seed(seed, s)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := playBounded(g, bots, 5000, nil); err != nil {
			t.Fatalf("%s seed %d: %v", preset, seed, err)
		}
		_, w := g.Over()
		wins[w]++
	}
	return wins
}

// TestStrength measures the win rates of docs/bots.md:
//
//	go test ./bot -run Strength -strength 10000 -v -timeout 1h
func TestStrength(t *testing.T) {
	if *strength == 0 {
		t.Skip("run with -strength N")
	}
	pct := func(w [8]int, c rules.Camp) float64 { return 100 * float64(w[c]) / float64(*strength) }
	for _, m := range [][2]Level{{Smart, Random}, {Random, Smart}, {Smart, Smart}, {Random, Random}} {
		w := match(t, "std-12", 0, m[0], m[1], *strength, 1_000_000)
		t.Logf("std-12 village %-6s vs wolves %-6s: village %5.1f%%  wolves %5.1f%%", m[0], m[1],
			pct(w, rules.Village), pct(w, rules.Wolves))
	}
	for _, p := range rules.Presets() {
		for _, n := range []int{p.MinPlayers, (p.MinPlayers + p.MaxPlayers) / 2} {
			w := match(t, p.Name, n, Smart, Smart, *strength, 2_000_000)
			t.Logf("%-13s %2d players smart vs smart: village %5.1f%%  wolves %5.1f%%  lovers %4.1f%%  piper %4.1f%%  draw %4.1f%%",
				p.Name, n, pct(w, rules.Village), pct(w, rules.Wolves), pct(w, rules.Lovers), pct(w, rules.PiperCamp), pct(w, rules.Draw))
			if p.MinPlayers == p.MaxPlayers {
				break
			}
		}
	}
}

// BenchmarkStd12SmartGame plays whole std-12 games with twelve smart bots
// driven by Play: the engine, the views, the driver and the bots.
func BenchmarkStd12SmartGame(b *testing.B) { benchGames(b, Smart) }

// BenchmarkStd12RandomBotGame is the same with random bots, for scale.
func BenchmarkStd12RandomBotGame(b *testing.B) { benchGames(b, Random) }

func benchGames(b *testing.B, l Level) {
	p, _ := rules.LookupPreset("std-12")
	board, _ := p.Board(0)
	bots := make([]Bot, 12)
	b.ReportAllocs()
	cmds := 0
	for i := 0; i < b.N; i++ {
		g, err := rules.New(board, uint64(i), nil)
		if err != nil {
			b.Fatal(err)
		}
		for j := range bots {
			bots[j], _ = New(l, rules.Seat(j+1), 12, Seed(uint64(i), rules.Seat(j+1)))
		}
		k, err := Play(g, bots)
		if err != nil {
			b.Fatal(err)
		}
		cmds += k
	}
	b.ReportMetric(float64(cmds)/float64(b.N), "cmds/game")
}

// BenchmarkStd12SmartBotsOnly measures the smart bots alone: recorded
// std-12 games are replayed into fresh bots (every event of each seat's
// stream observed, every question asked again), without the engine.
func BenchmarkStd12SmartBotsOnly(b *testing.B) {
	p, _ := rules.LookupPreset("std-12")
	board, _ := p.Board(0)
	type game struct {
		seed    uint64
		streams [13][]rules.Event
		rec     []decision
	}
	games := make([]game, 4) // few enough to stay in the cache, as a live game does
	for i := range games {
		g, _ := rules.New(board, uint64(i), nil)
		games[i].seed = uint64(i)
		if _, err := playBounded(g, smartBots(b, 12, uint64(i)), 5000, &games[i].rec); err != nil {
			b.Fatal(err)
		}
		for s := rules.Seat(1); s <= 12; s++ {
			games[i].streams[s] = stream(g, s)
		}
	}
	bots := make([]*smartBot, 12)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		gm := &games[i%len(games)]
		for j := range bots {
			bb, _ := New(Smart, rules.Seat(j+1), 12, Seed(gm.seed, rules.Seat(j+1)))
			bots[j] = bb.(*smartBot)
		}
		var fed [13]int
		for k := range gm.rec {
			d := &gm.rec[k]
			s := d.seat
			for ; fed[s] < d.told; fed[s]++ {
				bots[s-1].Observe(gm.streams[s][fed[s]])
			}
			bots[s-1].Act(&d.view, d.choices)
		}
		for s := 1; s <= 12; s++ {
			for ; fed[s] < len(gm.streams[s]); fed[s]++ {
				bots[s-1].Observe(gm.streams[s][fed[s]])
			}
		}
	}
}
