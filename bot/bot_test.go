package bot

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// TestBotsNeverSendIllegalCommands: on every preset, random and smart bots
// play whole games without one refused command.
func TestBotsNeverSendIllegalCommands(t *testing.T) {
	for _, level := range []Level{Random, Smart} {
		for _, p := range rules.Presets() {
			for n := p.MinPlayers; n <= p.MaxPlayers; n += 3 {
				b, err := p.Board(n)
				if err != nil {
					t.Fatal(err)
				}
				for seed := uint64(0); seed < 30; seed++ {
					g, err := rules.New(b, seed, nil)
					if err != nil {
						t.Fatal(err)
					}
					bots := make([]Bot, n)
					for i := range bots {
						if bots[i], err = New(level, rules.Seat(i+1), n, Seed(seed, rules.Seat(i+1))); err != nil {
							t.Fatal(err)
						}
					}
					if _, err := Play(g, bots); err != nil {
						t.Fatalf("%s %s %d players seed %d: %v", level, p.Name, n, seed, err)
					}
				}
			}
		}
	}
}
