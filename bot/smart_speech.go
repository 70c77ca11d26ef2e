package bot

import (
	"github.com/wolfden/wolfden/rules"
)

// actSpeech: the bot has the floor (a campaign, day or PK speech, the free
// discussion, last words). At the start of the floor it plans at most
// MaxClaims claims (or, for a wolf, a self-explosion), sends them one by
// one, then ends the speech.
func (b *smartBot) actSpeech(v *rules.View, ch []rules.Choice) rules.Command {
	if c, ok := b.duel(v, ch); ok {
		return c
	}
	if !b.planValid || b.planSteps != b.steps {
		b.makePlan(v, ch)
	}
	if b.planExplode {
		b.planExplode = false
		if c, ok := b.explode(v, ch); ok {
			return c
		}
	}
	for b.planI < b.planN {
		c := b.plan[b.planI]
		b.planI++
		if legal(c, ch) {
			return c
		}
	}
	return skip
}

func (b *smartBot) makePlan(v *rules.View, ch []rules.Choice) {
	b.planValid, b.planN, b.planI, b.planExplode = true, 0, 0, false
	b.planSteps = b.steps
	if b.camp(v) == campWolf && find(ch, rules.CmdExplode) != nil {
		b.planExplode = true
	}
	rc, wc := findClaim(ch, rules.ClaimRole), findClaim(ch, rules.ClaimWolf)
	if rc == nil || wc == nil {
		return
	}
	b.boardRoles = rc.Roles
	switch b.camp(v) {
	case campWolf:
		b.planWolf(v, wc.Targets)
	default:
		b.planVillage(v, wc.Targets)
	}
}

func (b *smartBot) add(kind int8, t rules.Seat, r rules.Role) {
	if b.planN < len(b.plan) {
		b.plan[b.planN] = rules.Command{Kind: rules.CmdClaim, Value: kind, Target: t, Role: r}
		b.planN++
	}
}

func (b *smartBot) mayClaimRole(r rules.Role) bool {
	return r != rules.NoRole && b.boardRoles&(1<<r) != 0
}

// accusedBy is the set of seer claimants who called seat s a wolf.
func (b *smartBot) accusedBy(s rules.Seat) uint32 {
	var m uint32
	for cm := b.seerClaim; cm != 0; {
		if c := next(&cm); has(b.accWolf[c], s) {
			m |= bit(c)
		}
	}
	return m
}

