package storetest

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// Account is an account named name, created at At(created), public, with a
// password hash.
func Account(id, name string, created int) store.Account {
	return store.Account{ID: id, Name: name, Public: true, Created: At(created), PasswordHash: "$argon2id$v=19$m=65536,t=1,p=2$c2FsdA$aGFzaA"}
}

// CreateAccount creates a or fails the test.
func CreateAccount(t testing.TB, st store.Store, a store.Account) {
	t.Helper()
	if err := st.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
}

// WantAccount checks that st holds want, by its ID and by its name.
func WantAccount(t testing.TB, st store.Store, want store.Account) {
	t.Helper()
	got, err := st.AccountByID(ctx, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("account %s:\n got %+v\nwant %+v", want.ID, got, want)
	}
	got, err = st.AccountByName(ctx, want.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("account named %s:\n got %+v\nwant %+v", want.Name, got, want)
	}
}

func passkey(id, account string, created int) store.Passkey {
	return store.Passkey{ID: []byte("cred-" + id), AccountID: account, Data: []byte(`{"id":"` + id + `","count":0}`), Created: At(created)}
}

func session(hash, account string, expires int) store.Session {
	return store.Session{Hash: hash, AccountID: account, Created: At(0), Expires: At(expires)}
}

// An account is read back as it was stored, by its ID and by its name in
// any case; the list is by name.
func (s suite) testAccountRoundTrip(t *testing.T) {
	st := s.open(t)
	bare := store.Account{ID: "01B", Name: "狼人 Bob"} // private, no password, no time
	local := Account("01C", "Carol", 3)
	local.Created = local.Created.In(time.FixedZone("CST", 8*3600))
	for _, a := range []store.Account{Account("01A", "Alice", 1), bare, local} {
		CreateAccount(t, st, a)
	}
	local.Created = local.Created.UTC() // the store answers in UTC
	WantAccount(t, st, Account("01A", "Alice", 1))
	WantAccount(t, st, bare)
	WantAccount(t, st, local)
	for _, name := range []string{"ALICE", "alice", "Alice"} {
		a, err := st.AccountByName(ctx, name)
		if err != nil || a.ID != "01A" {
			t.Errorf("AccountByName(%q) = %+v, %v; want Alice's account", name, a, err)
		}
	}
	list, err := st.ListAccounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range list {
		names = append(names, a.Name)
	}
	if want := []string{"Alice", "Carol", "狼人 Bob"}; !slices.Equal(names, want) {
		t.Errorf("ListAccounts: got %q, want %q", names, want)
	}
}

// A name is one account's, whatever its case or its Unicode form; a
// refused account changes nothing.
func (s suite) testAccountNameIsUnique(t *testing.T) {
	st := s.open(t)
	CreateAccount(t, st, Account("01A", "Alice", 1))
	CreateAccount(t, st, Account("01E", "Ren\u00e9", 1)) // é precomposed
	for _, a := range []store.Account{Account("01B", "alice", 2), Account("01C", "ALICE", 2), Account("01F", "Rene\u0301", 2)} {
		if err := st.CreateAccount(ctx, a); !errors.Is(err, store.ErrNameTaken) {
			t.Errorf("creating %q: got %v, want store.ErrNameTaken", a.Name, err)
		}
		if _, err := st.AccountByID(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the refused %q was stored: %v", a.Name, err)
		}
	}
	if err := st.CreateAccount(ctx, Account("01A", "Someone", 2)); err == nil || errors.Is(err, store.ErrNameTaken) {
		t.Errorf("creating an account with a taken ID: got %v, want an error that is not ErrNameTaken", err)
	}
	for _, c := range []struct {
		name string
		a    store.Account
		want string
	}{
		{"no ID", store.Account{Name: "x"}, "no account ID"},
		{"no name", store.Account{ID: "01D"}, "no name"},
	} {
		if err := st.CreateAccount(ctx, c.a); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %q", c.name, err, c.want)
		}
	}
	WantAccount(t, st, Account("01A", "Alice", 1))
}

