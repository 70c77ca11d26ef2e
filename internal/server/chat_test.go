package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/chat"
	"github.com/wolfden/wolfden/internal/chat/chattest"
	"github.com/wolfden/wolfden/internal/store/memory"
)

// servingPlatform is a platform that also serves HTTP, as OneBot's
// reverse WebSocket endpoint does.
type servingPlatform struct{ *chattest.Platform }

func (servingPlatform) Path() string { return "/fake/ws" }

func (servingPlatform) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, "fake platform")
}

// TestChatPlatformsRunWithTheServerAndMountTheirEndpoints: a platform that
// serves HTTP is mounted at its path; each platform's bridge connects once
// the server has restored its games and is gone once it stops.
func TestChatPlatformsRunWithTheServerAndMountTheirEndpoints(t *testing.T) {
	p := servingPlatform{chattest.New("fake")}
	s := New(memory.New(), Options{Chat: []chat.Platform{p}})
	hs := httptest.NewServer(s)
	defer hs.Close()
	res, err := http.Get(hs.URL + "/fake/ws")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "fake platform" {
		t.Fatalf("GET /fake/ws: %d %q", res.StatusCode, body)
	}
	if p.Running() != 0 {
		t.Fatal("the platform runs before the server restored its games")
	}
	if _, err := s.Restore(t.Context()); err != nil {
		t.Fatal(err)
	}
	for p.Running() != 1 {
		time.Sleep(time.Millisecond) // the bridge's goroutine connects
	}
	s.Stop()
	if n := p.Running(); n != 0 {
		t.Fatalf("%d platform connections outlive the server", n)
	}
}
