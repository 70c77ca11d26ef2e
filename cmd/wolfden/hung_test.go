package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/server/servertest"
)

// freeze stops the node's process with SIGSTOP (a long GC pause, a frozen
// VM): its sockets stay open, its subscriptions on NATS too, and it
// answers nothing.
func (nd *node) freeze(t *testing.T) {
	t.Helper()
	nd.running.Store(false)
	if err := nd.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatalf("SIGSTOP %s: %v", nd.name, err)
	}
	fmt.Fprintf(nd.logs, "=== %s frozen (SIGSTOP) at %s\n", nd.name, time.Now().Format("15:04:05.000"))
}

// thaw wakes it (SIGCONT).
func (nd *node) thaw(t *testing.T) {
	t.Helper()
	fmt.Fprintf(nd.logs, "=== %s woken (SIGCONT) at %s\n", nd.name, time.Now().Format("15:04:05.000"))
	if err := nd.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatalf("SIGCONT %s: %v", nd.name, err)
	}
	nd.running.Store(true)
}

// redial dials the nodes in turn, as a player whose line dropped does,
// until one welcomes the seat back; it returns when.
func redial(ctx context.Context, t *testing.T, room, token string, nodes ...*node) time.Time {
	t.Helper()
	for i := 0; ctx.Err() == nil; i++ {
		c, err := client.Dial(ctx, nodes[i%len(nodes)].base, room, token, 0, 0)
		if err == nil {
			at := time.Now()
			c.Close()
			return at
		}
		time.Sleep(25 * time.Millisecond) // 503 moving, while no node has the game yet
	}
	t.Fatalf("seat of room %s: no node welcomed it back", room)
	return time.Time{}
}

// TestClusterFrozenOwnersPlayersComeBack: the owner of a game is frozen
// (SIGSTOP) in the middle of a night. The player relayed to it through
// another node has his connection closed 1012 "moved" by that node once
// another node adopts the game (it does not wait on the frozen owner); the
// player connected to the frozen owner hears nothing — not a tick, not a
// keep-alive — and internal/client gives the line up as silent; both dial
// again and are welcomed by the new owner. Then the frozen owner wakes
// (SIGCONT): a third player, who stayed on it, is closed 1012 "moved" and
// sent nothing before (the night's tick was due at once), and the node
// owns nothing. The seconds each step took are logged (docs/cluster.md,
// "A hung owner"): WOLFDEN_TEST_HUNG_TTL sets the leases' ttl (3s).
func TestClusterFrozenOwnersPlayersComeBack(t *testing.T) {
	ttl := cmp.Or(os.Getenv("WOLFDEN_TEST_HUNG_TTL"), "3s")
	cl := startCluster(t, 3, ttl, nil)
	owner, relay, other := cl.nodes[0], cl.nodes[1], cl.nodes[2]
	g := cl.newGame(owner, 31)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	direct, err := client.Dial(ctx, owner.base, g.room, g.seats[0].Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	relayed := servertest.DialSeat(ctx, t, relay.base, g.room, g.seats[1].Token)
	stays := servertest.DialSeat(ctx, t, owner.base, g.room, g.seats[2].Token)

	// The first night, with time left in it.
	for night := false; !night; {
		select {
		case f, ok := <-direct.Frames:
			if !ok {
				t.Fatal("the owner's connection ended before the night")
			}
			var si stateInfo
			if f.Type == "state" && json.Unmarshal(f.Raw, &si) == nil && si.Night && si.NightEnd-time.Now().UnixMilli() > 400 {
				night = true
			}
		case <-ctx.Done():
			t.Fatal("no night came")
		}
	}
	// Frozen just after the player who stays on it got a message: his
	// writer is then idle until the next tick, and not caught in the middle
	// of a write that would finish at the wake.
	for base := stays.Frames.Load(); stays.Frames.Load() == base; {
		select {
		case <-stays.Ended:
			t.Fatalf("the owner closed a connection before its freeze: %d %q", stays.Code, stays.Reason)
		case <-time.After(time.Millisecond):
		}
	}
	frozen := time.Now()
	owner.freeze(t)

	directEnd := make(chan time.Time, 1)
	go func() {
		for range direct.Frames { // until the line is given up
		}
		directEnd <- time.Now()
	}()
	type back struct{ closed, welcomed time.Time }
	relayedBack, directBack := make(chan back, 1), make(chan back, 1)
	go func() {
		<-relayed.Ended
		relayedBack <- back{relayed.At, redial(ctx, t, g.room, g.seats[1].Token, relay)}
	}()
	go func() {
		at := <-directEnd
		directBack <- back{at, redial(ctx, t, g.room, g.seats[0].Token, relay, other)}
	}()
	own := cl.waitOwned([]string{g.room}, owner.name, "after the owner froze")
	adopted := time.Now()
	var rb, db back
	for _, ch := range []chan back{relayedBack, directBack} {
		select {
		case b := <-ch:
			if ch == relayedBack {
				rb = b
			} else {
				db = b
			}
		case <-ctx.Done():
			t.Fatal("a player never came back")
		}
	}
	if relayed.Code != websocket.StatusServiceRestart || relayed.Reason != "moved" {
		t.Errorf("the relayed player's connection ended %d %q, not 1012 \"moved\" from its relay", relayed.Code, relayed.Reason)
	}
	if !direct.Silent() {
		code, reason := direct.CloseStatus()
		t.Errorf("the frozen owner's player did not find its line silent: it ended %d %q", code, reason)
	}

	// The owner wakes: its first act is to close what it still holds.
	sent := stays.Frames.Load()
	woke := time.Now()
	owner.thaw(t)
	stays.Wait(ctx, t, "the player who stayed on the frozen owner")
	if stays.Code != websocket.StatusServiceRestart || stays.Reason != "moved" {
		t.Errorf("the woken owner closed its player's connection %d %q, not 1012 \"moved\"", stays.Code, stays.Reason)
	}
	if n := stays.Frames.Load() - sent; n != 0 {
		t.Errorf("the woken owner sent its player %d messages before closing the connection: it must send nothing once its lease ran out", n)
	}
	cl.waitOwned([]string{g.room}, owner.name, "after the owner woke")
	sec := func(at time.Time) string { return fmt.Sprintf("%.2f s", at.Sub(frozen).Seconds()) }
	t.Logf("ttl %s: after the freeze, adopted by %v (seen) at %s; the relayed player closed at %s, back at %s; "+
		"the owner's player gave the line up at %s, back at %s; the woken owner closed its connection %.3f s after SIGCONT",
		ttl, own[g.room], sec(adopted), sec(rb.closed), sec(rb.welcomed), sec(db.closed), sec(db.welcomed),
		stays.At.Sub(woke).Seconds())
}