// An account's password, privacy and lock are changed one at a time; a
// missing account is ErrNotFound.
func (s suite) testAccountChanges(t *testing.T) {
	st := s.open(t)
	a := Account("01A", "Alice", 1)
	CreateAccount(t, st, a)
	CreateAccount(t, st, Account("01B", "Bob", 1))
	for _, c := range []struct {
		name   string
		change func(id string) error
		apply  func(*store.Account)
	}{
		{"SetPassword", func(id string) error { return st.SetPassword(ctx, id, "$argon2id$new") }, func(a *store.Account) { a.PasswordHash = "$argon2id$new" }},
		{"SetPassword empty", func(id string) error { return st.SetPassword(ctx, id, "") }, func(a *store.Account) { a.PasswordHash = "" }},
		{"SetPublic false", func(id string) error { return st.SetPublic(ctx, id, false) }, func(a *store.Account) { a.Public = false }},
		{"SetLocked true", func(id string) error { return st.SetLocked(ctx, id, true) }, func(a *store.Account) { a.Locked = true }},
		{"SetLocked false", func(id string) error { return st.SetLocked(ctx, id, false) }, func(a *store.Account) { a.Locked = false }},
		{"SetPublic true", func(id string) error { return st.SetPublic(ctx, id, true) }, func(a *store.Account) { a.Public = true }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.change(a.ID); err != nil {
				t.Fatal(err)
			}
			c.apply(&a)
			WantAccount(t, st, a)
			wantError(t, c.change("nope"), `"nope"`, true)
		})
	}
	WantAccount(t, st, Account("01B", "Bob", 1))
}

