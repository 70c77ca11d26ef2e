// Package voice measures the rooms' voice on one process (wolfden bench
// voice): rooms of synthetic browsers (internal/voice/synth), every seat
// speaking and heard by every other — the most a room forwards — for a
// while; it reports the CPU per forwarded stream and the timing the
// forwarding adds.
package voice

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/voice"
	"github.com/wolfden/wolfden/internal/voice/synth"
	"github.com/wolfden/wolfden/rules"
)

// Config is a run: so many rooms of so many seats, for so long.
type Config struct {
	Rooms, Seats int
	Duration     time.Duration
}

// Result is what a run measured.
type Result struct {
	Rooms, Seats int
	Streams      int     // forwarded tracks: rooms × seats × (seats − 1)
	Packets      int64   // packets the browsers received
	Seconds      float64 // of measurement
	// CPU is the process's CPU over the measurement (server and browsers
	// together: they share the process), in seconds per second.
	CPU float64
	// TickP50, TickP99: how long a room's tick took to send its packets
	// (the server's own work, in ms); LateP99: how late ticks started
	// against their 20 ms schedule (ms).
	TickP50, TickP99, LateP99 float64
	// GapP50, GapP99: how far the browsers' packet arrivals are from 20 ms
	// apart (the jitter the forwarding adds, ms), each track's gaps pooled.
	GapP50, GapP99 float64
}

// Run plays the configuration and measures it.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Rooms < 1 || cfg.Seats < 2 || cfg.Seats > rules.MaxSeats || cfg.Duration <= 0 {
		return Result{}, fmt.Errorf("bench voice: rooms ≥ 1, seats 2 to %d and a duration above 0, not %+v", rules.MaxSeats, cfg)
	}
	st, err := voice.NewStack(voice.Options{Loopback: true})
	if err != nil {
		return Result{}, err
	}
	defer st.Close()
	all := everyoneHearsEveryone(cfg.Seats)
	type seat struct {
		b    *synth.Browser
		seat rules.Seat
	}
	var rooms []*voice.Room
	var seats []seat
	defer func() {
		for _, s := range seats {
			s.b.Close()
		}
		for _, r := range rooms {
			r.Close()
		}
	}()
	for range cfg.Rooms {
		r := st.NewRoom(cfg.Seats, false)
		r.SetVoices(all)
		rooms = append(rooms, r)
		for s := rules.Seat(1); int(s) <= cfg.Seats; s++ {
			jctx, cancel := context.WithTimeout(ctx, time.Minute)
			p, offer, err := r.Join(jctx, s)
			cancel()
			if err != nil {
				return Result{}, err
			}
			b, answer, err := synth.Answer(offer, true, false)
			if err != nil {
				return Result{}, err
			}
			seats = append(seats, seat{b, s})
			if err := p.Answer(answer); err != nil {
				return Result{}, err
			}
		}
	}
	// Every seat speaks, and every room ticks, on its own beat.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	for _, s := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			frame := synth.Mark(byte(s.seat))
			t := time.NewTicker(voice.Tick)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					_ = s.b.Speak(frame)
				}
			}
		}()
	}
	var mu sync.Mutex
	var took, late []float64
	measuring := false
	for _, r := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next := time.Now().Add(voice.Tick)
			for {
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Until(next)):
				}
				start := time.Now()
				r.Tick()
				d := time.Since(start)
				mu.Lock()
				if measuring {
					took, late = append(took, ms(d)), append(late, ms(start.Sub(next)))
				}
				mu.Unlock()
				next = next.Add(voice.Tick)
			}
		}()
	}
	// Warm up until every browser receives on every track, then measure.
	want := cfg.Seats - 1
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		ready := true
		for _, s := range seats {
			if len(s.b.Tracks()) < want {
				ready = false
				break
			}
		}
		if ready {
			break
		}
		if time.Now().After(deadline) {
			return Result{}, fmt.Errorf("bench voice: the browsers were not all connected in a minute")
		}
	}
	before := counts(seatsOf(seats, func(s seat) *synth.Browser { return s.b }))
	cpu0, t0 := cpuTime(), time.Now()
	mu.Lock()
	measuring = true
	mu.Unlock()
	select {
	case <-ctx.Done():
		return Result{}, ctx.Err()
	case <-time.After(cfg.Duration):
	}
	mu.Lock()
	measuring = false
	mu.Unlock()
	cpu1, t1 := cpuTime(), time.Now()
	stop()
	wg.Wait()
	res := Result{Rooms: cfg.Rooms, Seats: cfg.Seats, Streams: cfg.Rooms * cfg.Seats * (cfg.Seats - 1),
		Seconds: t1.Sub(t0).Seconds()}
	res.CPU = (cpu1 - cpu0).Seconds() / res.Seconds
	var gaps []float64
	for i, s := range seats {
		for _, id := range s.b.Tracks() {
			at := s.b.Arrivals(id)
			from := before[i][id]
			for j := max(from, 1); j < len(at); j++ {
				if at[j].Before(t0) || at[j].After(t1) {
					continue
				}
				res.Packets++
				g := ms(at[j].Sub(at[j-1])) - ms(voice.Tick)
				if g < 0 {
					g = -g
				}
				gaps = append(gaps, g)
			}
		}
	}
	res.TickP50, res.TickP99 = pct(took, 50), pct(took, 99)
	res.LateP99 = pct(late, 99)
	res.GapP50, res.GapP99 = pct(gaps, 50), pct(gaps, 99)
	return res, nil
}

func seatsOf[T any](xs []T, f func(T) *synth.Browser) []*synth.Browser {
	out := make([]*synth.Browser, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// counts is how many packets each browser had on each track.
func counts(bs []*synth.Browser) []map[string]int {
	out := make([]map[string]int, len(bs))
	for i, b := range bs {
		out[i] = map[string]int{}
		for _, id := range b.Tracks() {
			out[i][id] = b.Count(id)
		}
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func pct(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

// cpuTime is the process's user and system CPU so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// everyoneHearsEveryone is the map of a game's end: every track carries a
// voice, the most a room forwards.
func everyoneHearsEveryone(seats int) game.Voices {
	v := game.Voices{Hears: make([]uint32, seats+1)}
	var all uint32
	for s := 1; s <= seats; s++ {
		all |= 1 << uint(s)
	}
	for l := range v.Hears {
		v.Hears[l] = all &^ (1 << uint(l))
	}
	return v
}