// planVillage: the seer claims and gives his results; a god claims his
// role when a seer claimant lies about him, in a PK or in his last words;
// anyone names a liar only he can expose (a claimant who called him or a
// player he knows good a wolf); the sheriff names his vote (归票). Nobody
// echoes what the table already knows: an echo adds no evidence.
func (b *smartBot) planVillage(v *rules.View, targets uint32) {
	last := v.Step == rules.StepLastWords
	good, wolf := b.privFacts(v) // (the whole model only if needed: it costs)
	liars := wolf & targets &^ b.friends(v)
	if checker(b.role) && b.camp(v) == campVillage { // the seer, the psychic
		if !b.claimedSeer && b.mayClaimRole(b.role) && b.seerPays(v) {
			b.add(rules.ClaimRole, 0, b.role)
			b.claimedSeer = true
		}
		if !b.claimedSeer {
			return // results without the claim would mean nothing
		}
		// New wolves, the fake seers, new good results, known wolves again.
		for cm := targets &^ b.announced; cm != 0; {
			if s := next(&cm); v.Checks[s] >= 2 {
				b.add(rules.ClaimWolf, s, 0)
				b.announced |= bit(s)
			}
		}
		for cm := liars & b.seerClaim &^ b.announced; cm != 0; {
			s := next(&cm)
			b.add(rules.ClaimWolf, s, 0)
			b.announced |= bit(s)
		}
		for cm := targets &^ b.announced; cm != 0 && b.planN < len(b.plan); {
			if s := next(&cm); v.Checks[s] == 1 {
				b.add(rules.ClaimGood, s, 0)
				b.announced |= bit(s)
			}
		}
		for cm := liars; cm != 0; {
			b.add(rules.ClaimWolf, next(&cm), 0)
		}
		return
	}
	if b.angelDay1(v) { // he wants the village's votes
		if t := b.angelTarget(v, targets); t != rules.NoSeat {
			b.add(rules.ClaimWolf, t, 0)
		}
		return
	}
	if b.role == rules.CursedFox { // he hides: a plain claim when a villager would make one, never his card
		if b.claimsCard(v, rules.Villager) {
			b.add(rules.ClaimRole, 0, rules.Villager)
		}
		return
	}
	liedAbout := b.accusedBy(b.seat) != 0
	if b.role == rules.BearTamer && b.camp(v) == campVillage && v.Growl > 0 {
		// The growl tells only him which players it was about: he says who
		// he is and names the neighbour he suspects more (熊叫了).
		m := b.model(v)
		if t := b.most(&m.p, b.bearNear&^b.bearClear&^m.good&targets); t != rules.NoSeat {
			if b.roleClaimed&b.me == 0 && b.mayClaimRole(rules.BearTamer) {
				b.add(rules.ClaimRole, 0, rules.BearTamer)
			}
			b.add(rules.ClaimWolf, t, 0)
			return
		}
	}
	if b.role == rules.Witch && b.camp(v) == campVillage {
		// She knows the attacked are good: a claimant who calls one a wolf lies.
		saved := rules.NoSeat
		for cm := b.attackedTold & targets; cm != 0; {
			if s := next(&cm); b.accusedBy(s) != 0 {
				saved = s
			}
		}
		if saved != rules.NoSeat || b.claimsCard(v, rules.Witch) {
			b.add(rules.ClaimRole, 0, rules.Witch)
			if saved != rules.NoSeat {
				b.add(rules.ClaimGood, saved, 0)
			}
		}
	} else if b.camp(v) == campVillage && b.role == rules.Guard {
		if b.claimsCard(v, rules.Guard) {
			b.add(rules.ClaimRole, 0, rules.Guard)
		}
	} else if b.camp(v) == campVillage && b.role.IsGod() && b.role != rules.LittleGirl {
		pk := (v.Step == rules.StepPK) && has(b.tied, b.seat)
		if liedAbout || pk || (last && b.role != rules.Idiot) {
			b.add(rules.ClaimRole, 0, b.role)
		}
	} else if b.camp(v) == campVillage && b.role == rules.Villager && b.claimsCard(v, rules.Villager) {
		b.add(rules.ClaimRole, 0, rules.Villager)
	}
	if t := b.piperSuspect(v, targets); t != rules.NoSeat {
		b.add(rules.ClaimWolf, t, 0) // (there is no "piper" claim: name him an enemy)
		return
	}
	if liars != 0 {
		// Name the liar the village may not see: a lying seer claimant first.
		t := lowest(liars & b.seerClaim)
		if t == rules.NoSeat {
			t = lowest(liars)
		}
		b.add(rules.ClaimWolf, t, 0)
		return
	}
	if v.Sheriff != b.seat || v.Step != rules.StepSpeech {
		return
	}
	m := b.model(v)
	if t := b.most(&m.p, targets&^b.friends(v)&^good); t != rules.NoSeat && m.p[t] > priorWolf+0.05 {
		b.add(rules.ClaimWolf, t, 0) // 归票: the sheriff names his vote
	}
}

// seerPays: the seer claims when it pays: he found a wolf, another
// claims the seer, it is his last chance (last words), or always (seerEarly).
func (b *smartBot) seerPays(v *rules.View) bool {
	if seerEarly || v.Step == rules.StepLastWords || b.seerClaim&^b.me != 0 {
		return true
	}
	for s := rules.Seat(1); s <= rules.Seat(b.n); s++ {
		if v.Checks[s] >= 2 && has(v.Alive, s) {
			return true
		}
	}
	return false
}

// decideFake: on the first day, one wolf of the team, named by a number
// only the team shares (a hash of the team and of the first night's
// attack: the same for every mate, unknown to anyone else), decides from
// his own seed whether he fakes a card and which (fakeShares). It returns
// the card, NoRole for the others or when he does not fake. Nobody claims
// a card the table has seen turned up.
func (b *smartBot) decideFake(v *rules.View) rules.Role {
	if b.role == rules.Gargoyle {
		return b.gargoyleFakes(v)
	}
	if !b.fakeDecided && v.Wolves&b.me != 0 && !v.Ally {
		b.fakeDecided = true
		k := popcount(v.Wolves)
		var chosen rules.Seat
		if b.firstAttack == rules.NoSeat && b.ranDay1 == 0 && k > 1 {
			// Nothing the team shares varies yet (a board that starts by
			// day, before the sheriff's hands are shown): each wolf draws
			// alone, as wolves who have not met would, at the risk of two
			// fakes. (A lone wolf has nobody to agree with, nor a draw.)
			chosen = rules.Seat(nthBit(v.Wolves, b.r.IntN(k)))
		} else {
			chosen = rules.Seat(nthBit(v.Wolves, int(b.teamHash(v, 1)%uint64(k))))
		}
		if chosen == b.seat && b.day <= 1 && b.roleClaimed&v.Wolves == 0 && b.chance(fakeRate) {
			b.fakeRole = rules.Seer
			if x := b.r.Float64(); x >= fakeSeerShare {
				x = (x - fakeSeerShare) / (1 - fakeSeerShare)
				switch {
				case x < 0.45:
					b.fakeRole = rules.Witch
				case x < 0.7:
					b.fakeRole = rules.Guard
				default:
					b.fakeRole = rules.Villager
				}
			}
		}
	}
	if b.fakeRole == rules.NoRole || b.holder[b.fakeCard(b.fakeRole)] != rules.NoSeat {
		return rules.NoRole
	}
	return b.fakeRole
}

