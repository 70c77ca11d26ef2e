package server

import (
	"fmt"
	"net/http"
)

// The store's faults, as the operator and the players see them
// (docs/server.md, "When the store fails"): a write that fails pauses its
// game until a write succeeds again; meanwhile /readyz answers 503 and
// wolfden_store_write_failures_total counts the failures.

// errStoreDown answers a request whose change could not be stored.
var errStoreDown = fail(http.StatusServiceUnavailable, "store",
	"the server cannot save right now (is its disk full?); nothing was changed: try again in a moment")

// wrote notes the outcome of one of the server's own writes. A write
// fenced in a cluster (lost) is no failure of the store.
func (s *Server) wrote(err error) {
	if s.lost(err) {
		return
	}
	if err != nil {
		s.m.storeFails.Inc()
	}
	s.storeFailing.Store(err != nil)
}

// storeFailed logs a refused write of the room's and says so to the
// client. A fenced one lets the room go to the node that has it now, and
// the client tries again there.
func (s *Server) storeFailed(room string, err error) error {
	if s.lost(err) {
		s.log.Warn("cluster: a write was fenced; another node has the room", "room", room, "err", err)
		go s.cl.abandon(room, false)
		return errMoving
	}
	s.log.Error("store write failed", "room", room, "err", err)
	return errStoreDown
}

// lost tells a write refused because this node of a cluster no longer
// holds the room's lease (fenced): another node has it.
func (s *Server) lost(err error) bool {
	return err != nil && s.cl != nil && s.cl.c.Leases.Lost(err)
}

// storeTrouble says why the server is not ready because of its store, or
// "" when it is.
func (s *Server) storeTrouble() string {
	switch n := s.stalled.Load(); {
	case n > 0:
		return fmt.Sprintf("the store refuses writes: %d games are paused until it takes them again", n)
	case s.storeFailing.Load():
		return "the store refused the last write"
	}
	return ""
}

// stall counts a game in or out of the paused-on-the-store set.
func (s *Server) stall(on bool) {
	if on {
		s.stalled.Add(1)
		s.m.stalled.Inc()
		return
	}
	s.stalled.Add(-1)
	s.m.stalled.Dec()
}
