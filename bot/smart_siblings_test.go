package bot

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// TestSmartSiblingsSpareEachOther: the sisters (姐妹) and brothers (三兄弟)
// of ROLES-MORE-2.md know each other for plain villagers from night 1, so a
// smart sibling never votes for, accuses, poisons nor shoots one of his
// group (he counts it among the seats he never harms), on std-12's rules with the sisters and brothers for its villagers
// and the idiot.
func TestSmartSiblingsSpareEachOther(t *testing.T) {
	p, err := rules.LookupPreset("std-12")
	if err != nil {
		t.Fatal(err)
	}
	deal := []rules.Role{rules.Sister, rules.Werewolf, rules.Brother, rules.Seer, rules.Sister, rules.Werewolf,
		rules.Brother, rules.Witch, rules.Werewolf, rules.Hunter, rules.Brother, rules.Werewolf}
	group := map[rules.Role]uint32{rules.Sister: rules.Mask(1, 5), rules.Brother: rules.Mask(3, 7, 11)}
	asks := 0
	for seed := uint64(1); seed <= 40; seed++ {
		g, err := rules.New(rules.Board{Cards: deal, Options: p.Options}, seed, deal)
		if err != nil {
			t.Fatal(err)
		}
		playAsking(t, g, seed, func(a asked) {
			r := deal[a.seat-1]
			mine, ok := group[r]
			if ok && a.view.Siblings != 0 && a.bot.friends(a.view)&mine != mine {
				t.Fatalf("seed %d: %v %d met his group %v but does not count it among his friends", seed, r, a.seat, rules.Seats(mine))
			}
			if !ok || a.cmd.Target == rules.NoSeat || a.cmd.Target == a.seat || mine&(1<<uint(a.cmd.Target)) == 0 {
				return
			}
			switch a.cmd.Kind {
			case rules.CmdVote: // to exile, not the sheriff's election
				if st := a.view.Step; st != rules.StepVote && st != rules.StepPKVote {
					return
				}
			case rules.CmdPoison, rules.CmdShoot:
			case rules.CmdClaim:
				if a.cmd.Value != rules.ClaimWolf {
					return
				}
			default:
				return
			}
			asks++
			t.Errorf("seed %d: %v %d sent %v against his own group", seed, r, a.seat, a.cmd)
		})
	}
	if asks > 0 {
		t.Logf("%d commands against a sibling", asks)
	}
}
