package server

import (
	"context"
	"crypto/rand"
	"fmt"
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

// codeBook is the live rooms' codes: each names one room in memory. A
// code is freed when its room leaves the server (a finished game, once its
// linger is over), or is handed to the room's rematch.
type codeBook struct {
	mu     sync.Mutex
	byCode map[string]codeHolder
}

type codeHolder struct {
	id      string
	alive   bool // open or running, not over
	created time.Time
}

func newCodeBook() *codeBook { return &codeBook{byCode: map[string]codeHolder{}} }

// fresh draws a code no live room holds and reserves it for room id.
func (b *codeBook) fresh(id string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for n := MinCode; ; n++ {
		// At the longest length the tries go on: 31^6 codes cannot all be live.
		for try := 0; try < 20 || n >= MaxCode; try++ {
			c := randomCode(min(n, MaxCode))
			if _, taken := b.byCode[c]; !taken {
				b.byCode[c] = codeHolder{id: id, alive: true}
				return c
			}
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

// give makes code name room id: a rematch takes its room's code.
func (b *codeBook) give(code, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.byCode[code] = codeHolder{id: id, alive: true}
}

// hold enters a room loaded from the store. Two loaded rooms may hold one
// code (a finished room lingering and its rematch, or a code freed and
// drawn again): the live one wins over a finished one, then the newer.
// It reports whether the room holds its code.
func (b *codeBook) hold(rec store.Room) bool {
	if rec.Code == "" {
		return false
	}
	alive := rec.Status == store.StatusOpen || rec.Status == store.StatusRunning
	b.mu.Lock()
	defer b.mu.Unlock()
	h, taken := b.byCode[rec.Code]
	if taken && h.id != rec.ID && (h.alive && !alive || h.alive == alive && !rec.Created.After(h.created)) {
		return false
	}
	b.byCode[rec.Code] = codeHolder{id: rec.ID, alive: alive, created: rec.Created}
	return true
}

// over notes that a room's game ended: a live room drawn later wins the
// code over it after a restart, as in hold.
func (b *codeBook) over(code, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if h, ok := b.byCode[code]; ok && h.id == id {
		h.alive = false
		b.byCode[code] = h
	}
}

// free releases a room's code, unless another room holds it now.
func (b *codeBook) free(code, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if h, ok := b.byCode[code]; ok && h.id == id {
		delete(b.byCode, code)
	}
}

// room is the ID of the room holding code, or "".
func (b *codeBook) room(code string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.byCode[code].id
}

// holds reports whether room id holds code.
func (b *codeBook) holds(code, id string) bool {
	return code != "" && b.room(code) == id
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
	return code, s.codes.room(code), true
}

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
// handed over; any other room's is drawn.
func (s *Server) giveCode(rm *room) {
	if rm.rec.Code != "" {
		s.codes.give(rm.rec.Code, rm.rec.ID)
		return
	}
	rm.rec.Code = s.codes.fresh(rm.rec.ID)
}

// holdCode enters a room loaded from the store into the book; a live room
// stored before codes existed is given one, and stored with it.
func (s *Server) holdCode(ctx context.Context, rm *room) {
	rm.mu.Lock() // a restored game that is over may be finishing already
	defer rm.mu.Unlock()
	if rm.rec.Code == "" && (rm.rec.Status == store.StatusOpen || rm.rec.Status == store.StatusRunning) {
		rm.rec.Code = s.codes.fresh(rm.rec.ID)
		err := s.st.UpdateRoom(ctx, rm.rec)
		s.wrote(err)
		if err != nil {
			s.log.Error("a room's new code could not be stored; another is drawn at the next start", "room", rm.rec.ID, "err", err)
		}
		return
	}
	s.codes.hold(rm.rec)
}
