package rules

import (
	"slices"
	"testing"
)

// The secrets of the night powers of ROLES-MORE.md (the dreamcatcher, the
// magician, the witch hunter, the spirit knight, the nightmare): each is
// told to its holder alone, and two seats of different roles are told
// exactly what their own roles give them.

func presetGame(t *testing.T, name string, deal []Role) *Game {
	t.Helper()
	p, err := LookupPreset(name)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := p.Board(0)
	b.Options[OptSheriff] = SheriffNone
	b.Options[OptNightOrder] = SeerFirst // the tests' nights are written in 000's order
	g, err := New(b, 1, deal)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// kinds is what seat s was told, kind by kind, with the seats left out.
func kinds(g *Game, s Seat) []EventKind {
	var out []EventKind
	for _, e := range g.Stream(s, 0, nil) {
		out = append(out, e.Kind)
	}
	return out
}

func toldKind(g *Game, s Seat, k EventKind) bool { return slices.Contains(kinds(g, s), k) }

var dreamDeal = []Role{Seer, Witch, Hunter, Dreamcatcher, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, WolfKing}

// TestTheDreamerIsNotTold: the dreamer saved from the attack is told what
// another villager is told, event for event; the dream is the
// dreamcatcher's alone, and the wolves learn nothing of it.
func TestTheDreamerIsNotTold(t *testing.T) {
	g := presetGame(t, "std-12-dreamcatcher", dreamDeal)
	play(t, g, Command{Seat: 4, Kind: CmdDream, Target: 5}, Command{Seat: 1, Kind: CmdCheck, Target: 9})
	for w := Seat(9); w <= 12; w++ {
		play(t, g, Command{Seat: w, Kind: CmdAttack, Target: 5})
	}
	play(t, g, Command{Seat: 2, Kind: CmdSkip})
	if !g.Alive(5) {
		t.Fatal("the dreamer died of the attack")
	}
	if a, b := kinds(g, 5), kinds(g, 6); !slices.Equal(a, b) {
		t.Fatalf("the dreamer was told %v, another villager %v", a, b)
	}
	for s := Seat(1); s <= 12; s++ {
		if toldKind(g, s, EvDream) != (s == 4) {
			t.Fatalf("seat %d (%s) told of the dream: %v", s, g.Role(s), toldKind(g, s, EvDream))
		}
	}
	if v := g.View(5); v.Feared || v.Dreamed != NoSeat {
		t.Fatalf("the dreamer's view holds the dream: %+v", v)
	}
	if v := g.View(4); v.Dreamed != 5 {
		t.Fatalf("the dreamcatcher's view: dreamed %d, want 5", v.Dreamed)
	}
}

// TestNobodyButTheMagicianLearnsTheSwap: the swapped, the seer whose check
// the swap moved and the witch told the named seat receive no trace of it;
// the seer's view holds the card of the seat the check landed on, under
// the seat he named.
func TestNobodyButTheMagicianLearnsTheSwap(t *testing.T) {
	deal := []Role{Seer, Witch, Hunter, Magician, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, WolfKing}
	g := presetGame(t, "std-12-magician", deal)
	g.board.Options[OptSeerSees] = SeesWolfOrNot
	play(t, g, Command{Seat: 4, Kind: CmdSwap, Mask: Mask(5, 9)}, Command{Seat: 1, Kind: CmdCheck, Target: 5})
	for s := Seat(1); s <= 12; s++ {
		if toldKind(g, s, EvMagic) != (s == 4) {
			t.Fatalf("seat %d (%s) told of the swap", s, g.Role(s))
		}
		if v := g.View(s); s != 4 && v.Swapped != 0 {
			t.Fatalf("seat %d's view holds the swap %v", s, Seats(v.Swapped))
		}
	}
	if v := g.View(4); v.Swapped != Mask(5, 9) {
		t.Fatalf("the magician's view: swapped %v", Seats(v.Swapped))
	}
	if v := g.View(1); v.Checks[5] != 2 || v.Checks[9] != 0 {
		t.Fatalf("the seer's checks: 5 is %d, 9 is %d; want 5 read as a wolf, 9 unknown", v.Checks[5], v.Checks[9])
	}
	if a, b := kinds(g, 5), kinds(g, 6); !slices.Equal(a, b) {
		t.Fatalf("the swapped villager was told %v, another %v", a, b)
	}
}

// TestTheHuntIsTheWitchHuntersAlone: the hunt is told to the witch hunter
// only; the hunted wolf hears what his mate hears.
func TestTheHuntIsTheWitchHuntersAlone(t *testing.T) {
	b := Board{Cards: []Role{Seer, Witch, Hunter, WitchHunter, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, SpiritKnight}}
	g, err := New(b, 1, b.Cards)
	if err != nil {
		t.Fatal(err)
	}
	night := func(hunt Seat) {
		if hunt != NoSeat {
			play(t, g, Command{Seat: 4, Kind: CmdHunt, Target: hunt})
		}
		play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 10})
		for w := Seat(9); w <= 12; w++ {
			play(t, g, Command{Seat: w, Kind: CmdAttack})
		}
		play(t, g, Command{Seat: 2, Kind: CmdSkip})
	}
	night(NoSeat)
	for g.isNight == false && !g.over {
		g.Timeout()
	}
	night(9)
	if g.Alive(9) {
		t.Fatal("the hunted wolf lives")
	}
	for s := Seat(1); s <= 12; s++ {
		if toldKind(g, s, EvHunt) != (s == 4) {
			t.Fatalf("seat %d (%s) told of the hunt", s, g.Role(s))
		}
	}
	// From night 2 on (by day each spoke at his own turn).
	tonight := func(k []EventKind) []EventKind { return k[slices.Index(k, EvExile):] }
	if a, c := tonight(kinds(g, 9)), tonight(kinds(g, 10)); !slices.Equal(a, c) {
		t.Fatalf("the hunted wolf was told %v, his mate %v", a, c)
	}
}

