package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
)

// TestACrashDuringStartsLeavesNoRoomUnusable: of 200 rooms, 40 are
// started one after another, then the other 160 at once, and the server is
// killed inside a start's transaction, the 60th, with many more in flight.
// After a restart every room either runs its game (a seat gets its state)
// or waits and starts on its host's word: not one is left running without
// a deal, and every start that was acknowledged runs.
//
// The first starts go one by one because the store commits starts that
// queue together in one transaction: on a loaded machine all 200 can queue
// before the first commit, and the kill would then leave none running.
func TestACrashDuringStartsLeavesNoRoomUnusable(t *testing.T) {
	const rooms, oneByOne = 200, 40
	dir := t.TempDir()
	db, addr := filepath.Join(dir, "w.db"), freeAddr(t)
	srv := startServer(t, addr, db, "--room-rate", "0")
	api := &client.API{Base: srv.base}
	ctx := context.Background()
	created := make([]client.Created, rooms)
	for i := range created {
		if err := api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-12", "nickname": "host",
			"timers": map[string]string{"night": "1m", "setup": "1m"}}, &created[i]); err != nil {
			t.Fatal(err)
		}
	}
	srv.kill(t)
	t.Setenv("WOLFDEN_CRASH_IN_START", "60")
	srv = startServer(t, addr, db, "--room-rate", "0")
	for _, c := range created[:oneByOne] {
		if err := api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
			t.Fatalf("start before the crash: %v", err)
		}
	}
	var wg sync.WaitGroup
	for _, c := range created[oneByOne:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil) // the server dies under many
		}()
	}
	wg.Wait()
	if err := srv.cmd.Wait(); err == nil {
		t.Fatal("the server did not die at the failpoint")
	}
	t.Setenv("WOLFDEN_CRASH_IN_START", "")
	srv = startServer(t, addr, db, "--room-rate", "0")
	defer srv.kill(t)
	var mu sync.Mutex
	running, waiting, unusable := 0, 0, 0
	count := func(n *int, err error) {
		mu.Lock()
		defer mu.Unlock()
		*n++
		if err != nil {
			unusable++
			t.Error(err)
		}
	}
	sem := make(chan struct{}, 16)
	for i, c := range created {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			var info struct{ Status string }
			if err := api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info); err != nil {
				count(new(int), err) // unusable: it cannot even be read
				return
			}
			if info.Status == "open" {
				if i < oneByOne {
					count(new(int), fmt.Errorf("room %s waits, but its start was acknowledged before the crash", c.Room.ID))
					return
				}
				err := api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil)
				if err != nil {
					err = fmt.Errorf("room %s waits but does not start: %v", c.Room.ID, err)
				}
				count(&waiting, err)
				return
			}
			err := dealtState(ctx, srv.base, c)
			if err != nil {
				err = fmt.Errorf("room %s is %s but its game is not there: %v", c.Room.ID, info.Status, err)
			}
			count(&running, err)
		}()
	}
	wg.Wait()
	t.Logf("after the crash: %d rooms running, %d waiting (started again), %d unusable", running, waiting, unusable)
	if waiting == 0 {
		t.Errorf("no room waits: the kill did not fall inside a start (%d running)", running)
	}
}

// dealtState connects the host's seat and waits for a state with its card.
func dealtState(ctx context.Context, base string, c client.Created) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := client.Dial(ctx, base, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		return err
	}
	defer conn.Close()
	for {
		select {
		case f, ok := <-conn.Frames:
			if !ok {
				return fmt.Errorf("closed before a state")
			}
			if f.Type == "state" {
				if f.Role == "" {
					return fmt.Errorf("a state without a card: %s", f.Raw)
				}
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
