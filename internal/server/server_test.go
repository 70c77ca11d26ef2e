package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// quick timers: random clients answer in well under a millisecond, so the
// clocks only matter for the fixed night schedule.
var quick = map[string]string{"setup": "60ms", "night": "80ms", "witch": "60ms",
	"speech": "2s", "vote": "2s", "other": "2s", "bot": "0s"}

type testServer struct {
	*Server
	api  *client.API
	http *httptest.Server
	path string
}

func newTestServer(t *testing.T) *testServer {
	t.Helper()
	path := filepath.Join(t.TempDir(), "w.db")
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s := New(st, Options{})
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		hs.Close()
		s.Stop()
		st.Close()
	})
	return &testServer{Server: s, api: &client.API{Base: hs.URL}, http: hs, path: path}
}

type seated struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

// table creates a room of humans only: every seat joined by a test client.
func (ts *testServer) table(t *testing.T, body map[string]any) (client.Created, []seated) {
	t.Helper()
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", body, &c); err != nil {
		t.Fatal(err)
	}
	var players []seated
	for i := 0; i < c.Room.Players; i++ {
		var p seated
		if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/join", "", map[string]any{"nickname": fmt.Sprint("p", i+1)}, &p); err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	return c, players
}

// stream collects a seat's events and chat by number, refusing duplicates
// and gaps: what "loses nothing" means.
type stream struct {
	events []json.RawMessage
	chats  []json.RawMessage
}

func (s *stream) take(t *testing.T, f client.Frame) {
	switch f.Type {
	case "event":
		if f.Seq != len(s.events)+1 {
			t.Errorf("event %d arrived after %d", f.Seq, len(s.events))
		}
		s.events = append(s.events, f.Raw)
	case "chat":
		if f.Seq != len(s.chats)+1 {
			t.Errorf("chat %d arrived after %d", f.Seq, len(s.chats))
		}
		s.chats = append(s.chats, f.Raw)
	}
}

func TestTwelveClientsPlayAGameWithAReconnect(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	room, players := ts.table(t, map[string]any{"preset": "std-12", "seed": 42, "timers": quick})
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+room.Room.ID+"/start", room.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	winners := make([]string, len(players))
	var recon stream // seat 3 drops its connection once and resumes
	for i, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 1))
			conn, err := client.Dial(ctx, ts.http.URL, room.Room.ID, p.Token, 0, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			if p.Seat != 3 {
				st, err := conn.PlayRandom(ctx, r, nil)
				if err != nil {
					t.Errorf("seat %d: %v", p.Seat, err)
				}
				winners[i] = st.Winner
				return
			}
			frames := 0
			st, err := conn.PlayRandom(ctx, r, func(f client.Frame) bool {
				recon.take(t, f)
				frames++
				return frames == 40
			})
			if err != nil {
				t.Errorf("seat 3: %v", err)
				return
			}
			if st.Winner != "" {
				t.Error("seat 3: the game ended before the reconnect")
				return
			}
			conn.Kill()
			conn, err = client.Dial(ctx, ts.http.URL, room.Room.ID, p.Token, len(recon.events), len(recon.chats))
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			st, err = conn.PlayRandom(ctx, r, func(f client.Frame) bool { recon.take(t, f); return false })
			if err != nil {
				t.Errorf("seat 3 after reconnecting: %v", err)
			}
			winners[i] = st.Winner
		}()
	}
	wg.Wait()
	for i, w := range winners {
		if w == "" || w != winners[0] {
			t.Fatalf("seat %d saw winner %q, seat 1 saw %q", i+1, w, winners[0])
		}
	}
	// A fresh connection of seat 3 from the start receives exactly what
	// the reconnected one put together.
	conn, err := client.Dial(ctx, ts.http.URL, room.Room.ID, players[2].Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var whole stream
	for f := range conn.Frames {
		whole.take(t, f)
		if f.Type == "state" && f.Over {
			break
		}
	}
	if len(whole.events) != len(recon.events) {
		t.Fatalf("seat 3 has %d events after reconnecting, the whole stream has %d", len(recon.events), len(whole.events))
	}
	for i := range whole.events {
		if string(whole.events[i]) != string(recon.events[i]) {
			t.Fatalf("event %d differs:\n%s\n%s", i+1, recon.events[i], whole.events[i])
		}
	}
	// The replay is there once the game is over.
	var rep struct {
		Events []json.RawMessage
		Roles  map[string]string
	}
	if err := ts.api.Do(ctx, "GET", "/api/rooms/"+room.Room.ID+"/replay", "", nil, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Roles) != 12 || len(rep.Events) < len(whole.events) {
		t.Fatalf("replay: %d roles, %d events", len(rep.Roles), len(rep.Events))
	}
}
