package server

import (
	"errors"
	"net/http"

	"github.com/wolfden/wolfden/internal/game"
)

// The wait for the cards to be seen (game/seen.go): a room made for a
// table ("card_seen": true) waits after the deal until each person has
// confirmed seeing his card (the WebSocket frame {"type":"seen"}) before
// the first night falls; the host may end the wait.

// cardsInfo is the wait's count in the room's info, while the table waits:
// how many people of how many have seen their card, never who.
type cardsInfo struct {
	Count int `json:"count"`
	Of    int `json:"of"`
}

// cardsSeen is the running wait's count, or nil when the room is not
// waiting; the caller holds rm.mu.
func cardsSeen(rm *room) *cardsInfo {
	if rm.actor == nil || !rm.cfg.CardSeen {
		return nil
	}
	f, err := rm.actor.Cards()
	if err != nil || !f.Waiting {
		return nil
	}
	return &cardsInfo{Count: f.Count, Of: f.Of}
}

// skipSeen answers POST /api/rooms/{id}/seen/skip: the host ends the wait
// and the night falls now.
func (s *Server) skipSeen(w http.ResponseWriter, r *http.Request) {
	s.liveRoom(w, r, func(rm *room, a *game.Actor) error {
		err := a.SkipSeen()
		if errors.Is(err, game.ErrNotWaiting) {
			return fail(http.StatusConflict, "not_waiting", "%v", err)
		}
		return err
	})
}