// An account's passkeys are listed oldest first; a credential ID is one
// passkey's; a passkey's data is replaced.
func (s suite) testPasskeys(t *testing.T) {
	st := s.open(t)
	CreateAccount(t, st, Account("01A", "Alice", 1))
	CreateAccount(t, st, Account("01B", "Bob", 1))
	p1, p2, q := passkey("1", "01A", 5), passkey("2", "01A", 2), passkey("3", "01B", 1)
	for _, p := range []store.Passkey{p1, p2, q} {
		if err := st.AddPasskey(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	wantPasskeys(t, st, "01A", p2, p1)
	wantPasskeys(t, st, "01B", q)
	wantPasskeys(t, st, "nope")
	if err := st.AddPasskey(ctx, passkey("1", "01B", 9)); !errors.Is(err, store.ErrPasskeyTaken) {
		t.Errorf("adding a credential ID twice: got %v, want store.ErrPasskeyTaken", err)
	}
	wantError(t, st.AddPasskey(ctx, passkey("9", "nope", 9)), `"nope"`, true)
	if err := st.AddPasskey(ctx, store.Passkey{AccountID: "01A"}); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Errorf("adding a passkey without an ID: got %v", err)
	}
	p1.Data = []byte(`{"id":"1","count":7}`)
	if err := st.UpdatePasskey(ctx, p1); err != nil {
		t.Fatal(err)
	}
	wantPasskeys(t, st, "01A", p2, p1)
	wantPasskeys(t, st, "01B", q)
	wantError(t, st.UpdatePasskey(ctx, passkey("9", "01A", 1)), `"01A"`, true)
	// Another account's passkey is not updated through this one.
	wantError(t, st.UpdatePasskey(ctx, store.Passkey{ID: q.ID, AccountID: "01A", Data: []byte(`{}`)}), `"01A"`, true)
	wantPasskeys(t, st, "01B", q)
}

func wantPasskeys(t *testing.T, st store.Store, account string, want ...store.Passkey) {
	t.Helper()
	got, err := st.Passkeys(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
		t.Errorf("passkeys of %s:\n got %+v\nwant %+v", account, got, want)
	}
}

// A session is read by its hash until deleted, or pruned once expired.
func (s suite) testSessions(t *testing.T) {
	st := s.open(t)
	CreateAccount(t, st, Account("01A", "Alice", 1))
	old, cur := session("h-old", "01A", 10), session("h-cur", "01A", 30)
	for _, x := range []store.Session{old, cur} {
		if err := st.CreateSession(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	wantSession(t, st, old)
	wantSession(t, st, cur)
	if err := st.CreateSession(ctx, old); err == nil {
		t.Error("a session was created twice")
	}
	wantError(t, st.CreateSession(ctx, session("h-x", "nope", 30)), `"nope"`, true)
	if err := st.CreateSession(ctx, session("", "01A", 30)); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Errorf("a session without a hash: got %v", err)
	}
	if err := st.DeleteExpiredSessions(ctx, At(20)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Session(ctx, "h-old"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an expired session was kept: %v", err)
	}
	wantSession(t, st, cur)
	if err := st.DeleteSession(ctx, "h-cur"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Session(ctx, "h-cur"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a deleted session was kept: %v", err)
	}
	if err := st.DeleteSession(ctx, "h-cur"); err != nil {
		t.Errorf("deleting a session again: %v", err)
	}
}

func wantSession(t *testing.T, st store.Store, want store.Session) {
	t.Helper()
	got, err := st.Session(ctx, want.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("session %s:\n got %+v\nwant %+v", want.Hash, got, want)
	}
}

// A seat is linked to one account at a time; linking again replaces the
// link, "" drops it.
func (s suite) testSeatLinks(t *testing.T) {
	st := s.open(t)
	CreateAccount(t, st, Account("01A", "Alice", 1))
	CreateAccount(t, st, Account("01B", "Bob", 1))
	for _, l := range []struct {
		room    string
		seat    int
		account string
	}{{"r1", 1, "01A"}, {"r1", 2, "01B"}, {"r2", 3, "01A"}, {"r1", 2, "01A"}, {"r1", 1, ""}, {"r2", 4, ""}} {
		if err := st.LinkSeat(ctx, l.room, l.seat, l.account); err != nil {
			t.Fatalf("LinkSeat(%s, %d, %q): %v", l.room, l.seat, l.account, err)
		}
	}
	wantSeats(t, st, "r1", map[int]string{2: "01A"})
	wantSeats(t, st, "r2", map[int]string{3: "01A"})
	wantSeats(t, st, "r3", map[int]string{})
	wantAccountSeats(t, st, "01A", []store.SeatLink{{RoomID: "r1", Seat: 2}, {RoomID: "r2", Seat: 3}})
	wantAccountSeats(t, st, "01B", nil)
	wantError(t, st.LinkSeat(ctx, "r1", 5, "nope"), `"nope"`, true)
	for _, c := range []struct {
		room string
		seat int
		want string
	}{{"", 1, "no room"}, {"r1", 0, "seat 0"}, {"r1", -1, "seat -1"}} {
		if err := st.LinkSeat(ctx, c.room, c.seat, "01A"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LinkSeat(%q, %d): got %v, want an error naming %q", c.room, c.seat, err, c.want)
		}
	}
	wantSeats(t, st, "r1", map[int]string{2: "01A"})
}

func wantSeats(t *testing.T, st store.Store, room string, want map[int]string) {
	t.Helper()
	got, err := st.SeatAccounts(ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || !reflect.DeepEqual(got, want) {
		t.Errorf("seats of %s: got %v, want %v", room, got, want)
	}
}

func wantAccountSeats(t *testing.T, st store.Store, account string, want []store.SeatLink) {
	t.Helper()
	got, err := st.AccountSeats(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
		t.Errorf("seats of account %s: got %v, want %v", account, got, want)
	}
}

// Deleting an account leaves nothing of it: not the account, its passkeys,
// its sessions nor its seats; its name is free again. Another account
// keeps all of its own.
func (s suite) testDeleteAccount(t *testing.T) {
	st := s.open(t)
	for _, a := range []store.Account{Account("01A", "Alice", 1), Account("01B", "Bob", 1)} {
		CreateAccount(t, st, a)
		for i, call := range []func() error{
			func() error { return st.AddPasskey(ctx, passkey(a.ID, a.ID, 1)) },
			func() error { return st.CreateSession(ctx, session("h-"+a.ID, a.ID, 30)) },
			func() error { return st.LinkSeat(ctx, "r-"+a.ID, 1, a.ID) },
			func() error { return st.LinkSeat(ctx, "shared", len(a.Name), a.ID) },
		} {
			if err := call(); err != nil {
				t.Fatalf("%s, step %d: %v", a.Name, i, err)
			}
		}
	}
	if err := st.DeleteAccount(ctx, "01A"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AccountByID(ctx, "01A"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AccountByID: %v, want ErrNotFound", err)
	}
	if _, err := st.AccountByName(ctx, "alice"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AccountByName: %v, want ErrNotFound", err)
	}
	wantPasskeys(t, st, "01A")
	if _, err := st.Session(ctx, "h-01A"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Session: %v, want ErrNotFound", err)
	}
	wantAccountSeats(t, st, "01A", nil)
	wantSeats(t, st, "r-01A", map[int]string{})
	wantSeats(t, st, "shared", map[int]string{3: "01B"})
	list, err := st.ListAccounts(ctx)
	if err != nil || len(list) != 1 || list[0].ID != "01B" {
		t.Errorf("ListAccounts: %+v, %v; want Bob's alone", list, err)
	}
	// Bob keeps everything.
	WantAccount(t, st, Account("01B", "Bob", 1))
	wantPasskeys(t, st, "01B", passkey("01B", "01B", 1))
	wantSession(t, st, session("h-01B", "01B", 30))
	wantAccountSeats(t, st, "01B", []store.SeatLink{{RoomID: "r-01B", Seat: 1}, {RoomID: "shared", Seat: 3}})

	wantError(t, st.DeleteAccount(ctx, "01A"), `"01A"`, true)
	CreateAccount(t, st, Account("01C", "alice", 2)) // the name is free
	wantPasskeys(t, st, "01C")
	wantAccountSeats(t, st, "01C", nil)
}

// What the accounts hold survives the store being closed and opened again.
func (s suite) testAccountsReopen(t *testing.T) {
	st := s.open(t)
	a := Account("01A", "Alice", 1)
	a.Locked = true
	CreateAccount(t, st, a)
	p := passkey("1", "01A", 1)
	x := session("h", "01A", 30)
	for _, call := range []func() error{
		func() error { return st.AddPasskey(ctx, p) },
		func() error { return st.CreateSession(ctx, x) },
		func() error { return st.LinkSeat(ctx, "r1", 4, "01A") },
	} {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	again := s.open(t)
	WantAccount(t, again, a)
	wantPasskeys(t, again, "01A", p)
	wantSession(t, again, x)
	wantSeats(t, again, "r1", map[int]string{4: "01A"})
}

// The accounts' calls on a closed store are store.ErrClosed.
func (s suite) testClosedStoreRefusesAccounts(t *testing.T) {
	st := s.open(t)
	CreateAccount(t, st, Account("01A", "Alice", 1))
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"CreateAccount":         func() error { return st.CreateAccount(ctx, Account("01B", "Bob", 1)) },
		"AccountByID":           func() error { _, err := st.AccountByID(ctx, "01A"); return err },
		"AccountByName":         func() error { _, err := st.AccountByName(ctx, "Alice"); return err },
		"ListAccounts":          func() error { _, err := st.ListAccounts(ctx); return err },
		"SetPassword":           func() error { return st.SetPassword(ctx, "01A", "") },
		"SetPublic":             func() error { return st.SetPublic(ctx, "01A", false) },
		"SetLocked":             func() error { return st.SetLocked(ctx, "01A", true) },
		"DeleteAccount":         func() error { return st.DeleteAccount(ctx, "01A") },
		"AddPasskey":            func() error { return st.AddPasskey(ctx, passkey("1", "01A", 1)) },
		"UpdatePasskey":         func() error { return st.UpdatePasskey(ctx, passkey("1", "01A", 1)) },
		"Passkeys":              func() error { _, err := st.Passkeys(ctx, "01A"); return err },
		"CreateSession":         func() error { return st.CreateSession(ctx, session("h", "01A", 1)) },
		"Session":               func() error { _, err := st.Session(ctx, "h"); return err },
		"DeleteSession":         func() error { return st.DeleteSession(ctx, "h") },
		"DeleteExpiredSessions": func() error { return st.DeleteExpiredSessions(ctx, At(1)) },
		"LinkSeat":              func() error { return st.LinkSeat(ctx, "r1", 1, "01A") },
		"SeatAccounts":          func() error { _, err := st.SeatAccounts(ctx, "r1"); return err },
		"AccountSeats":          func() error { _, err := st.AccountSeats(ctx, "01A"); return err },
	} {
		t.Run(name, func(t *testing.T) {
			if err := call(); !errors.Is(err, store.ErrClosed) {
				t.Errorf("got %v, want store.ErrClosed", err)
			}
		})
	}
}
