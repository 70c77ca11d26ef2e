package rules

import (
	"slices"
	"testing"
)

// The secrets of the warden's trade and the miracle merchant's gift
// (ROLES-MORE-2.md): the pair and the outcome are told to the two alone,
// the pick to the warden alone, the gift to the merchant and the lucky one;
// two seats of different roles outside them are told the same events.

// untilStep lets the time run out (every default) until step st begins.
func untilStep(t *testing.T, g *Game, st Step) {
	t.Helper()
	for i := 0; g.step != st; i++ {
		if i > 200 || g.over {
			t.Fatalf("step %s never came (at %s)", st, g.step)
		}
		g.Timeout()
	}
}

// sortedKinds is kinds in order of kind: two seats speak at different turns.
func sortedKinds(g *Game, s Seat) []EventKind {
	k := kinds(g, s)
	slices.Sort(k)
	return k
}

var wardenDeal = []Role{Seer, Witch, Hunter, Dreamcatcher, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, Warden}

// TestTheTradeIsToldToTheTwoAlone: the warden's pick is his; the two named
// learn each other's seat, their own choice and both choices; nobody else
// (a packmate of the warden's neither) receives a trace of it, and a
// villager and the hunter left out are told the same kinds of event.
func TestTheTradeIsToldToTheTwoAlone(t *testing.T) {
	g := presetGame(t, "std-12-warden", wardenDeal)
	untilStep(t, g, StepWarden)
	play(t, g, Command{Seat: 12, Kind: CmdPair, Mask: Mask(5, 6)},
		Command{Seat: 5, Kind: CmdTrade}, Command{Seat: 6, Kind: CmdBetray})
	for s := Seat(1); s <= 12; s++ {
		if toldKind(g, s, EvPair) != (s == 12) {
			t.Fatalf("seat %d (%s) told of the warden's pick", s, g.Role(s))
		}
		pair := s == 5 || s == 6
		for _, k := range []EventKind{EvTraders, EvTradeChoice, EvTradeResult} {
			if toldKind(g, s, k) != pair {
				t.Fatalf("seat %d (%s) told %s: %v", s, g.Role(s), k, toldKind(g, s, k))
			}
		}
		if v := g.View(s); (v.Traders != 0) != pair {
			t.Fatalf("seat %d's view holds the traders %v", s, Seats(v.Traders))
		}
	}
	for _, e := range g.Stream(5, 0, nil) {
		if e.Kind == EvTradeChoice && e.Seat != 5 {
			t.Fatalf("seat 5 told seat %d's choice before the result", e.Seat)
		}
	}
	if a, b := sortedKinds(g, 7), sortedKinds(g, 3); !slices.Equal(a, b) {
		t.Fatalf("a villager left out was told %v, the hunter %v", a, b)
	}
	if a, b := sortedKinds(g, 9), sortedKinds(g, 10); !slices.Equal(a, b) {
		t.Fatalf("two wolves were told %v and %v", a, b)
	}
	if v := g.View(5); v.Traders != Mask(5, 6) {
		t.Fatalf("the trader's view: %v", Seats(v.Traders))
	}
}

var merchantDeal = []Role{Seer, Witch, Hunter, MiracleMerchant, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, WolfKing}

// TestTheGiftIsToldToTheLuckyOneAlone: the lucky one is told his gift and
// his use of it; the merchant his pick; a villager and the hunter left out
// are told the same kinds of event. A gift to a wolf is told to no wolf:
// the lucky wolf is told what his packmate is.
func TestTheGiftIsToldToTheLuckyOneAlone(t *testing.T) {
	g := presetGame(t, "std-12-miracle-merchant", merchantDeal)
	play(t, g, Command{Seat: 4, Kind: CmdGiftShield, Target: 5}, Command{Seat: 5, Kind: CmdProtect, Target: 1})
	for s := Seat(1); s <= 12; s++ {
		if toldKind(g, s, EvGift) != (s == 4) {
			t.Fatalf("seat %d (%s) told of the gift", s, g.Role(s))
		}
		if toldKind(g, s, EvLucky) != (s == 5) || toldKind(g, s, EvGiftUse) != (s == 5) {
			t.Fatalf("seat %d (%s) told of the lucky one", s, g.Role(s))
		}
		if v := g.View(s); v.Gift != 0 {
			t.Fatalf("seat %d's view holds gift %d (the lucky one used his)", s, v.Gift)
		}
	}
	if a, b := sortedKinds(g, 6), sortedKinds(g, 3); !slices.Equal(a, b) {
		t.Fatalf("a villager left out was told %v, the hunter %v", a, b)
	}

	w := presetGame(t, "std-12-miracle-merchant", merchantDeal)
	play(t, w, Command{Seat: 4, Kind: CmdGiftPoison, Target: 9})
	for w.isNight { // to the dawn: the merchant's death announced
		w.Timeout()
	}
	if w.Alive(4) {
		t.Fatal("the merchant who gave to a wolf lives")
	}
	if a, b := sortedKinds(w, 9), sortedKinds(w, 10); !slices.Equal(a, b) {
		t.Fatalf("the lucky wolf was told %v, his packmate %v", a, b)
	}
	if v := w.View(9); v.Gift != 0 {
		t.Fatalf("the lucky wolf's view holds gift %d", v.Gift)
	}
}
