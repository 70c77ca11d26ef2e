package server

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// Short room codes, for joining across a table: a code is read aloud, typed
// on a phone or scanned from a QR code (qr.go), so it is short and made of
// characters nobody confuses: no 0/O, no 1/I/L. The room's 80-bit ID stays
// its address; a code only leads to it.

// CodeAlphabet holds the characters of a room code.
const CodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// Code lengths: 4 characters while they are easy to find unused, longer
// when the live rooms crowd them (31^4 is about 923,000 codes).
const (
	MinCode = 4
	MaxCode = 6
)

// DefaultCodesPerMinute bounds the code look-ups one address may make a
// minute (GET /api/codes/{code} and /j/{code} together): enough for a
// table whose phones share one address, too few to walk the codes.
const DefaultCodesPerMinute = 30

// codeBook is the rooms' codes. Which room a code names is its claim in
// the store (store.Codes), so that servers sharing one database never give
// one code to two live rooms: a code is drawn by claiming it there, and a
// look-up asks the store, which finds a code another server claimed. Its
// memory is only the claims this server holds for its own rooms, for
// holds (a room's info, its QR code), which must not cost a query per
// room of the lobby. A code is freed when its room leaves the server (a
// finished game, once its linger is over), or is handed to the room's
// rematch.
type codeBook struct {
	st  store.Codes
	log *slog.Logger
	// lapse is how long a finished room's claim lasts at most: its linger
	// and a margin. free ends it sooner; lapse is for a server that stops
	// before it frees the code, so that the code does not stay taken.
	lapse time.Duration
	// draw is a random code of n characters (randomCode; a test makes two
	// servers draw the same codes).
	draw func(n int) string

	mu   sync.Mutex
	held map[string]string // code → the room of this server holding it
}

// codeMargin is how much longer than its linger a finished room's claim
// lasts, so that it lapses only when free has not come.
const codeMargin = time.Minute

func newCodeBook(st store.Codes, log *slog.Logger, linger time.Duration) *codeBook {
	return &codeBook{st: st, log: log, lapse: linger + codeMargin, draw: randomCode, held: map[string]string{}}
}

// fresh draws a code no room holds and claims it for room id; the error
// is the store's, when a claim could not be made.
func (b *codeBook) fresh(ctx context.Context, id string) (string, error) {
	for n := MinCode; ; n++ {
		// At the longest length the tries go on: 31^6 codes cannot all be live.
		for try := 0; try < 20 || n >= MaxCode; try++ {
			c := b.draw(min(n, MaxCode))
			err := b.st.ClaimCode(ctx, c, id)
			if errors.Is(err, store.ErrCodeTaken) {
				continue
			}
			if err != nil {
				return "", fmt.Errorf("claim a room code: %w", err)
			}
			b.mu.Lock()
			b.held[c] = id
			b.mu.Unlock()
			return c, nil
		}
	}
}

func randomCode(n int) string {
	var sb strings.Builder
	max := big.NewInt(int64(len(CodeAlphabet)))
	for range n {
		i, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic(err)
		}
		sb.WriteByte(CodeAlphabet[i.Int64()])
	}
	return sb.String()
}

// give makes code name room id: a rematch takes its room's code, from the
// room of this server holding it (ClaimCode when none does).
// store.ErrCodeTaken: another room holds it now.
func (b *codeBook) give(ctx context.Context, code, id string) error {
	b.mu.Lock()
	from := cmp.Or(b.held[code], id)
	b.mu.Unlock()
	if err := b.st.GiveCode(ctx, code, from, id); err != nil {
		return err
	}
	b.mu.Lock()
	b.held[code] = id
	b.mu.Unlock()
	return nil
}

// hold claims the code of a room loaded from the store, which its claim
// may still hold (a restart), or which another room may hold now (the
// finished room's rematch, or a room that claimed the code once it was
// freed). It reports whether the room holds its code.
func (b *codeBook) hold(ctx context.Context, code, id string) (bool, error) {
	err := b.st.ClaimCode(ctx, code, id)
	switch {
	case errors.Is(err, store.ErrCodeTaken):
		return false, nil
	case err != nil:
		return false, err
	}
	b.mu.Lock()
	b.held[code] = id
	b.mu.Unlock()
	return true, nil
}

// over notes that a room's game ended: its claim lapses by itself if the
// server stops before it frees the code.
func (b *codeBook) over(code, id string) {
	if !b.holds(code, id) {
		return
	}
	if err := b.st.ExpireCode(context.Background(), code, id, b.lapse); err != nil && !errors.Is(err, store.ErrNotFound) {
		b.log.Error("a finished room's code could not be set to lapse; it is freed at the end of its linger", "room", id, "err", err)
	}
}

// free releases a room's code, unless another room holds it now. It is
// forgotten here first, so that once a look-up finds the code free, the
// room's info no longer shows it.
func (b *codeBook) free(code, id string) {
	b.forget(code, id)
	if code == "" {
		return
	}
	if err := b.st.FreeCode(context.Background(), code, id); err != nil {
		b.log.Error("a room's code could not be freed; its claim lapses by itself", "room", id, "err", err)
	}
}

// forget drops a room's claim from this server's memory, not from the
// store: the room went to another node of the cluster, which holds it now.
func (b *codeBook) forget(code, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.held[code] == id {
		delete(b.held, code)
	}
}

// room is the ID of the room holding code, or "": the store's answer,
// which knows the codes every server sharing it claimed.
func (b *codeBook) room(ctx context.Context, code string) (string, error) {
	id, err := b.st.CodeRoom(ctx, code)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	return id, err
}

