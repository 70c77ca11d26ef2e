package bot

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

var eternalDeal = []rules.Role{rules.Seer, rules.Witch, rules.Guard, rules.SequencePrince, rules.Villager, rules.Villager,
	rules.Villager, rules.Villager, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.EclipseWolfQueen}

// TestSmartQueenSheltersHerPack: the eclipse wolf queen (蚀时狼妃) of
// std-12-eternal shelters a wolf of her pack every night she is woken (the
// one the table accuses most, when any is accused), never a villager;
// only when no mate may be named (last night's was the last) she passes.
func TestSmartQueenSheltersHerPack(t *testing.T) {
	const queen = rules.Seat(12)
	nights, accused := 0, 0
	for seed := uint64(1); seed <= 10; seed++ {
		g := newGame(t, "std-12-eternal", seed, eternalDeal)
		playAsking(t, g, seed, func(a asked) {
			if a.seat != queen || a.view.Step != rules.StepEclipse {
				return
			}
			if find(a.ch, rules.CmdShelter).Targets&a.view.Wolves == 0 {
				return // her only living mate was sheltered last night
			}
			nights++
			if a.cmd.Kind != rules.CmdShelter || !has(a.view.Wolves, a.cmd.Target) {
				t.Fatalf("seed %d night %d: the queen sent %v, not a shelter of her pack %v", seed, a.bot.night, a.cmd, rules.Seats(a.view.Wolves))
			}
			most, n := 0, 0
			for cm := find(a.ch, rules.CmdShelter).Targets & a.view.Wolves; cm != 0; {
				w := next(&cm)
				k := 0
				for s := 1; s < maxSeat; s++ {
					if has(a.bot.accWolf[s], w) {
						k++
					}
				}
				if w == a.cmd.Target {
					n = k
				}
				most = max(most, k)
			}
			if most > 0 {
				accused++
				if n != most {
					t.Errorf("seed %d night %d: the queen sheltered %d, accused %d times, while a mate was accused %d times", seed, a.bot.night, a.cmd.Target, n, most)
				}
			}
		})
	}
	t.Logf("the queen sheltered %d nights, %d of them with a mate accused", nights, accused)
	if nights < 10 || accused == 0 {
		t.Errorf("too few nights to judge: %d sheltered, %d with a mate accused", nights, accused)
	}
}

// TestSmartPrinceRewindsHisOwnExile: the sequence prince (定序王子) voids a
// first exile vote that would exile him; every other seat lets the vote
// stand in the window.
func TestSmartPrinceRewindsHisOwnExile(t *testing.T) {
	const prince = rules.Seat(4)
	windows, own := 0, 0
	for seed := uint64(1); seed <= 30; seed++ {
		g := newGame(t, "std-12-eternal", seed, eternalDeal)
		playAsking(t, g, seed, func(a asked) {
			if a.view.Step != rules.StepRewind {
				return
			}
			windows++
			if a.seat != prince {
				if a.cmd.Kind != rules.CmdSkip {
					t.Fatalf("seed %d: seat %d (%s) sent %v in the prince's window", seed, a.seat, a.g.Role(a.seat), a.cmd)
				}
				return
			}
			if a.bot.tied == bit(prince) {
				own++
				if a.cmd.Kind != rules.CmdRewind {
					t.Errorf("seed %d day %d: the prince let his own exile stand (%v)", seed, a.bot.day, a.cmd)
				}
			}
		})
	}
	t.Logf("%d answers in the window, %d by the prince facing his own exile", windows, own)
	if own == 0 {
		t.Error("no game put the prince in front of his own exile: the habit was not checked")
	}
}
