package rules_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/wolfden/wolfden/rules"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts")

// TestGoldenTranscripts: one seed gives the same game, byte for byte, from
// one version to the next. Each preset's seeded game, driven by a seeded
// random player, must match its transcript in testdata/golden/; run with
// -update after an intended change of the event stream.
func TestGoldenTranscripts(t *testing.T) {
	for _, p := range rules.Presets() {
		t.Run(p.Name, func(t *testing.T) {
			b, err := p.Board(0)
			if err != nil {
				t.Fatal(err)
			}
			g, err := rules.New(b, 2026, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(2026, 1))
			var buf []rules.Command
			for over, _ := g.Over(); !over; over, _ = g.Over() {
				pend := rules.Seats(g.Pending())
				s := pend[r.IntN(len(pend))]
				buf = g.Legal(s, buf[:0])
				if err := g.Do(buf[r.IntN(len(buf))]); err != nil {
					t.Fatal(err)
				}
			}
			var out bytes.Buffer
			for _, e := range g.Events() {
				line, _ := json.Marshal(e)
				out.Write(append(line, '\n'))
			}
			path := filepath.Join("testdata", "golden", p.Name+".jsonl")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./rules -run Golden -update)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				gl, wl := bytes.Split(out.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
				for i := range min(len(gl), len(wl)) {
					if !bytes.Equal(gl[i], wl[i]) {
						t.Fatalf("%s differs at line %d:\n got  %s\n want %s", path, i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
			}
		})
	}
}
