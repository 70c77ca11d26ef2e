package rules

import (
	"slices"
	"testing"
)

// brideNights plays night 1 (bride 4 weds groom, names witness), an
// exile-less day and night 2 on a nine-seat board.
func brideNights(t *testing.T, groom, witness Seat) *Game {
	t.Helper()
	g := dealtGame(t, map[Option]uint8{OptSeerSees: SeesWolfOrNot, OptNightOrder: SeerFirst, OptLastWords: 3},
		Seer, Witch, Villager, GhostBride, Villager, Werewolf, Werewolf, Villager, Villager)
	play(t, g, Command{Seat: 4, Kind: CmdGroom, Target: groom}, Command{Seat: 4, Kind: CmdWitness, Target: witness})
	night := func(check, attack Seat) {
		play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: check})
		for _, w := range Seats(g.Killers()) {
			play(t, g, Command{Seat: w, Kind: CmdAttack, Target: attack})
		}
		idleOn(g)
	}
	night(2, 9)
	for g.NightNumber() < 2 { // no vote: nobody exiled
		g.Timeout()
	}
	night(3, 2)
	return g
}

func kindsOf(g *Game, s Seat) []EventKind {
	var out []EventKind
	for _, e := range g.Stream(s, 0, nil) {
		out = append(out, e.Kind)
	}
	return out
}

// TestGhostBrideWeddingIsTheirsAlone: the groom is told the bride's seat,
// the witness the couple's seats, the couple their nightly meeting; nobody
// else any of it, nor any card: an uninvolved villager and an uninvolved
// seer receive the same streams with or without the wedding's events, and
// the groom's stream is a villager's with the wedding and the meetings more.
func TestGhostBrideWeddingIsTheirsAlone(t *testing.T) {
	g := brideNights(t, 5, 8)
	for _, s := range []Seat{1, 2, 3, 6, 7} {
		for _, k := range []EventKind{EvGroom, EvWitness, EvWed} {
			if e := told(g, s, k); len(e) != 0 {
				t.Fatalf("seat %d was told %v", s, e)
			}
		}
	}
	if e := told(g, 5, EvWitness); len(e) != 0 {
		t.Fatalf("the groom was told the witness: %v", e)
	}
	if e := told(g, 8, EvWed); len(e) != 0 {
		t.Fatalf("the witness was woken with the couple: %v", e)
	}
	for _, s := range []Seat{4, 5} {
		if e := told(g, s, EvWed); len(e) != 1 || e[0].Mask != 1<<4|1<<5 || e[0].Value != 2 {
			t.Fatalf("seat %d was told the meetings %v, want night 2's", s, e)
		}
	}
	v5, v8, v4 := g.View(5), g.View(8), g.View(4)
	if v5.Bride != 4 || v5.Groom != 5 || v5.Witness != NoSeat || v5.Known[4] != NoRole {
		t.Fatalf("the groom's view: bride %d groom %d witness %d, bride's card %v", v5.Bride, v5.Groom, v5.Witness, v5.Known[4])
	}
	if v8.Bride != 4 || v8.Groom != 5 || v8.Witness != 8 || v8.Known[4] != NoRole || v8.Known[5] != NoRole {
		t.Fatalf("the witness's view: bride %d groom %d witness %d", v8.Bride, v8.Groom, v8.Witness)
	}
	if v4.Groom != 5 || v4.Witness != 8 || v4.Known[5] != NoRole || v4.Known[8] != NoRole {
		t.Fatalf("the bride's view: groom %d witness %d, cards %v %v", v4.Groom, v4.Witness, v4.Known[5], v4.Known[8])
	}
	// The groom (a villager) and an uninvolved villager: the same events
	// (each's speech comes at his own turn) but for the wedding and the
	// couple's meeting.
	var groom []EventKind
	for _, k := range kindsOf(g, 5) {
		if k != EvGroom && k != EvWed {
			groom = append(groom, k)
		}
	}
	v := kindsOf(g, 3)
	slices.Sort(groom)
	slices.Sort(v)
	if !slices.Equal(groom, v) {
		t.Fatalf("the groom's stream, the wedding aside, differs from a villager's:\n%v\n%v", groom, v)
	}
	// The seer's stream is the same whoever the bride weds.
	h := brideNights(t, 6, 3)
	if a, b := kindsOf(g, 1), kindsOf(h, 1); !slices.Equal(a, b) {
		t.Fatalf("the seer's stream depends on the wedding:\n%v\n%v", a, b)
	}
}

