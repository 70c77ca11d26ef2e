// Package voice measures the rooms' voice (wolfden bench voice): rooms of
// synthetic browsers (internal/voice/synth), every seat speaking and heard
// by every other — the most a room forwards — for a while; it reports the
// CPU per forwarded stream and the timing the forwarding adds. Run does
// it in one process; Server and RunRemote split the server's side from
// the browsers' in two processes, so that each side's CPU is its own.
package voice

import (
	"context"
	"sync"
	"time"

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

// Run plays the configuration in this process and measures it.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := checkConfig(cfg); err != nil {
		return Result{}, err
	}
	st, err := voice.NewStack(voice.Options{Loopback: true})
	if err != nil {
		return Result{}, err
	}
	defer st.Close()
	all := everyoneHearsEveryone(cfg.Seats)
	var rooms []*voice.Room
	var seats []seat
	defer func() {
		closeAll(seats)
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
	speak(ctx, &wg, seats)
	perTick := func() int { return cfg.Seats * (cfg.Seats - 1) }
	var k ticks
	for _, r := range rooms {
		wg.Add(1)
		go func() { defer wg.Done(); k.beat(ctx, r, perTick) }()
	}
	// Warm up until every browser receives on every track, then measure.
	if err := connected(ctx, seats, cfg.Seats-1); err != nil {
		return Result{}, err
	}
	cpu0, t0 := cpuTime(), time.Now()
	k.set(true)
	select {
	case <-ctx.Done():
		return Result{}, ctx.Err()
	case <-time.After(cfg.Duration):
	}
	k.set(false)
	cpu1, t1 := cpuTime(), time.Now()
	stop()
	wg.Wait()
	res := Result{Rooms: cfg.Rooms, Seats: cfg.Seats, Streams: cfg.Rooms * cfg.Seats * (cfg.Seats - 1),
		Seconds: t1.Sub(t0).Seconds()}
	res.CPU = (cpu1 - cpu0).Seconds() / res.Seconds
	packets, gaps := arrivals(seats, t0, t1)
	res.Packets = packets
	res.TickP50, res.TickP99 = pct(k.took, 50), pct(k.took, 99)
	res.LateP99 = pct(k.late, 99)
	res.GapP50, res.GapP99 = pct(gaps, 50), pct(gaps, 99)
	return res, nil
}
