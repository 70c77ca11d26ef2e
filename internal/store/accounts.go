package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"
)

// ErrNameTaken: another account holds the name (NameKey compares them).
var ErrNameTaken = errors.New("store: the name is taken")

// ErrPasskeyTaken: another passkey has the same credential ID.
var ErrPasskeyTaken = errors.New("store: the passkey is already registered")

// Account is a player's optional account (internal/accounts). Guests have
// none; what an account holds is its own (docs/accounts.md).
type Account struct {
	ID      string // a ULID, made by the caller
	Name    string // the display name, as the player wrote it; unique by NameKey
	Public  bool   // the profile may be read by others
	Locked  bool   // an operator locked it: it cannot sign in, its sessions are refused
	Created time.Time
	// PasswordHash is the password's argon2id hash in the PHC string
	// format, "" for an account without a password (passkeys only).
	PasswordHash string
}

// Passkey is a WebAuthn credential of an account.
type Passkey struct {
	ID        []byte // the credential ID, unique across accounts
	AccountID string
	Data      []byte // the credential as the accounts package keeps it (JSON); opaque here
	Created   time.Time
}

// Session is a signed-in browser: the store keeps the SHA-256 of its
// cookie's token, never the token.
type Session struct {
	Hash      string
	AccountID string
	Created   time.Time
	Expires   time.Time
}

// SeatLink is a seat of a room held by a signed-in player.
type SeatLink struct {
	RoomID string
	Seat   int
}

// NameKey is the form in which two names are the same name: Unicode NFC,
// then lower case ("Alice" and "alice" are one account).
func NameKey(name string) string {
	return strings.ToLower(norm.NFC.String(name))
}

// CheckAccount refuses an account that cannot be stored, in the adapters'
// words (op names the call).
func CheckAccount(op string, a Account) error {
	switch {
	case a.ID == "":
		return fmt.Errorf("%s: no account ID given", op)
	case a.Name == "":
		return fmt.Errorf("%s %s: no name given", op, a.ID)
	}
	return nil
}

// Accounts keep players' optional accounts (internal/accounts): the
// accounts themselves, their passkeys and sessions, and the seats they
// held. Deleting an account deletes all of it.
type Accounts interface {
	// CreateAccount adds a; ErrNameTaken if another account's name has
	// the same NameKey.
	CreateAccount(ctx context.Context, a Account) error
	// AccountByID reads an account (ErrNotFound).
	AccountByID(ctx context.Context, id string) (Account, error)
	// AccountByName reads the account whose name has name's NameKey
	// (ErrNotFound).
	AccountByName(ctx context.Context, name string) (Account, error)
	// ListAccounts lists every account, by NameKey.
	ListAccounts(ctx context.Context) ([]Account, error)
	// SetPassword replaces an account's password hash ("" drops it;
	// ErrNotFound).
	SetPassword(ctx context.Context, id, hash string) error
	// SetPublic makes an account's profile public or private (ErrNotFound).
	SetPublic(ctx context.Context, id string, public bool) error
	// SetLocked locks or unlocks an account (ErrNotFound).
	SetLocked(ctx context.Context, id string, locked bool) error
	// DeleteAccount removes the account and everything of it: its
	// passkeys, its sessions, its seat links, and the ledger's results
	// and ratings (ErrNotFound).
	DeleteAccount(ctx context.Context, id string) error

	// AddPasskey adds a passkey to its account (ErrNotFound for no such
	// account; ErrPasskeyTaken for a credential ID already stored).
	AddPasskey(ctx context.Context, p Passkey) error
	// UpdatePasskey replaces a stored passkey's Data (its signature
	// counter moves at each use; ErrNotFound).
	UpdatePasskey(ctx context.Context, p Passkey) error
	// Passkeys lists an account's passkeys, oldest first.
	Passkeys(ctx context.Context, accountID string) ([]Passkey, error)

	// CreateSession adds a session of an existing account (ErrNotFound).
	CreateSession(ctx context.Context, s Session) error
	// Session reads a session by its hash (ErrNotFound); expired or not:
	// the caller compares Expires with its clock.
	Session(ctx context.Context, hash string) (Session, error)
	// DeleteSession drops a session; one already gone is no error.
	DeleteSession(ctx context.Context, hash string) error
	// DeleteExpiredSessions drops the sessions that expired before t.
	DeleteExpiredSessions(ctx context.Context, t time.Time) error

	// LinkSeat records that a signed-in player holds this seat of this
	// room's current game (seats count from 1), replacing the seat's
	// link; accountID "" drops it. ErrNotFound for no such account.
	LinkSeat(ctx context.Context, roomID string, seat int, accountID string) error
	// SeatAccounts maps the room's linked seats to their accounts' IDs
	// (an empty map for none).
	SeatAccounts(ctx context.Context, roomID string) (map[int]string, error)
	// AccountSeats lists the seats an account holds, by room and seat.
	AccountSeats(ctx context.Context, accountID string) ([]SeatLink, error)
}

// CheckSeatLink refuses a seat link without its room or with a seat below
// 1, in the adapters' words (op names the call).
func CheckSeatLink(op, roomID string, seat int) error {
	switch {
	case roomID == "":
		return fmt.Errorf("%s: no room given", op)
	case seat < 1:
		return fmt.Errorf("%s of room %q: seat %d (seats count from 1)", op, roomID, seat)
	}
	return nil
}
