package game

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// TestVoicesFollowTheFloorAndTheNight plays a whole game of bots and checks
// every map the voice is told: by night only the wolves hear each other,
// by day the seat holding the floor is heard by all, the living never hear
// the dead, spectators hear the day only, and all hear all once it is over.
func TestVoicesFollowTheFloorAndTheNight(t *testing.T) {
	b := rules.Board{Cards: []rules.Role{rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Seer, rules.Witch,
		rules.Hunter, rules.LittleGirl, rules.Villager, rules.Villager}}
	var all uint32
	for s := 1; s <= 9; s++ {
		all |= 1 << uint(s)
	}
	const pack = 1<<1 | 1<<2 | 1<<3
	var (
		mu   sync.Mutex
		maps []Voices
	)
	over := make(chan rules.Camp, 1)
	hooks := Hooks{
		Over:  func(w rules.Camp) { over <- w },
		Voice: func(v Voices) { mu.Lock(); maps = append(maps, v); mu.Unlock() },
	}
	tm := fastTimers()
	tm.Bot = 2 * time.Millisecond // one bot's act a delivery: the day's steps are told one by one
	cfg := Config{Board: b, Seed: 7, Timers: tm, Deal: b.Cards, Bots: all}
	a, err := Start(context.Background(), "voices", cfg, memory.New(), hooks, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	select {
	case <-over:
	case <-time.After(2 * time.Minute):
		t.Fatal("the game did not end")
	}
	a.Stop()
	mu.Lock()
	defer mu.Unlock()
	var sawNight, sawFloor, sawOver, sawDead bool
	for i, v := range maps {
		if len(v.Hears) != 10 {
			t.Fatalf("map %d has %d listeners", i, len(v.Hears))
		}
		var floor uint32
		switch {
		case v.Over:
			sawOver = true
			floor = all
		case v.Night:
			sawNight = true
		case floorStep(v.Step) && v.Turn != rules.NoSeat:
			sawFloor = true
			floor = 1 << uint(v.Turn)
		case v.Step == rules.StepDiscussion:
			floor = v.Alive
		}
		want := func(l int) uint32 {
			me := uint32(1) << uint(l)
			switch {
			case v.Over:
				return all &^ me
			case l == 0:
				return floor // spectators: the day only
			case v.Dead&me != 0:
				sawDead = sawDead || v.Dead&^me != 0
				return (floor | v.Dead) &^ me
			case v.Night && v.Alive&me != 0 && pack&me != 0:
				return pack & v.Alive &^ me
			}
			return floor &^ me
		}
		for l := range v.Hears {
			if v.Hears[l] != want(l) {
				t.Fatalf("map %d (night %v, %v, turn %d, alive %b, dead %b): listener %d hears %b, want %b",
					i, v.Night, v.Step, v.Turn, v.Alive, v.Dead, l, v.Hears[l], want(l))
			}
		}
		if v.Dead&v.Alive != 0 {
			t.Fatalf("map %d: the dead %b and the living %b overlap", i, v.Dead, v.Alive)
		}
	}
	if !sawNight || !sawFloor || !sawOver || !sawDead {
		t.Fatalf("the game gave no night (%v), floor (%v), end (%v) or dead pair (%v) map", sawNight, sawFloor, sawOver, sawDead)
	}
}
