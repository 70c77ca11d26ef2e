package main

// The cluster's process tests (issue 14, docs/cluster.md): three `wolfden
// serve` nodes as child processes on one PostgreSQL (pgtest) and one NATS
// server (natstest, in the test process), played by clients that connect
// to every node. The kit is in clusterkit_test.go.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
)

// TestClusterPlaysAGameAcrossNodes: one game owned by the node that made
// it, its seats connected to the three nodes and a spectator to a node
// that does not own it, plays to its end; each seat's stream is exactly
// the replay's events that seat may see — what a single server sends —
// and every acknowledged command is stored.
func TestClusterPlaysAGameAcrossNodes(t *testing.T) {
	cl := startCluster(t, 3, "2s", nil)
	owner := cl.nodes[0]
	g := cl.newGame(owner, 21)
	if own := cl.waitOwned([]string{g.room}, "", "after its creation"); own[g.room][0] != owner.name {
		t.Fatalf("room %s, created on %s, is owned by %v: the node that creates a room owns it", g.room, owner.name, own[g.room])
	}
	for _, nd := range cl.nodes {
		n, err := nd.metric("wolfden_cluster_games_owned")
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]float64{true: 1, false: 0}[nd == owner]; n != want {
			t.Errorf("%s: wolfden_cluster_games_owned is %v, want %v", nd.name, n, want)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	errs := g.play(ctx, cl, 0)
	cl.finish([]*cgame{g}, []<-chan error{errs})
	remote, bus := 0.0, 0.0
	for _, nd := range cl.nodes {
		n, err := nd.metric("wolfden_cluster_remote_commands_total")
		if err != nil {
			t.Fatal(err)
		}
		remote += n
		if n, err = nd.metric("wolfden_cluster_bus_seconds_count"); err != nil {
			t.Fatal(err)
		}
		bus += n
	}
	if remote == 0 || bus == 0 {
		t.Errorf("two thirds of the seats played through nodes that do not own the game, yet the nodes count %v remote commands and %v bus round trips", remote, bus)
	}
}

// TestClusterSurvivesKilledOwners: twenty times, the node owning a game
// held in the middle of a vote and another in the middle of a night (and
// whatever games of the earlier trials it took over) is killed with
// SIGKILL. Another node takes each game once its lease has run out; the
// killed node comes back under its name. Every game ends; every seat's
// stream, put together across its connections, is the replay's; no
// acknowledged command is lost, none is stored twice.
func TestClusterSurvivesKilledOwners(t *testing.T) {
	const trials = 20
	cl := startCluster(t, 3, "2s", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var games []*cgame
	var errs []<-chan error
	start := func(nd *node, seed int, atVote bool) *cgame {
		g := cl.newGame(nd, seed)
		g.holdAtVote = atVote
		games = append(games, g)
		errs = append(errs, g.play(ctx, cl, nd.i+1))
		return g
	}
	vote := start(cl.nodes[0], 100, true)
	for k := range trials {
		x := cl.nodes[k%3]
		vote.await(t, ctx, vote.atVote, fmt.Sprintf("a vote (trial %d)", k+1))
		night := start(x, 200+k, false)
		night.await(t, ctx, night.atNight, fmt.Sprintf("a night (trial %d)", k+1))
		held, err := x.cluster() // its games of the earlier trials too
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []string{vote.room, night.room} {
			if !slices.Contains(held.Owned, r) {
				t.Fatalf("trial %d: %s made room %s but its /cluster owns %v", k+1, x.name, r, held.Owned)
			}
		}
		x.kill(t)
		if !night.lastNight.Load() {
			t.Fatalf("trial %d: room %s's night had ended before %s was killed (a machine too slow for a night of 1.5 s?)", k+1, night.room, x.name)
		}
		vote.gate.open()
		if k+1 < trials { // on the next node, to come to its vote while this trial's games move
			vote = start(cl.nodes[(k+1)%3], 100+k+1, true)
		}
		cl.waitOwned(held.Owned, x.name, fmt.Sprintf("trial %d: after %s was killed", k+1, x.name))
		if k == 0 {
			taken := 0.0
			for _, nd := range cl.live() {
				n, err := nd.metric("wolfden_cluster_lease_takeovers_total")
				if err != nil {
					t.Fatal(err)
				}
				taken += n
			}
			if taken < 2 {
				t.Errorf("after the first kill the living nodes took %d games, yet count %v lease takeovers", len(held.Owned), taken)
			}
		}
		if err := x.start(); err != nil {
			t.Fatalf("trial %d: restarting %s: %v", k+1, x.name, err)
		}
	}
	cl.finish(games, errs)
}

// TestClusterSigtermHandsOver: SIGTERM makes a node hand its games over
// and exit, without waiting for them to end (--drain 60s) nor for their
// leases to run out (60 s); its connections close with 1012 "moved" and
// the players go on through the other nodes.
func TestClusterSigtermHandsOver(t *testing.T) {
	cl := startCluster(t, 3, "60s", nil, "--drain", "60s")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	drained := cl.nodes[0]
	var games []*cgame
	var errs []<-chan error
	for i := range 2 {
		g := cl.newGame(drained, 300+i)
		g.holdAtVote = true // the games cannot end while the node drains
		games = append(games, g)
		errs = append(errs, g.play(ctx, cl, i))
	}
	rooms := []string{games[0].room, games[1].room}
	for _, g := range games {
		g.await(t, ctx, g.atVote, "a vote")
	}
	drained.running.Store(false)
	if err := drained.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-drained.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not exit within 30 s of SIGTERM, its games held at a vote: it must hand them over, not wait for them (--drain 60s)", drained.name)
	}
	if drained.exitErr != nil {
		t.Fatalf("%s exited with %v after SIGTERM", drained.name, drained.exitErr)
	}
	for _, g := range games {
		if g.over.Load() {
			t.Fatalf("room %s ended while %s drained: its players were held", g.room, drained.name)
		}
	}
	// Well within the leases' 60 s: released, not expired.
	cl.waitOwned(rooms, drained.name, "after SIGTERM on "+drained.name)
	for _, g := range games {
		g.gate.open()
	}
	cl.finish(games, errs)
	moved := 0
	for _, g := range games {
		for _, p := range g.players {
			for _, e := range p.ends {
				if strings.HasPrefix(e, drained.name+": 1012 ") {
					moved++
				}
			}
		}
	}
	if moved == 0 {
		t.Errorf("no connection on %s was closed with 1012 \"moved\" when it drained", drained.name)
	}
}

// TestClusterFencesANodeCutFromNATS: a node cut off from NATS (a proxy
// between it and the server drops everything) stops renewing its leases;
// another node takes its games once they expire, and the cut-off node lets
// them go. The games end; their records follow one another without a gap
// or a repeat, and make a game of the rules.
func TestClusterFencesANodeCutFromNATS(t *testing.T) {
	var proxy *cutProxy
	cl := startCluster(t, 3, "2s", func(i int, url string) string {
		if i != 2 {
			return url
		}
		proxy = startProxy(t, strings.TrimPrefix(url, "nats://"))
		return proxy.URL()
	})
	cut := cl.nodes[2]
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var games []*cgame
	var errs []<-chan error
	for i := range 2 {
		g := cl.newGame(cut, 400+i)
		// Cut at night, the games go on on the cut-off node until its
		// leases run out; held at their first vote (if they come to it
		// before another node has them), they cannot end before.
		g.holdAtVote = true
		games = append(games, g)
		errs = append(errs, g.play(ctx, cl, i))
	}
	rooms := []string{games[0].room, games[1].room}
	for _, g := range games {
		g.await(t, ctx, g.atNight, "a night")
	}
	proxy.Cut()
	if body := waitReadyz(t, cut.ops, http.StatusServiceUnavailable); !strings.Contains(body, "bus") {
		t.Errorf("%s cut off from NATS: /readyz says %q, which does not name the bus", cut.name, body)
	}
	// It stays up (PostgreSQL still answers it) but must let its games go.
	cl.waitOwned(rooms, cut.name, cut.name+" cut off from NATS")
	if n, err := cut.metric("wolfden_cluster_games_owned"); err != nil || n != 0 {
		t.Errorf("%s, cut off and its games taken: wolfden_cluster_games_owned %v (%v), want 0", cut.name, n, err)
	}
	for _, g := range games {
		g.gate.open()
	}
	proxy.Mend()
	cl.finish(games, errs)
	for _, g := range games {
		if node, epoch := cl.lease(g.room); node == cut.name || epoch < 2 {
			t.Errorf("room %s: its lease is epoch %d of %q: it should have passed from %s to another node", g.room, epoch, node, cut.name)
		}
	}
}

// TestClusterServesAFinishedGameAfterItsOwnerDied: a spectator who left in
// the middle of a game comes back after it ended and after its owner died
// (a single server restores a finished game for its --linger, so that a
// client away at the end still reads it): another node gives him the rest
// of his stream.
func TestClusterServesAFinishedGameAfterItsOwnerDied(t *testing.T) {
	cl := startCluster(t, 3, "2s", nil)
	owner := cl.nodes[0]
	g := cl.newGame(owner, 31)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	away := &cplayer{seat: 0, first: 1}
	conn, err := client.Dial(ctx, cl.nodes[1].base, g.room, "", 0, 0)
	if err != nil {
		t.Fatalf("a spectator dialing %s: %v", cl.nodes[1].name, err)
	}
	for f := range conn.Frames { // a few events, then he leaves
		if f.Type == "event" {
			away.events = append(away.events, f.Raw)
			if len(away.events) == 3 {
				break
			}
		}
	}
	conn.Kill()
	errs := g.play(ctx, cl, 0)
	cl.finish([]*cgame{g}, []<-chan error{errs})
	owner.kill(t)
	g.players = []*cplayer{away}
	if err := away.play(ctx, cl, g); err != nil {
		t.Fatal(err)
	}
	if err := cl.check(g); err != nil {
		t.Fatal(err)
	}
}
