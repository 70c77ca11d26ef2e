package bot

import (
	"math"

	"github.com/wolfden/wolfden/rules"
)

// model is a suspicion model: for each seat the probability that it is a
// wolf (an enemy of the village), and for each seer claimant the
// probability that he is the real seer. The private model (priv) is the
// bot's own belief: the public evidence plus what only its seat knows. The
// public model (pub) uses the public evidence alone: it is what a
// villager with no secret would believe, so that every wolf computes the
// same one and the wolves agree without talking.
type model struct {
	p     [maxSeat]float32 // probability of being a wolf
	q     [maxSeat]float32 // seer claimants: probability of being the real seer
	good  uint32           // known not to be wolves
	wolf  uint32           // known wolves
	valid bool
}

// Weights of the evidence, in log-odds.
const (
	priorWolf    = 0.3  // a seat's prior probability of being a wolf
	noSeerWeight = 0.18 // weight of "no seer claimant is real" (exp(-1.7))
	nightDeadL   = -2.5 // died at night: the wolves' victim, most likely good
	godClaimL    = -1.0 // an uncontested claim of a god
	contestedL   = 0.8  // a contested claim: one of them lies
	witchWordL   = 1.8  // an uncontested witch's word about a player
	takenL       = -2.0 // taken by an exploding white wolf king
	hunterShotL  = 1.2  // shot by a revealed hunter
	kingShotL    = -1.5 // shot by a revealed wolf king
	attackedL    = -4.0 // witch: told the wolves attacked him
	spiedL       = -3.0 // little girl: a wolf picked him
	myPoisonL    = 2.0  // witch: I poisoned him
	bearNearL    = 1.1  // bear tamer: a neighbour when the bear growled (one of two reads as a wolf)
	bearClearL   = -2.5 // bear tamer: a neighbour when it did not (a hidden wolf may hide there)
	voteK        = 0.6  // voting for a likely good player is suspicious
	sheriffVoteK = 0.4  // voting a likely wolf for sheriff is suspicious
	accuseK      = 0.4  // accusing a likely good player is suspicious
	accusedK     = 0.5  // a trusted player's accusation counts
	badgeK       = 1.0  // the badge passes within a camp
	factGoodP    = 0.01 // probability of a known good player
	factWolfP    = 0.99 // … of a known wolf
	fakeWolfRate = 0.15 // a fake seer calls a wolf a wolf this often
	fakeGoodRate = 0.40 // … and a wolf good this often
	realLieRate  = 0.02 // a real seer is wrong this often (a result misread)
	realHitRate  = 0.97 // … and right this often
	maxLogit     = 8.0  // logits are clamped to ±maxLogit
	sigmoidSteps = 16   // table resolution per logit unit
	sigmoidTable = 2*maxLogit*sigmoidSteps + 1
)

var sigTab [sigmoidTable]float32

func init() {
	for i := range sigTab {
		x := float64(i)/sigmoidSteps - maxLogit
		sigTab[i] = float32(1 / (1 + math.Exp(-x)))
	}
}

func sigmoid(x float32) float32 {
	switch {
	case x <= -maxLogit:
		return sigTab[0]
	case x >= maxLogit:
		return sigTab[sigmoidTable-1]
	}
	return sigTab[int((x+maxLogit)*sigmoidSteps+0.5)]
}

func logit(p float32) float32 {
	p = min(max(p, 0.001), 0.999)
	return float32(math.Log(float64(p) / float64(1-p)))
}

var priorL = logit(priorWolf)

// checker: a card that checks a player each night and gives its results by
// day as the seer does. The psychic (通灵师) learns the card, which tells the
// camp too; the bots claim, read and believe his results as the seer's
// (the claims name the card: a board with both has two real checkers).
func checker(r rules.Role) bool { return r == rules.Seer || r == rules.Psychic || r == rules.PureWhite }

// checkerIndex is the group of a checker claimant (at most one of each
// card's claimants is real): 0 the seer, 1 the psychic or the pure white
// (who checks cards as he does; no board holds both).
func checkerIndex(r rules.Role) int {
	if r == rules.Psychic || r == rules.PureWhite {
		return 1
	}
	return 0
}

