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
	source

	role rules.Role
	// The public record, which every smart bot of a table keeps alike: the
	// bot's own (own), or shared by the table's smart bots (Table.Play).
	*ledger
	own          ledger
	planSteps    int                 // ledger.steps when the plan was made
	modelVer     [2]int              // ledger.ver when priv, pub were built
	boardRoles   uint64              // the board's roles, learned from the claim choices
	blackLovers  uint32              // the lovers' camp, for its members; the newlyweds he knows, for one of them
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
	bearNear     uint32              // bear tamer: neighbours of a day the bear growled
	bearClear    uint32              // bear tamer: neighbours of a day it did not
	bearDay      int                 // bear tamer: the day whose growl he heard

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
	ranDay1     uint32     // who stood for sheriff on day 1 (public): teamHash's salt before any attack

	// the suspicion models, rebuilt when an event changed them
	priv, pub model
}

const maxSeat = rules.MaxSeats + 1

// Reset deals the bot into a new game (Resetter): it forgets everything
// and reseeds its random source.
func (b *smartBot) Reset(seat rules.Seat, players int, seed uint64) {
	*b = smartBot{seat: seat, me: bit(seat), n: players, source: b.source}
	b.ledger = &b.own
	b.reset(seat, seed)
	b.early = b.chance(earlyRate) // a habit of the seat, whatever card it is dealt
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

// Observe (Bot) files an event: the public record's part in the bot's
// ledger, the rest in the bot. A bot that plays alone keeps its own ledger
// and files there every event of a ledger kind it is told, public or not.
func (b *smartBot) Observe(e rules.Event) {
	if ledgerKinds[e.Kind] {
		b.ledger.observe(&e)
	}
	b.observe(&e)
}

// observe files the part of an event that is the bot's own: what its seat
// alone is told, and what the public record does not hold.
//
// It marks the models stale when it changes what they read (build reads
// the role, the witch's and the little girl's hints, the poison's target,
// the lovers' camp and the view's cards, checks and wolves).
func (b *smartBot) observe(e *rules.Event) {
	s, t := e.Seat, e.Target
	switch e.Kind {
	case rules.EvRole, rules.EvSwap:
		if s == b.seat {
			b.role = e.Role
		}
	case rules.EvNight:
		b.picks = [maxSeat]rules.Seat{}
		b.picked, b.pickedBy = false, 0
		return
	case rules.EvStep:
		b.planValid = false
		return
	case rules.EvWitchTold:
		if t == rules.NoSeat || b.attackedTold&bit(t) != 0 {
			return
		}
		b.attackedTold |= bit(t)
	case rules.EvHeal:
		b.healedNight = b.night
		return
	case rules.EvPoison:
		b.poisoned, b.poisonNight = t, b.night
	case rules.EvAttackPick:
		b.picks[s] = t
		b.pickedBy |= bit(s)
		if s == b.seat {
			b.picked = true
		}
		return
	case rules.EvRun:
		// The hands as the table sees them, shown together when the signup
		// closes; a seat's own hand, told him before, is not the team's.
		if b.day <= 1 && e.Public {
			b.ranDay1 |= bit(s)
		}
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
		spied := b.spied | e.Mask
		if t != rules.NoSeat {
			spied |= bit(t)
		}
		if spied == b.spied {
			return
		}
		b.spied = spied
	case rules.EvBlackLovers:
		b.blackLovers = e.Mask
	case rules.EvGroom, rules.EvWitness:
		// One of the newlyweds (鬼魂新娘): they play as the lovers' camp does,
		// for the seats of it the bot was told (the groom knows no witness).
		b.blackLovers |= bit(s) | bit(t) | e.Mask
	case rules.EvWolfTeam, rules.EvCheck, rules.EvLovers, rules.EvLoverRole, rules.EvAlly, rules.EvGrave, rules.EvDuel:
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
	case v.Turned, v.Role == rules.Gargoyle, v.Role == rules.HiddenWolf, v.Role == rules.Possessed, v.Role == rules.MechanicalWolf, v.Role == rules.Masquerade:
		// The wolf camp outside the pack, and a wild child who turned: they
		// play for the wolves with the mates their view holds (the hidden
		// wolf and the wild child know the pack; the others know none).
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
	case campVillage: // the sisters and brothers know each other good (ROLES-MORE-2.md)
		f |= v.Siblings
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
	b.hearBear(v)
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
	case rules.StepNight, rules.StepNightmare, rules.StepMagician, rules.StepCheck, rules.StepEclipse: // stages of their own before the night step, and the checkers' after the witch (night_order=wolves_first)
		return b.actNight(v, ch)
	case rules.StepWarden, rules.StepTrade, rules.StepMerchant, rules.StepLucky: // ROLES-MORE-2.md: the warden's trade, the merchant's gift (smart_trade.go)
		return b.actTrade(v, ch)
	case rules.StepWitch:
		return b.actWitch(v, ch)
	case rules.StepRewind: // 定序王子 (smart_eternal.go)
		return b.actRewind(v, ch)
	case rules.StepMasquerade:
		return b.actMasquerade(v, ch)
	case rules.StepThief:
		return b.actThief(v, ch)
	case rules.StepCupid:
		return b.actCupid(v, ch)
	case rules.StepBride:
		return b.actBride(v, ch)
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
	case rules.StepSkill, rules.StepNightShot:
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
			if c.Target == rules.NoSeat && c.Mask == 0 && c.Role != rules.NoRole && c.Role < 64 && ch.Roles&(1<<c.Role) != 0 {
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
