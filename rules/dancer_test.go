package rules

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

var masqueradeDeal = []Role{Seer, Witch, Idiot, Dancer, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, Masquerade}

// danceNight2 plays std-12-masquerade to night 2 (nobody dies on night 1)
// and has the dancer dance with seats 5 and 9; the masquerade asks about
// ask and masks mask (NoSeat: no command).
func danceNight2(t *testing.T, ask, mask Seat) *Game {
	t.Helper()
	g := presetGame(t, "std-12-masquerade", masqueradeDeal)
	play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 12})
	for w := Seat(9); w <= 11; w++ {
		play(t, g, Command{Seat: w, Kind: CmdAttack})
	}
	play(t, g, Command{Seat: 2, Kind: CmdSkip})
	for g.isNight == false && !g.over {
		g.Timeout()
	}
	play(t, g, Command{Seat: 4, Kind: CmdDance, Mask: Mask(4, 5, 9)}, Command{Seat: 1, Kind: CmdCheck, Target: 10})
	for w := Seat(9); w <= 11; w++ {
		play(t, g, Command{Seat: w, Kind: CmdAttack, Target: 5})
	}
	play(t, g, Command{Seat: 2, Kind: CmdSkip})
	if g.step != StepMasquerade {
		t.Fatalf("step %s after the witch on night 2; want the masquerade's", g.step)
	}
	if ask != NoSeat {
		play(t, g, Command{Seat: 12, Kind: CmdAsk, Target: ask})
	}
	if mask != NoSeat {
		play(t, g, Command{Seat: 12, Kind: CmdMask, Target: mask})
	} else {
		play(t, g, Command{Seat: 12, Kind: CmdSkip})
	}
	return g
}

// night2 is what seat s was told from night 2's fall to its dawn, kind by kind.
func night2(g *Game, s Seat) []EventKind {
	var out []EventKind
	in := false
	for _, e := range g.Stream(s, 0, nil) {
		if e.Kind == EvNight {
			in = e.Value == 2
		}
		if in {
			out = append(out, e.Kind)
		}
		if in && e.Kind == EvDawn {
			break
		}
	}
	return out
}

// TestTheDanceIsTheDancersAlone: the dance is told to the dancer only; the
// question's answer and the mask to the masquerade only. A villager who
// danced (and was shielded from the attack) hears what one who did not
// hears, event for event; so does a wolf who danced, masked, beside his
// mate; the witch is told the attack's target as on any night.
func TestTheDanceIsTheDancersAlone(t *testing.T) {
	g := danceNight2(t, 9, 9)
	if g.night != 2 || !g.isNight && g.day != 2 {
		t.Fatalf("night %d day %d", g.night, g.day)
	}
	if !g.Alive(5) || !g.Alive(9) {
		t.Fatalf("alive 5: %v, 9: %v; the dance shields 5 from the attack and the mask saves 9 from the dance", g.Alive(5), g.Alive(9))
	}
	for s := Seat(1); s <= 12; s++ {
		if toldKind(g, s, EvDance) != (s == 4) {
			t.Fatalf("seat %d (%s) told of the dance", s, g.Role(s))
		}
		if toldKind(g, s, EvAsk) != (s == 12) || toldKind(g, s, EvMask) != (s == 12) {
			t.Fatalf("seat %d (%s) told of the masquerade's question or mask", s, g.Role(s))
		}
	}
	if a, b := night2(g, 5), night2(g, 7); !slices.Equal(a, b) {
		t.Fatalf("the villager who danced was told %v, another %v", a, b)
	}
	if a, b := night2(g, 9), night2(g, 10); !slices.Equal(a, b) {
		t.Fatalf("the wolf who danced masked was told %v, his mate %v", a, b)
	}
	if w := told(g, 2, EvWitchTold); len(w) != 2 || w[1].Target != 5 {
		t.Fatalf("the witch was told %v; want the attack on 5 on night 2", w)
	}
}

// TestTheMasqueradesAnswerTellsOnlyTheDance: the masquerade's stream is the
// same, kind by kind, whether the player he asks about dances or not; only
// the answer's value differs, and it says whether that player dances.
func TestTheMasqueradesAnswerTellsOnlyTheDance(t *testing.T) {
	in, out := danceNight2(t, 5, NoSeat), danceNight2(t, 6, NoSeat)
	if a, b := kinds(in, 12), kinds(out, 12); !slices.Equal(a, b) {
		t.Fatalf("asking about a dancer told %v, about another %v", a, b)
	}
	if a, b := told(in, 12, EvAsk), told(out, 12, EvAsk); len(a) != 1 || len(b) != 1 || a[0].Value != 1 || b[0].Value != 0 {
		t.Fatalf("the answers: %v and %v; want 5 dances, 6 does not", a, b)
	}
	// The dancer's night does not show the mask: with or without it (and
	// the mask on seat 5 makes him the odd one out), the same events up to
	// the dawn's list.
	masked, bare := danceNight2(t, NoSeat, 5), danceNight2(t, NoSeat, NoSeat)
	if a, b := night2(masked, 4), night2(bare, 4); !slices.Equal(a, b) {
		t.Fatalf("the dancer was told %v under a mask, %v without", a, b)
	}
}

// TestPropertiesOfDanceBoards: the properties of random games (every game
// ends, the dead never act, refusals change nothing, no view leaks, the
// replay rebuilds the state) on std-12-masquerade with any options, and on
// random boards given the dancer and the masquerade.
func TestPropertiesOfDanceBoards(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var b Board
		if rapid.Bool().Draw(rt, "preset") {
			p, _ := LookupPreset("std-12-masquerade")
			b, _ = p.Board(0)
			for o := Option(0); o < numOptions; o++ {
				if rapid.Bool().Draw(rt, "change "+o.Name()) {
					b.Options[o] = uint8(rapid.IntRange(0, len(o.Values())-1).Draw(rt, o.Name()))
				}
			}
		} else {
			b = randomBoard(rt)
			b.Cards = slices.Clone(b.Cards)
			need := []Role{Dancer, Masquerade}
			for i, r := range b.Cards {
				if r == Villager && len(need) > 0 {
					if !slices.Contains(b.Cards, need[0]) {
						b.Cards[i] = need[0]
					}
					need = need[1:]
				}
			}
		}
		if err := b.Validate(); err != nil {
			rt.Skip(err)
		}
		playChecked(rt, b, rapid.Uint64().Draw(rt, "seed"))
	})
}