// TestGhostBrideIsNotToldTheGroomsCard: the bride's stream is the same
// whether she weds a wolf or a villager; the wolf groom is not told the
// wolf team, and the pack is not told of him.
func TestGhostBrideIsNotToldTheGroomsCard(t *testing.T) {
	wolf, villager := brideNights(t, 6, 3), brideNights(t, 5, 3)
	a, b := kindsOf(wolf, 4), kindsOf(villager, 4)
	if !slices.Equal(a, b) {
		t.Fatalf("the bride's stream differs with the groom's card:\n%v\n%v", a, b)
	}
	if e := told(wolf, 6, EvWolfTeam); len(e) != 0 {
		t.Fatalf("the wolf groom was told the wolf team: %v", e)
	}
	if e := told(wolf, 7, EvWolfTeam); len(e) != 1 || e[0].Mask != 1<<7 {
		t.Fatalf("the pack was told %v, want itself alone", e)
	}
}

// TestMixedBloodOfANewlywedWinsWithThem: a mixed blood whose model is one of
// the three is of the newlyweds' camp (he wins with them), not the
// village's.
func TestMixedBloodOfANewlywedWinsWithThem(t *testing.T) {
	g := dealtGame(t, map[Option]uint8{OptSeerSees: SeesWolfOrNot, OptNightOrder: SeerFirst},
		Seer, Witch, MixedBlood, GhostBride, Villager, Werewolf, Werewolf, Villager, Villager)
	play(t, g, Command{Seat: 4, Kind: CmdGroom, Target: 5}, Command{Seat: 4, Kind: CmdWitness, Target: 8},
		Command{Seat: 3, Kind: CmdModel, Target: 8})
	if m := g.CampMembers(Newlyweds); m != 1<<3|1<<4|1<<5|1<<8 {
		t.Fatalf("the newlyweds' camp is %v, want [3 4 5 8]", Seats(m))
	}
	if m := g.CampMembers(Village); m&(1<<3|1<<4|1<<5|1<<8) != 0 {
		t.Fatalf("the village's camp holds newlyweds: %v", Seats(m))
	}
}

// TestGhostBrideNarration: the ghost bride is called on night 1 after
// cupid and before the wild child (ROLES-MORE-2.md §5 group 5), the bride
// and groom together from night 2 near the end (group 16), in both wake
// orders; night 0 of a day-first board calls her with the setup roles.
func TestGhostBrideNarration(t *testing.T) {
	opens := func(g *Game, n int) []Role {
		var out []Role
		for _, c := range g.Narration(n) {
			if c.Key == "role.open" {
				out = append(out, c.Role)
			}
		}
		return out
	}
	for _, order := range []uint8{SeerFirst, WolvesFirst} {
		g := dealtGame(t, map[Option]uint8{OptNightOrder: order, OptNarrateAbsentRoles: On},
			Cupid, GhostBride, WildChild, Seer, Witch, Werewolf, Werewolf, Villager, Gravekeeper)
		one, two := opens(g, 1), opens(g, 2)
		i, j, k := slices.Index(one, Cupid), slices.Index(one, GhostBride), slices.Index(one, WildChild)
		if i < 0 || j != i+2 || k != j+1 { // cupid, the lovers, the bride, the wild child
			t.Fatalf("order %d: night 1 calls %v", order, one)
		}
		if slices.Contains(one, CallWed) || slices.Contains(two, GhostBride) {
			t.Fatalf("order %d: night 1 %v, night 2 %v", order, one, two)
		}
		if w, gk := slices.Index(two, CallWed), slices.Index(two, Gravekeeper); w != gk+1 {
			t.Fatalf("order %d: night 2 calls %v, want the couple right after the gravekeeper", order, two)
		}
	}
	g := dealtGame(t, map[Option]uint8{OptFirstPhase: FirstDay, OptNarrateAbsentRoles: On},
		GhostBride, Seer, Witch, Werewolf, Werewolf, Villager, Villager)
	if got := opens(g, 0); !slices.Equal(got, []Role{GhostBride}) {
		t.Fatalf("night 0 calls %v, want the bride alone", got)
	}
}
