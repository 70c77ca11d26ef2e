package accounts

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/wolfden/wolfden/internal/store"
)

// RP is the relying party a passkey ceremony is made for: the domain the
// passkeys belong to (ID) and the page's origin, as the server derives
// them from the request (or --rp-id).
type RP struct {
	ID     string // "wolf.example.com", "localhost"
	Origin string // "https://wolf.example.com", "http://localhost:8080"
}

// ErrNoCeremony: the passkey ceremony is unknown or has run out (it lasts
// ceremonyTTL, and finishes on the server it began on).
var ErrNoCeremony = errors.New("this passkey request has expired; try again")

const (
	ceremonyTTL = 5 * time.Minute
	// maxCeremonies bounds the ceremonies waiting for their answer: a
	// flood of beginnings (rate-limited per address already) cannot grow
	// the server's memory past it.
	maxCeremonies = 10000
	// maxRPs bounds the relying parties kept configured.
	maxRPs = 16
)

// ceremony is a begun registration or sign-in, waiting for the browser.
type ceremony struct {
	rp      RP
	data    webauthn.SessionData
	account string // the signed-in account adding a passkey ("" to sign up or in)
	name    string // the new account's name (a sign-up with a passkey)
	login   bool
	expires time.Time
}

type passkeys struct {
	mu      sync.Mutex
	pending map[string]ceremony
	rps     map[RP]*webauthn.WebAuthn
}

func newPasskeys() passkeys {
	return passkeys{pending: map[string]ceremony{}, rps: map[RP]*webauthn.WebAuthn{}}
}

// user is an account as WebAuthn sees it: the account ID is its handle.
type user struct {
	id, name string
	creds    []webauthn.Credential
}

func (u *user) WebAuthnID() []byte                         { return []byte(u.id) }
func (u *user) WebAuthnName() string                       { return u.name }
func (u *user) WebAuthnDisplayName() string                { return u.name }
func (u *user) WebAuthnCredentials() []webauthn.Credential { return u.creds }

func (s *Service) webauthn(rp RP) (*webauthn.WebAuthn, error) {
	s.pk.mu.Lock()
	defer s.pk.mu.Unlock()
	if w, ok := s.pk.rps[rp]; ok {
		return w, nil
	}
	w, err := webauthn.New(&webauthn.Config{RPID: rp.ID, RPDisplayName: s.rpName, RPOrigins: []string{rp.Origin}})
	if err != nil {
		return nil, fmt.Errorf("passkeys for %s at %s: %w", rp.ID, rp.Origin, err)
	}
	if len(s.pk.rps) >= maxRPs {
		clear(s.pk.rps)
	}
	s.pk.rps[rp] = w
	return w, nil
}

// begin keeps c until its answer comes, under a new ID.
func (s *Service) begin(c ceremony) (string, error) {
	var b [16]byte
	rand.Read(b[:])
	id := base64.RawURLEncoding.EncodeToString(b[:])
	now := s.now()
	c.expires = now.Add(ceremonyTTL)
	s.pk.mu.Lock()
	defer s.pk.mu.Unlock()
	if len(s.pk.pending) >= maxCeremonies {
		for k, p := range s.pk.pending {
			if now.After(p.expires) {
				delete(s.pk.pending, k)
			}
		}
		if len(s.pk.pending) >= maxCeremonies {
			return "", errors.New("too many passkey requests at once; try again in a minute")
		}
	}
	s.pk.pending[id] = c
	return id, nil
}

// take removes and returns a ceremony begun for rp.
func (s *Service) take(id string, rp RP, login bool) (ceremony, error) {
	s.pk.mu.Lock()
	c, ok := s.pk.pending[id]
	delete(s.pk.pending, id)
	s.pk.mu.Unlock()
	if !ok || c.rp != rp || c.login != login || s.now().After(c.expires) {
		return ceremony{}, ErrNoCeremony
	}
	return c, nil
}

