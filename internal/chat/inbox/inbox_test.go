package inbox

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/internal/chat"
)

// A flood while the core does not read costs Cap messages: the rest are
// dropped and counted, and Offer never blocks.
func TestAFloodIsBoundedAndNeverBlocks(t *testing.T) {
	b := New("test", slog.New(slog.NewTextHandler(io.Discard, nil)))
	const n = 10 * Cap
	kept := 0
	for i := range n {
		if b.Offer(chat.Incoming{User: "1", Text: strings.Repeat("狼", 1000) + string(rune('a'+i%26))}) {
			kept++
		}
	}
	if kept != Cap || b.Dropped() != n-Cap {
		t.Fatalf("kept %d, dropped %d; want %d and %d", kept, b.Dropped(), Cap, n-Cap)
	}
	out := make(chan chat.Incoming)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go b.Run(ctx, out)
	m := <-out
	if len(m.Text) > MaxText || !strings.HasPrefix(m.Text, "狼") || strings.ToValidUTF8(m.Text, "?") != m.Text {
		t.Errorf("a long text became %d bytes (valid UTF-8: %v), want at most %d cut at a character", len(m.Text), strings.ToValidUTF8(m.Text, "?") == m.Text, MaxText)
	}
}

func TestEmptyTextIsNotQueued(t *testing.T) {
	b := New("test", nil)
	if b.Offer(chat.Incoming{User: "1", Text: "  \n"}) {
		t.Error("a blank text was queued")
	}
}

func TestCutKeepsWholeCharacters(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 2, "ab"},
		{"查验", 4, "查"},
		{"查验", 3, "查"},
		{"查验", 2, ""},
	} {
		if got := Cut(c.s, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
