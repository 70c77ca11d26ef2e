package bot

import "github.com/wolfden/wolfden/rules"

// The night powers of ROLES-MORE.md, a sensible minimum each, read from the
// bot's View and its model only: the dreamcatcher dreams whom the guard
// would protect (never last night's dreamer: a second dream kills); the
// witch hunter hunts only a seat his model knows to be a wolf; the
// nightmare fears a claimed seer, else the living non-wolf least suspected;
// the magician does not swap (a blind swap helps the wolves as often as the
// village).
func (b *smartBot) actMoreNight(v *rules.View, ch []rules.Choice) (rules.Command, bool) {
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
