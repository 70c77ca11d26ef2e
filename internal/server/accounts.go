package server

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/accounts"
	"github.com/wolfden/wolfden/internal/store"
)

// Accounts are optional (docs/accounts.md): a guest plays as before, and a
// signed-in player's seats are linked to his account. The session is an
// HttpOnly, SameSite=Strict cookie; a request that changes anything must
// also pass the CSRF check (csrfOK).

const (
	// SessionCookie holds a signed-in browser's session token.
	SessionCookie = "wolfden_session"
	// CSRFHeader must be on every state-changing request of the accounts'
	// API (and on any request that acts as a signed-in player): a form of
	// another site cannot set a header, and its scripts cannot send one
	// here without a CORS preflight the server never grants.
	CSRFHeader = "X-Wolfden-Csrf"
	// DefaultAuthPerMinute is Options.AuthPerMinute's default.
	DefaultAuthPerMinute = 10
	// maxClaims bounds the seats one claim may name.
	maxClaims = 100
)

var (
	errCSRF      = fail(http.StatusForbidden, "csrf", "refused: a request that changes an account must come from this site's pages (header "+CSRFHeader+")")
	errSignedOut = fail(http.StatusUnauthorized, "signed_out", "not signed in")
	errBadLogin  = fail(http.StatusUnauthorized, "bad_login", "the name or the password is wrong")
	errLocked    = fail(http.StatusForbidden, "locked", "this account is locked by the server's operator")
	errNameTaken = fail(http.StatusConflict, "name_taken", "this name is taken")
	errAuthRate  = fail(http.StatusTooManyRequests, "rate", "too many sign-ins or sign-ups from this address; try again in a minute")
)

func (s *Server) authPerMinute() int {
	switch n := s.opts.AuthPerMinute; {
	case n == 0:
		return DefaultAuthPerMinute
	case n < 0:
		return 0
	default:
		return n
	}
}

func (s *Server) accountRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/accounts", s.guarded(s.signUp))
	m.HandleFunc("POST /api/session", s.guarded(s.signIn))
	m.HandleFunc("DELETE /api/session", s.guarded(s.signOut))
	m.HandleFunc("GET /api/me", s.me)
	m.HandleFunc("PATCH /api/me", s.guarded(s.changeMe))
	m.HandleFunc("DELETE /api/me", s.guarded(s.deleteMe))
	m.HandleFunc("POST /api/me/claim", s.guarded(s.claim))
	m.HandleFunc("POST /api/passkeys/register/begin", s.guarded(s.passkeyRegisterBegin))
	m.HandleFunc("POST /api/passkeys/register/finish", s.guarded(s.passkeyRegisterFinish))
	m.HandleFunc("POST /api/passkeys/login/begin", s.guarded(s.passkeyLoginBegin))
	m.HandleFunc("POST /api/passkeys/login/finish", s.guarded(s.passkeyLoginFinish))
}

// csrfOK: the request carries CSRFHeader and, by its Sec-Fetch-Site or
// Origin, comes from this site (http.CrossOriginProtection).
func (s *Server) csrfOK(r *http.Request) bool {
	return r.Header.Get(CSRFHeader) != "" && s.xorigin.Check(r) == nil
}

// guarded refuses a request that fails the CSRF check.
func (s *Server) guarded(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.csrfOK(r) {
			writeErr(w, errCSRF)
			return
		}
		h(w, r)
	}
}

// signedIn is the account the request's session cookie signs in. A
// request that may change something counts as signed in only if it
// passes the CSRF check: another site cannot act as the player.
func (s *Server) signedIn(r *http.Request) (store.Account, bool) {
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return store.Account{}, false
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
	default:
		if !s.csrfOK(r) {
			return store.Account{}, false
		}
	}
	a, err := s.acc.Session(r.Context(), c.Value)
	if err != nil {
		if !errors.Is(err, accounts.ErrNoSession) {
			s.log.Warn("session", "err", err)
		}
		return store.Account{}, false
	}
	return a, true
}

// secure: the client reaches the server over TLS (here, or at the proxy
// --public-url names). Over plain HTTP (a LAN table, localhost) the cookie
// cannot be Secure: the browser would not send it back.
func (s *Server) secure(r *http.Request) bool {
	return r.TLS != nil || strings.HasPrefix(s.opts.PublicURL, "https://")
}

func (s *Server) setSession(w http.ResponseWriter, r *http.Request, token string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: token, Path: "/", Expires: expires,
		MaxAge: int(time.Until(expires).Seconds()), HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteStrictMode})
}

func (s *Server) clearSession(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteStrictMode})
}

