package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/postgres/pgtest"
	"github.com/wolfden/wolfden/internal/store/storetest"
)

// twoNodes is two nodes' stores on one database, with rooms created.
func twoNodes(t *testing.T, rooms ...string) (url string, a, b *DB) {
	t.Helper()
	url = pgtest.Start(t).NewDB(t)
	a, b = open(t, url), open(t, url)
	for i, id := range rooms {
		storetest.CreateRoom(t, a, storetest.Room(id, store.StatusRunning, i))
	}
	return url, a, b
}

func fencedStore(t *testing.T, d *DB, node string) *Fenced {
	t.Helper()
	f, err := d.Fenced(node)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// expire ends room's lease now, as its time running out would (the
// database's clock is the leases' clock; the tests do not wait for it).
func expire(t testing.TB, url, room string) {
	t.Helper()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE leases SET expires = clock_timestamp() - interval '1 second' WHERE room_id = $1`, room); err != nil {
		t.Fatal(err)
	}
}

// record is record n of a game, saying who wrote it under which epoch.
func record(n int64, l Lease) store.Record {
	r := storetest.Record(n)
	r.Body = fmt.Appendf(nil, `{"node":%q,"epoch":%d}`, l.Node, l.Epoch)
	return r
}

// TestTwoNodesRacingForALeaseOneWins: two nodes take the lease of the same
// rooms at the same instant: for each room exactly one has it, epoch 1,
// and the other is told it is held, by whom.
func TestTwoNodesRacingForALeaseOneWins(t *testing.T) {
	const rooms = 20
	var ids []string
	for i := range rooms {
		ids = append(ids, fmt.Sprint("r", i))
	}
	_, a, b := twoNodes(t, ids...)
	var wins [rooms][2]bool
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, id := range ids {
		for n, d := range []*DB{a, b} {
			wg.Go(func() {
				<-start
				l, err := d.Acquire(ctx, id, fmt.Sprint("node", n), time.Minute)
				switch {
				case err == nil:
					wins[i][n] = true
					if l.Epoch != 1 {
						t.Errorf("room %s: the first lease has epoch %d", id, l.Epoch)
					}
				case errors.Is(err, ErrLeaseHeld) && strings.Contains(err.Error(), `node "node`):
				default:
					t.Errorf("room %s, node %d: %v", id, n, err)
				}
			})
		}
	}
	close(start)
	wg.Wait()
	for i, w := range wins {
		if w[0] == w[1] {
			t.Errorf("room %s: node0 won %v, node1 won %v", ids[i], w[0], w[1])
		}
	}
}

