package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/arena"
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/rating"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// The AIWolf agent teams' ratings (docs/arena.md): after each matched
// game of the gateway, the teams that played it are rated as wolfden arena
// rates programs, an agent's key its team and side, and the standings are
// kept in the store as one arena run per regulation, named after its
// preset (aiwolf-5, aiwolf-13), whose teams' rows are updated after each
// game they play.

// agentRuns are the standing runs of the agent teams, one per regulation.
var agentRuns = []string{"aiwolf-5", "aiwolf-13"}

// agentStandings are one regulation's standings.
type agentStandings struct {
	games   int
	ratings map[arena.Key]rating.Rating
	played  map[arena.Key]int
	wins    map[arena.Key]int
}

// rateAgents rates the teams of a matched game that is over.
// ended is its stopped actor, whose game is what its stored records give.
func (s *Server) rateAgents(ctx context.Context, id string, ended *game.Actor) error {
	ar, ok := s.st.(store.Arena)
	if !ok {
		return nil
	}
	rm, err := s.roomFor(ctx, id)
	if err != nil {
		return err
	}
	rm.mu.Lock()
	b, berr := rm.cfg.board()
	seed, preset := rm.cfg.Seed, rm.cfg.Preset
	teams := make([]string, len(rm.seats))
	for i, st := range rm.seats {
		teams[i] = aiwolf.TeamOf(st.Nick)
	}
	rm.mu.Unlock()
	if berr != nil {
		return berr
	}
	if !slices.Contains(agentRuns, preset) {
		return fmt.Errorf("a matched game on %q, which no regulation has", preset)
	}
	g, at, ok := ended.Ended()
	if !ok { // the actor left something unstored: the store is the truth
		if g, at, err = s.replayed(ctx, id, b, seed); err != nil {
			return err
		}
	}
	if over, _ := g.Over(); !over {
		return errors.New("the game is not over")
	}
	keys, rank, won := arena.Teams(g, teams)

	// Only the rows of the game's teams are read and written, however
	// many teams the standing holds. The store's rows are what the next
	// game updates; the node keeps them as it last wrote them (known), so
	// that a game of teams it has read costs no read. A game credited by
	// another node in between makes the store refuse the write as stale,
	// and the standing is read again.
	programs := slices.Compact(slices.Sorted(slices.Values(teams)))
	credited := slices.Compact(slices.SortedFunc(slices.Values(slices.Concat(keys...)), compareKeys))
	s.agentRates.Lock()
	defer s.agentRates.Unlock()
	for try := 1; ; try++ {
		st, err := s.agentStanding(ctx, ar, preset, programs)
		if err != nil {
			return err
		}
		arena.Credit(st.ratings, keys, rank)
		st.games++
		for t, team := range keys {
			for _, k := range slices.Compact(slices.SortedFunc(slices.Values(team), compareKeys)) {
				st.played[k]++
				if won[t] {
					st.wins[k]++
				}
			}
		}
		err = ar.UpdateArenaStanding(ctx, st.rows(preset, at, credited))
		if err != nil { // stale, or not known to be written: what the store holds is read again
			delete(s.agentKnown, preset)
		}
		if !errors.Is(err, store.ErrStaleRating) || try == maxRatingTries {
			return err
		}
	}
}

// knownStanding is a regulation's standing as this node last read or
// wrote it: its games and the rows of the teams it has read.
type knownStanding struct {
	st    *agentStandings
	read  map[string]bool
	whole bool // every program's rows: a team it has not read has none
}

// agentStanding is preset's standing with the rows of programs, the
// node's own (known) when it has read them all, else read from the store;
// the caller holds agentRates and credits the game to it in place: a
// write that fails forgets it.
//
// A server that is not a cluster's node is its store's only writer (the
// SQLite file's lock; a cluster's nodes share theirs): it reads the whole
// standing once, and a team it has not seen has no rows. Read by team, a
// self-match of new teams read the standing after every game, 4% of the
// server's CPU in an AIWolf run (docs/benchmarks.md). Should another
// writer credit games all the same, the store refuses the next write as
// stale and the standing is read again.
func (s *Server) agentStanding(ctx context.Context, ar store.Arena, preset string, programs []string) (*agentStandings, error) {
	k := s.agentKnown[preset]
	if k != nil && (k.whole || !slices.ContainsFunc(programs, func(p string) bool { return !k.read[p] })) {
		return k.st, nil
	}
	if s.soleWriter {
		games, _, err := ar.ArenaStanding(ctx, preset, nil)
		if err != nil {
			return nil, err
		}
		rows, err := ar.ArenaRun(ctx, preset)
		if err != nil {
			return nil, err
		}
		k = &knownStanding{st: standingsOf(games, rows), whole: true}
	} else {
		games, rows, err := ar.ArenaStanding(ctx, preset, programs)
		if err != nil {
			return nil, err
		}
		read := standingsOf(games, rows)
		if k == nil || k.st.games != games { // another node credited games meanwhile: start over
			k = &knownStanding{st: read, read: map[string]bool{}}
		} else {
			maps.Copy(k.st.ratings, read.ratings)
			maps.Copy(k.st.played, read.played)
			maps.Copy(k.st.wins, read.wins)
		}
		for _, p := range programs {
			k.read[p] = true
		}
	}
	if s.agentKnown == nil {
		s.agentKnown = map[string]*knownStanding{}
	}
	s.agentKnown[preset] = k
	return k.st, nil
}

// replayed is a game as its stored records give it, and the time of the
// last record.
func (s *Server) replayed(ctx context.Context, id string, b rules.Board, seed uint64) (*rules.Game, time.Time, error) {
	recs, err := s.st.Records(ctx, id)
	if err != nil || len(recs) == 0 {
		return nil, time.Time{}, cmp.Or(err, errors.New("the game has no records"))
	}
	var events []rules.Event
	for _, r := range recs {
		events = append(events, r.Events...)
	}
	g, err := rules.Replay(b, seed, events)
	return g, recs[len(recs)-1].At, err
}

func compareKeys(a, b arena.Key) int {
	return cmp.Or(strings.Compare(a.Side, b.Side), strings.Compare(a.Program, b.Program))
}

// standingsOf reads a standing run's games and rows.
func standingsOf(games int, rows []store.ArenaRating) *agentStandings {
	st := &agentStandings{games: games, ratings: map[arena.Key]rating.Rating{}, played: map[arena.Key]int{}, wins: map[arena.Key]int{}}
	for _, row := range rows {
		k := arena.Key{Program: row.Program, Side: row.Side}
		st.ratings[k] = rating.Rating{Mu: row.Mu, Sigma: row.Sigma}
		st.played[k], st.wins[k] = row.Played, row.Wins
	}
	return st
}

// rows are the standings of keys (sorted by compareKeys: the village's
// first, then the wolves', each side's teams by name) as the run's rows:
// the game's, whose rows alone it changed (a team's row of the side it did
// not play is left as stored).
func (st *agentStandings) rows(run string, at time.Time, keys []arena.Key) []store.ArenaRating {
	out := make([]store.ArenaRating, 0, len(keys))
	for _, k := range keys {
		r := st.ratings[k]
		out = append(out, store.ArenaRating{Run: run, At: at, Board: run, Games: st.games, Program: k.Program, Side: k.Side,
			Mu: r.Mu, Sigma: r.Sigma, Played: st.played[k], Wins: st.wins[k]})
	}
	return out
}
