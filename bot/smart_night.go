package bot

import (
	"math/bits"

	"github.com/wolfden/wolfden/rules"
)

// Night: the guard, the seer, the killers (wolves, or the black lovers'
// widow knife), the wolf beauty's charm and the piper are woken together;
// a wolf beauty is asked twice, for her pick and her charm.
func (b *smartBot) actNight(v *rules.View, ch []rules.Choice) rules.Command {
	if b.role == rules.MechanicalWolf {
		if c, ok := b.actMechanical(v, ch); ok {
			return c
		}
	}
	if c, ok := b.actMoreNight(v, ch); ok { // the dreamcatcher, the witch hunter, the nightmare
		return c
	}
	if c := find(ch, rules.CmdProtect); c != nil {
		return b.actGuard(v, c)
	}
	if c := find(ch, rules.CmdDance); c != nil {
		return b.actDance(v, c)
	}
	if c := find(ch, rules.CmdModel); c != nil { // the wild child must choose
		return b.actModel(v, c)
	}
	if c := find(ch, rules.CmdCheck); c != nil {
		if b.role == rules.Gargoyle || b.role == rules.WolfWitch { // the wolf witch hunts the pure white among the gods
			return b.actGodHunt(v, c)
		}
		return b.actCheck(v, c)
	}
	if c := find(ch, rules.CmdAttack); c != nil {
		if !b.picked {
			return b.actAttack(v, c)
		}
		// Asked again (a person of the team changed his pick), or a wolf
		// beauty asked for her charm: follow the people's new majority.
		if t, ok := b.peoplePick(v, c); ok && t != b.picks[b.seat] {
			return cmd(rules.CmdAttack, t)
		}
		if len(ch) == 1 {
			return cmd(rules.CmdAttack, b.picks[b.seat]) // no change
		}
	}
	if c := find(ch, rules.CmdCurse); c != nil {
		return b.actCurse(v, c)
	}
	for _, k := range [...]rules.CmdKind{rules.CmdSilence, rules.CmdVoteBan} {
		if c := find(ch, k); c != nil {
			return b.actMute(v, c)
		}
	}
	if c := find(ch, rules.CmdCharm); c != nil {
		if c.Pick != 0 {
			return b.actEnchant(v, c)
		}
		return b.actCharm(v, c)
	}
	return skip
}

// The guard protects the claimed seer he believes; else a claimed god;
// else himself.
func (b *smartBot) actGuard(v *rules.View, c *rules.Choice) rules.Command {
	m := b.model(v)
	t := rules.NoSeat
	var bq float32 = 0.35
	for cm := b.seerClaim & v.Alive & c.Targets; cm != 0; {
		s := next(&cm)
		if m.q[s] > bq {
			t, bq = s, m.q[s]
		}
	}
	if t == rules.NoSeat {
		for cm := v.Alive & c.Targets &^ m.wolf; cm != 0; {
			s := next(&cm)
			if r := b.claimRole[s]; r == rules.Witch && m.p[s] < 0.3 {
				t = s
			}
		}
	}
	if t == rules.NoSeat && has(c.Targets, b.seat) {
		t = b.seat
	}
	if t == rules.NoSeat {
		return skip
	}
	return cmd(rules.CmdProtect, t)
}

// The seer checks the most suspected player whose side he does not know.
func (b *smartBot) actCheck(v *rules.View, c *rules.Choice) rules.Command {
	m := b.model(v)
	unknown := c.Targets &^ m.good &^ m.wolf &^ b.me
	for cm := unknown; cm != 0; {
		s := next(&cm)
		if v.Checks[s] != 0 || v.Known[s] != rules.NoRole {
			unknown &^= bit(s)
		}
	}
	if unknown == 0 {
		unknown = c.Targets &^ b.me
	}
	if t := b.most(&m.p, unknown); t != rules.NoSeat {
		return cmd(rules.CmdCheck, t)
	}
	return skip
}

// The killers' attack: follow a mate's pick if there is one, so that the
// wolves agree; else the first of killRank.
func (b *smartBot) actAttack(v *rules.View, c *rules.Choice) rules.Command {
	killers := v.Wolves
	if b.camp(v) == campLovers {
		killers = b.blackLovers // the widow knife
	}
	if t, ok := b.peoplePick(v, c); ok {
		return cmd(rules.CmdAttack, t)
	}
	ok := c.Targets &^ b.friends(v) // never a mate, a lover, oneself
	if k := ok &^ b.foundWolves(v); k != 0 {
		ok = k // (the gargoyle: nor a wolf he found)
	}
	if ok == 0 {
		return skip
	}
	var count [maxSeat]int8
	best := rules.NoSeat
	for km := killers &^ b.me; km != 0; {
		w := next(&km)
		if t := b.picks[w]; has(ok, t) {
			count[t]++
			if best == rules.NoSeat || count[t] > count[best] {
				best = t
			}
		}
	}
	if best != rules.NoSeat {
		return cmd(rules.CmdAttack, best)
	}
	if t := b.piperSuspect(v, ok); t != rules.NoSeat {
		return cmd(rules.CmdAttack, t)
	}
	return cmd(rules.CmdAttack, b.killTarget(v, ok, true))
}