// fakeCard is the card a faker of r claims: for the seer (decideFake's
// "a checker"), the board's checker card, the seer or else the psychic.
func (b *smartBot) fakeCard(r rules.Role) rules.Role {
	if r == rules.Seer && !b.mayClaimRole(rules.Seer) {
		for _, c := range [...]rules.Role{rules.Psychic, rules.PureWhite} {
			if b.mayClaimRole(c) {
				return c
			}
		}
	}
	return r
}

// teamHash is a number every wolf of the team computes alike and nobody
// else can: from the team, the first night's attack and salt.
func (b *smartBot) teamHash(v *rules.View, salt uint64) uint64 {
	x := uint64(v.Wolves)<<8 | uint64(b.firstAttack)
	if b.firstAttack == rules.NoSeat {
		// A board that starts by day (the angel's): no attack yet, and the
		// mask alone would pick the same faker for every game of that team
		// (a pattern across games); the day-1 sheriff candidates, public
		// and the same for every mate, vary it. (Public: it tells no one
		// more than the mask does.)
		x |= uint64(b.ranDay1) << 32
	}
	return Seed(x, rules.Seat(salt))
}

// teamMost is the seat of mask with the highest p; near ties are broken
// by the team's hash, so that the wolves agree without a habit anyone
// could read (never "the lowest seat").
func (b *smartBot) teamMost(v *rules.View, p *[maxSeat]float32, mask uint32) rules.Seat {
	best := mostFixed(p, mask)
	if best == rules.NoSeat {
		return best
	}
	salt := uint64(b.day)<<8 | uint64(b.exileRounds)<<4 | 2
	var bh uint64
	for m := mask; m != 0; {
		s := next(&m)
		if p[s] >= p[best]-tieEps {
			if h := Seed(b.teamHash(v, salt), s); h >= bh {
				best, bh = s, h
			}
		}
	}
	return best
}

// claimsCard: a player who may claim a card claims it (or, a wolf, the
// card he fakes) at his first day speech when early is his habit, when a
// seer claimant called him a wolf, in a PK he is part of and in his last
// words; a plain villager (or a wolf with no card to fake) says so then
// half the time. It is the same rule for the true card and the fake one.
func (b *smartBot) claimsCard(v *rules.View, r rules.Role) bool {
	if b.roleClaimed&b.me != 0 || !b.mayClaimRole(r) {
		return false
	}
	pk := v.Step == rules.StepPK && has(b.tied, b.seat)
	pressed := b.accusedBy(b.seat) != 0 || pk || v.Step == rules.StepLastWords
	day := v.Step == rules.StepSpeech || v.Step == rules.StepCampaign
	if r == rules.Villager {
		return (pressed || (b.early && day)) && b.chance(plainClaimRate)
	}
	return pressed || (b.early && day)
}

