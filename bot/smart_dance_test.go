package bot

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

var danceDeal = []rules.Role{rules.Seer, rules.Witch, rules.Idiot, rules.Dancer, rules.Villager, rules.Villager,
	rules.Villager, rules.Villager, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Masquerade}

// TestSmartDancerDancesWithTheTrustedAndTheSuspect: on std-12-masquerade,
// every dance of the smart dancer holds himself (the three are shielded
// from the attack), the player of the floor he trusts most, and the one
// he suspects most of the others, as his model stands when he is asked.
func TestSmartDancerDancesWithTheTrustedAndTheSuspect(t *testing.T) {
	const dancer = rules.Seat(4)
	dances, wolves := 0, 0
	for seed := uint64(1); seed <= 30; seed++ {
		g := newGame(t, "std-12-masquerade", seed, danceDeal)
		playAsking(t, g, seed, func(a asked) {
			if a.seat != dancer || a.cmd.Kind != rules.CmdDance {
				return
			}
			dances++
			floor := targets(a.ch, rules.CmdDance) &^ bit(dancer)
			if !has(a.cmd.Mask, dancer) || a.cmd.Mask&^bit(dancer)&^floor != 0 || popcount(a.cmd.Mask) != 3 {
				t.Fatalf("seed %d: the dancer danced %v from the floor %v", seed, rules.Seats(a.cmd.Mask), rules.Seats(floor))
			}
			m := a.bot.model(a.view)
			lo, hi := float32(2), float32(-1)
			for cm := floor; cm != 0; {
				s := next(&cm)
				lo = min(lo, m.p[s])
			}
			var trusted rules.Seat
			for cm := a.cmd.Mask &^ bit(dancer); cm != 0; {
				if s := next(&cm); m.p[s] <= lo+tieEps && trusted == rules.NoSeat {
					trusted = s
				}
			}
			if trusted == rules.NoSeat {
				t.Fatalf("seed %d: neither partner of %v is the most trusted of the floor", seed, rules.Seats(a.cmd.Mask))
			}
			suspect := a.cmd.Mask &^ bit(dancer) &^ bit(trusted)
			for cm := floor &^ bit(trusted); cm != 0; {
				hi = max(hi, m.p[next(&cm)])
			}
			if s := lowest(suspect); m.p[s] < hi-tieEps {
				t.Fatalf("seed %d: the dancer's suspect %d (p %.2f) is not the most suspected of the floor (%.2f)", seed, s, m.p[s], hi)
			}
			if g.Role(lowest(suspect)).IsWolf() {
				wolves++
			}
		})
	}
	t.Logf("%d dances, %d with a wolf as the suspect", dances, wolves)
	if dances < 20 {
		t.Fatalf("only %d dances in 30 games", dances)
	}
}

// TestSmartMasqueradeMasksHimselfWhenHeDances: the smart masquerade asks
// about himself, and masks himself only when told he dances.
func TestSmartMasqueradeMasksHimselfWhenHeDances(t *testing.T) {
	const masq = rules.Seat(12)
	asks, masks := 0, 0
	for seed := uint64(1); seed <= 30; seed++ {
		g := newGame(t, "std-12-masquerade", seed, danceDeal)
		playAsking(t, g, seed, func(a asked) {
			if a.seat != masq {
				return
			}
			switch a.cmd.Kind {
			case rules.CmdAsk:
				asks++
				if a.cmd.Target != masq {
					t.Fatalf("seed %d: the masquerade asked about %d", seed, a.cmd.Target)
				}
			case rules.CmdMask:
				masks++
				if a.cmd.Target != masq || a.view.Asked != masq || !a.view.AskDances {
					t.Fatalf("seed %d: the masquerade masked %d (asked about %d, dancing: %v)", seed, a.cmd.Target, a.view.Asked, a.view.AskDances)
				}
			}
		})
	}
	t.Logf("%d questions, %d masks", asks, masks)
	if asks < 20 || masks == 0 {
		t.Fatalf("%d questions, %d masks in 30 games", asks, masks)
	}
}
