package script

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any input is either refused with an error or parsed into a
// script that runs to an end or a failure, never a panic.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../examples/*.yaml")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("preset: std-9\nsteps: [\"1 vote 2\", timeout, {expect: {dead: [1]}}]\n"))
	f.Add([]byte("cards: [werewolf, villager, villager]\noptions: {wolf_win: parity}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if len(s.Steps) > 200 {
			return
		}
		_, _ = s.Run(nil)
	})
}
