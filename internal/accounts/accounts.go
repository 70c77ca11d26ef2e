// Package accounts holds players' optional accounts (docs/accounts.md): a
// name with a password (argon2id) or passkeys (WebAuthn), sessions, the
// operator's lock. Guests need none of it. It sits at the edge: the server
// uses it, the game never does, and it keeps everything in a store.Accounts.
package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/oklog/ulid/v2"
	"golang.org/x/text/unicode/norm"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/usertext"
)

var (
	// ErrBadLogin: the name or the password is wrong. Which of the two is
	// never told: a name that does not exist is refused as a wrong
	// password is, after as long.
	ErrBadLogin = errors.New("the name or the password is wrong")
	// ErrLocked: the server's operator locked the account.
	ErrLocked = errors.New("this account is locked by the server's operator")
	// ErrNameTaken: another account has the name.
	ErrNameTaken = errors.New("this name is taken")
	// ErrNoSession: no signed-in session (none, expired, ended, or its
	// account locked or deleted).
	ErrNoSession = errors.New("not signed in")
)

// InputError is a name or a password that breaks a rule, in words the
// player can act on.
type InputError struct {
	Field string // "name", "password"
	Msg   string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Msg }

// MaxName bounds an account's name, in characters (a seat's nickname is at
// most 40: an account's name fits in one).
const MaxName = 24

// SessionTTL is how long a session lasts without signing in again.
const SessionTTL = 30 * 24 * time.Hour

// Options configure a Service.
type Options struct {
	// Params are the password hashes' costs (DefaultParams if zero).
	Params Params
	// Hashes bounds the password hashes made at once (the CPUs if 0).
	Hashes int
	// SessionTTL is a session's life (SessionTTL if 0).
	SessionTTL time.Duration
	// RPName is the name a passkey is saved under ("wolfden" if "").
	RPName string
}

// Service is the accounts, on a store.
type Service struct {
	st     store.Accounts
	h      *Hasher
	ttl    time.Duration
	now    func() time.Time
	rpName string
	pk     passkeys
}

// New makes the accounts' service on st.
func New(st store.Accounts, o Options) *Service {
	if o.Params == (Params{}) {
		o.Params = DefaultParams
	}
	if o.Hashes <= 0 {
		o.Hashes = runtime.NumCPU()
	}
	if o.SessionTTL <= 0 {
		o.SessionTTL = SessionTTL
	}
	if o.RPName == "" {
		o.RPName = "wolfden"
	}
	return &Service{st: st, h: NewHasher(o.Params, o.Hashes), ttl: o.SessionTTL, now: time.Now, rpName: o.RPName,
		pk: newPasskeys()}
}

// CheckName is name as an account keeps it (Unicode NFC), or why it
// cannot be one.
func CheckName(name string) (string, error) {
	name = norm.NFC.String(name)
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return "", &InputError{"name", "a name is required"}
	case n > MaxName:
		return "", &InputError{"name", fmt.Sprintf("at most %d characters", MaxName)}
	case strings.TrimSpace(name) != name:
		return "", &InputError{"name", "no space at the start or the end"}
	}
	if err := usertext.Check(name); err != nil {
		return "", &InputError{"name", err.Error()}
	}
	return name, nil
}

// CheckPassword says why password cannot be one.
func CheckPassword(password string) error {
	switch {
	case utf8.RuneCountInString(password) < MinPassword:
		return &InputError{"password", fmt.Sprintf("at least %d characters", MinPassword)}
	case len(password) > MaxPassword:
		return &InputError{"password", fmt.Sprintf("at most %d bytes", MaxPassword)}
	case !utf8.ValidString(password):
		return &InputError{"password", "not valid UTF-8"}
	}
	return nil
}

func newID() string { return ulid.Make().String() }

// SignUp makes an account with a password. Its profile is public until
// its owner makes it private.
func (s *Service) SignUp(ctx context.Context, name, password string) (store.Account, error) {
	name, err := CheckName(name)
	if err != nil {
		return store.Account{}, err
	}
	if err := CheckPassword(password); err != nil {
		return store.Account{}, err
	}
	// Hashed before the name is tried, so that a taken name answers after
	// as long as a free one.
	hash, err := s.h.Hash(ctx, password)
	if err != nil {
		return store.Account{}, err
	}
	a := store.Account{ID: newID(), Name: name, Public: true, Created: s.now().UTC(), PasswordHash: hash}
	if err := s.st.CreateAccount(ctx, a); err != nil {
		if errors.Is(err, store.ErrNameTaken) {
			return store.Account{}, ErrNameTaken
		}
		return store.Account{}, err
	}
	return a, nil
}