// peoplePick is the pick of the people of a mixed team (wolves played by
// people, docs/bots.md): the target most of them named, "nobody" (空刀)
// only when most of them chose it; among tied targets the best of the kill
// ranking, the same for every bot of the team. ok is false when no person
// of the team has picked.
func (b *smartBot) peoplePick(v *rules.View, c *rules.Choice) (rules.Seat, bool) {
	killers := v.Wolves
	if b.camp(v) == campLovers {
		killers = b.blackLovers
	}
	people := killers & b.people & b.pickedBy &^ b.me
	if people == 0 {
		return rules.NoSeat, false
	}
	var count [maxSeat]int8
	top := int8(0) // the most votes for a player
	for m := people; m != 0; {
		t := b.picks[next(&m)]
		if t == rules.NoSeat || has(c.Targets, t) {
			count[t]++
			if t != rules.NoSeat {
				top = max(top, count[t])
			}
		}
	}
	if count[rules.NoSeat] > top {
		return rules.NoSeat, c.NoTarget
	}
	var tied uint32
	for t := rules.Seat(1); t < maxSeat; t++ {
		if count[t] == top && top > 0 {
			tied |= bit(t)
		}
	}
	if tied == 0 {
		return rules.NoSeat, false
	}
	return b.killTarget(v, tied, false), true
}

// killScore ranks the players the wolves want dead: a claimed seer first
// (the wolves know the one who is not their mate is real), then the other
// claimed gods but the hunter, then the players the village trusts.
func (b *smartBot) killScore(v *rules.View, t rules.Seat) float32 {
	pm := b.pubModel(v)
	x := 2 * (1 - pm.p[t])
	card := b.claimRole[t]
	if k := b.knownCard(v, t); k != rules.NoRole {
		card = k // the gargoyle checked him: the card beats a claim
		if checker(k) {
			x += 10
		}
	}
	garg := b.likelyGargoyle(v)
	if has(garg, t) {
		return x - 10 // the gargoyle's fake claim: an ally, whom the pack spares
	}
	if has(b.gargoyleFound(v, garg), t) {
		x += 3 // a god the gargoyle found, by his word
	}
	if has(b.seerClaim, t) && !checker(b.knownCard(v, t)) {
		// The real seer, unless a mate's counter-claim keeps the village in
		// doubt: killing him would prove him.
		if b.seerClaim&v.Wolves == 0 || pm.q[t] >= seerKillQ {
			x += 10
		} else {
			x += 1
		}
	}
	switch card {
	case rules.Witch:
		x += 6
	case rules.Guard:
		x += 5
	case rules.Hunter:
		x -= 3 // he would shoot back
	case rules.NoRole, rules.Villager, rules.Seer, rules.Psychic, rules.PureWhite:
	default:
		x += 2
	}
	if b.pubRole[t] == rules.Idiot {
		x += 1 // a revealed idiot cannot vote but still speaks
	}
	return x
}

// killTarget is the best of mask by killScore; random among near ties
// (the other wolves follow the first pick).
func (b *smartBot) killTarget(v *rules.View, mask uint32, random bool) rules.Seat {
	var sc [maxSeat]float32
	for m := mask; m != 0; {
		s := next(&m)
		sc[s] = b.killScore(v, s)
	}
	if random {
		return b.extremeScore(&sc, mask)
	}
	return mostFixed(&sc, mask)
}

func (b *smartBot) extremeScore(sc *[maxSeat]float32, mask uint32) rules.Seat {
	best := rules.NoSeat
	ties := 0
	for m := mask; m != 0; {
		s := next(&m)
		switch {
		case best == rules.NoSeat || sc[s] > sc[best]+0.05:
			best, ties = s, 1
		case sc[s] >= sc[best]-0.05:
			ties++
			if b.r.IntN(ties) == 0 {
				best = s
			}
		}
	}
	return best
}

// The wolf beauty charms the most valuable player the wolves are not
// already attacking tonight: if the village exiles her, he goes with her.
func (b *smartBot) actCharm(v *rules.View, c *rules.Choice) rules.Command {
	ok := c.Targets &^ b.friends(v)
	if mine := b.picks[b.seat]; bits.OnesCount32(ok) > 1 && mine != rules.NoSeat {
		ok &^= bit(mine)
	}
	if t := b.killTarget(v, ok, true); t != rules.NoSeat {
		return cmd(rules.CmdCharm, t)
	}
	return skip
}

// The piper charms players at random: anyone charmed counts.
func (b *smartBot) actEnchant(v *rules.View, c *rules.Choice) rules.Command {
	return RandomCommand(b.r, *c)
}

