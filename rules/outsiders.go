package rules

import "math/bits"

// The wolf camp's players outside the pack (ROLES-MORE.md): the gargoyle
// (石像鬼) and the hidden wolf (隐狼), who take the kill once the pack is
// dead, and the possessed (狂人), a human who wins with the wolves. Their
// cards carry the lone, human, knowsPack, noExplode and readsWolf hooks;
// setRole keeps the masks below in step with the cards.

type outsiderState struct {
	lone   uint32 // of the wolf camp, outside the pack (roleHooks.lone)
	humans uint32 // of the wolf camp but counted as humans (roleHooks.human)
}

// setOutsider files seat s, now holding card r, among the outsiders.
func (g *Game) setOutsider(s Seat, r Role) {
	b := s.bit()
	g.lone, g.humans = g.lone&^b, g.humans&^b
	if h := &hooks[r]; h.lone {
		g.lone |= b
		if h.human {
			g.humans |= b
		}
	}
}

// pack is the wolves who meet, wake and hold the kill together: the wolf
// camp outside the lovers' and the newlyweds' camps, without the lone
// cards.
func (g *Game) pack() uint32 { return g.wolves &^ g.loversCamp &^ g.newlyweds() &^ g.lone }

// wolfTeam is who is told the pack when the wolves meet (EvWolfTeam's To):
// the pack, and the lone cards told of it though it is not told of them
// (the hidden wolf).
func (g *Game) wolfTeam() uint32 {
	to := g.pack()
	for m := g.lone &^ g.loversCamp &^ g.newlyweds(); m != 0; m &= m - 1 {
		s := Seat(bits.TrailingZeros32(m))
		if hooks[g.role[s]].knowsPack {
			to |= s.bit()
		}
	}
	return to
}

// ofWolfCamp: seat t is of the wolf camp now, in truth, whatever he reads
// as: a wolf card (the gargoyle, the hidden wolf and the possessed too) or a
// wild child who turned, not a wolf who left for the lovers' or the
// newlyweds' camp. It is the judgement of every power that asks "is he a
// wolf" of the truth (the knight's duel, the witch hunter's hunt, the
// nightmare's fear of his own camp), where a check asks how he reads
// (readsWolf).
func (g *Game) ofWolfCamp(t Seat) bool { return g.has(g.wolves&^g.loversCamp&^g.newlyweds(), t) }

// readsWolf: how seat t reads to a camp check (a check, not the card: the
// hidden wolf and the possessed read as good, a wild child who became a
// werewolf as a wolf).
func (g *Game) readsWolf(t Seat) bool {
	if f := hooks[g.role[t]].readsWolf; f != nil {
		return f(g, t)
	}
	return g.role[t].IsWolf()
}

// readsNotVillage: seat t reads as not of the village (seer_sees=village_or_not):
// a wolf as he reads, a player of another camp (the piper), a black lover.
func (g *Game) readsNotVillage(t Seat) bool {
	c := g.role[t].Camp()
	return g.readsWolf(t) || (c != Village && c != Wolves && c != FoxCamp && c != Newlyweds) || g.has(g.loversCamp, t) // the cursed fox and the ghost bride read good (咒狐, 鬼魂新娘)
}
