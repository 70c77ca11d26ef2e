package bot

import (
	"github.com/wolfden/wolfden/rules"
)

// Tunable habits of the smart bots.
const (
	runRate        = 0.2  // a player with no reason to run stands for sheriff this often
	fakeRate       = 0.6  // the designated wolf fakes a card this often …
	fakeSeerShare  = 0.55 // … the seer this often, else witch, guard or villager (fakeShares)
	earlyRate      = 0.15 // a seat claims its card (real or fake) at its first day speech this often
	plainClaimRate = 0.5  // a player with no card to claim says "villager" when accused, in a PK, in last words
	withdrawRate   = 0.7  // a candidate withdraws for a credible seer this often
	shootThreshold = 0.35 // the hunter shoots only a player this suspected
	poisonEarly    = 0.6  // the witch poisons on night 2 a player this suspected
	poisonLate     = 0.5  // … and from night 3 on
	exposedAt      = 0.75 // a wolf this suspected by the village is exposed
	explodeRate    = 0.12 // an exposed wolf self-explodes in a day speech this often
	takeSeerRate   = 0.35 // a white wolf king explodes taking the real seer this often
	swallowRate    = 0.5  // an exposed wolf explodes in the campaign to swallow the badge
	seerKillQ      = 0.6  // with a mate's counter-claim, the wolves kill the real seer once he is this believed
	seerEarly      = true // the seer claims on day 1 even without a wolf found
	busAt          = 0.9  // a mate this suspected by the village is doomed …
	busMargin      = 0.5  // … when no non-wolf is within this much: the wolves vote with the village
)

func (b *smartBot) chance(p float64) bool { return b.r.Float64() < p }

// voteTarget is whom the bot wants exiled among mask. A villager votes for
// the player he suspects most; a wolf for the non-wolf the public model
// suspects most, so that the wolves vote together with the village's
// consensus when it is not a mate; when the village is plainly about to
// exile a mate, the other wolves vote with it (倒钩: a block of votes
// against the consensus would give them away).
func (b *smartBot) voteTarget(v *rules.View, mask uint32) rules.Seat {
	if b.angelDay1(v) {
		return b.angelTarget(v, mask)
	}
	if b.camp(v) == campWolf {
		pm := b.pubModel(v)
		t := b.teamMost(v, &pm.p, mask&^b.friends(v))
		if m := mostFixed(&pm.p, mask&^b.me); has(b.mates(v), m) && pm.p[m] >= busAt &&
			(t == rules.NoSeat || pm.p[m] >= pm.p[t]+busMargin) {
			return m
		}
		return t
	}
	mask &^= b.friends(v)
	m := b.model(v)
	return b.most(&m.p, mask&^m.good)
}

// stale: a whole day and night went by without a death. Deterministic
// votes could tie the same way for ever (when nobody holds the night
// kill: two last players voting for each other), so the bots then vote at
// random half of the time, abstaining being one of the draws.
func (b *smartBot) stale() bool {
	return b.day-b.lastDeath >= 2 && b.chance(0.5)
}

func (b *smartBot) randomIn(mask uint32) rules.Seat {
	if mask == 0 {
		return rules.NoSeat
	}
	return rules.Seat(nthBit(mask, b.r.IntN(popcount(mask))))
}

// randomOrNone is a seat of mask or nobody, all equally likely.
func (b *smartBot) randomOrNone(mask uint32) rules.Seat {
	if i := b.r.IntN(popcount(mask) + 1); i < popcount(mask) {
		return rules.Seat(nthBit(mask, i))
	}
	return rules.NoSeat
}

func (b *smartBot) vote(v *rules.View, ch []rules.Choice) rules.Command {
	mask := targets(ch, rules.CmdVote)
	if v.Step == rules.StepMobVote && b.exileRounds >= 3 && b.chance(0.5) {
		// The angry mob ties again and again (mob_random_after=never): a
		// table breaks the deadlock, with a random name or by abstaining.
		if t := b.randomIn(mask &^ b.friends(v)); t != rules.NoSeat && b.chance(0.5) {
			return cmd(rules.CmdVote, t)
		}
		return rules.Command{Kind: rules.CmdAbstain}
	}
	if t := b.piperSuspect(v, mask); t != rules.NoSeat {
		return cmd(rules.CmdVote, t)
	}
	if b.stale() {
		if t := b.randomOrNone(mask &^ b.friends(v)); t != rules.NoSeat {
			return cmd(rules.CmdVote, t)
		}
		return rules.Command{Kind: rules.CmdAbstain}
	}
	t := b.voteTarget(v, mask)
	if t == rules.NoSeat {
		return rules.Command{Kind: rules.CmdAbstain}
	}
	return cmd(rules.CmdVote, t)
}

