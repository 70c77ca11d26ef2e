package rules

import (
	"slices"
	"testing"
)

// TestMixedBloodIsNotToldHisCamp: the mixed blood (混血儿) who takes a wolf as
// his model is woken and told his pick and nothing else: his stream is a
// villager's with those two events more, the same whether the model is a
// wolf or a villager; the model and the wolves are told nothing of it.
func TestMixedBloodIsNotToldHisCamp(t *testing.T) {
	var kinds [2][]EventKind
	for i, model := range []Seat{7, 6} { // a wolf, a villager
		g := dealtGame(t, map[Option]uint8{OptSeerSees: SeesWolfOrNot}, Seer, Witch, Villager, Villager, MixedBlood, Villager, Werewolf, Werewolf, Villager)
		play(t, g, Command{Seat: 5, Kind: CmdModel, Target: model}, Command{Seat: 1, Kind: CmdCheck, Target: 5},
			Command{Seat: 7, Kind: CmdAttack, Target: 9}, Command{Seat: 8, Kind: CmdAttack, Target: 9})
		if a, b := len(g.Stream(5, 0, nil)), len(g.Stream(4, 0, nil)); a != b+2 {
			t.Fatalf("model %d: the mixed blood received %d events, a villager %d: want two more (his wake, his pick)", model, a, b)
		}
		for _, e := range g.Stream(5, 0, nil) {
			kinds[i] = append(kinds[i], e.Kind)
		}
		for _, s := range []Seat{model, 8} {
			if e := told(g, s, EvBlood); len(e) != 0 {
				t.Fatalf("seat %d was told %v", s, e)
			}
		}
		if v := g.View(5); v.Wolves != 0 || v.Role != MixedBlood {
			t.Fatalf("model %d: the mixed blood's view: wolves %v, role %v", model, Seats(v.Wolves), v.Role)
		}
		if c := told(g, 1, EvCheck); len(c) != 1 || c[0].Value != ResultGood {
			t.Fatalf("model %d: the seer read the mixed blood %v, want good", model, c)
		}
	}
	if !slices.Equal(kinds[0], kinds[1]) {
		t.Fatalf("the mixed blood's stream differs with the model's camp: %v / %v", kinds[0], kinds[1])
	}
}
