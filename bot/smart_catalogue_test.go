package bot

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// The habits of the smart bots on the roles of ROLES-MORE.md: whole games
// of smart bots on the role's preset, seeds fixed, with each question the
// bot of interest answers inspected as it is asked (its model as it stands
// then), so that a habit is checked where it applies and not on average.

// asked is one question to a seat, with the bot that answered it.
type asked struct {
	g    *rules.Game
	seat rules.Seat
	bot  *smartBot
	view *rules.View
	ch   []rules.Choice
	cmd  rules.Command
}

// playAsking plays a game of smart bots to its end (or a bound), calling
// inspect after each answer, before the command is played.
func playAsking(t *testing.T, g *rules.Game, seed uint64, inspect func(a asked)) {
	t.Helper()
	n := g.Players()
	bots := smartBots(t, n, seed)
	var cursor [rules.MaxSeats + 1]int
	var buf []rules.Choice
	for cmds := 0; cmds < 5000; cmds++ {
		ev := g.Events()
		for i, b := range bots {
			s := rules.Seat(i + 1)
			for _, e := range ev[cursor[s]:] {
				if e.Visible(s) {
					b.Observe(e)
				}
			}
			cursor[s] = len(ev)
		}
		if over, _ := g.Over(); over {
			return
		}
		p := g.Pending()
		s := rules.Seat(1)
		for ; s <= rules.Seat(n) && p&(1<<uint(s)) == 0; s++ {
		}
		v := g.View(s)
		buf = g.Choices(s, buf[:0])
		c := bots[s-1].Act(&v, buf)
		c.Seat = s
		inspect(asked{g: g, seat: s, bot: bots[s-1].(*smartBot), view: &v, ch: buf, cmd: c})
		if err := g.Do(c); err != nil {
			t.Fatalf("seat %d sent %v: %v", s, c, err)
		}
	}
	t.Fatal("the game did not end")
}

// newGame deals a preset with the cards in seat order.
func newGame(t *testing.T, preset string, seed uint64, deal []rules.Role) *rules.Game {
	t.Helper()
	p, err := rules.LookupPreset(preset)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(12)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.New(b, seed, deal)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func claimOf(e rules.Event, kind int8) bool {
	return e.Kind == rules.EvClaim && int8(e.Value) == kind
}

// TestSmartPsychicClaimsLikeASeer: the psychic (通灵师) of std-12-psychic,
// who has no seer beside him, claims his card on day 1 and gives his
// results, each as his check found it; and a villager, hearing him alone
// claim it, reads him as a seer claimant: he believes him (a lone claimant
// starts at 85%; the evidence, a fake witch's word, moves it).
func TestSmartPsychicClaimsLikeASeer(t *testing.T) {
	deal := []rules.Role{rules.Psychic, rules.Witch, rules.Hunter, rules.Guard, rules.Villager, rules.Villager,
		rules.Villager, rules.Villager, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Werewolf}
	const psychic, villager = rules.Seat(1), rules.Seat(5)
	claimed, results, lone, believed := 0, 0, 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		g := newGame(t, "std-12-psychic", seed, deal)
		did := false
		playAsking(t, g, seed, func(a asked) {
			if a.seat != psychic || a.cmd.Kind != rules.CmdClaim {
				return
			}
			switch int8(a.cmd.Value) {
			case rules.ClaimRole:
				if a.cmd.Role != rules.Psychic {
					t.Errorf("seed %d: the psychic claimed %v", seed, a.cmd.Role)
				}
				if a.g.Day() == 1 {
					did = true
				}
			case rules.ClaimWolf, rules.ClaimGood:
				results++
				wolf := a.view.Checks[a.cmd.Target] >= 2
				if a.view.Checks[a.cmd.Target] == 0 {
					wolf = a.g.Role(a.cmd.Target).IsWolf() // (a liar he exposes: not a result; checked below)
					if !has(a.bot.seerClaim, a.cmd.Target) || int8(a.cmd.Value) != rules.ClaimWolf {
						t.Errorf("seed %d: the psychic named %d without a check", seed, a.cmd.Target)
					}
					return
				}
				if wolf != (int8(a.cmd.Value) == rules.ClaimWolf) {
					t.Errorf("seed %d: the psychic's claim %v does not say what his check found", seed, a.cmd)
				}
			}
		})
		if did {
			claimed++
		}
		// The villager's belief once the day-1 claims are in, if the
		// psychic's claim stood alone.
		g = newGame(t, "std-12-psychic", seed, deal)
		checked := false
		playAsking(t, g, seed, func(a asked) {
			if checked || a.seat != villager || a.g.Day() != 1 || a.view.Step != rules.StepVote {
				return
			}
			checked = true
			b := a.bot
			if b.seerClaim != bit(psychic) || b.claimRole[psychic] != rules.Psychic {
				return
			}
			lone++
			m := b.model(a.view)
			if m.q[psychic] >= 0.5 {
				believed++
			}
		})
	}
	t.Logf("the psychic claimed on day 1 in %d of 20 games, gave %d results; claiming alone (%d games) he was believed in %d", claimed, results, lone, believed)
	if claimed < 15 || results < 15 || lone < 5 || believed*10 < lone*8 {
		t.Errorf("the psychic claimed on day 1 in %d of 20 games, gave %d results; claiming alone (%d games) he was believed in %d", claimed, results, lone, believed)
	}
}