// uniqueRole: a board holds at most one card of the role.
func uniqueRole(r rules.Role) bool {
	return r != rules.NoRole && r != rules.Werewolf && r != rules.Villager && r != rules.Sister && r != rules.Brother
}

// model returns the bot's private model, rebuilt if an event changed it.
func (b *smartBot) model(v *rules.View) *model {
	if !b.priv.valid || b.modelVer[0] != b.ver {
		b.build(v, &b.priv, true, b.me)
		b.modelVer[0] = b.ver
	}
	return &b.priv
}

// pubModel returns the public model. It reads the ledger alone, and the
// seat only to keep itself out of the wolves it is sure of: the ledger
// keeps one built for no seat (shared by the smart bots of a table), which
// is the seat's own unless the seat is among those wolves.
func (b *smartBot) pubModel(v *rules.View) *model {
	l := b.ledger
	if !l.pubM.valid || l.pubVer != l.ver {
		b.build(v, &l.pubM, false, 0)
		l.pubVer = l.ver
	}
	if l.pubM.wolf&b.me == 0 {
		return &l.pubM
	}
	if !b.pub.valid || b.modelVer[1] != b.ver {
		b.build(v, &b.pub, false, b.me)
		b.modelVer[1] = b.ver
	}
	return &b.pub
}

// privFacts is facts(v, true, b.me): the private model's, when it is up
// to date (it was built from them and nothing it reads has changed since).
func (b *smartBot) privFacts(v *rules.View) (good, wolf uint32) {
	if b.priv.valid && b.modelVer[0] == b.ver {
		return b.priv.good, b.priv.wolf
	}
	return b.facts(v, true, b.me)
}

// facts are what is known for sure: revealed cards, explosions, and with
// priv the seat's own knowledge (its card, its mates, its checks); then the
// liars: a seer claimant who called a known good player a wolf (or a known
// wolf good), a second claimant of a unique role that is known elsewhere.
// The seats of me (the bot's own seat, or none) are left out of the wolves.
func (b *smartBot) facts(v *rules.View, priv bool, me uint32) (good, wolf uint32) {
	n := rules.Seat(b.n)
	holder := b.holder // the known holder of each unique role
	good, wolf = b.pubGood, b.pubWolf|b.exploded
	if priv {
		for s := rules.Seat(1); s <= n; s++ {
			if s == b.seat {
				continue
			}
			if r := v.Known[s]; r != rules.NoRole {
				if r.IsWolf() {
					wolf |= bit(s)
				} else {
					good |= bit(s)
				}
			}
			switch v.Checks[s] {
			case 1:
				good |= bit(s)
			case 2, 3:
				wolf |= bit(s)
			}
		}
		if b.camp(v) == campVillage {
			good |= b.me // (a black lover or the piper may rightly be called a wolf)
		}
		if uniqueRole(b.role) && b.camp(v) == campVillage {
			holder[b.role] = b.seat
		}
	}
	for cm := b.roleClaimed; cm != 0; {
		s := next(&cm)
		if r := b.claimRole[s]; uniqueRole(r) && holder[r] != rules.NoSeat && holder[r] != s {
			wolf |= bit(s) // claims a card another is known to hold
		}
	}
	for range 2 { // a liar's exposure may expose another
		for m := b.seerClaim &^ good &^ wolf; m != 0; {
			c := next(&m)
			if b.accWolf[c]&good != 0 || b.accGood[c]&wolf != 0 {
				wolf |= bit(c)
			}
		}
	}
	return good, wolf &^ good &^ me
}

