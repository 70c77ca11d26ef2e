package bot

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// TestSmartNewlywedsPlayForTheirCamp: on std-12-ghost-bride with a fixed
// deal, the smart ghost bride (鬼魂新娘) weds and names a witness on night 1,
// her picks spread over the table from seed to seed (no fixed rule that
// would name them once her seat is known); each newlywed counts the
// newlyweds he was told among his friends, and never votes to exile,
// poisons, shoots nor attacks one of them; once the pack is dead the
// newlyweds holding the kill attack, and win some games.
func TestSmartNewlywedsPlayForTheirCamp(t *testing.T) {
	p, err := rules.LookupPreset("std-12-ghost-bride")
	if err != nil {
		t.Fatal(err)
	}
	deal := []rules.Role{rules.Seer, rules.Werewolf, rules.Villager, rules.GhostBride, rules.Witch, rules.Werewolf,
		rules.Hunter, rules.Villager, rules.Werewolf, rules.Guard, rules.Villager, rules.Werewolf}
	const bride = rules.Seat(4)
	grooms := map[rules.Seat]int{}
	wedKills, wins := 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		g, err := rules.New(rules.Board{Cards: deal, Options: p.Options}, seed, deal)
		if err != nil {
			t.Fatal(err)
		}
		playAsking(t, g, seed, func(a asked) {
			v := a.view
			if a.seat == bride && a.cmd.Kind == rules.CmdGroom {
				grooms[a.cmd.Target]++
			}
			known := seatBit(v.Bride) | seatBit(v.Groom) | seatBit(v.Witness)
			if known&bit(a.seat) == 0 {
				return
			}
			if f := a.bot.friends(v); f&known != known {
				t.Fatalf("seed %d: newlywed %d knows %v but counts only %v as friends", seed, a.seat, rules.Seats(known), rules.Seats(f))
			}
			if a.cmd.Kind == rules.CmdAttack && v.Wolves&bit(a.seat) == 0 && a.cmd.Target != rules.NoSeat {
				wedKills++
			}
			if !has(known&^bit(a.seat), a.cmd.Target) {
				return
			}
			switch a.cmd.Kind {
			case rules.CmdVote:
				if st := v.Step; st != rules.StepVote && st != rules.StepPKVote {
					return
				}
			case rules.CmdPoison, rules.CmdShoot, rules.CmdAttack:
			default:
				return
			}
			t.Errorf("seed %d: newlywed %d sent %v against his own camp", seed, a.seat, a.cmd)
		})
		if over, w := g.Over(); over && w == rules.Newlyweds {
			wins++
		}
		if g.Role(bride) != rules.GhostBride {
			t.Fatalf("seed %d: seat %d holds %v", seed, bride, g.Role(bride))
		}
	}
	if len(grooms) < 5 {
		t.Errorf("the bride wed only %v over 40 seeds: a rule the table could read", grooms)
	}
	if wedKills == 0 || wins == 0 {
		t.Errorf("the newlyweds held the kill %d times and won %d games of 40", wedKills, wins)
	}
	t.Logf("grooms %v; the newlyweds' attacks %d; their wins %d of 40", grooms, wedKills, wins)
}

func seatBit(s rules.Seat) uint32 {
	if s == rules.NoSeat {
		return 0
	}
	return bit(s)
}
