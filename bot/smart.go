package bot

import (
	"math/bits"
	"math/rand/v2"

	"github.com/wolfden/wolfden/rules"
)

// smartBot plays its role the way a decent human does (docs/bots.md). It
// decides only from what its seat is told: the events of its own stream
// (Observe) and its View, so it cannot cheat. Everything it remembers lives
// in fixed-size arrays: observing an event or deciding allocates nothing.
//
// It never reads an event's Seq (its number in the whole log would count
// the hidden events) or To (the other receivers of a private event).
type smartBot struct {
	seat rules.Seat
	me   uint32 // the seat's bit
	n    int
	r    *rand.Rand

	role         rules.Role
	night, day   int
	pubStep      rules.Step          // the last public step, to file the ballots
	exileRounds  int                 // exile votes closed today
	lastDeath    int                 // the last day with a death (at its dawn or by day)
	tied         uint32              // the top of the last vote
	boardRoles   uint32              // the board's roles, learned from the claim choices
	blackLovers  uint32              // the lovers' camp, for its members
	nightDead    uint32              // announced dead at dawn
	exploded     uint32              // self-exploded: wolves
	taken        uint32              // taken by an exploding white wolf king
	hunterShot   uint32              // shot by a revealed hunter
	kingShot     uint32              // shot by a revealed wolf king
	pubRole      [maxSeat]rules.Role // cards turned face up
	pubGood      uint32              // … of the village or another camp
	pubWolf      uint32              // … of the wolves
	holder       [32]rules.Seat      // the seat whose unique card was turned up
	claimRole    [maxSeat]rules.Role // the role each seat claimed last
	seerClaim    uint32              // seats that claimed the seer
	roleClaimed  uint32              // seats that claimed a role
	social       uint32              // seats that voted, accused, vouched or passed the badge
	accWolf      [maxSeat]uint32     // whom each seat called a wolf
	accGood      [maxSeat]uint32     // whom each seat called good
	exileVote    [maxSeat]uint32     // whom each seat voted for in exile votes
	sheriffVote  [maxSeat]uint32     // whom each seat voted for sheriff
	badgeTo      [maxSeat]rules.Seat // to whom each sheriff passed the badge
	attackedTold uint32              // witch: the attack targets she was told
	spied        uint32              // little girl: the wolves' picks she read
	poisoned     rules.Seat          // witch: her poison's target
	healedNight  int                 // witch: the night she healed
	poisonNight  int                 // witch: the night she poisoned
	picks        [maxSeat]rules.Seat // wolves: tonight's picks of the killers
	picked       bool                // wolves: I picked tonight
	pickedBy     uint32              // wolves: the killers who picked tonight
	people       uint32              // the seats played by people (TeamPlayer), 0 in a table of bots
	ourAttacks   uint32              // wolves: players we attacked

	// speech
	plan        [rules.MaxClaims]rules.Command
	planN       int
	planI       int
	planValid   bool
	planExplode bool
	announced   uint32     // seer: results announced
	claimedSeer bool       // seer (or fake seer): claimed in public
	fakeDecided bool       // wolves: decided whether to fake-claim a card
	fakeRole    rules.Role // wolves: the card this one fakes, if any
	early       bool       // claims his card (or his fake card) at his first day speech
	firstAttack rules.Seat // wolves: the first night's attack, a secret the team shares

	// the suspicion models, rebuilt when an event changed them
	priv, pub model
}

const maxSeat = rules.MaxSeats + 1

func newSmart(seat rules.Seat, players int, r *rand.Rand) *smartBot {
	b := &smartBot{seat: seat, me: bit(seat), n: players, r: r}
	b.early = b.chance(earlyRate) // a habit of the seat, whatever card it is dealt
	return b
}

func bit(s rules.Seat) uint32 { return 1 << uint(s) }

func has(m uint32, s rules.Seat) bool { return s > 0 && m&bit(s) != 0 }

// next pops the lowest seat of *m.
func next(m *uint32) rules.Seat {
	s := rules.Seat(bits.TrailingZeros32(*m))
	*m &= *m - 1
	return s
}

func lowest(m uint32) rules.Seat {
	if m == 0 {
		return rules.NoSeat
	}
	return rules.Seat(bits.TrailingZeros32(m))
}