// build computes a model: facts, then the seer claimants' credibility, then
// each seat's probability from the claims and the deaths, then the social
// evidence (votes, accusations, the badge) weighed by that first estimate.
// It walks seat masks and reads tables: no logarithm, no allocation.
func (b *smartBot) build(v *rules.View, m *model, priv bool, me uint32) {
	n := rules.Seat(b.n)
	good, wolf := b.facts(v, priv, me)
	m.good, m.wolf, m.valid = good, wolf, true
	var hint, poisoned uint32 // private hints
	if priv {
		hint = b.attackedTold | b.spied
		if b.poisoned != rules.NoSeat {
			poisoned = bit(b.poisoned)
		}
	}

	// How many claim each unique role; who claims one alone; the witch.
	var claimants [64]int8
	for cm := b.roleClaimed; cm != 0; {
		if r := b.claimRole[next(&cm)]; uniqueRole(r) {
			claimants[r]++
		}
	}
	var soleGod, contested, witchGood, witchWolf uint32
	for cm := b.roleClaimed; cm != 0; {
		s := next(&cm)
		r := b.claimRole[s]
		switch {
		case !uniqueRole(r):
		case claimants[r] > 1:
			contested |= bit(s)
		case !checker(r) && !has(wolf, s):
			soleGod |= bit(s)
			if r == rules.Witch {
				witchGood, witchWolf = b.accGood[s], b.accWolf[s]
			}
		}
	}

	// The checker claimants: at most one of each card is real.
	var e [maxSeat]float32
	z := [2]float32{noSeerWeight, noSeerWeight}
	live := b.seerClaim &^ wolf
	for cm := live; cm != 0; {
		c := next(&cm)
		x := float32(0)
		if has(good, c) {
			x = 6
		} else {
			if has(b.nightDead, c) {
				x += 2.5 // the wolves went for him
			}
			aw, ag := b.accWolf[c], b.accGood[c]
			x += 1.5*float32(popcount(aw&wolf)) - 4*float32(popcount(aw&hint&^wolf))
			aw &^= wolf | hint
			x -= 2 * float32(popcount(aw&witchGood))
			aw &^= witchGood
			x -= float32(popcount(aw & soleGod)) // he says he is a god: the claimant may lie
			aw &^= soleGod
			x -= 0.3 * float32(popcount(aw&b.nightDead))
			x += 0.5*float32(popcount(ag&hint)) + 0.3*float32(popcount(ag&b.nightDead&^hint))
			ag &^= hint
			x -= 2 * float32(popcount(ag&witchWolf))
			ag &^= witchWolf
			x += 0.3 * float32(popcount(ag&soleGod))
		}
		e[c] = expTable(x)
		z[checkerIndex(b.claimRole[c])] += e[c]
	}
	var l, p1 [maxSeat]float32
	for s := rules.Seat(1); s <= n; s++ {
		l[s] = priorL
	}
	for s := rules.Seat(0); s < maxSeat; s++ {
		m.q[s] = 0
	}
	for cm := live; cm != 0; {
		c := next(&cm)
		q := e[c] / z[checkerIndex(b.claimRole[c])]
		m.q[c] = q
		i := int(q*qSteps + 0.5)
		for t := b.accWolf[c] &^ b.seerClaim; t != 0; {
			l[next(&t)] += dWTab[i]
		}
		for t := b.accGood[c] &^ b.seerClaim; t != 0; {
			l[next(&t)] += dGTab[i]
		}
	}
	for cm := b.seerClaim; cm != 0; {
		c := next(&cm)
		l[c] = claimantTab[int(m.q[c]*qSteps+0.5)]
	}

	// First estimate: claims, deaths, shots.
	addAll(&l, soleGod&^b.seerClaim, godClaimL)
	addAll(&l, contested&^b.seerClaim, contestedL)
	addAll(&l, witchGood, -witchWordL)
	addAll(&l, witchWolf, witchWordL)
	addAll(&l, b.nightDead, nightDeadL)
	addAll(&l, b.taken, takenL)
	addAll(&l, b.hunterShot, hunterShotL)
	addAll(&l, b.kingShot, kingShotL)
	if priv {
		addAll(&l, b.attackedTold, attackedL)
		addAll(&l, b.spied&^b.attackedTold, spiedL)
		addAll(&l, poisoned, myPoisonL)
		addAll(&l, b.bearNear&^b.bearClear, bearNearL)
		addAll(&l, b.bearClear, bearClearL)
	}
	for s := rules.Seat(1); s <= n; s++ {
		p1[s] = sigmoid(l[s])
	}
	setAll(&p1, good, factGoodP)
	setAll(&p1, wolf, factWolfP)

	// Social evidence, weighed by the first estimate.
	for am := b.social; am != 0; {
		a := next(&am)
		x := float32(0)
		for t := b.exileVote[a]; t != 0; {
			x += voteK * (1 - 2*p1[next(&t)])
		}
		for t := b.sheriffVote[a]; t != 0; {
			x += sheriffVoteK * (2*p1[next(&t)] - 1)
		}
		if !has(b.seerClaim, a) {
			trust := accusedK * (1 - 2*p1[a])
			for t := b.accWolf[a]; t != 0; {
				s := next(&t)
				x += accuseK * (1 - 2*p1[s])
				l[s] += trust
			}
			for t := b.accGood[a]; t != 0; {
				s := next(&t)
				x += accuseK * (2*p1[s] - 1)
				l[s] -= trust
			}
		}
		if t := b.badgeTo[a]; t != rules.NoSeat {
			l[t] += badgeK * (2*p1[a] - 1)
		}
		l[a] += x
	}
	for s := rules.Seat(1); s <= n; s++ {
		m.p[s] = sigmoid(l[s])
	}
	setAll(&m.p, good, factGoodP)
	setAll(&m.p, wolf, factWolfP)
}

