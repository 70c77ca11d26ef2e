package bot

import "github.com/wolfden/wolfden/rules"

// The night powers of ROLES-MORE.md, a sensible minimum each, read from the
// bot's View and its model only: the dreamcatcher dreams whom the guard
// would protect (never last night's dreamer: a second dream kills); the
// witch hunter hunts only a seat his model knows to be a wolf; the
// nightmare fears a claimed seer, else the living non-wolf least suspected;
// the magician swaps the checker he believes out of the wolves' way
// (actSwap), else does not swap (a blind swap helps the wolves as often as
// the village).
func (b *smartBot) actMoreNight(v *rules.View, ch []rules.Choice) (rules.Command, bool) {
	if c := find(ch, rules.CmdShelter); c != nil { // 蚀时狼妃 (smart_eternal.go)
		return b.actShelter(v, c), true
	}
	if c := find(ch, rules.CmdSwap); c != nil {
		return b.actSwap(v, c), true
	}
	if c := find(ch, rules.CmdDream); c != nil {
		t := b.actGuard(v, c).Target
		if t == v.Dreamed || c.Targets&bit(t) == 0 {
			t = rules.NoSeat
			for cm := c.Targets &^ bit(v.Dreamed); cm != 0 && t == rules.NoSeat; {
				t = next(&cm)
			}
		}
		if t != rules.NoSeat {
			return cmd(rules.CmdDream, t), true
		}
	}
	if c := find(ch, rules.CmdHunt); c != nil {
		m := b.model(v)
		if cm := c.Targets & m.wolf; cm != 0 {
			return cmd(rules.CmdHunt, next(&cm)), true
		}
		return skip, true
	}
	if c := find(ch, rules.CmdFear); c != nil {
		m := b.model(v)
		t := rules.NoSeat
		for cm := c.Targets & b.seerClaim &^ v.Wolves; cm != 0 && t == rules.NoSeat; {
			t = next(&cm)
		}
		if t == rules.NoSeat {
			best := float32(2)
			for cm := c.Targets &^ v.Wolves; cm != 0; {
				if s := next(&cm); m.p[s] < best {
					t, best = s, m.p[s]
				}
			}
		}
		if t != rules.NoSeat {
			return cmd(rules.CmdFear, t), true
		}
	}
	return skip, false
}

// actSwap: the magician (魔术师) protects the claimed checker (seer,
// psychic) he believes (as the guard, at 35%), whom the wolves go for
// first: he swaps him with a player the wolves will not attack, so that
// their attack lands there. The partner is, in order: a living player the
// checker called a wolf (the pack never attacks a mate, and the checker
// will not check him again, so no check lands on himself); one he called
// good, the least trusted of them (a check already made: his next one
// stays his; the wolves attack the trusted after the checker); else the
// magician himself (his life for the checker's). A checker already swapped
// (magician_swap_once), none believed, or a magician in the wolf camp: no
// swap.
func (b *smartBot) actSwap(v *rules.View, c *rules.Choice) rules.Command {
	if b.camp(v) != campVillage {
		return skip
	}
	m := b.model(v)
	s := rules.NoSeat
	var bq float32 = 0.35
	for cm := b.seerClaim & c.Targets &^ b.me &^ m.wolf; cm != 0; {
		x := next(&cm)
		if m.q[x] > bq {
			s, bq = x, m.q[x]
		}
	}
	if s == rules.NoSeat {
		return skip
	}
	pool := c.Targets &^ bit(s)
	t := b.most(&m.p, pool&b.accWolf[s])
	if t == rules.NoSeat {
		t = b.most(&m.p, pool&b.accGood[s]&^b.me)
	}
	if t == rules.NoSeat && has(pool, b.seat) {
		t = b.seat
	}
	if t == rules.NoSeat {
		return skip
	}
	return rules.Command{Kind: rules.CmdSwap, Mask: bit(s) | bit(t)}
}
