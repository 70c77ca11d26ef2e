package accounts

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
)

var ctx = context.Background()

// cheap are costs small enough for tests; the rules checked do not depend
// on them.
var cheap = Params{Memory: 64, Time: 1, Threads: 1}

func newService(t *testing.T) (*Service, *memory.Store, *atomic.Int64) {
	t.Helper()
	st := memory.New()
	s := New(st, Options{Params: cheap})
	var hashed atomic.Int64
	s.h.hashed = func() { hashed.Add(1) }
	return s, st, &hashed
}

func TestPasswordHashRoundTrip(t *testing.T) {
	h := NewHasher(cheap, 1)
	hash, err := h.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Errorf("hash %q is not argon2id's PHC string with its costs", hash)
	}
	for pw, want := range map[string]bool{"correct horse": true, "correct hors": false, "": false} {
		if ok, err := h.Verify(ctx, hash, pw); err != nil || ok != want {
			t.Errorf("Verify(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	// A hash made with other costs is still checked with its own.
	other, _ := NewHasher(Params{Memory: 128, Time: 2, Threads: 2}, 1).Hash(ctx, "pw-older-costs")
	if ok, err := h.Verify(ctx, other, "pw-older-costs"); err != nil || !ok {
		t.Errorf("a hash of other costs: %v, %v", ok, err)
	}
	again, _ := h.Hash(ctx, "correct horse")
	if again == hash {
		t.Error("two hashes of one password are equal: the salt is not fresh")
	}
}

func TestDamagedHashIsAnErrorNotAMatch(t *testing.T) {
	h := NewHasher(cheap, 1)
	for _, bad := range []string{
		"plain", "$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5",
		"$argon2id$v=19$m=4194304,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5", // 4 GiB: refused before hashing
		"$argon2id$v=19$m=64,t=1,p=1$!!$a2V5a2V5a2V5a2V5a2V5",
	} {
		if ok, err := h.Verify(ctx, bad, "x"); ok || err == nil {
			t.Errorf("Verify(%q) = %v, %v; want an error", bad, ok, err)
		}
	}
}

// Signing in with a name that does not exist costs one password check, as
// a wrong password does, and gives the same error: neither the answer nor
// the time tells whether the name exists.
func TestSignInDoesNotTellWhetherTheNameExists(t *testing.T) {
	s, _, hashed := newService(t)
	if _, err := s.SignUp(ctx, "Alice", "password-1"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, password string }{{"Alice", "wrong-password"}, {"Nobody", "wrong-password"}, {"nobody", "password-1"}} {
		hashed.Store(0)
		_, err := s.SignIn(ctx, c.name, c.password)
		if !errors.Is(err, ErrBadLogin) {
			t.Errorf("SignIn(%s, %s): %v, want ErrBadLogin", c.name, c.password, err)
		}
		if n := hashed.Load(); n != 1 {
			t.Errorf("SignIn(%s, %s) made %d password checks, want 1", c.name, c.password, n)
		}
	}
	a, err := s.SignIn(ctx, "ALICE", "password-1")
	if err != nil || a.Name != "Alice" {
		t.Errorf("SignIn in another case: %+v, %v", a, err)
	}
}

// A taken name is told at sign-up (it cannot be otherwise), after a
// password hash as for a free one.
func TestSignUpTakesTimeWhetherTheNameIsFreeOrNot(t *testing.T) {
	s, _, hashed := newService(t)
	if _, err := s.SignUp(ctx, "Alice", "password-1"); err != nil {
		t.Fatal(err)
	}
	hashed.Store(0)
	if _, err := s.SignUp(ctx, "alice", "password-2"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("a taken name: %v", err)
	}
	if hashed.Load() != 1 {
		t.Errorf("a taken name made %d hashes, want 1", hashed.Load())
	}
}

func TestSignUpChecksTheNameAndPassword(t *testing.T) {
	s, st, _ := newService(t)
	for _, c := range []struct{ name, password, field string }{
		{"", "password-1", "name"},
		{" Alice", "password-1", "name"},
		{strings.Repeat("狼", MaxName+1), "password-1", "name"},
		{"Al\u202eice", "password-1", "name"},
		{"Alice", "short", "password"},
		{"Alice", strings.Repeat("x", MaxPassword+1), "password"},
	} {
		_, err := s.SignUp(ctx, c.name, c.password)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field {
			t.Errorf("SignUp(%q, %d bytes): %v, want an error about the %s", c.name, len(c.password), err, c.field)
		}
	}
	if list, _ := st.ListAccounts(ctx); len(list) != 0 {
		t.Errorf("refused sign-ups stored %+v", list)
	}
}

// A locked account cannot sign in, and its sessions stop at once; unlocked,
// it can again.
func TestLockedAccountIsRefused(t *testing.T) {
	s, _, _ := newService(t)
	a, _ := s.SignUp(ctx, "Alice", "password-1")
	tok, _, err := s.StartSession(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lock(ctx, "alice", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, tok); !errors.Is(err, ErrNoSession) {
		t.Errorf("a locked account's session: %v", err)
	}
	if _, err := s.SignIn(ctx, "Alice", "password-1"); !errors.Is(err, ErrLocked) {
		t.Errorf("a locked account signs in: %v", err)
	}
	if _, err := s.SignIn(ctx, "Alice", "password-2"); !errors.Is(err, ErrBadLogin) {
		t.Errorf("a locked account with a wrong password: %v, want ErrBadLogin (the lock is told only to its owner)", err)
	}
	if _, err := s.Lock(ctx, "Alice", false); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Session(ctx, tok); err != nil || got.ID != a.ID {
		t.Errorf("unlocked: %+v, %v", got, err)
	}
	if _, err := s.Lock(ctx, "nobody", true); err == nil || !strings.Contains(err.Error(), `"nobody"`) {
		t.Errorf("locking a missing name: %v", err)
	}
}

func TestSessionEndsWhenItExpiresOrSignsOut(t *testing.T) {
	s, st, _ := newService(t)
	a, _ := s.SignUp(ctx, "Alice", "password-1")
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	tok, exp, _ := s.StartSession(ctx, a.ID)
	if !exp.Equal(now.Add(SessionTTL)) {
		t.Errorf("expires %v", exp)
	}
	if got, err := s.Session(ctx, tok); err != nil || got.ID != a.ID {
		t.Fatalf("Session: %+v, %v", got, err)
	}
	if _, err := st.Session(ctx, tok); err == nil {
		t.Error("the store keeps the token itself, not its hash")
	}
	for _, bad := range []string{"", "nope", strings.Repeat("x", 100)} {
		if _, err := s.Session(ctx, bad); !errors.Is(err, ErrNoSession) {
			t.Errorf("Session(%q): %v", bad, err)
		}
	}
	now = exp
	if _, err := s.Session(ctx, tok); !errors.Is(err, ErrNoSession) {
		t.Errorf("an expired session: %v", err)
	}
	if _, err := st.Session(ctx, HashSession(tok)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an expired session is kept: %v", err)
	}
	now = now.Add(-time.Hour)
	tok2, _, _ := s.StartSession(ctx, a.ID)
	if err := s.EndSession(ctx, tok2); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, tok2); !errors.Is(err, ErrNoSession) {
		t.Errorf("a session signed out: %v", err)
	}
}

// BenchmarkHash is one password hash at DefaultParams: what a sign-up, a
// sign-in and a sign-in with a missing name each cost the server.
func BenchmarkHash(b *testing.B) {
	h := NewHasher(DefaultParams, 1)
	for b.Loop() {
		if _, err := h.Hash(ctx, "correct horse battery"); err != nil {
			b.Fatal(err)
		}
	}
}
