package aiwolf_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/store"
)

// writeLog is a store that remembers the records of each write, and the
// codes claimed.
type writeLog struct {
	store.Store
	mu     sync.Mutex
	writes [][]store.Record
	claims []string
}

func (w *writeLog) ClaimCode(ctx context.Context, code, room string) error {
	w.mu.Lock()
	w.claims = append(w.claims, code)
	w.mu.Unlock()
	return w.Store.ClaimCode(ctx, code, room)
}

func (w *writeLog) Append(ctx context.Context, room string, recs ...store.Record) error {
	err := w.Store.Append(ctx, room, recs...)
	if err == nil {
		w.mu.Lock()
		w.writes = append(w.writes, slices.Clone(recs)) // the caller reuses recs
		w.mu.Unlock()
	}
	return err
}

// votes counts the votes of a write.
func votes(recs []store.Record) int {
	n := 0
	for _, r := range recs {
		var body struct{ Cmd string }
		if r.Kind == "cmd" && json.Unmarshal(r.Body, &body) == nil && strings.Contains(body.Cmd, " vote ") {
			n++
		}
	}
	return n
}

// A matched game's votes of a round go to the store in one write, however
// the agents' replies are spread out (one agent here takes a while over
// each vote): the gateway hands them to the game together once no vote is
// awaited, as the reference collects every vote before counting them.
func TestARoundsVotesAreStoredInOneWrite(t *testing.T) {
	wl := &writeLog{}
	g := newGatewayOn(t, "", aiwolf.Options{Players: 5}, func(st store.Store) store.Store { wl.Store = st; return wl })
	agents := make([]*testAgent, 5)
	for i := range agents {
		agents[i] = &testAgent{name: fmt.Sprintf("slow%d", i+1)}
	}
	// The first agent thinks over its votes; the others answer at once.
	agents[0].reply = func(a *testAgent, p *packet) (string, bool) {
		if p.Request == "VOTE" {
			time.Sleep(100 * time.Millisecond)
		}
		return honest(a, p)
	}
	for _, a := range agents {
		a.run(t, g.ws)
	}
	for _, a := range agents {
		a.wait(t, 120*time.Second)
	}
	asked := map[int]int{} // VOTE requests by day
	for _, a := range agents {
		for _, p := range a.got() {
			if p.Request == "VOTE" {
				asked[p.Info.Day]++
			}
		}
	}
	wl.mu.Lock()
	defer wl.mu.Unlock()
	var got []int // votes per write that has any
	total := 0
	for _, w := range wl.writes {
		if n := votes(w); n > 0 {
			got = append(got, n)
			total += n
		}
	}
	want := 0
	for _, n := range asked {
		want += n
	}
	if len(asked) == 0 || total != want {
		t.Fatalf("%d votes stored, %d VOTE requests (by day %v)", total, want, asked)
	}
	if len(got) != len(asked) {
		t.Errorf("the votes of %d rounds (by day %v) took %d writes, holding %v votes; want one write a round", len(asked), asked, len(got), got)
	}
}

// A matched game's room has no code: nobody joins it across a table (a
// spectator watches it by its ID), and a code's claim, lapse and release
// were three writes of the store a game.
func TestAMatchedGamesRoomHasNoCode(t *testing.T) {
	wl := &writeLog{}
	g := newGatewayOn(t, "", aiwolf.Options{Players: 5}, func(st store.Store) store.Store { wl.Store = st; return wl })
	playMatch(t, g, "nocode", 5)
	rm, err := g.st.Room(t.Context(), g.logs.list()[0])
	if err != nil {
		t.Fatal(err)
	}
	wl.mu.Lock()
	defer wl.mu.Unlock()
	if rm.Code != "" || len(wl.claims) > 0 {
		t.Errorf("the matched game's room has code %q; codes claimed: %v", rm.Code, wl.claims)
	}
}

// A matched game's request log of a day goes to the store with the game's
// next write (a command, a message), not in a write of its own: only the
// game's id at the start and the last lines at the end are written alone.
func TestARequestLogsDayMakesNoWriteOfItsOwn(t *testing.T) {
	wl := &writeLog{}
	g := newGatewayOn(t, "", aiwolf.Options{Players: 5}, func(st store.Store) store.Store { wl.Store = st; return wl })
	playMatch(t, g, "later", 5)
	// The last lines are stored as the table stops, after FINISH: wait
	// for the store to hold every line written.
	var alone, lines, stored int
	for try := 0; ; try++ {
		alone, lines, stored = noteWrites(t, g, wl)
		if lines == stored && stored >= 3 || try == 100 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if lines != stored || stored < 3 {
		t.Fatalf("%d request-log records written, %d stored", lines, stored)
	}
	if alone > 2 {
		t.Errorf("%d writes held request-log records alone (of %d records); want at most 2, the game's id and the end", alone, stored)
	}
}

// noteWrites counts the writes that held request-log records and nothing
// else, the records written and those stored.
func noteWrites(t *testing.T, g *gateway, wl *writeLog) (alone, lines, stored int) {
	recs, err := g.st.Records(t.Context(), g.logs.list()[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Kind == aiwolf.NoteKind {
			stored++
		}
	}
	wl.mu.Lock()
	defer wl.mu.Unlock()
	for _, w := range wl.writes {
		notes := 0
		for _, r := range w {
			if r.Kind == aiwolf.NoteKind {
				notes++
			}
		}
		lines += notes
		if notes > 0 && notes == len(w) {
			alone++
		}
	}
	return alone, lines, stored
}