func (s *Service) userOf(ctx context.Context, a store.Account) (*user, error) {
	keys, err := s.st.Passkeys(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	u := &user{id: a.ID, name: a.Name}
	for _, k := range keys {
		var c webauthn.Credential
		if err := json.Unmarshal(k.Data, &c); err != nil {
			return nil, fmt.Errorf("passkey of account %s: %w", a.ID, err)
		}
		u.creds = append(u.creds, c)
	}
	return u, nil
}

// BeginRegistration starts adding a passkey: to the signed-in account
// (signedIn), or to a new account named name. What it returns goes to the
// browser's navigator.credentials.create (its publicKey member), with the
// ceremony's ID for the answer.
func (s *Service) BeginRegistration(ctx context.Context, rp RP, signedIn *store.Account, name string) (options any, id string, err error) {
	w, err := s.webauthn(rp)
	if err != nil {
		return nil, "", err
	}
	c := ceremony{rp: rp}
	var u *user
	if signedIn != nil {
		c.account = signedIn.ID
		if u, err = s.userOf(ctx, *signedIn); err != nil {
			return nil, "", err
		}
	} else {
		if name, err = CheckName(name); err != nil {
			return nil, "", err
		}
		// A sign-up says that a name is taken, as SignUp does.
		if _, err := s.st.AccountByName(ctx, name); err == nil {
			return nil, "", ErrNameTaken
		} else if !errors.Is(err, store.ErrNotFound) {
			return nil, "", err
		}
		c.name = name
		u = &user{id: newID(), name: name}
	}
	creation, data, err := w.BeginRegistration(u,
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
		webauthn.WithExclusions(webauthn.Credentials(u.creds).CredentialDescriptors()))
	if err != nil {
		return nil, "", err
	}
	c.data = *data
	if id, err = s.begin(c); err != nil {
		return nil, "", err
	}
	return creation.Response, id, nil
}

// FinishRegistration checks the browser's answer (the credential's JSON)
// and stores the passkey: the account it was added to, or the new one.
func (s *Service) FinishRegistration(ctx context.Context, rp RP, id string, signedIn *store.Account, answer []byte) (store.Account, error) {
	c, err := s.take(id, rp, false)
	if err != nil {
		return store.Account{}, err
	}
	if (signedIn == nil) != (c.account == "") || (signedIn != nil && signedIn.ID != c.account) {
		return store.Account{}, ErrNoCeremony // begun by another account, or signed in or out since
	}
	w, err := s.webauthn(rp)
	if err != nil {
		return store.Account{}, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(answer)
	if err != nil {
		return store.Account{}, &InputError{"passkey", "the browser's answer could not be read: " + err.Error()}
	}
	var a store.Account
	var u *user
	if signedIn != nil {
		a = *signedIn
		if u, err = s.userOf(ctx, a); err != nil {
			return store.Account{}, err
		}
	} else {
		a = store.Account{ID: string(c.data.UserID), Name: c.name, Public: true, Created: s.now().UTC()}
		u = &user{id: a.ID, name: a.Name}
	}
	cred, err := w.CreateCredential(u, c.data, parsed)
	if err != nil {
		return store.Account{}, &InputError{"passkey", "the passkey was not accepted: " + err.Error()}
	}
	data, err := json.Marshal(cred)
	if err != nil {
		return store.Account{}, err
	}
	if signedIn == nil {
		if err := s.st.CreateAccount(ctx, a); err != nil {
			if errors.Is(err, store.ErrNameTaken) {
				return store.Account{}, ErrNameTaken
			}
			return store.Account{}, err
		}
	}
	if err := s.st.AddPasskey(ctx, store.Passkey{ID: cred.ID, AccountID: a.ID, Data: data, Created: s.now().UTC()}); err != nil {
		if signedIn == nil {
			s.st.DeleteAccount(ctx, a.ID) // an account without its only way in is no account
		}
		return store.Account{}, err
	}
	return a, nil
}

// BeginLogin starts a sign-in with a passkey the browser offers (a
// discoverable credential: no name is asked, so none is told).
func (s *Service) BeginLogin(rp RP) (options any, id string, err error) {
	w, err := s.webauthn(rp)
	if err != nil {
		return nil, "", err
	}
	assertion, data, err := w.BeginDiscoverableLogin()
	if err != nil {
		return nil, "", err
	}
	if id, err = s.begin(ceremony{rp: rp, data: *data, login: true}); err != nil {
		return nil, "", err
	}
	return assertion.Response, id, nil
}

// FinishLogin checks the browser's answer and is the account it signs in.
// Whatever fails is ErrBadLogin (ErrLocked for a locked account).
func (s *Service) FinishLogin(ctx context.Context, rp RP, id string, answer []byte) (store.Account, error) {
	c, err := s.take(id, rp, true)
	if err != nil {
		return store.Account{}, err
	}
	w, err := s.webauthn(rp)
	if err != nil {
		return store.Account{}, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(answer)
	if err != nil {
		return store.Account{}, ErrBadLogin
	}
	var a store.Account
	found, cred, err := w.ValidatePasskeyLogin(func(_, handle []byte) (webauthn.User, error) {
		var err error
		if a, err = s.st.AccountByID(ctx, string(handle)); err != nil {
			return nil, err
		}
		return s.userOf(ctx, a)
	}, c.data, parsed)
	if err != nil || found == nil {
		return store.Account{}, ErrBadLogin
	}
	// The signature counter and flags move at each use: keep them.
	if data, err := json.Marshal(cred); err == nil {
		keys, _ := s.st.Passkeys(ctx, a.ID)
		for _, k := range keys {
			if bytes.Equal(k.ID, cred.ID) {
				k.Data = data
				if err := s.st.UpdatePasskey(ctx, k); err != nil {
					return store.Account{}, err
				}
			}
		}
	}
	if a.Locked {
		return store.Account{}, ErrLocked
	}
	return a, nil
}
