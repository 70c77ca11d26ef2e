package server

import (
	"context"
	"net/http"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/llm"
	"github.com/wolfden/wolfden/rules"
)

// errNoLLM refuses seats played by a model on a server with no endpoint.
var errNoLLM = fail(http.StatusBadRequest, "no_llm",
	"bots: level llm needs an LLM endpoint: start the server with --llm-url URL --llm-model NAME (key in "+llm.KeyEnv+")")

// llmSeat reports whether seat i (from 0) is played by the model: a bot
// seat of a room whose bots are llm, or one the host asked for.
func (rm *room) llmSeat(i int) bool {
	st := &rm.seats[i]
	return st.Bot && (st.LLM || rm.cfg.Bots == llm.Level)
}

// llmReady refuses to start a game with seats played by the model on a
// server with no endpoint (one restarted without --llm-url, say).
func (s *Server) llmReady(rm *room) error {
	for i := range rm.seats {
		if rm.llmSeat(i) && s.opts.LLM == nil {
			return errNoLLM
		}
	}
	return nil
}

// seatLLMs starts a player for each of the room's seats played by the
// model. Each holds its seat as a connection does, joined from the start of
// the stream (a restored game's too), and ends with the game. On a server
// without an endpoint the seats stay empty: at each timer they are played
// by the server's bot, as any absent player's. The caller holds rm.mu.
func (s *Server) seatLLMs(rm *room, a *game.Actor) {
	var seats []rules.Seat
	for i := range rm.seats {
		if rm.llmSeat(i) {
			seats = append(seats, rules.Seat(i+1))
		}
	}
	if len(seats) == 0 {
		return
	}
	if s.opts.LLM == nil {
		s.log.Warn("this game has seats played by a model but the server has no --llm-url: the server's bots play them",
			"room", rm.rec.ID, "seats", len(seats))
		return
	}
	players, seed, log := len(rm.seats), rm.cfg.Seed, s.log.With("room", rm.rec.ID)
	for _, seat := range seats {
		go func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				select {
				case <-a.Done():
				case <-ctx.Done():
				}
				cancel()
			}()
			frames, table, leave, err := llm.Attach(a, seat, cancel)
			if err != nil {
				log.Warn("a model's seat could not join its game", "seat", int(seat), "err", err)
				return
			}
			defer leave()
			p := llm.NewPlayer(s.opts.LLM, seat, players, llm.SeatSeed(seed, seat), frames, table, log)
			if err := p.Run(ctx); err != nil && ctx.Err() == nil {
				log.Warn("a model's player stopped; the server's bot plays its seat", "seat", int(seat), "err", err)
			}
		}()
	}
}
