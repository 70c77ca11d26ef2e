package server

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/rules"
)

// villagerSeed is a seed that deals seat 1 a plain villager in std-12:
// the witch's heal he sends is refused by the game, a round trip through
// the game's actor that changes nothing.
func villagerSeed(t *testing.T) uint64 {
	t.Helper()
	p, _ := rules.LookupPreset("std-12")
	b, _ := p.Board(12)
	for seed := uint64(1); seed <= 100; seed++ {
		g, err := rules.New(b, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g.Role(1) == rules.Villager {
			return seed
		}
	}
	t.Fatal("no seed in 1..100 deals seat 1 a villager")
	return 0
}

// honestPace spaces an honest player's commands: a connection may send 20
// frames a second.
const honestPace = 55 * time.Millisecond

// roundTrips sends acts on conn one after the other, at honestPace, and
// measures each until its answer, while more() says go on.
func roundTrips(t *testing.T, ctx context.Context, conn *client.Conn, id *int64, more func(n int) bool) []time.Duration {
	t.Helper()
	var out []time.Duration
	tick := time.NewTicker(honestPace)
	defer tick.Stop()
	for more(len(out)) {
		<-tick.C
		*id++
		sent := time.Now()
		if err := conn.Send(ctx, map[string]any{"type": "act", "id": *id, "cmd": "heal"}); err != nil {
			t.Fatal(err)
		}
		for {
			f, ok := next(conn, frameWait)
			if !ok {
				t.Fatal("the honest player's connection closed or stalled")
			}
			if f.Type == "error" && f.Code == "rate" {
				t.Fatalf("the honest player was told to slow down: %s", f.Raw)
			}
			if f.Type == "error" && f.ID == *id {
				if f.Code == "rate" {
					t.Fatalf("the honest command was answered %s", f.Raw)
				}
				break
			}
		}
		out = append(out, time.Since(sent))
	}
	return out
}

func p99(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return percentile(s, 0.99)
}

func percentile(sorted []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// floodGap spaces the flooding seat's frames: 2,000 a second a connection
// is a hundred times what it may send, and leaves the test's two cores
// (the flood is written from this process too) to the server.
const floodGap = 500 * time.Microsecond

// reconnectGap spaces its connections (once thrown out, and refused while
// it keeps trying): a hundred a second.
const reconnectGap = 10 * time.Millisecond

// TestAbuseLeavesAnHonestPlayerServed: one seat flooding chat and bad
// frames over its two connections (reconnecting whenever it is thrown out)
// and 1,000 anonymous spectators connecting from one address leave an
// honest player served: every one of his commands is answered, none is
// told to slow down, and the spectators from one address are refused. The
// round trips, quiet and under abuse, are logged (-v) as a measure, not
// asserted: a timing bound fails on a loaded machine, not on a bug.
func TestAbuseLeavesAnHonestPlayerServed(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "seed": villagerSeed(t), "practice": true,
		"options": map[string]string{"first_phase": "day"}, "nickname": "honest", "timers": slow}, &c); err != nil {
		t.Fatal(err)
	}
	var abuser seated
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/join", "", map[string]any{"nickname": "abuser"}, &abuser); err != nil {
		t.Fatal(err)
	}
	if err := ts.api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	honest, err := client.Dial(ctx, ts.http.URL, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer honest.Close()
	var id int64
	const samples = 120
	roundTrips(t, ctx, honest, &id, func(n int) bool { return n < 10 }) // warm up
	quiet := roundTrips(t, ctx, honest, &id, func(n int) bool { return n < samples })

	// The abuse.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var flood, reconnects, specTried, specRefused atomic.Int64
	for k := range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				ws, _, err := websocket.Dial(ctx, wsURL(ts.http.URL, c.Room.ID), nil)
				if err != nil {
					return
				}
				reconnects.Add(1)
				time.Sleep(reconnectGap)
				go func() { // read and drop whatever comes
					for {
						if _, _, err := ws.Read(ctx); err != nil {
							return
						}
					}
				}()
				_ = ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","token":"`+abuser.Token+`"}`))
				for i := 0; ; i++ {
					select {
					case <-stop:
						ws.CloseNow()
						return
					default:
					}
					frame := fmt.Appendf(nil, `{"type":"chat","id":%d,"channel":"day","text":"spam %d"}`, i, k)
					if i%2 == 1 {
						frame = []byte(`{"type":"act","cmd":`)
					}
					if ws.Write(ctx, websocket.MessageText, frame) != nil {
						break // thrown out: come back
					}
					flood.Add(1)
					time.Sleep(floodGap)
				}
				ws.CloseNow()
			}
		})
	}
	var spectators sync.WaitGroup
	next := atomic.Int64{}
	for range 8 { // dialing at once
		spectators.Go(func() {
			for next.Add(1) <= 1000 {
				ws, code, err := spectate(ctx, ts.http.URL, c.Room.ID, "")
				specTried.Add(1)
				if err != nil {
					continue
				}
				if ws != nil {
					defer ws.CloseNow() // the few let in stay and watch
				} else if code != "" {
					specRefused.Add(1)
				}
			}
		})
	}
	specDone := make(chan struct{})
	go func() { spectators.Wait(); close(specDone) }()
	for flood.Load() < 200 || specTried.Load() < 20 { // the abuse is under way
		time.Sleep(time.Millisecond)
	}
	under := roundTrips(t, ctx, honest, &id, func(n int) bool {
		select {
		case <-specDone:
			return n < samples
		default:
			return true
		}
	})
	close(stop)
	wg.Wait()

	q, u := p99(quiet), p99(under)
	t.Logf("honest command round trip p99: quiet %v (%d commands), under abuse %v (%d commands); abuse: %d frames flooded over %d connections of one seat, %d spectator connections tried, %d refused",
		q, len(quiet), u, len(under), flood.Load(), reconnects.Load(), specTried.Load(), specRefused.Load())
	if len(under) == 0 {
		t.Error("no honest command was answered while the abuse ran")
	}
	if specRefused.Load() < 900 {
		t.Errorf("only %d of %d spectator connections from one address were refused", specRefused.Load(), specTried.Load())
	}
}
