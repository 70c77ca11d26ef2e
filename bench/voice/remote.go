package voice

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/voice"
	"github.com/wolfden/wolfden/internal/voice/synth"
	"github.com/wolfden/wolfden/rules"
)

// Split is what a split run measured: the server's figures, from its own
// process, and the browsers', from this one.
type Split struct {
	Rooms, Seats int
	Streams      int // forwarded tracks: rooms × seats × (seats − 1)
	Server       ServerFigures
	// Seconds of the browsers' window, which holds the server's.
	Seconds float64
	// BrowsersCPU is this process's CPU (the synthetic browsers': SRTP,
	// reading, their microphones) in cores.
	BrowsersCPU float64
	// Packets the browsers received in their window, of Expected (one per
	// stream per Tick).
	Packets, Expected int64
	// GapP50, GapP99: how far the arrivals are from 20 ms apart (ms),
	// every track's gaps pooled: the jitter the server adds, and at the
	// saturation of this process its own lateness in reading too.
	GapP50, GapP99 float64
}

// RunRemote plays the configuration's browsers in this process against
// the Server whose signalling is at url, and measures both sides over the
// same window.
func RunRemote(ctx context.Context, url string, cfg Config) (Split, error) {
	if err := checkConfig(cfg); err != nil {
		return Split{}, err
	}
	c := &client{url: strings.TrimSuffix(url, "/"), http: &http.Client{Timeout: 2 * time.Minute}}
	var seats []seat
	defer func() {
		closeAll(seats)
		_ = c.post(context.Background(), "/reset", nil, nil)
	}()
	if err := c.post(ctx, "/reset", nil, nil); err != nil {
		return Split{}, err
	}
	// The rooms' seats join a few at a time: one after another, 240 of
	// them took minutes.
	var mu sync.Mutex
	var firstErr error
	joining := make(chan struct{}, joiners)
	var jwg sync.WaitGroup
	for range cfg.Rooms {
		var room roomResp
		if err := c.post(ctx, "/rooms", roomReq{Seats: cfg.Seats}, &room); err != nil {
			return Split{}, err
		}
		for s := rules.Seat(1); int(s) <= cfg.Seats; s++ {
			joining <- struct{}{}
			jwg.Add(1)
			go func() {
				defer func() { <-joining; jwg.Done() }()
				b, err := c.join(ctx, room.Room, s)
				mu.Lock()
				defer mu.Unlock()
				if b != nil {
					seats = append(seats, seat{b, s})
				}
				if err != nil && firstErr == nil {
					firstErr = err
				}
			}()
		}
	}
	jwg.Wait()
	if firstErr != nil {
		return Split{}, firstErr
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	speak(sctx, &wg, seats)
	if err := connected(ctx, seats, cfg.Seats-1); err != nil {
		return Split{}, err
	}
	// The browsers' window holds the server's: their arrivals are counted
	// over the same span the server's CPU is.
	cpu0, t0 := cpuTime(), time.Now()
	if err := c.post(ctx, "/measure/start", nil, nil); err != nil {
		return Split{}, err
	}
	select {
	case <-ctx.Done():
		return Split{}, ctx.Err()
	case <-time.After(cfg.Duration):
	}
	res := Split{Rooms: cfg.Rooms, Seats: cfg.Seats, Streams: cfg.Rooms * cfg.Seats * (cfg.Seats - 1)}
	if err := c.post(ctx, "/measure/stop", nil, &res.Server); err != nil {
		return Split{}, err
	}
	cpu1, t1 := cpuTime(), time.Now()
	stop()
	wg.Wait()
	res.Seconds = t1.Sub(t0).Seconds()
	res.BrowsersCPU = (cpu1 - cpu0).Seconds() / res.Seconds
	packets, gaps := arrivals(seats, t0, t1)
	res.Packets = packets
	res.Expected = int64(float64(res.Streams) * res.Seconds / voice.Tick.Seconds())
	res.GapP50, res.GapP99 = pct(gaps, 50), pct(gaps, 99)
	return res, nil
}

// joiners is how many seats join at once.
const joiners = 8

// join connects a browser for seat s of room.
func (c *client) join(ctx context.Context, room int, s rules.Seat) (*synth.Browser, error) {
	var j joinResp
	if err := c.post(ctx, "/join", joinReq{Room: room, Seat: s}, &j); err != nil {
		return nil, err
	}
	b, answer, err := synth.Answer(j.Offer, true, false)
	if err != nil {
		return nil, err
	}
	return b, c.post(ctx, "/answer", answerReq{ID: j.ID, SDP: answer}, nil)
}

type client struct {
	url  string
	http *http.Client
}

// post sends in as JSON (none if nil) and decodes the answer into out.
func (c *client) post(ctx context.Context, path string, in, out any) error {
	var body io.Reader = http.NoBody
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+path, body)
	if err != nil {
		return fmt.Errorf("bench voice: %w", err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("bench voice: the server at %s: %w", c.url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("bench voice: POST %s: %s: %s", path, resp.Status, strings.TrimSpace(string(msg)))
	}
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("bench voice: POST %s's answer: %w", path, err)
	}
	return nil
}

// PrintSplit writes a split run's figures, the server's then the
// browsers'.
func PrintSplit(w io.Writer, r Split) {
	f := r.Server
	// Per stream from the cost of a packet, 50 of them a second: a
	// saturated server writes fewer packets than its streams need.
	us := f.CPU * 1e6 * f.Seconds / float64(max(f.Packets, 1))
	perSecond := float64(time.Second / voice.Tick)
	fmt.Fprintf(w, "%d rooms of %d seats: %d streams forwarded\n", r.Rooms, r.Seats, r.Streams)
	fmt.Fprintf(w, "server (its own process, %.1f s): CPU %.3f cores, %d packets written of %.0f due: %.2f µs of CPU per forwarded packet, %.2f%% of a core per 100 streams, %.2f cores for all %d\n",
		f.Seconds, f.CPU, f.Packets, float64(r.Streams)*perSecond*f.Seconds, us, us*perSecond*100/1e6*100, us*perSecond*float64(r.Streams)/1e6, r.Streams)
	fmt.Fprintf(w, "server: a room's tick p50 %.2f ms, p99 %.2f ms; ticks late p99 %.2f ms\n", f.TickP50, f.TickP99, f.LateP99)
	fmt.Fprintf(w, "browsers (this process, %.1f s): CPU %.3f cores; %d packets received of %d expected (%.1f%%)\n",
		r.Seconds, r.BrowsersCPU, r.Packets, r.Expected, 100*float64(r.Packets)/float64(max(r.Expected, 1)))
	fmt.Fprintf(w, "arrival gaps off 20 ms: p50 %.2f ms, p99 %.2f ms (the jitter the browsers see; with their process saturated, its own lateness too)\n",
		r.GapP50, r.GapP99)
}
