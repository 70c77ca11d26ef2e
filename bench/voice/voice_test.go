package voice

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestARunMeasuresEveryStream runs one small room briefly: every browser
// receives on every track, and the figures are filled in.
func TestARunMeasuresEveryStream(t *testing.T) {
	res, err := Run(context.Background(), Config{Rooms: 1, Seats: 3, Duration: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Streams != 6 || res.Packets == 0 || res.CPU <= 0 || res.TickP99 <= 0 {
		t.Fatalf("%+v", res)
	}
}

func TestABadConfigurationIsRefused(t *testing.T) {
	for _, c := range []Config{{Rooms: 0, Seats: 3, Duration: time.Second}, {Rooms: 1, Seats: 1, Duration: time.Second}, {Rooms: 1, Seats: 3}} {
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("%+v was taken", c)
		}
	}
}

// TestASplitRunMeasuresBothSides runs the server's side behind its
// signalling and the browsers against it, one small room briefly: both
// sides' figures are filled in, and the server wrote a packet per stream
// per tick.
func TestASplitRunMeasuresBothSides(t *testing.T) {
	s, err := NewServer("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hs := httptest.NewServer(s)
	defer hs.Close()
	res, err := RunRemote(context.Background(), hs.URL, Config{Rooms: 1, Seats: 3, Duration: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Server
	if res.Streams != 6 || res.Packets == 0 || res.Expected == 0 || res.BrowsersCPU <= 0 || res.Seconds <= 0 ||
		f.Rooms != 1 || f.Seconds <= 0 || f.CPU <= 0 || f.TickP99 <= 0 || f.Packets == 0 || f.Packets%6 != 0 {
		t.Fatalf("%+v", res)
	}
	// The run closed its rooms: the server is ready for the next.
	s.mu.Lock()
	open := len(s.rooms)
	s.mu.Unlock()
	if open != 0 {
		t.Errorf("%d rooms left open after the run", open)
	}
}

// TestTheSignallingRefusesBadRequests: each bad request gets a clear error
// and leaves the server as it was.
func TestTheSignallingRefusesBadRequests(t *testing.T) {
	s, err := NewServer("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hs := httptest.NewServer(s)
	defer hs.Close()
	c := &client{url: hs.URL, http: hs.Client()}
	ctx := context.Background()
	var room roomResp
	if err := c.post(ctx, "/rooms", roomReq{Seats: 3}, &room); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		in   any
		want string
	}{
		{"/rooms", roomReq{Seats: 1}, "2 to"},
		{"/rooms", map[string]any{"seats": 3, "extra": 1}, "unknown field"},
		{"/join", joinReq{Room: 7, Seat: 1}, "no room 7"},
		{"/join", joinReq{Room: room.Room, Seat: 4}, "seats 1 to 3, not 4"},
		{"/join", joinReq{Room: room.Room, Seat: 0}, "seats 1 to 3, not 0"},
		{"/answer", answerReq{ID: "nobody", SDP: "x"}, `no connection "nobody"`},
		{"/measure/stop", nil, "no measurement is under way"},
	} {
		err := c.post(ctx, tc.path, tc.in, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("POST %s %+v: %v, want an error with %q", tc.path, tc.in, err, tc.want)
		}
	}
	if err := c.post(ctx, "/measure/start", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.post(ctx, "/measure/start", nil, nil); err == nil || !strings.Contains(err.Error(), "under way already") {
		t.Errorf("a second start: %v", err)
	}
	s.mu.Lock()
	open := len(s.rooms)
	s.mu.Unlock()
	if open != 1 {
		t.Errorf("%d rooms open, want the one made", open)
	}
}

// TestAResetEndsTheWindowAndItsProfile: a run abandoned mid-window (POST
// /reset) leaves the server ready to measure again, its CPU profile too.
func TestAResetEndsTheWindowAndItsProfile(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "server.prof")
	s, err := NewServer(prof)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hs := httptest.NewServer(s)
	defer hs.Close()
	c := &client{url: hs.URL, http: hs.Client()}
	ctx := context.Background()
	for _, path := range []string{"/measure/start", "/reset", "/measure/start"} {
		if err := c.post(ctx, path, nil, nil); err != nil {
			t.Fatalf("POST %s: %v", path, err)
		}
	}
	var f ServerFigures
	if err := c.post(ctx, "/measure/stop", nil, &f); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("the profile: %v, %v", st, err)
	}
}
