package rules

import (
	"slices"
	"testing"
)

// TestMechanicalWolfImitationIsHisAlone: the mechanical wolf (机械狼) is told
// the card he imitated and nobody else is told anything of it: not the
// imitated player, not the wolves, not a villager, whose streams are the
// same whichever card he imitated; he is not told the pack, nor the pack
// him, and his stream has the same events whether he imitated a god or a
// villager (only the card named differs).
func TestMechanicalWolfImitationIsHisAlone(t *testing.T) {
	var kinds [2][]EventKind
	var streams [2][3]int
	for i, target := range []Seat{1, 8} { // the seer, a villager
		g := dealtGame(t, map[Option]uint8{OptSeerSees: SeesWolfOrNot}, Seer, Witch, Villager, Villager, MechanicalWolf, Werewolf, Werewolf, Villager, Villager)
		play(t, g, Command{Seat: 5, Kind: CmdImitate, Target: target}, Command{Seat: 1, Kind: CmdCheck, Target: 5},
			Command{Seat: 6, Kind: CmdAttack, Target: 9}, Command{Seat: 7, Kind: CmdAttack, Target: 9})
		if e := told(g, 5, EvImitate); len(e) != 1 || e[0].Role != g.role[target] {
			t.Fatalf("imitating seat %d the mechanical wolf was told %v", target, e)
		}
		if v := g.View(5); v.Known[target] != g.role[target] || v.Wolves != 0 {
			t.Fatalf("the mechanical wolf's view: seat %d known as %v, wolves %v", target, v.Known[target], Seats(v.Wolves))
		}
		for _, s := range []Seat{target, 6, 4} {
			if e := told(g, s, EvImitate); len(e) != 0 {
				t.Fatalf("seat %d was told %v", s, e)
			}
		}
		if w := told(g, 6, EvWolfTeam); len(w) != 1 || g.has(w[0].Mask, 5) {
			t.Fatalf("the wolves were told %v", w)
		}
		if len(told(g, 5, EvWolfTeam)) != 0 {
			t.Fatal("the mechanical wolf was told the pack")
		}
		if c := told(g, 1, EvCheck); len(c) != 1 || c[0].Value != ResultWolf {
			t.Fatalf("the seer read the mechanical wolf %v, want wolf", c)
		}
		for _, e := range g.Stream(5, 0, nil) {
			kinds[i] = append(kinds[i], e.Kind)
		}
		streams[i] = [3]int{len(g.Stream(4, 0, nil)), len(g.Stream(6, 0, nil)), len(g.Stream(target, 0, nil)) - len(told(g, target, EvCheck))}
	}
	if !slices.Equal(kinds[0], kinds[1]) {
		t.Fatalf("the mechanical wolf's stream differs with the card imitated: %v / %v", kinds[0], kinds[1])
	}
	if streams[0][0] != streams[1][0] || streams[0][1] != streams[1][1] {
		t.Fatalf("a villager's or a wolf's stream differs with the card imitated: %v / %v", streams[0], streams[1])
	}
}

// TestMechanicalWolfPowersAreHisAlone: what he does with the card he
// learned (his shield, his poison, his second attack) is told to him
// alone; the guard and the witch he imitated, and the players he names,
// are told nothing of it.
func TestMechanicalWolfPowersAreHisAlone(t *testing.T) {
	cases := []struct {
		model Seat
		act   CmdKind
		kind  EventKind
	}{{2, CmdProtect, EvProtect}, {1, CmdPoison, EvPoison}}
	for _, c := range cases {
		g := dealtGame(t, map[Option]uint8{OptSeerSees: SeesWolfOrNot}, Witch, Guard, Villager, Villager, MechanicalWolf, Werewolf, Werewolf, Villager, Villager)
		play(t, g, Command{Seat: 5, Kind: CmdImitate, Target: c.model}, Command{Seat: 2, Kind: CmdSkip},
			Command{Seat: 6, Kind: CmdAttack, Target: 9}, Command{Seat: 7, Kind: CmdAttack, Target: 9})
		g.Timeout() // the witch
		idleOn(g)
		g.Timeout() // the vote
		idleOn(g)
		play(t, g, Command{Seat: 5, Kind: c.act, Target: 3})
		if e := told(g, 5, c.kind); len(e) != 1 || e[0].Seat != 5 || e[0].Target != 3 {
			t.Fatalf("%s: the mechanical wolf was told %v", c.act, e)
		}
		for _, s := range []Seat{c.model, 3, 6} {
			for _, e := range told(g, s, c.kind) {
				if e.Seat == 5 {
					t.Fatalf("%s: seat %d was told %v", c.act, s, e)
				}
			}
		}
	}
}

// TestMechanicalWolfIsWokenEveryNight: whatever he learned, the mechanical
// wolf is woken every night he lives (ROLES-MORE-2.md 机械狼), awaited only
// when he has something to do: having imitated a villager, he is woken on
// nights 2 and 3 with nothing owed.
func TestMechanicalWolfIsWokenEveryNight(t *testing.T) {
	g := dealtGame(t, map[Option]uint8{OptSeerSees: SeesWolfOrNot}, Seer, Witch, Villager, Villager, MechanicalWolf, Werewolf, Werewolf, Villager, Villager, Villager)
	play(t, g, Command{Seat: 5, Kind: CmdImitate, Target: 3}, Command{Seat: 1, Kind: CmdCheck, Target: 6},
		Command{Seat: 6, Kind: CmdAttack, Target: 9}, Command{Seat: 7, Kind: CmdAttack, Target: 9})
	for night := int16(2); night <= 3; night++ {
		for g.night < night || !g.isNight {
			if over, _ := g.Over(); over {
				t.Fatalf("the game ended before night %d", night)
			}
			g.Timeout()
		}
		if g.has(g.Pending(), 5) {
			t.Fatalf("night %d: the mechanical wolf who learned nothing is awaited", night)
		}
		woken := 0
		for _, e := range g.events[lastNightfall(g):] {
			if e.Kind == EvStep && Step(e.Value) == StepNight && e.Visible(5) && !e.Public {
				woken++
			}
		}
		if woken != 1 {
			t.Fatalf("night %d: the mechanical wolf was woken %d times, want once", night, woken)
		}
	}
}

// lastNightfall is the index of the last EvNight in the log.
func lastNightfall(g *Game) int {
	for i := len(g.events) - 1; i >= 0; i-- {
		if g.events[i].Kind == EvNight {
			return i
		}
	}
	return 0
}
