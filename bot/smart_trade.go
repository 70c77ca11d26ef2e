package bot

import "github.com/wolfden/wolfden/rules"

// The warden's trade and the miracle merchant's gift (ROLES-MORE-2.md), a
// sensible minimum each, read from the bot's View and its model only:
//   - the warden names a packmate beside the outsider the village trusts
//     most (actPair), never himself, whose duel may kill him;
//   - a trader trades with a packmate or a player he trusts, and betrays
//     one he suspects (a wolf of the pack betrays every outsider): a trust
//     given to a wolf is a death;
//   - the merchant waits until he believes a claimed checker and gives him
//     the poison (a checker knows whom to poison); from night 3 with no
//     such checker he shields the player he trusts most; in the wolf camp
//     he never gives (a gift to a wolf is his own death);
//   - the lucky one checks as the seer, shields as the guard, and poisons
//     only a seat his model knows to be a wolf.
func (b *smartBot) actTrade(v *rules.View, ch []rules.Choice) rules.Command {
	switch v.Step {
	case rules.StepWarden:
		if c := find(ch, rules.CmdPair); c != nil {
			return b.actPair(v, c)
		}
	case rules.StepTrade:
		other := v.Traders &^ b.me
		if b.camp(v) == campWolf {
			if other&v.Wolves != 0 {
				return rules.Command{Kind: rules.CmdTrade}
			}
			return rules.Command{Kind: rules.CmdBetray}
		}
		m := b.model(v)
		if s := next(&other); s != rules.NoSeat && (has(m.wolf, s) || m.p[s] > 0.5) {
			return rules.Command{Kind: rules.CmdBetray}
		}
		return rules.Command{Kind: rules.CmdTrade}
	case rules.StepMerchant:
		return b.actGift(v, ch)
	case rules.StepLucky:
		if c := find(ch, rules.CmdPoison); c != nil {
			if cm := c.Targets & b.model(v).wolf; cm != 0 {
				return cmd(rules.CmdPoison, next(&cm))
			}
			return skip
		}
		return b.actNight(v, ch) // the check as the seer's, the shield as the guard's
	}
	return skip
}

// actPair: a packmate who never traded beside the outsider the village
// trusts most (a believed checker first): the packmate betrays, and a
// villager who trusts him trades and dies; one who does not betrays too,
// and their powers cross (a wolf of the pack has none of his own). With no
// such packmate, no pair: two outsiders would mostly both trade, and live.
func (b *smartBot) actPair(v *rules.View, c *rules.Choice) rules.Command {
	mates := c.Targets & v.Wolves &^ b.me
	pool := c.Targets &^ v.Wolves &^ b.me
	if mates == 0 || pool == 0 {
		return skip
	}
	m := b.model(v)
	t := rules.NoSeat
	var bq float32 = 0.35
	for cm := pool & b.seerClaim; cm != 0; {
		if s := next(&cm); m.q[s] > bq {
			t, bq = s, m.q[s]
		}
	}
	if t == rules.NoSeat {
		t = b.least(&b.pubModel(v).p, pool)
	}
	return rules.Command{Kind: rules.CmdPair, Mask: bit(lowest(mates)) | bit(t)}
}

// actGift: the merchant's gift (see actTrade).
func (b *smartBot) actGift(v *rules.View, ch []rules.Choice) rules.Command {
	if b.camp(v) != campVillage {
		return skip
	}
	m := b.model(v)
	c := find(ch, rules.CmdGiftPoison)
	if c == nil {
		return skip
	}
	var bq float32 = 0.5
	t := rules.NoSeat
	for cm := b.seerClaim & c.Targets &^ m.wolf; cm != 0; {
		if s := next(&cm); m.q[s] > bq {
			t, bq = s, m.q[s]
		}
	}
	if t != rules.NoSeat {
		return cmd(rules.CmdGiftPoison, t)
	}
	if b.night >= 3 {
		if t := b.least(&m.p, c.Targets&^m.wolf); t != rules.NoSeat && m.p[t] < 0.2 {
			return cmd(rules.CmdGiftShield, t)
		}
	}
	return skip
}