// The witch heals whoever is attacked, unless he looks like a wolf (the
// wolves may attack their own); she poisons a player she is nearly sure is
// a wolf, from the first day on.
func (b *smartBot) actWitch(v *rules.View, ch []rules.Choice) rules.Command {
	m := b.model(v)
	if c := find(ch, rules.CmdHeal); c != nil && v.Attacked != rules.NoSeat && b.healedNight != b.night {
		if m.p[v.Attacked] < 0.6 || has(b.friends(v), v.Attacked) {
			return rules.Command{Kind: rules.CmdHeal}
		}
	}
	if c := find(ch, rules.CmdPoison); c != nil && b.day >= 1 && b.poisonNight != b.night {
		ok := c.Targets &^ b.friends(v) &^ m.good
		if t := b.piperSuspect(v, ok); t != rules.NoSeat {
			return cmd(rules.CmdPoison, t)
		}
		if t := b.most(&m.p, ok); t != rules.NoSeat && m.p[t] >= poisonThreshold(b) {
			return cmd(rules.CmdPoison, t)
		}
	}
	return skip
}

func poisonThreshold(b *smartBot) float32 {
	if b.day >= 2 {
		return poisonLate
	}
	return poisonEarly
}

// The thief takes a god if one is offered, else keeps his card (a thief
// who must take a wolf is given one by skipping).
func (b *smartBot) actThief(v *rules.View, ch []rules.Choice) rules.Command {
	best, bv := 0, 0
	for i, r := range v.Extra {
		x := 0
		switch {
		case checker(r):
			x = 5
		case r == rules.Witch:
			x = 4
		case r == rules.Guard || r == rules.Hunter:
			x = 3
		case r.IsGod():
			x = 2
		}
		if x > bv {
			best, bv = i+1, x
		}
	}
	if best != 0 {
		return rules.Command{Kind: rules.CmdTake, Value: int8(best)}
	}
	return skip
}

// Cupid links two other players at random.
func (b *smartBot) actCupid(v *rules.View, ch []rules.Choice) rules.Command {
	c := find(ch, rules.CmdLink)
	if c == nil {
		return skip
	}
	pool := c.Targets &^ b.me
	if bits.OnesCount32(pool) < 2 {
		pool = c.Targets
	}
	return rules.Command{Kind: rules.CmdLink, Mask: pickSeats(b.r, pool, 2)}
}

// The ghost bride (鬼魂新娘) weds and names her witness on night 1, before
// anyone has spoken: she knows no card but her own (and a lover's, who is
// bound to her already and would add nobody to her camp), so she draws each
// pick from the seat's seeded source among the others. A fixed rule (her
// left neighbour) would name the groom and the witness to the table as soon
// as her seat is known.
func (b *smartBot) actBride(v *rules.View, ch []rules.Choice) rules.Command {
	for _, k := range []rules.CmdKind{rules.CmdGroom, rules.CmdWitness} {
		c := find(ch, k)
		if c == nil {
			continue
		}
		pool := c.Targets &^ b.me &^ v.Lovers
		if pool == 0 {
			pool = c.Targets
		}
		return cmd(k, lowest(pickSeats(b.r, pool, 1)))
	}
	return skip
}

// The crow curses the most suspected player not known to be good.
func (b *smartBot) actCurse(v *rules.View, c *rules.Choice) rules.Command {
	m := b.model(v)
	if t := b.most(&m.p, c.Targets&^m.good&^b.me); t != rules.NoSeat {
		return cmd(rules.CmdCurse, t)
	}
	return skip
}

// The silence elder and the vote-ban elder take tomorrow's speech or vote
// from the most suspected player not known to be good: a wolf's speech is
// his means to mislead, his vote the pack's weight. Never himself, whom he
// knows good: the table needs his speech and vote.
func (b *smartBot) actMute(v *rules.View, c *rules.Choice) rules.Command {
	m := b.model(v)
	if t := b.most(&m.p, c.Targets&^m.good&^b.me); t != rules.NoSeat {
		return cmd(c.Kind, t)
	}
	return skip
}

// The wild child takes as his model the player he trusts most (the least
// suspected), so that he stays with the village as long as it can keep him.
func (b *smartBot) actModel(v *rules.View, c *rules.Choice) rules.Command {
	m := b.model(v)
	t := rules.NoSeat
	for cm := c.Targets; cm != 0; {
		s := next(&cm)
		if t == rules.NoSeat || m.p[s] < m.p[t] {
			t = s
		}
	}
	return cmd(rules.CmdModel, t)
}

// hearBear: the bear tamer learns from today's growl about the neighbours
// he had when it was heard: one of them reads as a wolf, or neither does.
// (The table cannot: it does not know his seat.)
func (b *smartBot) hearBear(v *rules.View) {
	if b.role != rules.BearTamer || v.Growl == 0 || b.bearDay == v.Day || v.GrowlAlive&b.me == 0 {
		return
	}
	b.bearDay = v.Day
	var near uint32
	n := rules.Seat(b.n)
	for _, step := range [...]rules.Seat{1, n - 1} {
		for i, s := rules.Seat(1), b.seat; i < n; i++ {
			s = (s+step-1)%n + 1
			if s != b.seat && v.GrowlAlive&bit(s) != 0 {
				near |= bit(s)
				break
			}
		}
	}
	if v.Growl > 0 {
		b.bearNear |= near
	} else {
		b.bearClear |= near
	}
	b.priv.valid = false
}
