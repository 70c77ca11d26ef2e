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

// A seat is a synthetic browser and the seat it speaks for.
type seat struct {
	b    *synth.Browser
	seat rules.Seat
}

// speak has every seat send a frame every Tick until ctx ends.
func speak(ctx context.Context, wg *sync.WaitGroup, seats []seat) {
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
}

// closeAll closes every browser at once: one after another, 240 took
// minutes on a loaded machine.
func closeAll(seats []seat) {
	var wg sync.WaitGroup
	for _, s := range seats {
		wg.Add(1)
		go func() { defer wg.Done(); s.b.Close() }()
	}
	wg.Wait()
}

// connected waits until every browser receives on its seats−1 tracks: a
// minute, and more for many browsers (240 on a loaded machine take more).
func connected(ctx context.Context, seats []seat, tracks int) error {
	wait := time.Minute + time.Duration(len(seats))*250*time.Millisecond
	for deadline := time.Now().Add(wait); ; {
		ready := true
		for _, s := range seats {
			if len(s.b.Tracks()) < tracks {
				ready = false
				break
			}
		}
		if ready {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("bench voice: the browsers were not all connected in %v", wait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ticks is a room's forwarding on its own beat, as Room's own ticker does,
// with how long each tick took and how late it started while on.
type ticks struct {
	mu         sync.Mutex
	on         bool
	took, late []float64
	packets    int64 // packets written while on
}

// beat ticks r every Tick until ctx ends; each tick writes perTick()
// packets.
func (k *ticks) beat(ctx context.Context, r *voice.Room, perTick func() int) {
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
		k.mu.Lock()
		if k.on {
			k.took, k.late = append(k.took, ms(d)), append(k.late, ms(start.Sub(next)))
			k.packets += int64(perTick())
		}
		k.mu.Unlock()
		next = next.Add(voice.Tick)
	}
}

func (k *ticks) set(on bool) {
	k.mu.Lock()
	k.on = on
	if on {
		k.took, k.late, k.packets = nil, nil, 0
	}
	k.mu.Unlock()
}

// arrivals are the browsers' packets that arrived between t0 and t1 and
// how far each arrived from 20 ms after the one before it (ms).
func arrivals(seats []seat, t0, t1 time.Time) (packets int64, gaps []float64) {
	for _, s := range seats {
		for _, id := range s.b.Tracks() {
			at := s.b.Arrivals(id)
			for j := 1; j < len(at); j++ {
				if at[j].Before(t0) || at[j].After(t1) {
					continue
				}
				packets++
				g := ms(at[j].Sub(at[j-1])) - ms(voice.Tick)
				if g < 0 {
					g = -g
				}
				gaps = append(gaps, g)
			}
		}
	}
	return packets, gaps
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

func checkConfig(cfg Config) error {
	if cfg.Rooms < 1 || cfg.Seats < 2 || cfg.Seats > rules.MaxSeats || cfg.Duration <= 0 {
		return fmt.Errorf("bench voice: rooms ≥ 1, seats 2 to %d and a duration above 0, not %+v", rules.MaxSeats, cfg)
	}
	return nil
}