func addAll(l *[maxSeat]float32, mask uint32, x float32) {
	for mask != 0 {
		l[next(&mask)] += x
	}
}

func setAll(p *[maxSeat]float32, mask uint32, x float32) {
	for mask != 0 {
		p[next(&mask)] = x
	}
}

// Tables of the functions build needs, so that it computes no logarithm:
// exp on [-maxLogit, maxLogit], and for a claimant believed real with
// probability q (in qSteps steps) his own log-odds of being a wolf and what
// his "wolf" and "good" add to a player's.
const qSteps = 256

var (
	expTab      [sigmoidTable]float32
	claimantTab [qSteps + 1]float32
	dWTab       [qSteps + 1]float32
	dGTab       [qSteps + 1]float32
)

func init() {
	for i := range expTab {
		expTab[i] = float32(math.Exp(float64(i)/sigmoidSteps - maxLogit))
	}
	for i := range claimantTab {
		q := float32(i) / qSteps
		claimantTab[i] = logit(0.03 + 0.94*(1-q))
		dWTab[i] = logit(realHitRate*q+fakeWolfRate*(1-q)) - priorL
		dGTab[i] = logit(realLieRate*q+fakeGoodRate*(1-q)) - priorL
	}
}

func expTable(x float32) float32 {
	x = min(max(x, -maxLogit), maxLogit)
	return expTab[int((x+maxLogit)*sigmoidSteps+0.5)]
}

// most is the seat of mask with the highest p; near ties are broken at
// random. least is the lowest.
func (b *smartBot) most(p *[maxSeat]float32, mask uint32) rules.Seat {
	return b.extreme(p, mask, 1)
}

func (b *smartBot) least(p *[maxSeat]float32, mask uint32) rules.Seat {
	return b.extreme(p, mask, -1)
}

const tieEps = 0.005

func (b *smartBot) extreme(p *[maxSeat]float32, mask uint32, sign float32) rules.Seat {
	best := rules.NoSeat
	var bv float32
	ties := 0
	for m := mask; m != 0; {
		s := next(&m)
		x := sign * p[s]
		switch {
		case best == rules.NoSeat || x > bv+tieEps:
			best, bv, ties = s, x, 1
		case x >= bv-tieEps:
			ties++
			if b.r.IntN(ties) == 0 {
				best = s
			}
			bv = max(bv, x)
		}
	}
	return best
}

// mostFixed is most without randomness: the lowest seat wins a tie, so
// that wolves computing it from the public model agree.
func mostFixed(p *[maxSeat]float32, mask uint32) rules.Seat {
	best := rules.NoSeat
	for m := mask; m != 0; {
		s := next(&m)
		if best == rules.NoSeat || p[s] > p[best]+tieEps {
			best = s
		}
	}
	return best
}

func leastFixed(p *[maxSeat]float32, mask uint32) rules.Seat {
	best := rules.NoSeat
	for m := mask; m != 0; {
		s := next(&m)
		if best == rules.NoSeat || p[s] < p[best]-tieEps {
			best = s
		}
	}
	return best
}
