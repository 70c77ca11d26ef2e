package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

func TestAgentFlagsAreCheckedByName(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"agent", "--name", "kanolab1"}, "--url is required"},
		{[]string{"agent", "--url", "http://127.0.0.1:8080/ws", "--name", "k1"}, "the scheme must be ws or wss"},
		{[]string{"agent", "--url", "ws:///ws", "--name", "k1"}, "has no host"},
		{[]string{"agent", "--url", "ws://127.0.0.1:1/aiwolf/ws?room=r&token=t", "--name", "k1"}, "give it as --token"},
		{[]string{"agent", "--url", "ws://127.0.0.1:1/ws"}, "--name NAME is required"},
		{[]string{"agent", "--url", "ws://127.0.0.1:1/ws", "--name", "123"}, "only digits"},
		{[]string{"agent", "--url", "ws://127.0.0.1:1/ws", "--name", "a b"}, "white space"},
		{[]string{"agent", "--url", "ws://127.0.0.1:1/ws", "--name", "k1", "--count", "0"}, "--count 0"},
		{[]string{"agent", "--url", "ws://127.0.0.1:1/ws", "--name", "k1", "--games", "0"}, "--games 0"},
		{[]string{"agent", "--url", "ws://127.0.0.1:1/ws", "--name", "k1", "--count", "x"}, "invalid argument \"x\""},
	} {
		err := run(t.Context(), tc.args, nil, &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error with %q", tc.args, err, tc.want)
		}
	}
}

func TestAgentNamesNumberATeam(t *testing.T) {
	for _, tc := range []struct {
		name  string
		count int
		want  string
	}{
		{"kanolab1", 5, "kanolab1 kanolab2 kanolab3 kanolab4 kanolab5"},
		{"kanolab", 3, "kanolab1 kanolab2 kanolab3"},
		{"team07", 2, "team7 team8"},
		{"solo", 1, "solo"},
	} {
		got, err := agentNames(tc.name, tc.count)
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("agentNames(%q, %d) = %q, %v; want %q", tc.name, tc.count, got, err, tc.want)
		}
	}
}

// TestAgentCommandPlaysWholeGames runs five agents of one team for two
// games against a server with the gateway (self-match, 5 players).
func TestAgentCommandPlaysWholeGames(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "wolfden.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(st, server.Options{AIWolf: &aiwolf.Options{Players: 5}})
	hs := httptest.NewServer(srv)
	defer func() {
		hs.CloseClientConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Close(ctx)
		hs.Close()
		_ = st.Close()
	}()
	ws := "ws" + strings.TrimPrefix(hs.URL, "http") + "/aiwolf/ws"
	var out bytes.Buffer
	if err := run(t.Context(), []string{"agent", "--url", ws, "--name", "kanolab1", "--count", "5", "--games", "2"}, nil, &out, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log(out.String())
	line := regexp.MustCompile(`^game [12]: kanolab[1-5] Agent\[0[1-5]\] (WEREWOLF|POSSESSED|SEER|VILLAGER) game [0-9A-Z]{26} winner (VILLAGER|WEREWOLF) \((won|lost)\)$`)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 10 {
		t.Fatalf("%d lines, want 10:\n%s", len(lines), out.String())
	}
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("line %q", l)
		}
	}
}
