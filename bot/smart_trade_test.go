package bot

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// TestSmartWardenPairsAPackmateWithAnOutsider: the warden (典狱长) of std-12-warden names
// a packmate and an outsider, never himself; a wolf of the pack named
// with an outsider betrays him, with a packmate trades; a villager trades
// with a player he does not suspect and betrays one his model knows to be a
// wolf.
func TestSmartWardenPairsAPackmateWithAnOutsider(t *testing.T) {
	deal := []rules.Role{rules.Seer, rules.Witch, rules.Hunter, rules.Dreamcatcher, rules.Villager, rules.Villager,
		rules.Villager, rules.Villager, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Warden}
	const warden = rules.Seat(12)
	pairs, trades := 0, 0
	for seed := uint64(1); seed <= 12; seed++ {
		g := newGame(t, "std-12-warden", seed, deal)
		playAsking(t, g, seed, func(a asked) {
			switch a.view.Step {
			case rules.StepWarden:
				if a.seat != warden {
					t.Fatalf("seed %d: seat %d woken as the warden", seed, a.seat)
				}
				if a.cmd.Kind == rules.CmdPair {
					pairs++
					if has(a.cmd.Mask, warden) || popcount(a.cmd.Mask&a.view.Wolves) != 1 {
						t.Fatalf("seed %d night %d: the warden named %v, not one packmate and one outsider", seed, a.bot.night, rules.Seats(a.cmd.Mask))
					}
				}
			case rules.StepTrade:
				trades++
				other := a.view.Traders &^ bit(a.seat)
				if popcount(other) != 1 {
					t.Fatalf("seed %d: trader %d was told the pair %v", seed, a.seat, rules.Seats(a.view.Traders))
				}
				o := lowest(other)
				mine := a.g.Role(a.seat).IsWolf()
				switch {
				case mine && a.cmd.Kind != rules.CmdBetray:
					t.Errorf("seed %d: wolf %d trades with outsider %d", seed, a.seat, o)
				case !mine && has(a.bot.model(a.view).wolf, o) && a.cmd.Kind != rules.CmdBetray:
					t.Errorf("seed %d: villager %d trades with %d, a known wolf", seed, a.seat, o)
				case !mine && a.bot.model(a.view).p[o] < 0.3 && a.cmd.Kind != rules.CmdTrade:
					t.Errorf("seed %d: villager %d betrays %d, whom he trusts", seed, a.seat, o)
				}
			}
		})
	}
	t.Logf("%d pairs named, %d trade choices", pairs, trades)
	if pairs < 6 || trades != 2*pairs {
		t.Errorf("the warden named %d pairs and the traders chose %d times in 12 games", pairs, trades)
	}
}

// TestSmartMerchantGivesToTheBelievedChecker: the miracle merchant (奇迹商人)
// of std-12-miracle-merchant gives only to a player his model does not know
// as a wolf: the poison to a checker claimant he believes, else from night
// 3 the shield to the player he trusts most; the lucky one poisons only a
// known wolf.
func TestSmartMerchantGivesToTheBelievedChecker(t *testing.T) {
	deal := []rules.Role{rules.Seer, rules.Witch, rules.Hunter, rules.MiracleMerchant, rules.Villager, rules.Villager,
		rules.Villager, rules.Villager, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.WolfKing}
	const seer, merchant = rules.Seat(1), rules.Seat(4)
	gifts, poisons, toSeer := 0, 0, 0
	for seed := uint64(1); seed <= 12; seed++ {
		g := newGame(t, "std-12-miracle-merchant", seed, deal)
		playAsking(t, g, seed, func(a asked) {
			switch a.view.Step {
			case rules.StepMerchant:
				if a.seat != merchant {
					t.Fatalf("seed %d: seat %d woken as the merchant", seed, a.seat)
				}
				b := a.bot
				switch a.cmd.Kind {
				case rules.CmdGiftPoison:
					gifts++
					poisons++
					if !has(b.seerClaim, a.cmd.Target) {
						t.Errorf("seed %d night %d: the poison to %d, no checker claimant", seed, b.night, a.cmd.Target)
					}
					if a.cmd.Target == seer {
						toSeer++
					}
				case rules.CmdGiftShield:
					gifts++
					if b.night < 3 {
						t.Errorf("seed %d: a shield on night %d", seed, b.night)
					}
				case rules.CmdGiftCheck:
					t.Errorf("seed %d: the merchant gives a check", seed)
				}
				if a.cmd.Target != rules.NoSeat && has(b.model(a.view).wolf, a.cmd.Target) {
					t.Errorf("seed %d: the merchant gives to %d, a known wolf", seed, a.cmd.Target)
				}
			case rules.StepLucky:
				if a.cmd.Kind == rules.CmdPoison && !has(a.bot.model(a.view).wolf, a.cmd.Target) {
					t.Errorf("seed %d: the lucky one %d poisons %d, not a known wolf", seed, a.seat, a.cmd.Target)
				}
			}
		})
	}
	t.Logf("%d gifts, %d poisons, %d of them to the true seer", gifts, poisons, toSeer)
	if gifts < 4 || poisons == 0 || toSeer*3 < poisons*2 {
		t.Errorf("%d gifts in 12 games, %d poisons, %d to the true seer", gifts, poisons, toSeer)
	}
}
