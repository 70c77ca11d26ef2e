package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/postgres/pgtest"
	"github.com/wolfden/wolfden/internal/store/storetest"
)

var ctx = context.Background()

func open(t testing.TB, url string) *DB {
	t.Helper()
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// adapter is the PostgreSQL store for the contract's tests: a database is
// a new database on one server started for the test.
func adapter(srv *pgtest.Server) storetest.Adapter {
	return storetest.Adapter{
		NewDB: func(t testing.TB) func(t testing.TB) store.Store {
			url := srv.NewDB(t)
			return func(t testing.TB) store.Store { return open(t, url) }
		},
	}
}

func TestContract(t *testing.T) {
	storetest.Run(t, adapter(pgtest.Start(t)))
}

func BenchmarkAppend(b *testing.B) {
	storetest.BenchmarkAppend(b, adapter(pgtest.Start(b)))
}

func BenchmarkClaimCode(b *testing.B) {
	storetest.BenchmarkClaimCode(b, adapter(pgtest.Start(b)))
}

// TestTwoStoresOnOneDatabase: two servers sharing a database (the cluster
// path) append to the same rooms at once, each record number offered by
// both: each is stored once, from one of them, and the other is told it is
// already stored, whatever transactions the two stores grouped them in.
func TestTwoStoresOnOneDatabase(t *testing.T) {
	srv := pgtest.Start(t)
	url := srv.NewDB(t)
	a, b := open(t, url), open(t, url)
	const rooms, appends = 10, 30
	for i := range rooms {
		storetest.CreateRoom(t, a, storetest.Room(fmt.Sprint(i), store.StatusRunning, i))
	}
	var stored [rooms][appends + 1][2]bool
	var wg sync.WaitGroup
	for i := range rooms {
		for s, st := range []*DB{a, b} {
			wg.Go(func() {
				id := fmt.Sprint(i)
				for n := int64(1); n <= appends; n++ {
					err := st.Append(ctx, id, storetest.Record(n))
					switch {
					case err == nil:
						stored[i][n][s] = true
					case strings.Contains(err.Error(), "is already stored"):
						// The other store was first. (Record n is offered
						// once n-1 is stored, by one store or the other, so
						// there is no gap.)
					default:
						t.Errorf("room %d, record %d: %v", i, n, err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	for i := range rooms {
		for n := 1; n <= appends; n++ {
			if s := stored[i][n]; s[0] == s[1] {
				t.Errorf("room %d, record %d: stored by a: %v, by b: %v", i, n, s[0], s[1])
			}
		}
		storetest.WantRecords(t, b, fmt.Sprint(i), storetest.Records(1, appends))
	}
	// A room created by one is refused to the other.
	if err := b.CreateRoom(ctx, storetest.Room("0", store.StatusOpen, 1)); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("creating a room the other store made: %v", err)
	}
}

// TestAnUnreachableServerIsSaidSoAtOpen: a URL that reaches no server is
// refused at start-up, naming where it looked and without its password.
func TestAnUnreachableServerIsSaidSoAtOpen(t *testing.T) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := Open(ctx, "postgres://wolfden:secret@127.0.0.1:1/games?connect_timeout=5")
	if err == nil || !strings.Contains(err.Error(), "wolfden@127.0.0.1:1/games") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("got %v", err)
	}
}

// TestClosedStoreErrors: the adapter's own ErrClosed is store.ErrClosed.
func TestClosedStoreErrors(t *testing.T) {
	if !errors.Is(ErrClosed, store.ErrClosed) {
		t.Fatal("postgres.ErrClosed is not store.ErrClosed")
	}
}

// TestASecondExclusiveServerIsRefused: `wolfden serve` holds its database
// (two servers would each resume every running game); a second is refused
// while the first holds it, and may take it once the first has closed.
func TestASecondExclusiveServerIsRefused(t *testing.T) {
	url := pgtest.Start(t).NewDB(t)
	a, b := open(t, url), open(t, url)
	if err := a.Exclusive(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Exclusive(ctx); !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "another --db") {
		t.Fatalf("a second server on a database in use: %v", err)
	}
	storetest.CreateRoom(t, b, storetest.Room("r1", store.StatusOpen, 1)) // the store itself is shared
	a.Close()
	if err := b.Exclusive(ctx); err != nil {
		t.Fatalf("once the first has closed: %v", err)
	}
	storetest.WantRoom(t, b, storetest.Room("r1", store.StatusOpen, 1))
}

// TestTwoStoresClaimOneCode: nodes on one database claiming the same
// codes at once: each code is won by exactly one room, of one node, and
// both nodes find it there.
func TestTwoStoresClaimOneCode(t *testing.T) {
	url := pgtest.Start(t).NewDB(t)
	a, b := open(t, url), open(t, url)
	const codes, rooms = 30, 4
	var wins [codes]atomic.Int32
	var winner [codes]atomic.Value
	var wg sync.WaitGroup
	for c := range codes {
		for s, st := range []*DB{a, b} {
			for r := range rooms {
				wg.Go(func() {
					code, room := fmt.Sprintf("C%03d", c), fmt.Sprintf("%d-%d", s, r)
					switch err := st.ClaimCode(ctx, code, room); {
					case err == nil:
						wins[c].Add(1)
						winner[c].Store(room)
					case errors.Is(err, store.ErrCodeTaken):
					default:
						t.Errorf("code %s, room %s: %v", code, room, err)
					}
				})
			}
		}
	}
	wg.Wait()
	for c := range codes {
		if n := wins[c].Load(); n != 1 {
			t.Errorf("code C%03d: won by %d rooms, want 1", c, n)
			continue
		}
		for _, st := range []*DB{a, b} {
			storetest.WantCode(t, st, fmt.Sprintf("C%03d", c), winner[c].Load().(string))
		}
	}
}

// TestClaimsAreMigratedFromTheRooms: a database from before the claims
// gets one for each live room's code, the newer room's where two shared
// one; a finished room's code is left free.
func TestClaimsAreMigratedFromTheRooms(t *testing.T) {
	url := pgtest.Start(t).NewDB(t)
	db := open(t, url)
	db.Close()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// Back to the schema before claims (and the migrations after it), with
	// rooms as it left them.
	downTo(t, url, 4)
	for _, q := range []string{
		`DROP TABLE codes`,
		`DELETE FROM goose_db_version WHERE version_id >= 4`,
		`INSERT INTO rooms (id, created, status, code) VALUES
			('old', 1, 'open', 'K7QX'), ('new', 2, 'running', 'K7QX'),
			('over', 3, 'over', 'M3W9P'), ('none', 4, 'open', ''), ('bare', NULL, 'open', 'Z2Z2')`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db = open(t, url)
	storetest.WantCode(t, db, "K7QX", "new")
	storetest.WantCode(t, db, "M3W9P", "")
	storetest.WantCode(t, db, "Z2Z2", "bare")
}

// downTo undoes the migrations after version v, so that a test can take a
// database back to an older schema however many migrations came since.
func downTo(t *testing.T, url string, v int64) {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, v); err != nil {
		t.Fatalf("migrations down to %d: %v", v, err)
	}
}