// planWolf: the fake seer claims and "checks" a non-wolf as a wolf (the
// real seer if he has claimed, never one the wolves attacked: the witch
// would know) or vouches for a mate in trouble; the other wolves blend in,
// echoing the village's suspicion of a non-wolf, or counter-accuse a
// claimant who named them.
func (b *smartBot) planWolf(v *rules.View, targets uint32) {
	if b.pubRole[b.seat] != rules.NoRole {
		return // the table has seen his card: his word would only clear whom he names
	}
	pm := b.pubModel(v)
	mates := b.mates(v)
	others := targets &^ b.friends(v) &^ b.foundWolves(v)
	fake := b.decideFake(v)
	if fake == rules.Seer && !b.claimedSeer && b.mayClaimRole(b.fakeCard(fake)) {
		b.add(rules.ClaimRole, 0, b.fakeCard(fake))
		b.claimedSeer = true
	}
	if b.claimedSeer {
		if t := lowest(others & b.seerClaim &^ b.accWolf[b.seat] &^ b.foundWolves(v)); t != rules.NoSeat {
			b.add(rules.ClaimWolf, t, 0)
			return
		}
		if t := b.foundGod(v, others&^b.accWolf[b.seat]); t != rules.NoSeat {
			b.add(rules.ClaimWolf, t, 0) // the gargoyle: a god he found
			return
		}
		if t := mostFixed(&pm.p, mates&targets&^b.accGood[b.seat]); t != rules.NoSeat && pm.p[t] >= 0.5 {
			b.add(rules.ClaimGood, t, 0)
			return
		}
		// A "check" hard to disprove: not a claimed god, not a player the
		// wolves attacked (the witch may know him good); after the first
		// day the village's own suspect.
		pool := b.notFoundPlain(v, others&^b.accWolf[b.seat]&^b.accGood[b.seat]&^b.ourAttacks&^b.roleClaimed)
		if b.role == rules.Gargoyle {
			// He does not know the pack: the village's suspect may be a
			// mate; the player it trusts most is likelier a god.
			if t := b.least(&pm.p, pool); t != rules.NoSeat {
				b.add(rules.ClaimWolf, t, 0)
			}
			return
		}
		if t := mostFixed(&pm.p, pool); b.day > 1 && t != rules.NoSeat && pm.p[t] > priorWolf+0.05 {
			b.add(rules.ClaimWolf, t, 0)
			return
		}
		if b.day > 1 && b.chance(0.5) {
			if t := leastFixed(&pm.p, mates&targets&^b.accGood[b.seat]); t != rules.NoSeat {
				b.add(rules.ClaimGood, t, 0)
				return
			}
		}
		if pool != 0 {
			b.add(rules.ClaimWolf, b.randomIn(pool), 0)
		} else if t := lowest(b.accWolf[b.seat] & others); t != rules.NoSeat {
			b.add(rules.ClaimWolf, t, 0)
		}
		return
	}
	// A fake witch, guard or villager claims as the true one would; a
	// fake witch vouches for a mate in trouble ("I saved him").
	card := fake
	if card == rules.NoRole || card == rules.Seer || !b.mayClaimRole(card) {
		card = rules.Villager
	}
	if b.claimsCard(v, card) {
		b.add(rules.ClaimRole, 0, card)
		if card == rules.Witch {
			if t := mostFixed(&pm.p, mates&targets&^b.accGood[b.seat]); t != rules.NoSeat && pm.p[t] >= 0.5 {
				b.add(rules.ClaimGood, t, 0)
				return
			}
		}
	}
	if acc := b.accusedBy(b.seat) & targets; acc != 0 {
		b.add(rules.ClaimWolf, b.randomIn(acc), 0)
		return
	}
	if t := b.voteTarget(v, targets); t != rules.NoSeat && !has(mates, t) && (pm.p[t] >= 0.5 || v.Sheriff == b.seat) {
		b.add(rules.ClaimWolf, t, 0) // a wolf sheriff calls the wolves' vote (归票)
	}
}

// explode decides a wolf's self-explosion (自爆), rarely: a white wolf king
// takes the real seer with him; an exposed wolf swallows the badge when the
// real seer runs; an exposed wolf now and then ends the day.
func (b *smartBot) explode(v *rules.View, ch []rules.Choice) (rules.Command, bool) {
	c := find(ch, rules.CmdExplode)
	if c == nil {
		return skip, false
	}
	pm := b.pubModel(v)
	mates := b.mates(v)
	exposed := pm.p[b.seat] >= exposedAt
	seer := lowest(b.seerClaim & v.Alive &^ mates &^ b.me)
	if c.Targets != 0 && has(c.Targets, seer) && (exposed || b.chance(takeSeerRate)) {
		return cmd(rules.CmdExplode, seer), true
	}
	if !exposed {
		return skip, false
	}
	campaign := v.Step == rules.StepCampaign || v.Step == rules.StepSheriffPK || v.Step == rules.StepWithdraw
	if campaign && has(v.Candidates, seer) && v.Candidates&mates == 0 && b.chance(swallowRate) {
		return rules.Command{Kind: rules.CmdExplode}, true
	}
	if !campaign && pm.p[b.seat] >= 0.85 && b.chance(explodeRate) {
		return rules.Command{Kind: rules.CmdExplode}, true
	}
	return skip, false
}

// duel: the knight, at his own speech, duels a player he knows to be a wolf
// or believes one with little doubt (his View only).
func (b *smartBot) duel(v *rules.View, ch []rules.Choice) (rules.Command, bool) {
	c := find(ch, rules.CmdDuel)
	if c == nil || b.camp(v) != campVillage {
		return skip, false
	}
	m := b.model(v)
	t := b.most(&m.p, c.Targets&^m.good&^b.me)
	if t == rules.NoSeat || (m.wolf&bit(t) == 0 && m.p[t] < 0.8) {
		return skip, false
	}
	return cmd(rules.CmdDuel, t), true
}
