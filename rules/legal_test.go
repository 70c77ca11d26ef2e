package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLegalAgreesWithCheck: at every moment of random games on every preset,
// the commands Legal lists for each seat are exactly those Check accepts.
// (Three games a preset: the brute force is costly and the presets are many;
// the random boards' property tests cover the rest.)
func TestLegalAgreesWithCheck(t *testing.T) {
	for _, p := range Presets() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			legalAgreesWithCheck(t, p)
		})
	}
}

func legalAgreesWithCheck(t *testing.T, p *Preset) {
	b, _ := p.Board(0)
	for seed := uint64(0); seed < 3; seed++ {
		g, _ := New(b, seed, nil)
		r := rand.New(rand.NewPCG(seed, 11))
		for steps := 0; !g.over && steps < 3000; steps++ {
			for s := Seat(1); s <= g.n; s++ {
				var brute []Command
				for k := CmdKind(1); k < numCmds; k++ {
					for tg := Seat(0); tg <= g.n; tg++ {
						for v := int8(0); v <= 3; v++ {
							c := Command{Seat: s, Kind: k, Target: tg, Value: v}
							if g.Check(c) == nil {
								brute = append(brute, c)
							}
						}
					}
					if k == CmdClaim {
						for v := int8(1); v <= 3; v++ {
							for r := Role(0); r < numRoles; r++ {
								if c := (Command{Seat: s, Kind: k, Value: v, Role: r}); r != 0 && g.Check(c) == nil {
									brute = append(brute, c)
								}
							}
						}
					}
					// Seat lists of one or two seats (Legal lists no larger ones but the dancer's three);
					// Check refuses a list for any other kind before anything else.
					if k == CmdDance { // the dancer's three (舞者), on a board that holds him (the brute force is costly)
						if g.cardSet&(1<<Dancer) == 0 {
							if g.Check(Command{Seat: s, Kind: k, Mask: 14}) == nil {
								t.Fatalf("%v accepts three seats on a board without the dancer", k)
							}
							continue
						}
						for a := Seat(1); a <= g.n; a++ {
							for b := a + 1; b <= g.n; b++ {
								for d := b + 1; d <= g.n; d++ {
									if c := (Command{Seat: s, Kind: k, Mask: a.bit() | b.bit() | d.bit()}); g.Check(c) == nil {
										brute = append(brute, c)
									}
								}
							}
						}
						continue
					}
					if k != CmdLink && k != CmdVoters && k != CmdCharm && k != CmdSwap && k != CmdPair {
						if g.Check(Command{Seat: s, Kind: k, Mask: 6}) == nil {
							t.Fatalf("%v accepts a list of seats", k)
						}
						continue
					}
					for a := Seat(1); a <= g.n; a++ {
						for b := a; b <= g.n; b++ {
							c := Command{Seat: s, Kind: k, Mask: a.bit() | b.bit()}
							if g.Check(c) == nil {
								brute = append(brute, c)
							}
						}
					}
				}
				legal := g.Legal(s, nil)
				cmp := func(a, b Command) int {
					ka := int64(a.Kind)<<56 + int64(a.Role)<<48 + int64(a.Target)<<40 + int64(a.Value)<<32 + int64(a.Mask)
					kb := int64(b.Kind)<<56 + int64(b.Role)<<48 + int64(b.Target)<<40 + int64(b.Value)<<32 + int64(b.Mask)
					return cmpInt(ka, kb)
				}
				slices.SortFunc(brute, cmp)
				slices.SortFunc(legal, cmp)
				if !slices.Equal(brute, legal) {
					t.Fatalf("%s seed %d step %s seat %d (%s): Check accepts %v, Legal lists %v", p.Name, seed, g.step, s, g.role[s], brute, legal)
				}
			}
			playRandom(t, g, r, 1)
		}
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
