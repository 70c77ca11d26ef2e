package rules_test

import (
	"path/filepath"
	"testing"

	"github.com/wolfden/wolfden/internal/script"
)

// TestScenarios runs every rule scenario (rules/testdata/*.yaml) and every
// example (examples/*.yaml): each names the rule it checks and the seed line
// it comes from, and fails on a refused command or an unmet expectation.
func TestScenarios(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.yaml")
	examples, _ := filepath.Glob("../examples/*.yaml")
	files = append(files, examples...)
	if len(files) == 0 {
		t.Fatal("no scenario files found")
	}
	for _, f := range files {
		s, err := script.Load(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if s.Name == "" || s.Rule == "" {
			t.Errorf("%s: a scenario must state its name and the rule it checks", f)
		}
		t.Run(filepath.Base(f)+": "+s.Name, func(t *testing.T) {
			if _, err := s.Run(nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}
