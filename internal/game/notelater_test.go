package game

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/memory"
)

// A note that may wait (NoteLater) makes no write of its own: it is stored
// with the game's next write, in its place among the records, and as the
// actor stops.
func TestANoteThatMayWaitGoesWithTheNextWriteOrTheStop(t *testing.T) {
	st := memory.New()
	a := startWaiting(t, st)
	kinds := func() []string {
		recs, err := st.Records(context.Background(), "r")
		if err != nil {
			t.Fatal(err)
		}
		var ks []string
		for _, r := range recs {
			if r.Kind == "x" || r.Kind == "y" || r.Kind == "z" {
				ks = append(ks, r.Kind)
			}
		}
		return ks
	}
	// The actor commits at the end of a turn, but a turn drains whatever
	// else waits in its inbox first, asks included: an answer is no proof
	// of a commit. settled commits on the actor's goroutine, as a turn's
	// end does, so what was noted before it has met a commit.
	settled := func() {
		if _, err := ask(a, func() bool { return a.commit() }); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.NoteLater("x", []byte(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	settled()
	if got := kinds(); len(got) != 0 {
		t.Fatalf("a note that may wait was written alone: %v", got)
	}
	if err := a.Note("y", []byte(`{"n":2}`)); err != nil {
		t.Fatal(err)
	}
	settled()
	if got := kinds(); len(got) != 2 || got[0] != "x" || got[1] != "y" {
		t.Fatalf("after the next write the notes stored are %v; want [x y]", got)
	}
	if err := a.NoteLater("z", []byte(`{"n":3}`)); err != nil {
		t.Fatal(err)
	}
	settled()
	a.Stop()
	if got := kinds(); len(got) != 3 || got[2] != "z" {
		t.Errorf("after the stop the notes stored are %v; want [x y z]", got)
	}
}

// slowStore is a store whose appends take a while, as a busy disk's do.
type slowStore struct{ store.Store }

func (s slowStore) Append(ctx context.Context, room string, recs ...store.Record) error {
	time.Sleep(20 * time.Millisecond)
	return s.Store.Append(ctx, room, recs...)
}

// A note the caller waits for (NoteWait, the gateway's last lines before
// it lets its agents go) is stored when NoteWait returns, not only taken:
// an agent let go reads the game's log at once.
func TestANoteWaitedForIsStoredWhenTheWaitEnds(t *testing.T) {
	st := memory.New()
	a := startWaiting(t, slowStore{st})
	for i := range 3 {
		body := fmt.Appendf(nil, `{"n":%d}`, i)
		if err := a.NoteWait("w", body); err != nil {
			t.Fatal(err)
		}
		recs, err := st.Records(context.Background(), "r")
		if err != nil {
			t.Fatal(err)
		}
		if last := recs[len(recs)-1]; last.Kind != "w" || string(last.Body) != string(body) {
			t.Fatalf("NoteWait returned before its note %s was stored (the last record is a %q)", body, last.Kind)
		}
	}
}
