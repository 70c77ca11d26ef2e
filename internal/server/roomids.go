package server

import (
	"context"
	"sync"
)

// Matched AIWolf games' rooms take IDs the store found free ahead of need
// (an SQLite store: sqlite.DB.ReserveRoomIDs), so that a game's start, which
// its agents wait for, does not read whether its room's ID is taken. The
// pool is filled between games, as a matched game ends, and when the
// server starts: a start that finds it empty draws an ID as any room does,
// and the store checks it then.

// idReserver is a store that reserves room IDs ahead of need.
type idReserver interface {
	ReserveRoomIDs(ctx context.Context, ids []string) ([]string, error)
}

// idPoolSize is how many IDs the pool holds when full; it is filled again
// once half of them are used. A start takes one, and about as many games
// end as start: a pool of 32 outlasts the starts between two ends unless
// more than 16 games start together.
const idPoolSize = 32

type idPool struct {
	mu      sync.Mutex
	ids     []string
	filling bool
}

// matchedRoomID is an ID for a matched game's room: reserved if the pool
// has one.
func (s *Server) matchedRoomID() string {
	p := &s.ids
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.ids); n > 0 {
		id := p.ids[n-1]
		p.ids = p.ids[:n-1]
		return id
	}
	return newRoomID()
}

// fillIDs fills the pool when half of it is used, if the store reserves
// IDs and is this server's alone (a cluster's nodes make their rooms
// through the store: addRoom).
func (s *Server) fillIDs(ctx context.Context) {
	r, ok := s.st.(idReserver)
	if !ok || s.cl != nil || s.agents == nil {
		return
	}
	p := &s.ids
	p.mu.Lock()
	if p.filling || len(p.ids) > idPoolSize/2 {
		p.mu.Unlock()
		return
	}
	p.filling = true
	drawn := make([]string, idPoolSize-len(p.ids))
	p.mu.Unlock()
	for i := range drawn {
		drawn[i] = newRoomID()
	}
	free, err := r.ReserveRoomIDs(ctx, drawn)
	if err != nil { // the next start checks its ID itself
		s.log.Warn("reserving room IDs", "err", err)
	}
	p.mu.Lock()
	p.ids = append(p.ids, free...)
	p.filling = false
	p.mu.Unlock()
}
