package bot

import "github.com/wolfden/wolfden/rules"

// Habits for roles of ROLES-MORE-2.md, read from the bot's View and its
// model only.
//
// The mechanical wolf (机械狼) plays for the wolves without knowing them: he
// imitates a player at random on night 1 (nobody has spoken yet); with a
// check he hunts the gods as the gargoyle does; with the shield he covers
// himself (else the player the table suspects most, likelier a wolf); he
// pours his poison and spends his second attack on the player the wolves
// most want dead, a claimed god first, and holds the poison while nobody
// has claimed one. Holding the kill, he picks it first, then acts.
//
// The angel (天使) wants to be exiled on day 1 (or eaten on night 1): that
// day he talks and votes as a wolf caught lying would, against the
// player the table trusts most; from day 2 he is a villager and plays as
// one.
//
// The cursed fox (咒狐) hides: he claims plainly a villager when a villager
// would (pressed, in a PK, in his last words), never his card, and
// otherwise plays as a villager.

// actMechanical is the mechanical wolf's night; false: let the shared
// night play the attack (or skip).
func (b *smartBot) actMechanical(v *rules.View, ch []rules.Choice) (rules.Command, bool) {
	if c := find(ch, rules.CmdImitate); c != nil {
		return cmd(rules.CmdImitate, b.randomIn(c.Targets)), true
	}
	if c := find(ch, rules.CmdAttack); c != nil && !b.picked {
		return b.actAttack(v, c), true // the kill first
	}
	if c := find(ch, rules.CmdCheck); c != nil {
		return b.actGodHunt(v, c), true
	}
	if c := find(ch, rules.CmdProtect); c != nil {
		if has(c.Targets, b.seat) {
			return cmd(rules.CmdProtect, b.seat), true
		}
		pm := b.pubModel(v)
		return cmd(rules.CmdProtect, b.most(&pm.p, c.Targets)), true
	}
	for _, k := range [...]rules.CmdKind{rules.CmdPoison, rules.CmdDoubleAttack} {
		c := find(ch, k)
		if c == nil {
			continue
		}
		pool := c.Targets &^ b.friends(v) &^ b.foundWolves(v)
		gods := pool & b.seerClaim
		for cm := pool & b.roleClaimed; cm != 0; {
			if s := next(&cm); b.claimRole[s].IsGod() {
				gods |= bit(s)
			}
		}
		for cm := pool; cm != 0; {
			if s := next(&cm); b.knownCard(v, s).IsGod() {
				gods |= bit(s)
			}
		}
		if k == rules.CmdDoubleAttack && gods == 0 {
			gods = pool // once the pack is dead there is no time to wait
		}
		if t := b.killTarget(v, gods, true); t != rules.NoSeat {
			return cmd(k, t), true
		}
	}
	return skip, false
}

// angelDay1: the angel on day 1, who wants to be exiled.
func (b *smartBot) angelDay1(v *rules.View) bool {
	return b.role == rules.Angel && b.day <= 1 && !v.Night
}

// angelTarget is whom the angel accuses and votes for on day 1: the
// player the table trusts most, as a liar would.
func (b *smartBot) angelTarget(v *rules.View, mask uint32) rules.Seat {
	pm := b.pubModel(v)
	return b.least(&pm.p, mask&^b.me)
}
