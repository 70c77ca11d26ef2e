package bot

import "github.com/wolfden/wolfden/rules"

// The gargoyle (石像鬼) hunts the gods: he checks cards, alone, outside the
// pack. He checks the claimed checkers first, then the other claimed gods,
// then the players the table trusts most (the wolves' victims are gods as
// often as they can be: the trusted are the likeliest); his kill, once he
// holds it, and his day claims use the cards he found (knownCard, foundGod).
const gargoyleFakeRate = 0.5 // on day 1 the gargoyle fakes the board's checker this often (悍跳)

// actGodHunt is the gargoyle's check.
func (b *smartBot) actGodHunt(v *rules.View, c *rules.Choice) rules.Command {
	pm := b.pubModel(v)
	unknown := c.Targets &^ b.me
	for cm := unknown; cm != 0; {
		if s := next(&cm); v.Known[s] != rules.NoRole {
			unknown &^= bit(s)
		}
	}
	if unknown == 0 {
		return cmd(rules.CmdCheck, b.randomIn(c.Targets&^b.me))
	}
	var gods uint32
	for cm := unknown & b.roleClaimed; cm != 0; {
		if s := next(&cm); b.claimRole[s].IsGod() {
			gods |= bit(s)
		}
	}
	for _, pool := range [...]uint32{unknown & b.seerClaim, gods, unknown} {
		if t := b.least(&pm.p, pool); t != rules.NoSeat {
			return cmd(rules.CmdCheck, t)
		}
	}
	return skip
}

// knownCard is the card a wolf-camp bot has found at seat t (the
// gargoyle's checks), NoRole if none or if the table knows it too.
func (b *smartBot) knownCard(v *rules.View, t rules.Seat) rules.Role {
	if (b.role != rules.Gargoyle && b.role != rules.MechanicalWolf) || b.pubRole[t] != rules.NoRole { // (the mechanical wolf: his imitation, his checks)
		return rules.NoRole
	}
	return v.Known[t]
}

// foundGod is a god the gargoyle found among mask, the most useful to the
// wolves first (a checker, the witch, the guard, any god but the hunter,
// who would shoot back): his fake checker calls him a wolf, so that the
// village exiles a god and the pack sees whom the table now suspects.
func (b *smartBot) foundGod(v *rules.View, mask uint32) rules.Seat {
	best, bv := rules.NoSeat, 0
	for cm := mask; cm != 0; {
		s := next(&cm)
		r := b.knownCard(v, s)
		x := 0
		switch {
		case checker(r):
			x = 4
		case r == rules.Witch:
			x = 3
		case r == rules.Guard:
			x = 2
		case r.IsGod() && r != rules.Hunter:
			x = 1
		}
		if x > bv {
			best, bv = s, x
		}
	}
	return best
}

// gargoyleFakes: the gargoyle, who has no mate to agree with, decides alone
// on day 1 whether he fakes the board's checker.
func (b *smartBot) gargoyleFakes(v *rules.View) rules.Role {
	if !b.fakeDecided {
		b.fakeDecided = true
		if b.day <= 1 && b.chance(gargoyleFakeRate) {
			b.fakeRole = rules.Seer // the checker's card, as decideFake's
		}
	}
	if b.fakeRole == rules.NoRole || b.holder[b.fakeCard(b.fakeRole)] != rules.NoSeat {
		return rules.NoRole
	}
	return b.fakeRole
}

// foundWolves are the wolf cards the gargoyle found: his camp, though he
// does not wake with them; he neither accuses nor attacks them.
func (b *smartBot) foundWolves(v *rules.View) uint32 {
	var m uint32
	if b.role != rules.Gargoyle {
		return 0
	}
	for s := rules.Seat(1); s <= rules.Seat(b.n); s++ {
		if r := v.Known[s]; r.IsWolf() && s != b.seat {
			m |= bit(s)
		}
	}
	return m
}

// notFoundPlain leaves out of mask the players the gargoyle found to hold
// no power (his fake checks go to those who may be gods), unless that
// leaves nobody.
func (b *smartBot) notFoundPlain(v *rules.View, mask uint32) uint32 {
	m := mask
	for cm := mask; cm != 0; {
		s := next(&cm)
		if r := b.knownCard(v, s); r != rules.NoRole && !r.IsGod() {
			m &^= bit(s)
		}
	}
	if m == 0 {
		return mask
	}
	return m
}

// likelyGargoyle is, for a wolf of the pack on a board with a gargoyle, the
// checker claimants who are likely the gargoyle faking. The pack knows the
// wolf camp but for him: a real checker calls wolves only mates or another
// claimant (the gargoyle reads as a wolf); a claimant not of the pack who
// called a wolf someone else (a god he found, to have him exiled) lies, so
// he is the gargoyle, when another claimant not of the pack did not lie.
// The pack reads what he learns from his word: it spares him and attacks
// the gods he calls wolves (gargoyleFound).
func (b *smartBot) likelyGargoyle(v *rules.View) uint32 {
	if b.boardRoles&(1<<rules.Gargoyle) == 0 || b.role == rules.Gargoyle || v.Wolves&b.me == 0 || b.camp(v) != campWolf {
		return 0
	}
	var real, other uint32
	claimants := b.seerClaim &^ v.Wolves
	for cm := claimants; cm != 0; {
		c := next(&cm)
		if b.accWolf[c]&^v.Wolves&^claimants != 0 {
			other |= bit(c)
		} else {
			real |= bit(c)
		}
	}
	if real == 0 {
		return 0
	}
	return other
}

// gargoyleFound: the players the likely gargoyle called wolves, but the
// pack and the checker claimants.
func (b *smartBot) gargoyleFound(v *rules.View, garg uint32) uint32 {
	var m uint32
	for cm := garg; cm != 0; {
		m |= b.accWolf[next(&cm)]
	}
	return m &^ v.Wolves &^ b.seerClaim
}
