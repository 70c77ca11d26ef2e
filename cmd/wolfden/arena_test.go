package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// One seed prints the same table, byte for byte, whatever --workers is.
func TestArenaTableIsTheSameForOneSeed(t *testing.T) {
	args := []string{"arena", "--players", "smart,random", "--board", "std-12", "--games", "60", "--seed", "4"}
	one, err := wolfden(t, append(args, "--workers", "1")...)
	if err != nil {
		t.Fatal(err)
	}
	three, err := wolfden(t, append(args, "--workers", "3")...)
	if err != nil {
		t.Fatal(err)
	}
	if one != three {
		t.Fatalf("1 and 3 workers differ:\n%s\n---\n%s", one, three)
	}
	if !strings.Contains(one, "arena: std-12, 60 games, seed 4") || strings.Count(one, "village") != 2 || strings.Count(one, "wolf ") != 2 {
		t.Errorf("table:\n%s", one)
	}
}

// --db keeps every game as a finished room with its whole log; --json
// prints the ratings.
func TestArenaKeepsEveryGameInTheDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arena.db")
	out, err := wolfden(t, "arena", "--players", "random,smart", "--games", "6", "--db", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Games   int `json:"games"`
		Ratings []struct {
			Program, Side string
			Games         int
		} `json:"ratings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if res.Games != 6 || len(res.Ratings) != 4 {
		t.Errorf("result %+v", res)
	}
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rooms, err := st.Rooms(context.Background(), store.StatusOver)
	if err != nil {
		t.Fatal(err)
	}
	if len(rooms) != 6 {
		t.Fatalf("%d rooms kept, want 6", len(rooms))
	}
	for _, rm := range rooms {
		recs, err := st.Records(context.Background(), rm.ID)
		if err != nil || len(recs) != 1 || len(recs[0].Events) == 0 {
			t.Errorf("room %s: %d records (%v)", rm.ID, len(recs), err)
		}
	}
	rows, err := st.ArenaRatings(context.Background(), 5)
	if err != nil || len(rows) != 4 || rows[0].Games != 6 || rows[0].Board != "std-12" || rows[0].Run == "" {
		t.Errorf("the run's ratings: %+v, %v", rows, err)
	}
}

func TestArenaRefusesBadInput(t *testing.T) {
	t.Setenv("WOLFDEN_LLM_URL", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--players", "smart"}, "two programs"},
		{[]string{"--players", "smart,genius"}, `unknown program "genius"`},
		{[]string{"--games", "0"}, "--games must be 1 or more"},
		{[]string{"--board", "nope"}, `unknown preset "nope"`},
		{[]string{"--board", "std-12", "--board-file", "x.yaml"}, "not both"},
		{[]string{"--players", "smart,llm:qwen"}, "needs an endpoint: --llm-url"},
		{[]string{"--players", "smart,llm:qwen", "--llm-url", "ftp://x"}, "not an http:// or https:// URL"},
	} {
		_, err := wolfden(t, append([]string{"arena"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v; want %q", tc.args, err, tc.want)
		}
	}
}