// holds reports whether room id, of this server, holds code.
func (b *codeBook) holds(code, id string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return code != "" && b.held[code] == id
}

// normalizeCode reads a code as people type it: any case, with spaces or
// dashes between its groups. It names what is wrong otherwise.
func normalizeCode(s string) (string, error) {
	c := strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(s)))
	if n := len(c); n < MinCode || n > MaxCode {
		return "", fmt.Errorf("a room code has %d to %d characters, not %d", MinCode, MaxCode, len([]rune(c)))
	}
	for _, r := range c {
		if !strings.ContainsRune(CodeAlphabet, r) {
			return "", fmt.Errorf("%q is not in a room code (codes are made of %s: no 0, O, 1, I or L)", r, CodeAlphabet)
		}
	}
	return c, nil
}

// lookCode finds the room of the request's code, within the address's
// budget of look-ups; the error is answered.
func (s *Server) lookCode(w http.ResponseWriter, r *http.Request) (code, id string, ok bool) {
	if !s.codeLim.allow(s.clientAddr(r)) {
		writeErr(w, fail(http.StatusTooManyRequests, "rate",
			"too many room codes looked up from this address (at most %d a minute); try again in a minute", s.codesPerMinute()))
		return "", "", false
	}
	code, err := normalizeCode(r.PathValue("code"))
	if err != nil {
		writeErr(w, fail(http.StatusBadRequest, "bad_code", "%v", err))
		return "", "", false
	}
	id, err = s.codes.room(r.Context(), code)
	if err != nil {
		s.log.Error("a room code could not be looked up", "code", code, "err", err)
		writeErr(w, errCodesDown)
		return "", "", false
	}
	return code, id, true
}

// errCodesDown answers a look-up the store could not answer.
var errCodesDown = fail(http.StatusServiceUnavailable, "store", "the room codes cannot be read right now; try again in a moment")

func (s *Server) codesPerMinute() int {
	if s.opts.CodesPerMinute == 0 {
		return DefaultCodesPerMinute
	}
	return s.opts.CodesPerMinute
}

// codeRoom answers GET /api/codes/{code}: the room the code leads to.
func (s *Server) codeRoom(w http.ResponseWriter, r *http.Request) {
	code, id, ok := s.lookCode(w, r)
	if !ok {
		return
	}
	if id == "" {
		writeErr(w, fail(http.StatusNotFound, "no_code", "no room has the code %s (a code ends with its game; check it with the table)", code))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"code": code, "id": id})
}

// joinLink answers GET /j/{code}, the link of the QR code: the room's page
// in the web client, or the lobby with the code in its box when no room
// has it (the client says so in the reader's language).
func (s *Server) joinLink(w http.ResponseWriter, r *http.Request) {
	code, id, ok := s.lookCode(w, r)
	if !ok {
		return
	}
	w.Header().Set("Cache-Control", "no-store") // a code may name another room tomorrow
	if id == "" {
		http.Redirect(w, r, "/?code="+url.QueryEscape(code), http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, "/room/"+id, http.StatusSeeOther)
}

// giveCode gives a room being created its code: a rematch's is its room's,
// handed over (a new one if another room took it meanwhile); any other
// room's is drawn. The error is answered: the room is not created without
// the claim of its code.
func (s *Server) giveCode(ctx context.Context, rm *room) error {
	if rm.rec.Code != "" {
		err := s.codes.give(ctx, rm.rec.Code, rm.rec.ID)
		if err == nil {
			return nil
		}
		if !errors.Is(err, store.ErrCodeTaken) {
			s.wrote(err)
			return s.storeFailed(rm.rec.ID, fmt.Errorf("hand over code %s: %w", rm.rec.Code, err))
		}
		s.log.Warn("the rematch's code was taken by another room; it is given a new one", "room", rm.rec.ID, "code", rm.rec.Code)
	}
	code, err := s.codes.fresh(ctx, rm.rec.ID)
	if err != nil {
		s.wrote(err)
		return s.storeFailed(rm.rec.ID, err)
	}
	rm.rec.Code = code
	return nil
}

// holdCode enters a room loaded from the store into the book; a live room
// stored before codes existed, or whose code another room holds now, is
// given one, and stored with it.
func (s *Server) holdCode(ctx context.Context, rm *room) {
	rm.mu.Lock() // a restored game that is over may be finishing already
	defer rm.mu.Unlock()
	live := rm.rec.Status == store.StatusOpen || rm.rec.Status == store.StatusRunning
	if rm.rec.Code != "" {
		held, err := s.codes.hold(ctx, rm.rec.Code, rm.rec.ID)
		if err != nil {
			s.log.Error("a room's code could not be claimed; the room shows none until the next start", "room", rm.rec.ID, "code", rm.rec.Code, "err", err)
			return
		}
		if held || !live {
			return
		}
	}
	if !live || rm.cfg.AIWolf { // a matched AIWolf game has none (addRoom)
		return
	}
	code, err := s.codes.fresh(ctx, rm.rec.ID)
	if err != nil {
		s.log.Error("a room's new code could not be claimed; another is drawn at the next start", "room", rm.rec.ID, "err", err)
		return
	}
	rm.rec.Code = code
	err = s.st.UpdateRoom(ctx, rm.rec)
	s.wrote(err)
	if err != nil {
		s.log.Error("a room's new code could not be stored; another is drawn at the next start", "room", rm.rec.ID, "err", err)
	}
}