// TestAnExpiredLeaseGoesToTheNextNodeWithTheNextEpoch: while a's lease
// runs b is refused; once it has expired b takes it with epoch 2, and a
// cannot take it back while b's runs. A real (short) expiry does the same
// as an expiry forced in the database.
func TestAnExpiredLeaseGoesToTheNextNodeWithTheNextEpoch(t *testing.T) {
	url, a, b := twoNodes(t, "r1", "r2")
	la, err := a.Acquire(ctx, "r1", "a", time.Minute)
	if err != nil || la.Epoch != 1 {
		t.Fatalf("%+v, %v", la, err)
	}
	if _, err := b.Acquire(ctx, "r1", "b", time.Minute); !errors.Is(err, ErrLeaseHeld) {
		t.Fatalf("b while a's lease runs: %v", err)
	}
	// A node restarted under a's name waits too.
	if _, err := b.Acquire(ctx, "r1", "a", time.Minute); !errors.Is(err, ErrLeaseHeld) {
		t.Fatalf("a second process of a while a's lease runs: %v", err)
	}
	expire(t, url, "r1")
	lb, err := b.Acquire(ctx, "r1", "b", time.Minute)
	if err != nil || lb.Epoch != 2 || lb.Node != "b" {
		t.Fatalf("b after the expiry: %+v, %v", lb, err)
	}
	if _, err := a.Acquire(ctx, "r1", "a", time.Minute); !errors.Is(err, ErrLeaseHeld) {
		t.Fatalf("a taking it back: %v", err)
	}
	if cur, err := a.Lease(ctx, "r1"); err != nil || cur.Node != "b" || cur.Epoch != 2 {
		t.Fatalf("the lease as read: %+v, %v", cur, err)
	}

	// A lease of 50 ms, left to run out: b waits for that state.
	if _, err := a.Acquire(ctx, "r2", "a", 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		l, err := b.Acquire(ctx, "r2", "b", time.Minute)
		if err == nil {
			if l.Epoch != 2 {
				t.Fatalf("after a real expiry: epoch %d", l.Epoch)
			}
			break
		}
		if !errors.Is(err, ErrLeaseHeld) || time.Now().After(deadline) {
			t.Fatalf("waiting for a's lease to run out: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTheOldOwnersWritesAreFencedAfterTheTakeover: a's appends go through
// while its lease is the room's, and once b has taken the lease (a paused
// past its expiry, and unaware) not one more of a's writes is stored, of
// any kind, while b's are.
func TestTheOldOwnersWritesAreFencedAfterTheTakeover(t *testing.T) {
	url, a, b := twoNodes(t, "r1")
	fa, fb := fencedStore(t, a, "a"), fencedStore(t, b, "b")
	la, err := fa.Acquire(ctx, "r1", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := fa.Append(ctx, "r1", record(1, la), record(2, la)); err != nil {
		t.Fatalf("a's append under its lease: %v", err)
	}
	expire(t, url, "r1")
	// Still a's: nobody took it, so a's writes still go through.
	if err := fa.Append(ctx, "r1", record(3, la)); err != nil {
		t.Fatalf("a's append after the expiry, before a takeover: %v", err)
	}
	lb, err := fb.Acquire(ctx, "r1", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	// Each kind of write from a node of a's that still believes it holds
	// epoch 1: refused by the database, not by what the node remembers.
	paused := func() *Fenced {
		f := fencedStore(t, a, "a")
		f.leases["r1"] = la
		return f
	}
	room := storetest.Room("r1", store.StatusOver, 5)
	for name, err := range map[string]error{
		"Append":     paused().Append(ctx, "r1", record(4, la)),
		"StartGame":  paused().StartGame(ctx, room, record(4, la)),
		"ResetRoom":  paused().ResetRoom(ctx, room),
		"UpdateRoom": paused().UpdateRoom(ctx, room),
	} {
		if !errors.Is(err, ErrFenced) || !strings.Contains(err.Error(), "the lease is now epoch 2") {
			t.Errorf("a's %s after b's takeover: %v, want ErrFenced", name, err)
		}
	}
	if err := fa.Append(ctx, "r1", record(4, la)); !errors.Is(err, ErrFenced) {
		t.Fatalf("a's append: %v", err)
	}
	if _, ok := fa.Held("r1"); ok {
		t.Error("a still believes it holds the lease after a refusal")
	}
	storetest.WantRecords(t, fb, "r1", []store.Record{record(1, la), record(2, la), record(3, la)})
	if err := fb.Append(ctx, "r1", record(4, lb)); err != nil {
		t.Fatalf("b's append under its lease: %v", err)
	}
	if _, err := fa.Renew(ctx, "r1", time.Minute); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("a's renewal: %v", err)
	}
	storetest.WantRecords(t, fb, "r1", []store.Record{record(1, la), record(2, la), record(3, la), record(4, lb)})
	storetest.WantRoom(t, fb, storetest.Room("r1", store.StatusRunning, 0))
}

// TestAFencedUpdateOfTheRoomIsRefused: the owner's change of its room
// (UpdateRoom while it holds the lease) is refused once the lease is
// another's; the refusal names the epochs.
func TestAFencedUpdateOfTheRoomIsRefused(t *testing.T) {
	url, a, b := twoNodes(t, "r1")
	fa, fb := fencedStore(t, a, "a"), fencedStore(t, b, "b")
	if _, err := fa.Acquire(ctx, "r1", time.Minute); err != nil {
		t.Fatal(err)
	}
	expire(t, url, "r1")
	if _, err := fb.Acquire(ctx, "r1", time.Minute); err != nil {
		t.Fatal(err)
	}
	err := fa.UpdateRoom(ctx, storetest.Room("r1", store.StatusOver, 9))
	if !errors.Is(err, ErrFenced) || !strings.Contains(err.Error(), `epoch 1 of node "a"`) || !strings.Contains(err.Error(), `epoch 2, node "b"`) {
		t.Fatalf("got %v", err)
	}
	storetest.WantRoom(t, fb, storetest.Room("r1", store.StatusRunning, 0))
}

// TestWritesWithoutALeaseAreFenced: a node that holds no lease of a game
// cannot append to it; an open room's changes need none.
func TestWritesWithoutALeaseAreFenced(t *testing.T) {
	_, a, _ := twoNodes(t, "r1")
	fa := fencedStore(t, a, "a")
	if err := fa.Append(ctx, "r1", storetest.Record(1)); !errors.Is(err, ErrFenced) {
		t.Fatalf("append: %v", err)
	}
	if err := fa.StartGame(ctx, storetest.Room("r1", store.StatusRunning, 0), storetest.Record(1)); !errors.Is(err, ErrFenced) {
		t.Fatalf("start: %v", err)
	}
	open := storetest.Room("r2", store.StatusOpen, 1)
	storetest.CreateRoom(t, fa, open)
	open.Seats = []byte(`[]`)
	if err := fa.UpdateRoom(ctx, open); err != nil {
		t.Fatalf("an open room's change: %v", err)
	}
	storetest.WantRecords(t, a, "r1", nil)
	if _, err := a.Fenced(""); err == nil {
		t.Fatal("a fenced store without a node name")
	}
}

// TestRenewAndRelease: the owner's Renew extends its lease; the loser's
// fails; a released lease is taken at once, with the next epoch, and the
// released owner can neither renew it, release it again nor write.
func TestRenewAndRelease(t *testing.T) {
	_, a, b := twoNodes(t, "r1")
	fa, fb := fencedStore(t, a, "a"), fencedStore(t, b, "b")
	la, err := fa.Acquire(ctx, "r1", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	renewed, err := fa.Renew(ctx, "r1", time.Hour)
	if err != nil || renewed.Epoch != la.Epoch || !renewed.Expires.After(la.Expires) {
		t.Fatalf("renewal: %+v (was %+v), %v", renewed, la, err)
	}
	if _, err := b.Renew(ctx, Lease{Room: "r1", Node: "b", Epoch: la.Epoch}, time.Hour); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("the loser's renewal: %v", err)
	}
	if _, err := fb.Renew(ctx, "r1", time.Hour); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("a renewal with no lease: %v", err)
	}
	if err := fa.Release(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(ctx, la); !errors.Is(err, ErrLeaseLost) || !strings.Contains(err.Error(), "released") {
		t.Fatalf("a second release: %v", err)
	}
	lb, err := fb.Acquire(ctx, "r1", time.Minute)
	if err != nil || lb.Epoch != la.Epoch+1 {
		t.Fatalf("after the release: %+v, %v", lb, err)
	}
	if _, err := a.Renew(ctx, la, time.Hour); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("the released owner's renewal: %v", err)
	}
	if err := fa.Append(ctx, "r1", storetest.Record(1)); !errors.Is(err, ErrFenced) {
		t.Fatalf("the released owner's append: %v", err)
	}
	if _, err := a.Acquire(ctx, "nowhere", "a", time.Minute); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a lease of a room that does not exist: %v", err)
	}
	for _, ttl := range []time.Duration{0, -time.Second} {
		if _, err := a.Acquire(ctx, "r1", "a", ttl); err == nil {
			t.Fatalf("a lease of %v", ttl)
		}
	}
}

// TestFencingHoldsUnderTakeovers: two nodes append to one game, each
// believing it owns it whenever it has acquired the lease, while a third
// party keeps expiring the lease (a node paused, cut off) so that the
// other takes over mid-flight. However their writes interleave, the
// stored records' epochs never go down: once an epoch is taken, nothing
// written under an older one is stored.
func TestFencingHoldsUnderTakeovers(t *testing.T) {
	url, a, b := twoNodes(t, "r1")
	const total = 150
	var fencedCount, stored atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for _, f := range []*Fenced{fencedStore(t, a, "a"), fencedStore(t, b, "b")} {
		wg.Go(func() {
			for stored.Load() < total {
				l, ok := f.Held("r1")
				if !ok {
					var err error
					if l, err = f.Acquire(ctx, "r1", time.Minute); errors.Is(err, ErrLeaseHeld) {
						continue
					} else if err != nil {
						t.Error(err)
						return
					}
				}
				recs, err := f.Records(ctx, "r1")
				if err != nil {
					t.Error(err)
					return
				}
				err = f.Append(ctx, "r1", record(int64(len(recs))+1, l))
				switch {
				case err == nil:
					stored.Add(1)
				case errors.Is(err, ErrFenced):
					fencedCount.Add(1)
				case strings.Contains(err.Error(), "already stored"):
					// Lost to the other while both were current in turn.
				default:
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			expire(t, url, "r1")
			time.Sleep(time.Millisecond)
		}
	})
	for stored.Load() < total && !t.Failed() {
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	recs, err := a.Records(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	var last int64
	for _, r := range recs {
		var node string
		var epoch int64
		if _, err := fmt.Sscanf(string(r.Body), `{"node":%q,"epoch":%d}`, &node, &epoch); err != nil {
			t.Fatalf("record %d: %s: %v", r.N, r.Body, err)
		}
		if epoch < last {
			t.Fatalf("record %d was written under epoch %d after one of epoch %d", r.N, epoch, last)
		}
		last = epoch
	}
	t.Logf("%d records stored, up to epoch %d; %d appends fenced", len(recs), last, fencedCount.Load())
}

// leasing is a node's fenced store that takes the lease of each room it
// creates, for the benchmark of appends made under leases.
type leasing struct{ *Fenced }

func (l leasing) CreateRoom(c context.Context, r store.Room) error {
	if err := l.Fenced.CreateRoom(c, r); err != nil {
		return err
	}
	_, err := l.Acquire(c, r.ID, time.Hour)
	return err
}

// BenchmarkFencedAppend is BenchmarkAppend under leases: what reading the
// lease FOR SHARE in each transaction costs.
func BenchmarkFencedAppend(b *testing.B) {
	srv := pgtest.Start(b)
	storetest.BenchmarkAppend(b, storetest.Adapter{
		NewDB: func(t testing.TB) func(t testing.TB) store.Store {
			url := srv.NewDB(t)
			return func(t testing.TB) store.Store {
				f, err := open(t, url).Fenced("bench")
				if err != nil {
					t.Fatal(err)
				}
				return leasing{f}
			}
		},
	})
}

// TestOrphansAreTheRoomsNobodyOwns: a cluster's nodes adopt the rooms that
// Orphans lists, and no other: open and running rooms whose lease expired
// or was released, or that never had one for a while (not one just made,
// whose maker is taking it), and finished games whose owner died while
// their end was shown (a lease expired, not released).
func TestOrphansAreTheRoomsNobodyOwns(t *testing.T) {
	url := pgtest.Start(t).NewDB(t)
	d := open(t, url)
	a := fencedStore(t, d, "a")
	old := time.Now().Add(-time.Hour)
	room := func(id, status string, created time.Time) {
		r := storetest.Room(id, status, 0)
		r.Code = ""
		r.Created, r.Updated = created, created
		storetest.CreateRoom(t, d, r)
	}
	room("held", store.StatusRunning, old)
	room("expired", store.StatusRunning, old)
	room("released", store.StatusOpen, old)
	room("never", store.StatusOpen, old)
	room("just-made", store.StatusOpen, time.Now())
	room("over-died", store.StatusOver, old)
	room("over-released", store.StatusOver, old)
	room("over-never", store.StatusOver, old)
	for _, id := range []string{"held", "expired", "released", "over-died", "over-released"} {
		if _, err := a.Acquire(ctx, id, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	expire(t, url, "expired")
	expire(t, url, "over-died")
	for _, id := range []string{"released", "over-released"} {
		if err := a.Release(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	got, err := a.Orphans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The running game first; a finished one waits to be asked for.
	if len(got) == 0 || got[0] != "expired" {
		t.Fatalf("orphans %v: the running game is not first", got)
	}
	slices.Sort(got)
	want := []string{"expired", "never", "released"}
	if !slices.Equal(got, want) {
		t.Fatalf("orphans %v, want %v", got, want)
	}
}

// TestOrphansPutRunningGamesFirst: however many open rooms are older,
// every running game without an owner is listed before every open one.
func TestOrphansPutRunningGamesFirst(t *testing.T) {
	url := pgtest.Start(t).NewDB(t)
	d := open(t, url)
	old := time.Now().Add(-time.Hour)
	for i := range 12 {
		status := store.StatusOpen
		if i%3 == 2 {
			status = store.StatusRunning
		}
		r := storetest.Room(fmt.Sprintf("%s-%02d", status, i), status, 0)
		r.Code = ""
		r.Created, r.Updated = old.Add(time.Duration(i)*time.Minute), old
		storetest.CreateRoom(t, d, r)
	}
	got, err := d.Orphans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 12 {
		t.Fatalf("orphans %v, want 12", got)
	}
	for i, id := range got {
		if running := strings.HasPrefix(id, store.StatusRunning); running != (i < 4) {
			t.Fatalf("orphans %v: %s is at %d", got, id, i)
		}
	}
}

// TestBusBeatTellsWhoElseIsOnTheBus: a node off the bus is told of
// another node only once that node has been on the bus for the grace
// since this one lost it, and only while that node is alive; when every
// node is off the bus, none is named.
func TestBusBeatTellsWhoElseIsOnTheBus(t *testing.T) {
	url := pgtest.Start(t).NewDB(t)
	d := open(t, url)
	const fresh, grace = time.Minute, time.Minute
	beat := func(node string, up bool) string {
		t.Helper()
		other, err := d.BusBeat(ctx, node, up, fresh, grace)
		if err != nil {
			t.Fatal(err)
		}
		return other
	}
	// shift moves a node's times back, as the clock going on would.
	shift := func(node string, since, seen time.Duration) {
		t.Helper()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `UPDATE nodes SET since = since - $2 * interval '1 microsecond',
			seen = seen - $3 * interval '1 microsecond' WHERE node = $1`, node, since.Microseconds(), seen.Microseconds()); err != nil {
			t.Fatal(err)
		}
	}
	if got := beat("a", true); got != "" {
		t.Fatalf("a node on the bus was told of %q", got)
	}
	beat("b", true)
	shift("b", time.Hour, 0) // b has been on the bus for an hour
	if got := beat("a", false); got != "" {
		t.Fatalf("a, just off the bus, was told b is on it (%q): b has not been on it for the grace since", got)
	}
	shift("a", 2*grace, 0) // a lost the bus two graces ago; b still beats
	beat("b", true)
	if got := beat("a", false); got != "b" {
		t.Fatalf("a, off the bus while b was on it for two graces, was told %q, want b", got)
	}
	shift("b", 0, 2*fresh) // b has not beaten since: dead
	if got := beat("a", false); got != "" {
		t.Fatalf("a was told of %q, a node silent for two freshes", got)
	}
	// Every node off the bus: none is named, however long.
	beat("b", false)
	shift("b", 2*grace, 0)
	shift("a", 3*grace, 0)
	if got := beat("a", false); got != "" {
		t.Fatalf("with every node off the bus, a was told of %q", got)
	}
	// b comes back: a is named b only after the grace.
	beat("b", true)
	if got := beat("a", false); got != "" {
		t.Fatalf("b, just back on the bus, was named (%q)", got)
	}
	if _, err := d.BusBeat(ctx, "", true, fresh, grace); err == nil {
		t.Fatal("a heartbeat without a node's name was taken")
	}
}
