package rules

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Logs written by the version before the secrecy fixes (commit abac0e6,
// random legal play after a short script): one spy event a pick, no night 0 under first_phase=day, a red card
// on a night's dead as a public death, the charmed and the fox told after the
// night's deaths. testdata/oldlogs/NAME.log holds one event a line (Seq Kind
// Public Draws Seat Target Role Value To Mask) and "cut" after each command.
var oldLogBoards = map[string]struct {
	preset string
	cards  []Role
	seed   uint64
}{
	"red_card_night_dead": {preset: "std-12", seed: 1},
	"little_girl":         {cards: []Role{Werewolf, Werewolf, Seer, Guard, LittleGirl, Villager, Villager}, seed: 3},
	"forum_cupid":         {preset: "forum", seed: 5},
	"fox":                 {preset: "std-12-fox", seed: 7},
	"piper":               {cards: []Role{Werewolf, Werewolf, Piper, Seer, Villager, Villager, Villager, Villager}, seed: 2},
}

func readOldLog(t *testing.T, path string) (events []Event, cuts []int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "cut" {
			cuts = append(cuts, len(events))
			continue
		}
		var e Event
		var kind, draws, role uint8
		if _, err := fmt.Sscanf(line, "%d %d %t %d %d %d %d %d %d %d", &e.Seq, &kind, &e.Public, &draws,
			&e.Seat, &e.Target, &role, &e.Value, &e.To, &e.Mask); err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		e.Kind, e.Draws, e.Role = EventKind(kind), draws, Role(role)
		events = append(events, e)
	}
	return events, cuts
}

// TestOldLogsFollow: a game stored by the version before these fixes is
// rebuilt by Follow without a panic or an error, and a game cut at any
// command and continued by this version plays on to its end.
func TestOldLogsFollow(t *testing.T) {
	files, _ := filepath.Glob("testdata/oldlogs/*.log")
	if len(files) != len(oldLogBoards) {
		t.Fatalf("%d old logs, want %d", len(files), len(oldLogBoards))
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".log")
		t.Run(name, func(t *testing.T) {
			c, ok := oldLogBoards[name]
			if !ok {
				t.Fatalf("no board for %s", name)
			}
			b := Board{Cards: c.cards}
			if c.preset != "" {
				p, _ := LookupPreset(c.preset)
				b, _ = p.Board(0)
			}
			events, cuts := readOldLog(t, path)
			g, err := Replay(b, c.seed, events)
			if err != nil {
				t.Fatal(err)
			}
			if over, _ := g.Over(); !over {
				t.Fatal("the replayed game is not over")
			}
			for _, n := range cuts {
				g, err := Replay(b, c.seed, events[:n])
				if err != nil {
					t.Fatalf("cut at %d: %v", n, err)
				}
				r := rand.New(rand.NewPCG(uint64(n), 1))
				var buf []Command
				for i := 0; ; i++ {
					if over, _ := g.Over(); over {
						break
					}
					if i > 5000 {
						t.Fatalf("cut at %d: the continued game does not end", n)
					}
					_ = g.Dying()
					pend := Seats(g.Pending())
					if len(pend) == 0 {
						t.Fatalf("cut at %d: nobody to act in %v", n, g.step)
					}
					s := pend[r.IntN(len(pend))]
					buf = g.Legal(s, buf[:0])
					if err := g.Do(buf[r.IntN(len(buf))]); err != nil {
						t.Fatalf("cut at %d: %v", n, err)
					}
				}
			}
		})
	}
}
