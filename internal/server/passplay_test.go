package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/internal/client"
)

// One device for the whole table (pass-and-play): the host takes every seat
// of his room from one address, past the join rate, which still holds for
// everyone else and for another room's seats.
func TestTheHostSeatsHisWholeTableFromOneAddress(t *testing.T) {
	ts := newTestServerWith(t, Options{JoinsPerMinute: 3})
	var c client.Created
	if err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "nickname": "Ann"}, &c); err != nil {
		t.Fatal(err)
	}
	var other client.Created
	if err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &other); err != nil {
		t.Fatal(err)
	}
	join := func(room, token string) (int, string) {
		req, _ := http.NewRequest("POST", ts.http.URL+"/api/rooms/"+room+"/join", strings.NewReader(`{"nickname":"x"}`))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var e struct {
			Error struct{ Code, Message string }
		}
		_ = jsonDecode(resp, &e)
		return resp.StatusCode, e.Error.Code
	}
	for i := 2; i <= 12; i++ {
		if status, code := join(c.Room.ID, c.HostToken); status != 200 {
			t.Fatalf("the host's join of seat %d: %d %s", i, status, code)
		}
	}
	if status, code := join(c.Room.ID, c.HostToken); status != 409 || code != "full" {
		t.Fatalf("a join past the last seat: %d %s, want 409 full", status, code)
	}
	// his host token is no pass into another room, nor is a made-up one
	for i := 1; i <= 3; i++ {
		if status, code := join(other.Room.ID, "made-up"); status != 200 {
			t.Fatalf("join %d of the other room: %d %s", i, status, code)
		}
	}
	if status, code := join(other.Room.ID, c.HostToken); status != 429 || code != "rate" {
		t.Fatalf("another room's host token past the rate: %d %s, want 429 rate", status, code)
	}
}
