package rules

import "slices"

// RandomBoard builds a board from choices drawn by pick, which returns a
// number from lo to hi (both included) for the named choice: a few wolves of
// any kind, any village roles, the thief and the piper, villagers for the
// rest, and any option values. Property tests draw their boards with it; the
// result may still fail Validate (too many wolves for the thief's seats).
func RandomBoard(pick func(name string, lo, hi int) int) Board {
	n := pick("players", 5, MaxSeats)
	var cards []Role
	wolves := pick("wolves", 1, max(1, n/3))
	for _, r := range []Role{WhiteWolfKing, WolfBeauty, WolfKing, SpiritKnight, Nightmare, Gargoyle, BloodMoon, HiddenWolf, Possessed, WolfWitch, MechanicalWolf, EclipseWolfQueen, Masquerade, Warden} {
		if len(cards) < wolves-1 && pick("with "+r.String(), 0, 1) == 1 {
			cards = append(cards, r)
		}
	}
	for len(cards) < wolves {
		cards = append(cards, Werewolf)
	}
	for _, r := range []Role{Seer, Witch, Hunter, Guard, Idiot, NineTailedFox, Elder, Scapegoat, Cupid, LittleGirl, Piper, Thief, Knight, Gravekeeper, Psychic, Crow, WitchHunter, Dreamcatcher, Magician, WildChild, SilenceElder, VoteBanElder, BearTamer, PureWhite, SequencePrince, MiracleMerchant, Angel, MirrorSeer, MixedBlood, CursedFox, Dancer, GhostBride} {
		if len(cards) < n && pick("with "+r.String(), 0, 1) == 1 {
			cards = append(cards, r)
		}
	}
	// The siblings come as a group (ROLES-MORE-2.md): two sisters, three brothers.
	for _, r := range []Role{Sister, Brother} {
		k := 2
		if r == Brother {
			k = 3
		}
		if len(cards)+k <= n && pick("with "+r.String(), 0, 1) == 1 {
			cards = append(cards, repeat(r, k)...)
		}
	}
	for len(cards) < n {
		cards = append(cards, Villager)
	}
	if slices.Contains(cards, Thief) {
		extra := Villager
		if pick("extra wolf", 0, 1) == 1 {
			extra = Werewolf
		}
		cards = append(cards, Villager, extra)
	}
	b := Board{Cards: cards}
	for o := Option(0); o < numOptions; o++ {
		b.Options[o] = uint8(pick(o.Name(), 0, len(o.Values())-1))
	}
	if slices.Contains(cards, Angel) { // his board starts by day (Validate)
		b.Options[OptFirstPhase] = FirstDay
	}
	return b
}