func (b *smartBot) actVote(v *rules.View, ch []rules.Choice) rules.Command { return b.vote(v, ch) }

// Angry mob: name one's choice aloud; after a few tied re-votes, a random
// one, so that the mob does not tie for ever.
func (b *smartBot) actMobVote(v *rules.View, ch []rules.Choice) rules.Command { return b.vote(v, ch) }

// Sequential vote: raise the hand when the candidate of the moment is the
// one the bot wants exiled among all the candidates of the round.
func (b *smartBot) actSeqVote(v *rules.View, ch []rules.Choice) rules.Command {
	cands := v.Alive
	if b.exileRounds > 0 && b.tied&v.Alive != 0 {
		cands = b.tied & v.Alive
	}
	want := b.voteTarget(v, cands)
	if t := b.piperSuspect(v, cands); t != rules.NoSeat {
		want = t
	} else if b.stale() {
		want = b.randomOrNone(cands &^ b.friends(v))
	}
	if want == v.Turn && v.Turn != rules.NoSeat {
		return cmd(rules.CmdVote, v.Turn)
	}
	return skip
}

// Sheriff vote among the candidates: the most trusted; a wolf votes for a
// mate, else for the candidate the village trusts least.
func (b *smartBot) actSheriffVote(v *rules.View, ch []rules.Choice) rules.Command {
	mask := targets(ch, rules.CmdVote) &^ b.me
	t := rules.NoSeat
	switch b.camp(v) {
	case campWolf:
		pm := b.pubModel(v)
		if mates := mask & b.mates(v); mates != 0 {
			t = leastFixed(&pm.p, mates)
		} else {
			t = mostFixed(&pm.p, mask)
		}
	default:
		m := b.model(v)
		t = b.least(&m.p, mask&^m.wolf)
	}
	if t == rules.NoSeat {
		return rules.Command{Kind: rules.CmdAbstain}
	}
	return cmd(rules.CmdVote, t)
}

// Election before the first night (anyone may be voted for): everyone
// votes for whom he trusts, the wolves too: a block of wolf votes for a
// mate would name them all once he is found out.
func (b *smartBot) actElect(v *rules.View, ch []rules.Choice) rules.Command {
	mask := targets(ch, rules.CmdVote)
	m := b.model(v)
	if b.camp(v) == campWolf {
		m = b.pubModel(v)
	}
	if t := b.least(&m.p, mask&^b.me&^m.wolf); t != rules.NoSeat {
		return cmd(rules.CmdVote, t)
	}
	return rules.Command{Kind: rules.CmdAbstain}
}

// Signup (上警): the seer runs to claim, the designated fake seer too; the
// others now and then.
func (b *smartBot) actSignup(v *rules.View, ch []rules.Choice) rules.Command {
	run := false
	switch b.camp(v) {
	case campWolf:
		run = b.decideFake(v) == rules.Seer || b.chance(runRate) // like anyone else
	default:
		run = (checker(b.role) && b.seerPays(v)) || b.chance(runRate)
	}
	if run {
		return rules.Command{Kind: rules.CmdRun}
	}
	return skip
}

// Withdraw step (退水): a candidate who is not a seer claimant withdraws
// for a credible seer; under double_explode an exposed wolf may explode.
func (b *smartBot) actWithdraw(v *rules.View, ch []rules.Choice) rules.Command {
	if find(ch, rules.CmdExplode) != nil && b.camp(v) == campWolf {
		if c, ok := b.explode(v, ch); ok {
			return c
		}
	}
	if b.camp(v) == campWolf || has(b.seerClaim, b.seat) {
		return skip
	}
	m := b.model(v)
	for cm := v.Candidates & b.seerClaim &^ b.me; cm != 0; {
		if s := next(&cm); m.q[s] >= 0.5 && b.chance(withdrawRate) {
			return rules.Command{Kind: rules.CmdWithdraw}
		}
	}
	return skip
}

// The sheriff has the speeches start with a neighbour he knows to be a
// wolf, if one is (he speaks first, before the table has heard the others);
// else clockwise.
func (b *smartBot) actOrder(v *rules.View, ch []rules.Choice) rules.Command {
	_, wolf := b.facts(v, b.camp(v) == campVillage, b.me)
	cw, ccw := b.neighbour(v, 1), b.neighbour(v, -1)
	if has(wolf, ccw) && !has(wolf, cw) {
		return rules.Command{Kind: rules.CmdOrder, Value: 1}
	}
	return rules.Command{Kind: rules.CmdOrder}
}

