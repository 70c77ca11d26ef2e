package bot

import "github.com/wolfden/wolfden/rules"

// The dancer (舞者) and the masquerade (假面) of ROLES-MORE-2.md.
//
// actDance: the dancer dances with the player he trusts most and the one
// he suspects most. Himself among the three, all three are shielded from
// the attack (the trusted one, whom the wolves would go for, most of all);
// a suspect who is a wolf is the odd one out and dies; a suspect who is
// good makes three good dancers, and nobody dies. Off the floor
// (dancer_once_per_player), the next most trusted or suspected.
func (b *smartBot) actDance(v *rules.View, c *rules.Choice) rules.Command {
	m := b.model(v)
	floor := c.Targets &^ b.me
	trusted := b.least(&m.p, floor)
	suspect := b.most(&m.p, floor&^bit(trusted))
	mask := b.me | bit(trusted) | bit(suspect)
	if !has(c.Targets, b.seat) || trusted == rules.NoSeat || suspect == rules.NoSeat {
		return RandomCommand(b.r, *c)
	}
	return rules.Command{Kind: rules.CmdDance, Mask: mask}
}

// actMasquerade: the masquerade asks whether he dances himself (a dancer
// who hunts with the dance puts the one he suspects on the floor, and he
// is of the wolf camp); dancing, he masks himself, so that he dances as
// good beside the dancer's good partners and lives. Not dancing, he knows
// no other dancer, and masks nobody: a blind mask kills a wolf as often as
// it saves one.
func (b *smartBot) actMasquerade(v *rules.View, ch []rules.Choice) rules.Command {
	if c := find(ch, rules.CmdAsk); c != nil && has(c.Targets, b.seat) {
		return cmd(rules.CmdAsk, b.seat)
	}
	if c := find(ch, rules.CmdMask); c != nil && v.Asked == b.seat && v.AskDances && has(c.Targets, b.seat) {
		return cmd(rules.CmdMask, b.seat)
	}
	return skip
}
