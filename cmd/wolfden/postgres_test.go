package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/postgres"
	"github.com/wolfden/wolfden/internal/store/postgres/pgtest"
)

// TestServeOnPostgres: `serve --db postgres://…` keeps its rooms and games
// in that database, and says so without the URL's password.
func TestServeOnPostgres(t *testing.T) {
	url := pgtest.Start(t).NewDB(t)
	url = strings.Replace(url, "postgres@", "postgres:hush@", 1) // trust ignores it
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	out := &lockedWriter{w: &strings.Builder{}}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", addr, "--db", url, "--drain", "0s"}, strings.NewReader(""), out, io.Discard)
	}()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		}
	}
	defer stop()
	base := "http://" + addr
	for i := 0; ; i++ { // until it serves
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if i == 100 {
			t.Fatalf("the server does not answer: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	api := &client.API{Base: base, HTTP: http.DefaultClient}
	var c client.Created
	if err := api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "nickname": "a"}, &c); err != nil {
		t.Fatal(err)
	}
	if err := api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	stop()

	out.mu.Lock()
	said := out.w.(*strings.Builder).String()
	out.mu.Unlock()
	if !strings.Contains(said, "(database PostgreSQL postgres://postgres:xxxxx@") || strings.Contains(said, "hush") {
		t.Errorf("serve said %q", said)
	}
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, err := st.Room(context.Background(), c.Room.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != store.StatusRunning {
		t.Errorf("the room is %s, want running", r.Status)
	}
	if recs, err := st.Records(context.Background(), c.Room.ID); err != nil || len(recs) == 0 {
		t.Errorf("the game's records: %d, %v", len(recs), err)
	}
}