// TestSmartMagicianSwapsTheClaimedSeer: the magician (魔术师) of
// std-12-magician swaps only to protect the checker he believes, with a
// partner the wolves will not attack (one the seer called a wolf, else
// good, else himself); and he does protect him: in most games where the
// seer claimed on day 1 and both live at night 2, that night's swap holds
// the seer.
func TestSmartMagicianSwapsTheClaimedSeer(t *testing.T) {
	deal := []rules.Role{rules.Seer, rules.Witch, rules.Hunter, rules.Magician, rules.Villager, rules.Villager,
		rules.Villager, rules.Villager, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.WolfKing}
	const seer, magician = rules.Seat(1), rules.Seat(4)
	chances, swapped := 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		g := newGame(t, "std-12-magician", seed, deal)
		playAsking(t, g, seed, func(a asked) {
			if a.seat != magician || a.view.Step != rules.StepMagician {
				return
			}
			b := a.bot
			if a.cmd.Kind == rules.CmdSwap {
				s := a.cmd.Mask & b.seerClaim
				if s == 0 {
					t.Fatalf("seed %d night %d: a swap of %v holds no seer claimant", seed, b.night, rules.Seats(a.cmd.Mask))
				}
				c := lowest(s)
				p := a.cmd.Mask &^ bit(c)
				if p&(b.accWolf[c]|b.accGood[c]|bit(magician)) == 0 {
					t.Errorf("seed %d night %d: the seer claimant %d swapped with %v, whom he never named", seed, b.night, c, rules.Seats(p))
				}
			}
			if b.night == 2 && has(b.seerClaim, seer) && b.claimRole[seer] == rules.Seer && b.seerClaim == bit(seer) {
				chances++
				if a.cmd.Kind == rules.CmdSwap && has(a.cmd.Mask, seer) {
					swapped++
				}
			}
		})
	}
	t.Logf("the lone seer claimant was swapped at night 2 in %d of %d games", swapped, chances)
	if chances < 5 || swapped*10 < chances*8 {
		t.Errorf("the lone seer claimant was swapped at night 2 in %d of %d games", swapped, chances)
	}
}