func (b *smartBot) Observe(e rules.Event) {
	s, t := e.Seat, e.Target
	switch e.Kind {
	case rules.EvRole, rules.EvSwap:
		if s == b.seat {
			b.role = e.Role
		}
	case rules.EvNight:
		b.night = int(e.Value)
		b.picks = [maxSeat]rules.Seat{}
		b.picked, b.pickedBy = false, 0
	case rules.EvDay:
		b.day = int(e.Value)
		b.exileRounds, b.tied = 0, 0
	case rules.EvStep:
		b.planValid = false
		if e.Public {
			b.pubStep = rules.Step(e.Value)
		}
		return
	case rules.EvDawn:
		b.nightDead |= e.Mask
		if e.Mask != 0 {
			b.lastDeath = b.day
		}
	case rules.EvDeath:
		if e.Public {
			b.lastDeath = b.day
		}
	case rules.EvReveal:
		b.pubRole[s] = e.Role
		if e.Role.IsWolf() {
			b.pubWolf |= bit(s)
		} else {
			b.pubGood |= bit(s)
		}
		if uniqueRole(e.Role) {
			b.holder[e.Role] = s
		}
	case rules.EvExplode:
		b.exploded |= bit(s)
		if t != rules.NoSeat {
			b.taken |= bit(t)
		}
	case rules.EvShoot:
		if b.pubRole[s] == rules.WolfKing {
			b.kingShot |= bit(t)
		} else {
			b.hunterShot |= bit(t)
		}
	case rules.EvClaim:
		switch e.Value {
		case rules.ClaimRole:
			b.claimRole[s] = e.Role
			b.roleClaimed |= bit(s)
			if e.Role == rules.Seer {
				b.seerClaim |= bit(s)
			}
		case rules.ClaimWolf:
			b.social |= bit(s)
			b.accWolf[s] |= bit(t)
			b.accGood[s] &^= bit(t)
		case rules.ClaimGood:
			b.social |= bit(s)
			b.accGood[s] |= bit(t)
			b.accWolf[s] &^= bit(t)
		}
	case rules.EvBallot:
		if !e.Public || t == rules.NoSeat {
			return // my own secret ballot, or an abstention
		}
		b.social |= bit(s)
		switch b.pubStep {
		case rules.StepSheriffVote, rules.StepSheriffPKVote, rules.StepElect, rules.StepElectPK:
			b.sheriffVote[s] |= bit(t)
		default:
			b.exileVote[s] |= bit(t)
		}
	case rules.EvVoteResult:
		switch rules.Step(e.Value) {
		case rules.StepVote, rules.StepPKVote, rules.StepSeqVote, rules.StepMobVote:
			b.exileRounds++
		}
		b.tied = e.Mask
		return
	case rules.EvBadge:
		if t != rules.NoSeat {
			b.badgeTo[s] = t
			b.social |= bit(s)
		}
	case rules.EvWitchTold:
		if t != rules.NoSeat {
			b.attackedTold |= bit(t)
		}
	case rules.EvHeal:
		b.healedNight = b.night
	case rules.EvPoison:
		b.poisoned, b.poisonNight = t, b.night
	case rules.EvAttackPick:
		b.picks[s] = t
		b.pickedBy |= bit(s)
		if s == b.seat {
			b.picked = true
		}
		return
	case rules.EvAttack:
		if t != rules.NoSeat {
			b.ourAttacks |= bit(t)
		}
		if b.night <= 1 && b.firstAttack == rules.NoSeat {
			b.firstAttack = t
		}
		return
	case rules.EvSpy:
		// The seats the wolves named tonight; an older version's log has
		// one event a pick, in Target.
		b.spied |= e.Mask
		if t != rules.NoSeat {
			b.spied |= bit(t)
		}
	case rules.EvBlackLovers:
		b.blackLovers = e.Mask
	case rules.EvWolfTeam, rules.EvCheck, rules.EvLovers, rules.EvLoverRole, rules.EvAlly:
		// in the View
	default:
		return
	}
	b.priv.valid, b.pub.valid = false, false
}

// The camps a bot plays for.
const (
	campVillage = iota
	campWolf
	campLovers
	campPiper
)

func (b *smartBot) camp(v *rules.View) int {
	switch {
	case b.blackLovers&b.me != 0:
		return campLovers
	case v.Ally || (v.Role.IsWolf() && v.Wolves&b.me != 0):
		return campWolf
	case v.Role == rules.Piper:
		return campPiper
	}
	return campVillage
}

// mates are the other members of my wolf team.
func (b *smartBot) mates(v *rules.View) uint32 {
	if b.camp(v) != campWolf {
		return 0
	}
	return v.Wolves &^ b.me
}

// friends are the seats the bot never harms: itself, its lover, its camp.
func (b *smartBot) friends(v *rules.View) uint32 {
	f := b.me
	if v.Lovers&b.me != 0 {
		f |= v.Lovers
	}
	switch b.camp(v) {
	case campWolf:
		f |= v.Wolves
	case campLovers:
		f |= b.blackLovers
	}
	return f
}

