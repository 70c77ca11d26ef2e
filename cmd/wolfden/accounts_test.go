package main

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/internal/accounts"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

var cheapAccounts = accounts.Options{Params: accounts.Params{Memory: 64, Time: 1, Threads: 1}}

// The operator locks and unlocks an account on the database, and on a
// running server's operator listener; a missing name is told as such.
func TestAccountsLockAndUnlock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.db")
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.New(st, cheapAccounts).SignUp(ctx, "Alice", "password-1"); err != nil {
		t.Fatal(err)
	}
	// While a server holds the file, the command says to ask it.
	if _, err := wolfden(t, "accounts", "list", "--db", path); err == nil || !strings.Contains(err.Error(), "--operator") {
		t.Errorf("a file in use: %v", err)
	}
	srv := server.New(st, server.Options{Accounts: cheapAccounts})
	op := httptest.NewServer(srv.Operator())
	addr := strings.TrimPrefix(op.URL, "http://")
	out, err := wolfden(t, "accounts", "lock", "alice", "--operator", addr)
	if err != nil || !strings.Contains(out, "Alice") || !strings.Contains(out, "true") {
		t.Errorf("lock on the operator listener: %q %v", out, err)
	}
	if _, err := wolfden(t, "accounts", "lock", "nobody", "--operator", addr); err == nil || !strings.Contains(err.Error(), `"nobody"`) {
		t.Errorf("locking a missing name: %v", err)
	}
	op.Close()
	srv.Stop()
	st.Close()

	out, err = wolfden(t, "accounts", "list", "--db", path)
	if err != nil || !strings.Contains(out, "Alice") || !strings.Contains(strings.Fields(strings.Split(out, "\n")[1])[1], "true") {
		t.Errorf("list: %q %v", out, err)
	}
	if _, err := wolfden(t, "accounts", "unlock", "ALICE", "--db", path); err != nil {
		t.Fatal(err)
	}
	out, _ = wolfden(t, "accounts", "list", "--db", path)
	if f := strings.Fields(strings.Split(out, "\n")[1]); f[1] != "false" {
		t.Errorf("after unlock: %q", out)
	}
	if _, err := wolfden(t, "accounts", "delete", "x", "--db", path); err == nil {
		t.Error("an unknown verb was taken")
	}
}