// TestSmartGargoyleHuntsGods: the gargoyle (石像鬼) of std-12-gargoyle
// checks a claimed checker he has not checked whenever one lives, else a
// claimed god; holding the kill, he attacks a god he found (or a checker
// claimant) when he knows one; faking the checker, the players he calls
// wolves are mostly the gods he found (the wolves then vote with a table
// that suspects them), far above the gods' share of the table; and the
// pack, once the real checker has called one of them a wolf, reads the
// other non-mate claimant as the gargoyle and does not attack him.
func TestSmartGargoyleHuntsGods(t *testing.T) {
	deal := []rules.Role{rules.Seer, rules.Witch, rules.Hunter, rules.Gravekeeper, rules.Villager, rules.Villager,
		rules.Villager, rules.Villager, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Gargoyle}
	const gargoyle = rules.Seat(12)
	checks, kills, calls, godCalls, read, misread := 0, 0, 0, 0, 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		g := newGame(t, "std-12-gargoyle", seed, deal)
		playAsking(t, g, seed, func(a asked) {
			if a.seat != gargoyle && a.cmd.Kind == rules.CmdAttack {
				// The pack, having told the gargoyle's fake claim from the
				// real checker's, spares him.
				if garg := a.bot.likelyGargoyle(a.view); garg != 0 {
					read++
					if garg&^bit(gargoyle) != 0 {
						misread++
					}
					if has(garg, a.cmd.Target) {
						t.Errorf("seed %d: the pack attacked %d, whom it reads as the gargoyle", seed, a.cmd.Target)
					}
				}
			}
			if a.seat != gargoyle {
				return
			}
			b, v := a.bot, a.view
			unchecked := func(m uint32) uint32 {
				for cm := m; cm != 0; {
					if s := next(&cm); v.Known[s] != rules.NoRole {
						m &^= bit(s)
					}
				}
				return m
			}
			switch a.cmd.Kind {
			case rules.CmdCheck:
				checks++
				ch := targets(a.ch, rules.CmdCheck) &^ b.me
				var gods uint32
				for cm := b.roleClaimed & ch; cm != 0; {
					if s := next(&cm); b.claimRole[s].IsGod() {
						gods |= bit(s)
					}
				}
				if want := unchecked(ch & b.seerClaim); want != 0 && !has(want, a.cmd.Target) {
					t.Errorf("seed %d: the gargoyle checked %d, not the checker claimant %v", seed, a.cmd.Target, rules.Seats(want))
				} else if want := unchecked(gods); want != 0 && unchecked(ch&b.seerClaim) == 0 && !has(want, a.cmd.Target) {
					t.Errorf("seed %d: the gargoyle checked %d, not a claimed god %v", seed, a.cmd.Target, rules.Seats(want))
				}
			case rules.CmdAttack:
				var found uint32
				for cm := targets(a.ch, rules.CmdAttack); cm != 0; {
					if s := next(&cm); v.Known[s].IsGod() && v.Known[s] != rules.Hunter && b.pubRole[s] == rules.NoRole {
						found |= bit(s)
					}
				}
				if found != 0 {
					kills++
					if !has(found|b.seerClaim, a.cmd.Target) {
						t.Errorf("seed %d: the gargoyle attacked %d (%s), knowing the gods %v", seed, a.cmd.Target, v.Known[a.cmd.Target], rules.Seats(found))
					}
				}
			case rules.CmdClaim:
				if int8(a.cmd.Value) == rules.ClaimWolf && b.claimedSeer {
					calls++
					if a.g.Role(a.cmd.Target).IsGod() {
						godCalls++
					}
				}
			}
		})
	}
	t.Logf("%d checks; %d attacks knowing a god; as a fake checker %d calls, %d of gods; the pack read him in %d attacks (%d wrongly)", checks, kills, calls, godCalls, read, misread)
	if read < 20 || misread*10 > read {
		t.Errorf("the pack read the gargoyle in %d attacks, %d of them wrongly", read, misread)
	}
	if checks < 40 || calls < 10 || godCalls*10 < calls*6 {
		t.Errorf("%d checks; as a fake checker %d calls, %d of gods (want 60%%: the gods are 4 of 11)", checks, calls, godCalls)
	}
}

