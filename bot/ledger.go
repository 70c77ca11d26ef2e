package bot

import "github.com/wolfden/wolfden/rules"

// ledger is the public record a smart bot keeps: what every seat is told
// alike (the claims, the ballots, the cards turned up, the deaths
// announced). Each bot keeps its own when it plays alone (the server seats
// it); the smart bots of a Table share one, filed once per event instead of
// once per seat, which keeps a bot's cost per event independent of the
// number of players. Only public events are filed in a shared ledger: it
// holds nothing a seat was told alone.
type ledger struct {
	night, day  int
	pubStep     rules.Step          // the last public step, to file the ballots
	steps       int                 // public steps so far (a speech plan is made anew at each)
	ver         int                 // bumped by each event that may change a suspicion model
	exileRounds int                 // exile votes closed today
	lastDeath   int                 // the last day with a death (at its dawn or by day)
	tied        uint32              // the top of the last vote
	nightDead   uint32              // announced dead at dawn
	exploded    uint32              // self-exploded: wolves
	taken       uint32              // taken by an exploding white wolf king
	hunterShot  uint32              // shot by a revealed hunter
	kingShot    uint32              // shot by a revealed wolf king
	pubRole     [maxSeat]rules.Role // cards turned face up
	pubGood     uint32              // … of the village or another camp
	pubWolf     uint32              // … of the wolves
	holder      [64]rules.Seat      // the seat whose unique card was turned up
	claimRole   [maxSeat]rules.Role // the role each seat claimed last
	seerClaim   uint32              // seats that claimed a checker's card (the seer, the psychic)
	roleClaimed uint32              // seats that claimed a role
	social      uint32              // seats that voted, accused, vouched or passed the badge
	accWolf     [maxSeat]uint32     // whom each seat called a wolf
	accGood     [maxSeat]uint32     // whom each seat called good
	exileVote   [maxSeat]uint32     // whom each seat voted for in exile votes
	sheriffVote [maxSeat]uint32     // whom each seat voted for sheriff
	badgeTo     [maxSeat]rules.Seat // to whom each sheriff passed the badge

	pubM   model // the public model for no seat (smartBot.pubModel)
	pubVer int   // ver when pubM was built
}

// ledgerKinds are the kinds of event the ledger files; bySeat those a bot
// also files itself when they are public (the rest of a public event of a
// ledger kind is the ledger's alone).
var ledgerKinds, bySeat [256]bool

func init() {
	for _, k := range []rules.EventKind{rules.EvNight, rules.EvDay, rules.EvStep, rules.EvDawn, rules.EvDeath,
		rules.EvReveal, rules.EvExplode, rules.EvShoot, rules.EvClaim, rules.EvBallot, rules.EvVoteResult, rules.EvBadge, rules.EvRewind} {
		ledgerKinds[k] = true
	}
	for k := range bySeat {
		bySeat[k] = !ledgerKinds[k]
	}
	bySeat[rules.EvNight] = true // a wolf forgets last night's picks
}

// private reports whether e is a private event of a kind that a shared
// ledger cannot hold (a seat's own copy of a claim, a reveal…): the engine
// sends none, but a table that met one would file it bot by bot.
func private(e *rules.Event) bool {
	if e.Public || !ledgerKinds[e.Kind] {
		return false
	}
	switch e.Kind {
	case rules.EvStep, rules.EvDeath, rules.EvBallot:
		return false // a bot's own part, or nothing (a secret ballot)
	}
	return true
}

// observe files e, an event of a ledger kind. It bumps ver when a field a
// suspicion model reads changed (build is a pure function of them, the
// bot's own fields and its view): a model built before stays right.
func (l *ledger) observe(e *rules.Event) {
	s, t := e.Seat, e.Target
	switch e.Kind {
	case rules.EvNight:
		l.night = int(e.Value)
	case rules.EvDay:
		l.day = int(e.Value)
		l.exileRounds, l.tied = 0, 0
	case rules.EvStep:
		if e.Public {
			l.pubStep = rules.Step(e.Value)
			l.steps++
		}
	case rules.EvDawn:
		l.set(&l.nightDead, l.nightDead|e.Mask)
		if e.Mask != 0 {
			l.lastDeath = l.day
		}
	case rules.EvDeath:
		if e.Public {
			l.lastDeath = l.day
		}
	case rules.EvReveal:
		l.pubRole[s] = e.Role
		if e.Role.IsWolf() {
			l.pubWolf |= bit(s)
		} else {
			l.pubGood |= bit(s)
		}
		if uniqueRole(e.Role) {
			l.holder[e.Role] = s
		}
		l.ver++
	case rules.EvExplode:
		l.set(&l.exploded, l.exploded|bit(s))
		if t != rules.NoSeat {
			l.set(&l.taken, l.taken|bit(t))
		}
	case rules.EvShoot:
		if l.pubRole[s] == rules.WolfKing {
			l.set(&l.kingShot, l.kingShot|bit(t))
		} else {
			l.set(&l.hunterShot, l.hunterShot|bit(t))
		}
	case rules.EvClaim:
		switch e.Value {
		case rules.ClaimRole:
			if l.claimRole[s] != e.Role {
				l.claimRole[s] = e.Role
				l.ver++
			}
			l.set(&l.roleClaimed, l.roleClaimed|bit(s))
			if checker(e.Role) {
				l.set(&l.seerClaim, l.seerClaim|bit(s))
			}
		case rules.ClaimWolf:
			l.set(&l.social, l.social|bit(s))
			l.set(&l.accWolf[s], l.accWolf[s]|bit(t))
			l.set(&l.accGood[s], l.accGood[s]&^bit(t))
		case rules.ClaimGood:
			l.set(&l.social, l.social|bit(s))
			l.set(&l.accGood[s], l.accGood[s]|bit(t))
			l.set(&l.accWolf[s], l.accWolf[s]&^bit(t))
		}
	case rules.EvBallot:
		if !e.Public || t == rules.NoSeat {
			return // my own secret ballot, or an abstention
		}
		l.set(&l.social, l.social|bit(s))
		switch l.pubStep {
		case rules.StepSheriffVote, rules.StepSheriffPKVote, rules.StepElect, rules.StepElectPK:
			l.set(&l.sheriffVote[s], l.sheriffVote[s]|bit(t))
		default:
			l.set(&l.exileVote[s], l.exileVote[s]|bit(t))
		}
	case rules.EvVoteResult:
		switch rules.Step(e.Value) {
		case rules.StepVote, rules.StepPKVote, rules.StepSeqVote, rules.StepMobVote:
			l.exileRounds++
		}
		l.tied = e.Mask
	case rules.EvRewind: // 定序王子: the vote is taken again as the day's first
		l.exileRounds = 0
	case rules.EvBadge:
		if t != rules.NoSeat {
			if l.badgeTo[s] != t {
				l.badgeTo[s] = t
				l.ver++
			}
			l.set(&l.social, l.social|bit(s))
		}
	}
}

// set stores x in *m, bumping ver if it changes.
func (l *ledger) set(m *uint32, x uint32) {
	if *m != x {
		*m = x
		l.ver++
	}
}