// accountErr is err as the API answers it.
func (s *Server) accountErr(err error) error {
	var ie *accounts.InputError
	switch {
	case errors.As(err, &ie):
		return fail(http.StatusBadRequest, "bad_"+ie.Field, "%s", ie.Error())
	case errors.Is(err, accounts.ErrBadLogin):
		return errBadLogin
	case errors.Is(err, accounts.ErrLocked):
		return errLocked
	case errors.Is(err, accounts.ErrNameTaken):
		return errNameTaken
	case errors.Is(err, accounts.ErrNoSession):
		return errSignedOut
	case errors.Is(err, accounts.ErrNoCeremony):
		return fail(http.StatusBadRequest, "passkey_expired", "%s", err.Error())
	}
	s.log.Error("accounts", "err", err)
	return fail(http.StatusInternalServerError, "store", "the accounts could not be read or written; try again")
}

type meInfo struct {
	Name     string    `json:"name"`
	Public   bool      `json:"public"`
	Created  time.Time `json:"created"`
	Password bool      `json:"password"` // the account has a password
	Passkeys int       `json:"passkeys"`
}

func (s *Server) meOf(ctx context.Context, a store.Account) meInfo {
	keys, err := s.st.Passkeys(ctx, a.ID)
	if err != nil {
		s.log.Warn("passkeys", "err", err)
	}
	return meInfo{Name: a.Name, Public: a.Public, Created: a.Created, Password: a.PasswordHash != "", Passkeys: len(keys)}
}

// pruneEvery is how often, at most, a sign-in also drops the sessions
// that expired unused (a used one is dropped when it is found expired).
const pruneEvery = time.Hour

// signInAs starts a session for a and answers with the account.
func (s *Server) signInAs(w http.ResponseWriter, r *http.Request, a store.Account, status int) {
	if now := time.Now().UnixNano(); now-s.pruned.Load() > int64(pruneEvery) && s.pruned.CompareAndSwap(s.pruned.Load(), now) {
		if err := s.acc.PruneSessions(r.Context()); err != nil {
			s.log.Warn("pruning expired sessions", "err", err)
		}
	}
	token, expires, err := s.acc.StartSession(r.Context(), a.ID)
	if err != nil {
		writeErr(w, s.accountErr(err))
		return
	}
	s.setSession(w, r, token, expires)
	writeJSON(w, status, s.meOf(r.Context(), a))
}

type credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

func (s *Server) signUp(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	if !s.authLim.allow(s.clientAddr(r)) {
		writeErr(w, errAuthRate)
		return
	}
	a, err := s.acc.SignUp(r.Context(), req.Name, req.Password)
	if err != nil {
		writeErr(w, s.accountErr(err))
		return
	}
	s.log.Info("account created")
	s.signInAs(w, r, a, http.StatusCreated)
}

func (s *Server) signIn(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	if !s.authLim.allow(s.clientAddr(r)) {
		writeErr(w, errAuthRate)
		return
	}
	a, err := s.acc.SignIn(r.Context(), req.Name, req.Password)
	if err != nil {
		writeErr(w, s.accountErr(err))
		return
	}
	s.signInAs(w, r, a, http.StatusOK)
}