func (b *smartBot) neighbour(v *rules.View, dir int) rules.Seat {
	s := int(b.seat)
	for range b.n {
		s += dir
		if s > b.n {
			s = 1
		} else if s < 1 {
			s = b.n
		}
		if has(v.Alive, rules.Seat(s)) && rules.Seat(s) != b.seat {
			return rules.Seat(s)
		}
	}
	return rules.NoSeat
}

// The skill window: a hunter shoots the most suspected player if he is
// suspected enough; a wolf king shoots the player the wolves want dead.
func (b *smartBot) actSkill(v *rules.View, ch []rules.Choice) rules.Command {
	c := find(ch, rules.CmdShoot)
	if c == nil {
		return skip
	}
	mask := c.Targets &^ b.friends(v)
	if b.camp(v) == campWolf {
		if t := b.killTarget(v, mask, false); t != rules.NoSeat {
			return cmd(rules.CmdShoot, t)
		}
		return skip
	}
	if t := b.piperSuspect(v, mask); t != rules.NoSeat {
		return cmd(rules.CmdShoot, t)
	}
	m := b.model(v)
	t := b.most(&m.p, mask&^m.good)
	if t != rules.NoSeat && m.p[t] >= shootThreshold {
		return cmd(rules.CmdShoot, t)
	}
	return skip
}

// The badge goes to the most trusted player; a wolf passes it to his least
// suspected mate, or tears it.
func (b *smartBot) actBadge(v *rules.View, ch []rules.Choice) rules.Command {
	mask := targets(ch, rules.CmdBadge)
	if b.camp(v) == campWolf {
		pm := b.pubModel(v)
		if b.pubRole[b.seat] != rules.NoRole {
			return rules.Command{Kind: rules.CmdTear} // his card is seen: the badge would name a mate
		}
		if t := leastFixed(&pm.p, mask&b.mates(v)); t != rules.NoSeat && pm.p[t] < exposedAt {
			return cmd(rules.CmdBadge, t)
		}
		return rules.Command{Kind: rules.CmdTear}
	}
	m := b.model(v)
	if t := b.least(&m.p, mask&^m.wolf); t != rules.NoSeat && m.p[t] < 0.5 {
		return cmd(rules.CmdBadge, t)
	}
	return rules.Command{Kind: rules.CmdTear}
}

// The scapegoat lets vote tomorrow only the players he does not suspect.
func (b *smartBot) actVoters(v *rules.View, ch []rules.Choice) rules.Command {
	c := find(ch, rules.CmdVoters)
	if c == nil {
		return skip
	}
	m := b.model(v)
	var mask uint32
	for cm := c.Targets; cm != 0; {
		if s := next(&cm); m.p[s] < 0.5 {
			mask |= bit(s)
		}
	}
	if mask == c.Targets || mask == 0 {
		return skip
	}
	return rules.Command{Kind: rules.CmdVoters, Mask: mask}
}

// The wolf ally: a dead wolf names the player the wolves would most like
// on their side; anyone else names nobody (the choice's targets are not
// read: they would tell a villager who the wolves are).
func (b *smartBot) actAlly(v *rules.View, ch []rules.Choice) rules.Command {
	c := find(ch, rules.CmdAlly)
	if c == nil || b.camp(v) != campWolf {
		return skip
	}
	if t := b.killTarget(v, c.Targets&^b.friends(v), false); t != rules.NoSeat {
		return cmd(rules.CmdAlly, t)
	}
	return skip
}

// piperSuspect: a charmed player is told who is charmed, so the piper is
// one of the uncharmed others. When he would win at the end of the next
// two nights (at most three uncharmed players besides him), piperSuspect names
// the likeliest: one who claimed no role and looks least like a wolf.
func (b *smartBot) piperSuspect(v *rules.View, mask uint32) rules.Seat {
	if v.Charmed&b.me == 0 || b.role == rules.Piper {
		return rules.NoSeat
	}
	sus := v.Alive &^ v.Charmed &^ b.me &^ b.mates(v)
	for m := sus; m != 0; {
		s := next(&m)
		if k := v.Known[s]; (k != rules.NoRole && k != rules.Piper) || (b.pubRole[s] != rules.NoRole && b.pubRole[s] != rules.Piper) {
			sus &^= bit(s)
		}
	}
	if sus == 0 || popcount(sus) > 4 {
		return rules.NoSeat
	}
	var sc [maxSeat]float32
	p := &b.model(v).p
	for m := sus; m != 0; {
		s := next(&m)
		sc[s] = 1 - p[s]
		if has(b.roleClaimed, s) {
			sc[s] -= 0.5
		}
	}
	return b.extremeScore(&sc, sus&mask)
}