// People is told which seats are played by people (TeamPlayer).
func (b *smartBot) People(seats uint32) { b.people = seats }

func (b *smartBot) Act(v *rules.View, choices []rules.Choice) rules.Command {
	if len(choices) == 0 {
		return rules.Command{Kind: rules.CmdSkip}
	}
	c := b.decide(v, choices)
	if legal(c, choices) {
		return c
	}
	return fallback(b.r, choices)
}

func (b *smartBot) decide(v *rules.View, ch []rules.Choice) rules.Command {
	if v.Night && !v.Pending && find(ch, rules.CmdAttack) != nil {
		return b.actNight(v, ch) // a wolf asked again: the people of his team changed their pick
	}
	switch v.Step {
	case rules.StepNight:
		return b.actNight(v, ch)
	case rules.StepWitch:
		return b.actWitch(v, ch)
	case rules.StepThief:
		return b.actThief(v, ch)
	case rules.StepCupid:
		return b.actCupid(v, ch)
	case rules.StepElect, rules.StepElectPK:
		return b.actElect(v, ch)
	case rules.StepSignup:
		return b.actSignup(v, ch)
	case rules.StepWithdraw:
		return b.actWithdraw(v, ch)
	case rules.StepSheriffVote, rules.StepSheriffPKVote:
		return b.actSheriffVote(v, ch)
	case rules.StepCampaign, rules.StepSheriffPK, rules.StepSpeech, rules.StepPK, rules.StepDiscussion, rules.StepLastWords:
		return b.actSpeech(v, ch)
	case rules.StepOrder:
		return b.actOrder(v, ch)
	case rules.StepVote, rules.StepPKVote:
		return b.actVote(v, ch)
	case rules.StepSeqVote:
		return b.actSeqVote(v, ch)
	case rules.StepMobVote:
		return b.actMobVote(v, ch)
	case rules.StepSkill:
		return b.actSkill(v, ch)
	case rules.StepBadge:
		return b.actBadge(v, ch)
	case rules.StepVoters:
		return b.actVoters(v, ch)
	case rules.StepAlly:
		return b.actAlly(v, ch)
	}
	return skip
}

var skip = rules.Command{Kind: rules.CmdSkip}

// find is the first choice of a kind (and value, for claims), or nil.
func find(ch []rules.Choice, k rules.CmdKind) *rules.Choice {
	for i := range ch {
		if ch[i].Kind == k {
			return &ch[i]
		}
	}
	return nil
}

func findClaim(ch []rules.Choice, kind int8) *rules.Choice {
	for i := range ch {
		if ch[i].Kind == rules.CmdClaim && ch[i].Value == kind {
			return &ch[i]
		}
	}
	return nil
}

// targets of a choice kind, 0 if absent.
func targets(ch []rules.Choice, k rules.CmdKind) uint32 {
	if c := find(ch, k); c != nil {
		return c.Targets
	}
	return 0
}

// legal reports whether c is one of the choices.
func legal(c rules.Command, choices []rules.Choice) bool {
	for i := range choices {
		ch := &choices[i]
		if ch.Kind != c.Kind || ch.Value != c.Value {
			continue
		}
		switch {
		case ch.Pick == rules.AnySubset:
			if c.Target == rules.NoSeat && c.Role == rules.NoRole && c.Mask&^ch.Targets == 0 {
				return true
			}
		case ch.Pick > 0:
			if c.Target == rules.NoSeat && c.Role == rules.NoRole && c.Mask&^ch.Targets == 0 &&
				bits.OnesCount32(c.Mask) == int(ch.Pick) {
				return true
			}
		case ch.Roles != 0:
			if c.Target == rules.NoSeat && c.Mask == 0 && c.Role != rules.NoRole && c.Role < 32 && ch.Roles&(1<<c.Role) != 0 {
				return true
			}
		default:
			if c.Mask != 0 || c.Role != rules.NoRole {
				continue
			}
			if (c.Target == rules.NoSeat && ch.NoTarget) || has(ch.Targets, c.Target) {
				return true
			}
		}
	}
	return false
}

// fallback is a legal command when the strategy has none: skip if it is
// allowed, else a random command of the first choice that is not a claim.
func fallback(r *rand.Rand, choices []rules.Choice) rules.Command {
	if legal(skip, choices) {
		return skip
	}
	for i := range choices {
		if choices[i].Kind != rules.CmdClaim {
			return RandomCommand(r, choices[i])
		}
	}
	return RandomCommand(r, choices[0])
}

// cmd builds a one-target command.
func cmd(k rules.CmdKind, t rules.Seat) rules.Command { return rules.Command{Kind: k, Target: t} }