func (s *Server) signOut(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(SessionCookie); err == nil {
		if err := s.acc.EndSession(r.Context(), c.Value); err != nil {
			writeErr(w, s.accountErr(err))
			return
		}
	}
	s.clearSession(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// me is the signed-in account; 204 (no error: every page asks, and a
// browser logs a refused request as an error) when nobody is signed in.
func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(r)
	if !ok {
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, http.StatusOK, s.meOf(r.Context(), a))
}

func (s *Server) changeMe(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Public *bool `json:"public"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	a, ok := s.signedIn(r)
	if !ok {
		writeErr(w, errSignedOut)
		return
	}
	if req.Public != nil {
		if err := s.st.SetPublic(r.Context(), a.ID, *req.Public); err != nil {
			writeErr(w, s.accountErr(err))
			return
		}
		a.Public = *req.Public
	}
	writeJSON(w, http.StatusOK, s.meOf(r.Context(), a))
}

// deleteMe deletes the signed-in account and its personal data: its seats
// in every room lose its name (they read "deleted player") before the
// account and all its rows go.
func (s *Server) deleteMe(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(r)
	if !ok {
		writeErr(w, errSignedOut)
		return
	}
	if err := s.deleteAccount(r.Context(), a.ID); err != nil {
		writeErr(w, s.accountErr(err))
		return
	}
	s.log.Info("account deleted by its owner")
	s.clearSession(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// deleteAccount forgets an account. The seats come first: were the
// server to stop halfway, the account would still be there to delete
// again, and no seat would keep its name.
func (s *Server) deleteAccount(ctx context.Context, id string) error {
	links, err := s.st.AccountSeats(ctx, id)
	if err != nil {
		return err
	}
	done := map[string]bool{}
	for _, l := range links {
		if done[l.RoomID] {
			continue
		}
		done[l.RoomID] = true
		rm, err := s.roomFor(ctx, l.RoomID)
		if errors.Is(err, errNoRoom) {
			continue
		}
		if err != nil {
			return err
		}
		rm.mu.Lock()
		changed := false
		for i := range rm.seats {
			if rm.seats[i].Account == id {
				rm.seats[i].Account, rm.seats[i].Nick, rm.seats[i].Deleted = "", "", true
				changed = true
			}
		}
		if changed {
			err = s.save(ctx, rm)
		}
		rm.mu.Unlock()
		if err != nil {
			return err
		}
	}
	return s.st.DeleteAccount(ctx, id)
}

// claim links to the signed-in account the seats a guest held, proven by
// their tokens (the ones the client kept for each room): the games he
// just played become his. A seat already another account's stays so.
func (s *Server) claim(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Seats []struct {
			Room  string `json:"room"`
			Token string `json:"token"`
		} `json:"seats"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	if len(req.Seats) > maxClaims {
		writeErr(w, fail(http.StatusBadRequest, "bad_claim", "at most %d seats in one claim", maxClaims))
		return
	}
	a, ok := s.signedIn(r)
	if !ok {
		writeErr(w, errSignedOut)
		return
	}
	type claimed struct {
		Room string `json:"room"`
		Seat int    `json:"seat"`
	}
	out := struct {
		Claimed []claimed `json:"claimed"`
		Refused int       `json:"refused"` // seats whose token did not match, or held by another account
	}{Claimed: []claimed{}}
	for _, c := range req.Seats {
		rm, err := s.roomFor(r.Context(), c.Room)
		if errors.Is(err, errNoRoom) {
			out.Refused++
			continue
		}
		if err != nil {
			writeErr(w, s.storeFailed("", err))
			return
		}
		rm.mu.Lock()
		seat := int(rm.seatOf(c.Token))
		switch {
		case seat == 0 || rm.rec.Status == store.StatusLost || (rm.seats[seat-1].Account != "" && rm.seats[seat-1].Account != a.ID):
			out.Refused++
		default:
			if rm.seats[seat-1].Account != a.ID {
				rm.seats[seat-1].Account = a.ID
				err = s.save(r.Context(), rm)
			}
			if err == nil {
				err = s.st.LinkSeat(r.Context(), rm.rec.ID, seat, a.ID)
			}
			if err == nil {
				out.Claimed = append(out.Claimed, claimed{rm.rec.ID, seat})
			}
		}
		rm.mu.Unlock()
		if err != nil {
			writeErr(w, s.storeFailed(c.Room, err))
			return
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// linkSeats makes the store's seat links of the room what its seats say;
// the caller holds rm.mu. A failure is logged: the seat is taken all the
// same, the game matters more than its record in a profile.
func (s *Server) linkSeats(ctx context.Context, rm *room) {
	any := false
	for _, st := range rm.seats {
		any = any || st.Account != ""
	}
	if !any && !rm.linked {
		return
	}
	rm.linked = any
	have, err := s.st.SeatAccounts(ctx, rm.rec.ID)
	if err == nil {
		for i, st := range rm.seats {
			if have[i+1] != st.Account {
				if err = s.st.LinkSeat(ctx, rm.rec.ID, i+1, st.Account); err != nil {
					break
				}
			}
		}
	}
	if err != nil {
		s.log.Warn("seat links", "room", rm.rec.ID, "err", err)
	}
}

// rp is the relying party of the request's passkey ceremony: the domain
// --rp-id names (else the host the request came to) and the page's
// origin (from --public-url, else the request's scheme and host).
func (s *Server) rp(r *http.Request) (accounts.RP, error) {
	var origin string
	if s.opts.PublicURL != "" {
		u, err := url.Parse(s.opts.PublicURL)
		if err != nil {
			return accounts.RP{}, err
		}
		origin = u.Scheme + "://" + u.Host
	} else {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		origin = scheme + "://" + r.Host
	}
	u, err := url.Parse(origin)
	if err != nil || u.Hostname() == "" {
		return accounts.RP{}, fail(http.StatusBadRequest, "bad_host", "passkeys need the server's host name")
	}
	if net.ParseIP(u.Hostname()) != nil {
		return accounts.RP{}, fail(http.StatusBadRequest, "passkey_host",
			"passkeys need the server reached by a name (localhost counts), not an IP address (%s); use a password here", u.Hostname())
	}
	id := s.opts.RPID
	if id == "" {
		id = u.Hostname()
	}
	if h := u.Hostname(); h != id && !strings.HasSuffix(h, "."+id) {
		return accounts.RP{}, fail(http.StatusBadRequest, "bad_host", "this page's address (%s) is not under the passkeys' domain %s (--rp-id)", h, id)
	}
	return accounts.RP{ID: id, Origin: origin}, nil
}

type ceremonyAnswer struct {
	Ceremony   string          `json:"ceremony"`
	Credential json.RawMessage `json:"credential"`
}

func (s *Server) passkeyRegisterBegin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"` // a new account's, when nobody is signed in
	}
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	var signed *store.Account
	if a, ok := s.signedIn(r); ok {
		signed = &a
	} else if !s.authLim.allow(s.clientAddr(r)) { // a sign-up
		writeErr(w, errAuthRate)
		return
	}
	rp, err := s.rp(r)
	if err != nil {
		writeErr(w, err)
		return
	}
	opts, id, err := s.acc.BeginRegistration(r.Context(), rp, signed, req.Name)
	if err != nil {
		writeErr(w, s.accountErr(err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ceremony": id, "publicKey": opts})
}

func (s *Server) passkeyRegisterFinish(w http.ResponseWriter, r *http.Request) {
	var req ceremonyAnswer
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	rp, err := s.rp(r)
	if err != nil {
		writeErr(w, err)
		return
	}
	var signed *store.Account
	if a, ok := s.signedIn(r); ok {
		signed = &a
	}
	a, err := s.acc.FinishRegistration(r.Context(), rp, req.Ceremony, signed, req.Credential)
	if err != nil {
		writeErr(w, s.accountErr(err))
		return
	}
	if signed != nil {
		writeJSON(w, http.StatusOK, s.meOf(r.Context(), a))
		return
	}
	s.log.Info("account created")
	s.signInAs(w, r, a, http.StatusCreated)
}

func (s *Server) passkeyLoginBegin(w http.ResponseWriter, r *http.Request) {
	if !s.authLim.allow(s.clientAddr(r)) {
		writeErr(w, errAuthRate)
		return
	}
	rp, err := s.rp(r)
	if err != nil {
		writeErr(w, err)
		return
	}
	opts, id, err := s.acc.BeginLogin(rp)
	if err != nil {
		writeErr(w, s.accountErr(err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ceremony": id, "publicKey": opts})
}

func (s *Server) passkeyLoginFinish(w http.ResponseWriter, r *http.Request) {
	var req ceremonyAnswer
	if err := readBody(w, r, &req); err != nil {
		writeErr(w, err)
		return
	}
	rp, err := s.rp(r)
	if err != nil {
		writeErr(w, err)
		return
	}
	a, err := s.acc.FinishLogin(r.Context(), rp, req.Ceremony, req.Credential)
	if err != nil {
		writeErr(w, s.accountErr(err))
		return
	}
	s.signInAs(w, r, a, http.StatusOK)
}

// The operator's accounts, on the operator listener (Operator): the list,
// and the lock, by name.
func (s *Server) operatorAccounts(m *http.ServeMux) {
	m.HandleFunc("GET /accounts", func(w http.ResponseWriter, r *http.Request) {
		list, err := s.st.ListAccounts(r.Context())
		if err != nil {
			writeErr(w, s.accountErr(err))
			return
		}
		out := []AccountInfo{}
		for _, a := range list {
			out = append(out, Describe(a))
		}
		writeJSON(w, http.StatusOK, out)
	})
	for _, lock := range []bool{true, false} {
		verb := map[bool]string{true: "lock", false: "unlock"}[lock]
		m.HandleFunc("POST /accounts/{name}/"+verb, func(w http.ResponseWriter, r *http.Request) {
			a, err := s.acc.Lock(r.Context(), r.PathValue("name"), lock)
			if err != nil {
				if strings.HasPrefix(err.Error(), "no account") {
					writeErr(w, fail(http.StatusNotFound, "no_account", "%s", err.Error()))
				} else {
					writeErr(w, s.accountErr(err))
				}
				return
			}
			s.log.Info("account "+verb+"ed by the operator", "name", a.Name)
			writeJSON(w, http.StatusOK, Describe(a))
		})
	}
}

// AccountInfo is an account as the operator sees it.
type AccountInfo struct {
	Name     string    `json:"name"`
	Public   bool      `json:"public"`
	Locked   bool      `json:"locked"`
	Password bool      `json:"password"`
	Created  time.Time `json:"created"`
}

// Describe is a as the operator sees it: never its hash or ID.
func Describe(a store.Account) AccountInfo {
	return AccountInfo{Name: a.Name, Public: a.Public, Locked: a.Locked, Password: a.PasswordHash != "", Created: a.Created}
}
