package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/arena"
	"github.com/wolfden/wolfden/internal/rating"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// The AIWolf agent teams' ratings (docs/arena.md): after each matched
// game of the gateway, the teams that played it are rated as wolfden arena
// rates programs, an agent's key its team and side, and the standings are
// kept in the store as one arena run per regulation, named after its
// preset (aiwolf-5, aiwolf-13), replaced whole after each game.

// agentRuns are the standing runs of the agent teams, one per regulation.
var agentRuns = []string{"aiwolf-5", "aiwolf-13"}

// agentStandings are one regulation's standings, as last stored.
type agentStandings struct {
	games   int
	ratings map[arena.Key]rating.Rating
	played  map[arena.Key]int
	wins    map[arena.Key]int
}

// agentRatings rates matched games one at a time, in the order they end:
// the same games in the same order give the same ratings.
type agentRatings struct {
	mu   sync.Mutex
	runs map[string]*agentStandings // read from the store on first use
}

// rateAgents rates the teams of a matched game that is over.
func (s *Server) rateAgents(ctx context.Context, id string) error {
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
	recs, err := s.st.Records(ctx, id)
	if err != nil {
		return err
	}
	var events []rules.Event
	for _, r := range recs {
		events = append(events, r.Events...)
	}
	g, err := rules.Replay(b, seed, events)
	if err != nil {
		return err
	}
	if over, _ := g.Over(); !over {
		return errors.New("the game is not over")
	}
	at := recs[len(recs)-1].At
	keys, rank, won := arena.Teams(g, teams)

	r := &s.agentRates
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.runs == nil {
		r.runs = map[string]*agentStandings{}
	}
	st := r.runs[preset]
	if st == nil {
		rows, err := ar.ArenaRun(ctx, preset)
		if err != nil {
			return err
		}
		st = standingsOf(rows)
	}
	next := st.clone()
	arena.Credit(next.ratings, keys, rank)
	next.games++
	for t, team := range keys {
		for _, k := range slices.Compact(slices.SortedFunc(slices.Values(team), compareKeys)) {
			next.played[k]++
			if won[t] {
				next.wins[k]++
			}
		}
	}
	if err := ar.PutArenaRun(ctx, next.rows(preset, at)); err != nil {
		return err
	}
	r.runs[preset] = next
	return nil
}

func compareKeys(a, b arena.Key) int {
	return cmp.Or(strings.Compare(a.Side, b.Side), strings.Compare(a.Program, b.Program))
}

// standingsOf reads a standing run's rows.
func standingsOf(rows []store.ArenaRating) *agentStandings {
	st := &agentStandings{ratings: map[arena.Key]rating.Rating{}, played: map[arena.Key]int{}, wins: map[arena.Key]int{}}
	for _, row := range rows {
		k := arena.Key{Program: row.Program, Side: row.Side}
		st.games = row.Games
		st.ratings[k] = rating.Rating{Mu: row.Mu, Sigma: row.Sigma}
		st.played[k], st.wins[k] = row.Played, row.Wins
	}
	return st
}

// clone is a copy to update: the standings change only once stored.
func (st *agentStandings) clone() *agentStandings {
	return &agentStandings{games: st.games, ratings: maps.Clone(st.ratings), played: maps.Clone(st.played), wins: maps.Clone(st.wins)}
}

// rows are the standings as the run's rows, the village's first, then
// the wolves', each side's teams by name.
func (st *agentStandings) rows(run string, at time.Time) []store.ArenaRating {
	keys := slices.SortedFunc(maps.Keys(st.ratings), compareKeys)
	out := make([]store.ArenaRating, 0, len(keys))
	for _, k := range keys {
		r := st.ratings[k]
		out = append(out, store.ArenaRating{Run: run, At: at, Board: run, Games: st.games, Program: k.Program, Side: k.Side,
			Mu: r.Mu, Sigma: r.Sigma, Played: st.played[k], Wins: st.wins[k]})
	}
	return out
}