// SignIn checks a name and password. A missing name, an account without a
// password and a wrong password are all ErrBadLogin, each after one
// password check; a locked account is ErrLocked, told only to who knows
// its password.
func (s *Service) SignIn(ctx context.Context, name, password string) (store.Account, error) {
	if len(password) > MaxPassword {
		return store.Account{}, ErrBadLogin
	}
	a, err := s.st.AccountByName(ctx, norm.NFC.String(name))
	if errors.Is(err, store.ErrNotFound) {
		if err := s.h.VerifyNone(ctx, password); err != nil {
			return store.Account{}, err
		}
		return store.Account{}, ErrBadLogin
	}
	if err != nil {
		return store.Account{}, err
	}
	ok, err := s.h.Verify(ctx, a.PasswordHash, password)
	if err != nil {
		return store.Account{}, err
	}
	if !ok {
		return store.Account{}, ErrBadLogin
	}
	if a.Locked {
		return store.Account{}, ErrLocked
	}
	return a, nil
}

// SetPassword gives an account a new password.
func (s *Service) SetPassword(ctx context.Context, id, password string) error {
	if err := CheckPassword(password); err != nil {
		return err
	}
	hash, err := s.h.Hash(ctx, password)
	if err != nil {
		return err
	}
	return s.st.SetPassword(ctx, id, hash)
}

// HashSession is what the store keeps of a session's token.
func HashSession(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// StartSession signs an account in: the token goes in the browser's
// cookie, only its hash in the store.
func (s *Service) StartSession(ctx context.Context, accountID string) (token string, expires time.Time, err error) {
	var b [32]byte
	rand.Read(b[:])
	token = base64.RawURLEncoding.EncodeToString(b[:])
	now := s.now().UTC()
	sess := store.Session{Hash: HashSession(token), AccountID: accountID, Created: now, Expires: now.Add(s.ttl)}
	if err := s.st.CreateSession(ctx, sess); err != nil {
		return "", time.Time{}, err
	}
	return token, sess.Expires, nil
}

// Session is the account a session's token signs in: ErrNoSession for an
// unknown, expired or ended one, or one whose account is locked or gone.
func (s *Service) Session(ctx context.Context, token string) (store.Account, error) {
	if token == "" || len(token) > 64 {
		return store.Account{}, ErrNoSession
	}
	sess, err := s.st.Session(ctx, HashSession(token))
	if errors.Is(err, store.ErrNotFound) {
		return store.Account{}, ErrNoSession
	}
	if err != nil {
		return store.Account{}, err
	}
	if !s.now().Before(sess.Expires) {
		s.st.DeleteSession(ctx, sess.Hash)
		return store.Account{}, ErrNoSession
	}
	a, err := s.st.AccountByID(ctx, sess.AccountID)
	if errors.Is(err, store.ErrNotFound) {
		return store.Account{}, ErrNoSession
	}
	if err != nil {
		return store.Account{}, err
	}
	if a.Locked {
		return store.Account{}, ErrNoSession
	}
	return a, nil
}

// EndSession signs a session out.
func (s *Service) EndSession(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	return s.st.DeleteSession(ctx, HashSession(token))
}

// PruneSessions drops the sessions that have expired.
func (s *Service) PruneSessions(ctx context.Context) error {
	return s.st.DeleteExpiredSessions(ctx, s.now())
}

// Lock locks (or unlocks) the account named name: a locked account cannot
// sign in, and its sessions are refused at once. For the operator.
func (s *Service) Lock(ctx context.Context, name string, locked bool) (store.Account, error) {
	a, err := s.st.AccountByName(ctx, norm.NFC.String(name))
	if errors.Is(err, store.ErrNotFound) {
		return store.Account{}, fmt.Errorf("no account is named %q", name)
	}
	if err != nil {
		return store.Account{}, err
	}
	if err := s.st.SetLocked(ctx, a.ID, locked); err != nil {
		return store.Account{}, err
	}
	a.Locked = locked
	return a, nil
}
