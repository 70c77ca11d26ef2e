package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's costs (RFC 9106). A hash keeps the costs it was
// made with, so that raising them leaves older passwords readable.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
}

// DefaultParams are OWASP's first choice for argon2id (19 MiB, two passes,
// one thread): tens of milliseconds a hash, and a flood of guesses pays
// as much per guess.
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1}

const (
	saltLen = 16
	keyLen  = 32
	// MaxPassword bounds a password, in bytes: argon2 reads all of it.
	MaxPassword = 1024
	// MinPassword is the shortest password, in characters (NIST SP 800-63B).
	MinPassword = 8
)

// Hasher makes and checks password hashes, a bounded number at once: a
// hash holds Params.Memory for its time, and a flood of sign-ins must
// not hold it many times over.
type Hasher struct {
	p     Params
	slots chan struct{}
	dummy string // a hash of nothing anyone can type, checked for a missing name
	// hashed counts the hashes made and checked (tests: a missing name
	// costs as much as a wrong password).
	hashed func()
}

// NewHasher makes a Hasher with p that runs at most concurrent hashes at
// once (at least one).
func NewHasher(p Params, concurrent int) *Hasher {
	h := &Hasher{p: p, slots: make(chan struct{}, max(concurrent, 1))}
	// A random salt and a random key: no password hashes to it, and it is
	// made without hashing, so that the server starts as fast as before
	// (a hash here held every start-up, and a crash's restart, ~200 ms).
	var b [saltLen + keyLen]byte
	rand.Read(b[:])
	h.dummy = h.format(b[:saltLen], b[saltLen:])
	return h
}

func (h *Hasher) encode(salt, password []byte) string {
	return h.format(salt, argon2.IDKey(password, salt, h.p.Time, h.p.Memory, h.p.Threads, keyLen))
}

func (h *Hasher) format(salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, h.p.Memory, h.p.Time, h.p.Threads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// take waits for a slot (or ctx).
func (h *Hasher) take(ctx context.Context) (release func(), err error) {
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if h.hashed != nil {
		h.hashed()
	}
	return func() { <-h.slots }, nil
}

// Hash is password's hash in the PHC string format, with a fresh salt.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	release, err := h.take(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	salt := make([]byte, saltLen)
	rand.Read(salt)
	return h.encode(salt, []byte(password)), nil
}

// errBadHash: a stored hash that is not argon2id's PHC string.
var errBadHash = errors.New("accounts: the stored password hash is not an argon2id hash")

// Verify tells whether password is the one hashed. An empty hash (an
// account without a password) is checked against the dummy hash, so that
// it takes as long, and is false.
func (h *Hasher) Verify(ctx context.Context, hash, password string) (bool, error) {
	want := hash
	if hash == "" {
		want = h.dummy
	}
	p, salt, key, err := decode(want)
	if err != nil {
		return false, err
	}
	release, err := h.take(ctx)
	if err != nil {
		return false, err
	}
	defer release()
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(key)))
	return hash != "" && subtle.ConstantTimeCompare(got, key) == 1, nil
}

// VerifyNone spends a check on no account: a name that does not exist
// takes as long to refuse as a wrong password.
func (h *Hasher) VerifyNone(ctx context.Context, password string) error {
	_, err := h.Verify(ctx, "", password)
	return err
}

// decode reads a PHC string: $argon2id$v=19$m=M,t=T,p=P$SALT$KEY.
func decode(s string) (Params, []byte, []byte, error) {
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return Params{}, nil, nil, errBadHash
	}
	var v int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return Params{}, nil, nil, fmt.Errorf("%w (version %q)", errBadHash, parts[2])
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return Params{}, nil, nil, fmt.Errorf("%w (costs %q)", errBadHash, parts[3])
	}
	// A damaged or hostile row must not make a check take a server's memory.
	if p.Memory < 8 || p.Memory > 1<<20 || p.Time < 1 || p.Time > 16 || p.Threads < 1 {
		return Params{}, nil, nil, fmt.Errorf("%w (costs out of bounds: %q)", errBadHash, parts[3])
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	key, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(salt) < 8 || len(key) < 16 || len(key) > 64 {
		return Params{}, nil, nil, fmt.Errorf("%w (salt or key)", errBadHash)
	}
	return p, salt, key, nil
}