// mutedGame deals std-12's ruleset with the elder r in the idiot's place.
func mutedGame(t *testing.T, seed uint64, deal []rules.Role) *rules.Game {
	t.Helper()
	p, err := rules.LookupPreset("std-12")
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Board(12)
	if err != nil {
		t.Fatal(err)
	}
	b.Cards = deal
	g, err := rules.New(b, seed, deal)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSmartEldersMuteTheSuspected: the silence elder (禁言长老) and the
// vote-ban elder (禁票长老) never take the speech or vote of a player they
// know to be good, nor their own, and take it from the player their model
// suspects most as they choose (ties aside). How often that is a wolf the
// lone seer claimant named and who still lives is reported, not held: the
// named wolf is mostly exiled the day he is named.
func TestSmartEldersMuteTheSuspected(t *testing.T) {
	for _, elder := range []rules.Role{rules.SilenceElder, rules.VoteBanElder} {
		deal := []rules.Role{rules.Seer, rules.Witch, rules.Hunter, elder, rules.Villager, rules.Villager,
			rules.Villager, rules.Villager, rules.Werewolf, rules.Werewolf, rules.Werewolf, rules.Werewolf}
		const seer, me = rules.Seat(1), rules.Seat(4)
		acts, chances, muted := 0, 0, 0
		for seed := uint64(1); seed <= 30; seed++ {
			g := mutedGame(t, seed, deal)
			playAsking(t, g, seed, func(a asked) {
				if a.seat != me || (a.cmd.Kind != rules.CmdSilence && a.cmd.Kind != rules.CmdVoteBan) {
					return
				}
				acts++
				b := a.bot
				m := b.model(a.view)
				x := a.cmd.Target
				if x == me || has(m.good, x) {
					t.Fatalf("%s seed %d night %d: took the voice of seat %d, known good", elder, seed, b.night, x)
				}
				for _, c := range a.ch {
					for cm := c.Targets &^ m.good &^ b.me; c.Kind == a.cmd.Kind && cm != 0; {
						if y := next(&cm); m.p[y] > m.p[x]+tieEps {
							t.Fatalf("%s seed %d night %d: took seat %d (%.2f) over the more suspected %d (%.2f)", elder, seed, b.night, x, m.p[x], y, m.p[y])
						}
					}
				}
				if b.seerClaim == bit(seer) && b.accWolf[seer]&a.view.Alive&^m.good != 0 {
					chances++
					if has(b.accWolf[seer], x) {
						muted++
					}
				}
			})
		}
		t.Logf("%s: %d nights; a wolf the lone seer claimant named and alive was taken in %d of %d", elder, acts, muted, chances)
		if acts < 30 {
			t.Errorf("%s acted on %d nights in 30 games", elder, acts)
		}
	}
}

// TestSmartBearTamerVotesHisGrowlingNeighbour: the bear tamer (驯熊师) of
// std-12-bear, on a day the bear growled beside him, votes one of the two
// neighbours it growled at, while one lives, in most such votes, and the
// players he calls wolves that day are such neighbours; he never votes a
// neighbour of a silent bear unless the bear later growled at him.
func TestSmartBearTamerVotesHisGrowlingNeighbour(t *testing.T) {
	deal := []rules.Role{rules.Witch, rules.Hunter, rules.Idiot, rules.BearTamer, rules.Werewolf, rules.Villager,
		rules.Villager, rules.Villager, rules.Werewolf, rules.Villager, rules.Werewolf, rules.HiddenWolf}
	const me = rules.Seat(4) // beside seat 5, a werewolf
	chances, voted, accused := 0, 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		g := newGame(t, "std-12-bear", seed, deal)
		playAsking(t, g, seed, func(a asked) {
			if a.seat == me && a.cmd.Kind == rules.CmdClaim && a.cmd.Value == rules.ClaimWolf && a.view.Growl > 0 {
				accused++
				if !has(a.bot.bearNear, a.cmd.Target) {
					t.Errorf("seed %d day %d: the tamer called seat %d a wolf, no neighbour the bear growled at", seed, a.view.Day, a.cmd.Target)
				}
			}
			if a.seat != me || a.cmd.Kind != rules.CmdVote || (a.view.Step != rules.StepVote && a.view.Step != rules.StepPKVote) {
				return
			}
			b := a.bot
			if x := a.cmd.Target; has(b.bearClear&^b.bearNear, x) {
				t.Fatalf("seed %d day %d: voted seat %d, beside whom the bear was silent", seed, a.view.Day, x)
			}
			var targets uint32
			for _, c := range a.ch {
				if c.Kind == rules.CmdVote {
					targets |= c.Targets
				}
			}
			if a.view.Growl > 0 && b.bearNear&targets&^b.bearClear != 0 {
				chances++
				if has(b.bearNear, a.cmd.Target) {
					voted++
				}
			}
		})
	}
	t.Logf("the tamer voted a growled-at neighbour in %d of %d votes; he named one a wolf %d times", voted, chances, accused)
	if chances < 5 || voted*10 < chances*6 || accused < 5 {
		t.Errorf("the tamer voted a growled-at neighbour in %d of %d votes", voted, chances)
	}
}
