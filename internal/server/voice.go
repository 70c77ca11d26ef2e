package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/voice"
	"github.com/wolfden/wolfden/rules"
)

// A room's voice (docs/voice.md): the game tells who may be heard by whom
// (game.Voices, through the Voice hook) and the room's forwarding unit
// (internal/voice) sends each listener what that allows, in packets whose
// number, size and timing are the same for every seat. The signalling is
// two requests: a seat (or a spectator) asks for the server's offer, then
// gives its browser's answer.

// voiceWait bounds the gathering of the server's own candidates.
const voiceWait = 10 * time.Second

// setVoices is the room's Voice hook, called from the actor: it never
// takes the room's lock (a host's abort holds it while it waits on the
// actor).
func (rm *room) setVoices(v game.Voices) {
	rm.voices.Store(&v)
	if vr := rm.voice.Load(); vr != nil {
		vr.SetVoices(v)
	}
}

// voiceRoom is the room's forwarding unit, made at its first listener.
func (s *Server) voiceRoom(rm *room, players int) *voice.Room {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if vr := rm.voice.Load(); vr != nil {
		return vr
	}
	vr := s.opts.Voice.NewRoom(players, true)
	rm.voice.Store(vr)
	// After the store: a map the hook told before it is read here, one
	// told after it reaches vr through the hook.
	if v := rm.voices.Load(); v != nil {
		vr.SetVoices(*v)
	}
	return vr
}

// endVoice closes the room's voice with its game.
func (rm *room) endVoice() {
	if vr := rm.voice.Swap(nil); vr != nil {
		vr.Close()
	}
}

var errNoVoice = fail(http.StatusNotFound, "no_voice", "this server has no voice (start it without --voice=false)")

// voiceSeat reads a voice request's room and token: the seat it holds,
// NoSeat for a spectator (no token), the game's actor and its players.
func (s *Server) voiceSeat(r *http.Request, token string) (*room, rules.Seat, int, error) {
	if s.opts.Voice == nil {
		return nil, 0, 0, errNoVoice
	}
	rm, err := s.roomFor(r.Context(), r.PathValue("id"))
	if err != nil {
		return nil, 0, 0, err
	}
	rm.mu.Lock()
	a, players, seat := rm.actor, len(rm.seats), rm.seatOf(token)
	rm.mu.Unlock()
	switch {
	case token != "" && seat == 0:
		return nil, 0, 0, fail(http.StatusUnauthorized, "token", "this token holds no seat in this room")
	case a == nil:
		return nil, 0, 0, fail(http.StatusConflict, "not_running", "the game is not running: voice opens with the game")
	}
	return rm, seat, players, nil
}

type iceServer struct {
	URLs       []string `json:"urls"`
	Username   string   `json:"username,omitempty"`
	Credential string   `json:"credential,omitempty"`
}

// voiceOffer: POST /api/rooms/{id}/voice {"token"} → the server's offer,
// the connection's id, and the ICE servers the browser is to use.
func (s *Server) voiceOffer(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Token string `json:"token"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	if !s.voiceLim.allow(s.clientAddr(r)) {
		writeErr(w, fail(http.StatusTooManyRequests, "rate", "too many voice connections from this address; try again in a minute"))
		return
	}
	rm, seat, players, err := s.voiceSeat(r, req.Token)
	if err != nil {
		writeErr(w, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), voiceWait)
	defer cancel()
	p, sdp, err := s.voiceRoom(rm, players).Join(ctx, seat)
	switch {
	case errors.Is(err, voice.ErrFull):
		writeErr(w, fail(http.StatusServiceUnavailable, "voice_full", "%v", err))
		return
	case err != nil:
		s.log.Warn("voice: a connection could not be opened", "room", rm.rec.ID, "err", err)
		writeErr(w, fail(http.StatusServiceUnavailable, "voice", "the voice connection could not be opened; try again"))
		return
	}
	var ice []iceServer
	for _, is := range s.opts.Voice.ICEServers() {
		c, _ := is.Credential.(string)
		ice = append(ice, iceServer{URLs: is.URLs, Username: is.Username, Credential: c})
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": p.ID, "sdp": sdp, "ice_servers": ice})
}

// voiceAnswer: POST /api/rooms/{id}/voice/answer {"token", "id", "sdp"}.
func (s *Server) voiceAnswer(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Token string `json:"token"`
		ID    string `json:"id"`
		SDP   string `json:"sdp"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	rm, seat, _, err := s.voiceSeat(r, req.Token)
	if err != nil {
		writeErr(w, err)
		return
	}
	var p *voice.Peer
	if vr := rm.voice.Load(); vr != nil {
		p = vr.Peer(req.ID)
	}
	// Another seat's connection is as unknown as a closed one.
	if p == nil || p.Seat() != seat {
		writeErr(w, fail(http.StatusNotFound, "no_voice_connection", "no such voice connection: ask for a new offer"))
		return
	}
	if err := p.Answer(req.SDP); err != nil {
		p.Close()
		writeErr(w, fail(http.StatusBadRequest, "bad_sdp", "the answer was refused: %v", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

// voiceMute: POST /api/rooms/{id}/voice/mute {"seat", "on"}, the host's.
func (s *Server) voiceMute(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Seat int  `json:"seat"`
		On   bool `json:"on"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	if s.opts.Voice == nil {
		writeErr(w, errNoVoice)
		return
	}
	s.liveRoom(w, r, func(rm *room, a *game.Actor) error {
		if req.Seat < 1 || req.Seat > len(rm.seats) {
			return fail(http.StatusBadRequest, "bad_seat", "seat %d is not in this room (1 to %d)", req.Seat, len(rm.seats))
		}
		s.voiceRoom(rm, len(rm.seats)).Mute(rules.Seat(req.Seat), req.On)
		return nil
	})
}

// voicePerMinute bounds the voice connections one address opens a minute
// (as many at once): each costs a WebRTC connection and its tracks.
const voicePerMinute = 30
