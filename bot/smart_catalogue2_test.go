package bot

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// The habits of the smart bots on roles of ROLES-MORE-2.md (smart_catalogue2.go),
// each on a fixed deal, seeds fixed, inspected where it applies.

// boardDeal is the preset's cards for 12 players, in the board's order: a
// fixed deal.
func boardDeal(t *testing.T, preset string) []rules.Role {
	t.Helper()
	p, err := rules.LookupPreset(preset)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(12)
	if err != nil {
		t.Fatal(err)
	}
	return b.Cards
}

// TestSmartAngelPlaysToBeExiled: the angel (天使) of mh-angel wants the
// village's votes on day 1: he claims no card, accuses the player the
// table trusts most, and votes for him, as a liar would; from day 2 he
// plays a villager (no such accusation unless his model says so).
func TestSmartAngelPlaysToBeExiled(t *testing.T) {
	deal := boardDeal(t, "mh-angel")
	angel := rules.NoSeat
	for i, r := range deal {
		if r == rules.Angel {
			angel = rules.Seat(i + 1)
		}
	}
	accused, voted, exiled, games := 0, 0, 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		g := newGame(t, "mh-angel", seed, deal)
		games++
		playAsking(t, g, seed, func(a asked) {
			if a.seat != angel || a.g.Day() != 1 || a.view.Night {
				return
			}
			pm := a.bot.pubModel(a.view)
			trusted := func(target rules.Seat) bool { // no other candidate is trusted more
				for s := rules.Seat(1); s <= 12; s++ {
					if s != angel && has(a.view.Alive, s) && s != target && pm.p[s] < pm.p[target]-1e-6 && has(targets(a.ch, a.cmd.Kind), s) {
						return false
					}
				}
				return true
			}
			switch {
			case a.cmd.Kind == rules.CmdClaim && int8(a.cmd.Value) == rules.ClaimRole:
				t.Errorf("seed %d: the angel claimed %v on day 1", seed, a.cmd.Role)
			case a.cmd.Kind == rules.CmdClaim && int8(a.cmd.Value) == rules.ClaimWolf:
				accused++
				if !trusted(a.cmd.Target) {
					t.Errorf("seed %d: the angel accused %d, not the player the table trusts most", seed, a.cmd.Target)
				}
			case a.cmd.Kind == rules.CmdVote && a.view.Step == rules.StepVote:
				voted++
				if a.cmd.Target == angel || !trusted(a.cmd.Target) {
					t.Errorf("seed %d: the angel voted for %d, not the player the table trusts most", seed, a.cmd.Target)
				}
			}
		})
		for _, e := range g.Events() {
			if e.Kind == rules.EvAngelWins {
				exiled++
			}
		}
	}
	t.Logf("%d games: the angel accused on day 1 %d times, voted %d times, won %d games", games, accused, voted, exiled)
	if accused < games/2 || voted < games/2 {
		t.Errorf("the angel accused %d times and voted %d times in %d day 1s", accused, voted, games)
	}
}

// TestSmartCursedFoxHides: the cursed fox (咒狐) of std-12-cursed-fox never
// claims his card; every card he claims is a villager's, when a villager
// would claim it (pressed, in a PK, in his last words, early).
func TestSmartCursedFoxHides(t *testing.T) {
	deal := []rules.Role{rules.Seer, rules.Witch, rules.Hunter, rules.Crow, rules.CursedFox, rules.Villager, rules.Villager,
		rules.Villager, rules.Villager, rules.Werewolf, rules.Werewolf, rules.WolfKing}
	const fox = rules.Seat(5)
	plain := 0
	for seed := uint64(1); seed <= 20; seed++ {
		g := newGame(t, "std-12-cursed-fox", seed, deal)
		playAsking(t, g, seed, func(a asked) {
			if a.seat != fox || a.cmd.Kind != rules.CmdClaim || int8(a.cmd.Value) != rules.ClaimRole {
				return
			}
			if a.cmd.Role != rules.Villager {
				t.Errorf("seed %d: the cursed fox claimed %v", seed, a.cmd.Role)
			}
			plain++
		})
	}
	if plain == 0 {
		t.Error("the cursed fox never claimed a villager in 20 games")
	}
	t.Logf("the cursed fox claimed a villager %d times in 20 games", plain)
}

// TestSmartMechanicalWolfUsesWhatHeLearned: the mechanical wolf (机械狼) of
// std-12-mechanical-wolf imitates on night 1; a check goes to a player
// whose card he does not know; the shield covers himself when it may; the
// poison and the second attack go to a claimed or found god (the second
// attack, with none, to anyone).
func TestSmartMechanicalWolfUsesWhatHeLearned(t *testing.T) {
	deal := []rules.Role{rules.Psychic, rules.Witch, rules.Hunter, rules.Guard, rules.MechanicalWolf, rules.Villager, rules.Villager,
		rules.Villager, rules.Villager, rules.Werewolf, rules.Werewolf, rules.Werewolf}
	const mech = rules.Seat(5)
	seen := map[rules.CmdKind]int{}
	for seed := uint64(1); seed <= 30; seed++ {
		g := newGame(t, "std-12-mechanical-wolf", seed, deal)
		playAsking(t, g, seed, func(a asked) {
			if a.seat != mech || !a.view.Night {
				return
			}
			if c := find(a.ch, rules.CmdImitate); c != nil && a.cmd.Kind != rules.CmdImitate {
				t.Errorf("seed %d: asked to imitate, the mechanical wolf sent %v", seed, a.cmd)
			}
			seen[a.cmd.Kind]++
			switch a.cmd.Kind {
			case rules.CmdCheck:
				unknown := false
				for cm := targets(a.ch, rules.CmdCheck) &^ bit(mech); cm != 0; {
					if s := next(&cm); a.view.Known[s] == rules.NoRole {
						unknown = true
					}
				}
				if unknown && a.view.Known[a.cmd.Target] != rules.NoRole {
					t.Errorf("seed %d: the mechanical wolf checked %d, whose card he knows", seed, a.cmd.Target)
				}
			case rules.CmdProtect:
				if has(targets(a.ch, rules.CmdProtect), mech) && a.cmd.Target != mech {
					t.Errorf("seed %d: the mechanical wolf shielded %d, not himself", seed, a.cmd.Target)
				}
			case rules.CmdPoison:
				r := a.bot.claimRole[a.cmd.Target]
				if k := a.view.Known[a.cmd.Target]; k != rules.NoRole {
					r = k
				}
				if !r.IsGod() && !has(a.bot.seerClaim, a.cmd.Target) {
					t.Errorf("seed %d: the mechanical wolf poisoned %d (%v), no god he knows of", seed, a.cmd.Target, r)
				}
			}
		})
	}
	t.Logf("the mechanical wolf's night commands over 30 games: %v", seen)
	if seen[rules.CmdImitate] != 30 {
		t.Errorf("the mechanical wolf imitated in %d of 30 games", seen[rules.CmdImitate])
	}
}