// TestTheReflectionIsTheModerators: the seer who checked the spirit knight
// dies of the reflection; no seat is told of it before the dawn, and the
// seer is told what another god is told of his own check.
func TestTheReflectionIsTheModerators(t *testing.T) {
	deal := []Role{Seer, Witch, Hunter, Guard, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, SpiritKnight}
	g := presetGame(t, "std-12-spirit-knight", deal)
	play(t, g, Command{Seat: 4, Kind: CmdProtect, Target: 5}, Command{Seat: 1, Kind: CmdCheck, Target: 12})
	for w := Seat(9); w <= 12; w++ {
		play(t, g, Command{Seat: w, Kind: CmdAttack})
	}
	play(t, g, Command{Seat: 2, Kind: CmdSkip})
	if g.Alive(1) {
		t.Fatal("the seer lives")
	}
	for s := Seat(1); s <= 12; s++ {
		if toldKind(g, s, EvReflect) || toldKind(g, s, EvDeath) {
			t.Fatalf("seat %d (%s) told of the reflection before the dawn", s, g.Role(s))
		}
	}
	if a, b := kinds(g, 12), kinds(g, 11); !slices.Equal(a, b) {
		t.Fatalf("the spirit knight was told %v, a wolf %v", a, b)
	}
}

// TestTheFearIsToldToTheFearedAlone: the feared seer is told he is feared,
// and nothing of who fears him; a feared villager (no night power, not
// called) is told nothing; the wolves are told nothing of a fear on a
// villager, and on a wolf only that they will not attack, not whom.
func TestTheFearIsToldToTheFearedAlone(t *testing.T) {
	deal := []Role{Seer, Witch, Hunter, Guard, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, Nightmare}
	g := presetGame(t, "std-12-nightmare", deal)
	play(t, g, Command{Seat: 12, Kind: CmdFear, Target: 1})
	if !toldKind(g, 1, EvFeared) || !g.View(1).Feared {
		t.Fatal("the feared seer is not told")
	}
	for s := Seat(2); s <= 11; s++ {
		if toldKind(g, s, EvFeared) || toldKind(g, s, EvFear) || toldKind(g, s, EvNoAttack) {
			t.Fatalf("seat %d (%s) told of the fear on the seer", s, g.Role(s))
		}
	}
	if c := g.Choices(1, nil); len(c) != 1 || c[0].Kind != CmdSkip {
		t.Fatalf("the feared seer may %v; want only skip", c)
	}
	g = presetGame(t, "std-12-nightmare", deal)
	play(t, g, Command{Seat: 12, Kind: CmdFear, Target: 5})
	if a, b := kinds(g, 5), kinds(g, 6); !slices.Equal(a, b) {
		t.Fatalf("the feared villager was told %v, another %v", a, b)
	}
	g = presetGame(t, "std-12-nightmare", deal)
	play(t, g, Command{Seat: 12, Kind: CmdFear, Target: 10})
	for s := Seat(1); s <= 12; s++ {
		wolf := s >= 9
		if toldKind(g, s, EvNoAttack) != wolf {
			t.Fatalf("seat %d (%s): told no attack %v", s, g.Role(s), !wolf)
		}
		for _, e := range g.Stream(s, 0, nil) {
			if e.Kind == EvNoAttack && (e.Target != NoSeat || e.Seat != NoSeat || e.Mask != 0) {
				t.Fatalf("the wolves' no-attack names a seat: %v", e)
			}
		}
	}
}
