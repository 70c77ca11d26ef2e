package rules

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// EventKind says what happened.
type EventKind uint8

// The events. The order is part of the stored format: append only.
const (
	EvNone         EventKind = iota
	EvGameStart              // Value: players
	EvRole                   // Seat is dealt Role (told to Seat)
	EvWolfTeam               // Mask: the wolves (told to the wolves)
	EvNight                  // Value: night number; 0: the setup night before day 1 (first_phase=day with a thief or cupid on the board)
	EvDay                    // Value: day number
	EvStep                   // Value: Step; Seat: whose turn; Mask: who may act or stand
	EvProtect                // the guard Seat protects Target
	EvCheck                  // the seer Seat checks Target: Role (seer_sees=role) or Value (Result*)
	EvAttackPick             // the wolf Seat picks Target (NoSeat: nobody) — the wolves' channel
	EvAttack                 // the wolves' attack goes to Target (moderator); Draws=1 if a tie was drawn
	EvCharm                  // the wolf beauty Seat charms Target
	EvWitchTold              // the witch Seat is told the attack target Target (NoSeat: none)
	EvHeal                   // the witch Seat heals Target
	EvPoison                 // the witch Seat poisons Target
	EvSkip                   // Seat declines the current step's action
	EvDeath                  // Seat dies, cause Value (public when the death is seen at once)
	EvDawn                   // Mask: the night's dead, announced (天亮了)
	EvTails                  // the fox Seat has Value tails (told at her wake, before the night's deaths; a loss is the moderator's until then)
	EvRun                    // Seat stands for sheriff (上警): told him alone, then to all when the signup closes (Value 1: that copy, as a secret vote's ballots)
	EvWithdraw               // Seat withdraws (退水)
	EvBallot                 // Seat votes for Target (NoSeat: abstains); private until the vote closes
	EvVoteResult             // Value: Step of the vote; Mask: the top seats; Target: the one chosen (NoSeat: none); Draws=1 if drawn
	EvSheriff                // Seat becomes sheriff; NoSeat: the badge is lost (警徽流失)
	EvBadge                  // the sheriff Seat passes the badge to Target; NoSeat: tears it (撕警徽)
	EvOrder                  // the sheriff Seat has the speeches go Value (0 clockwise, 1 counter-clockwise)
	EvExile                  // Seat is exiled (放逐); NoSeat: nobody
	EvReveal                 // Seat's card Role is turned face up
	EvExplode                // the wolf Seat self-explodes (自爆); Target: the white wolf king's victim
	EvShoot                  // Seat shoots Target
	EvNoShot                 // Seat is told he may not shoot (poisoned, heartbreak)
	EvTask                   // moderator's bookkeeping: Seat gets task Value (Target 1: first)
	EvResume                 // moderator's bookkeeping: the day resumes at step Value (Target: flags)
	EvGameOver               // Value: the winning camp
	EvExtraCards             // the thief Seat sees the extra cards: Role and Value (a Role)
	EvSwap                   // the thief Seat takes extra card Value (1 or 2) and becomes Role
	EvLovers                 // Mask: the lovers (told to them and cupid)
	EvLoverRole              // a lover is told that his lover Seat holds Role (lovers_see_roles)
	EvBlackLovers            // Mask: the lovers' camp, formed by a cross-camp couple (黑情侣)
	EvSpy                    // Mask: the seats the wolves named tonight, the wolves hidden (to the little girl, once, as their turn ends; older logs: one a pick, in Target)
	EvEnchant                // the piper Seat charms Mask
	EvCharmed                // Mask: every living charmed player at their wake, before the night's deaths (told to them and the piper)
	EvElderLife              // the elder Seat loses a life and lives on (moderator)
	EvPowersLost             // the village killed the elder: every village role loses its power
	EvVoters                 // the scapegoat Seat allows Mask to vote on day Value
	EvEventCard              // event card Value is drawn (New Moon)
	EvAlly                   // the first dead Seat makes Target the wolves' ally
	EvAttackResult           // the wolves learn whether their target Target died (Value 1)
	EvFeedback               // Seat learns whether his poison or shot on Target killed (Value 1)
	EvRedCard                // the moderator removes Seat for breaking the rules (a night's dead not yet announced stays in the dawn list)
	EvCampLost               // camp Value has lost (优先判负)
	EvKillPower              // Mask now holds the night kill (the black lovers' widow knife)
	EvClaim                  // the speaker Seat claims: Value ClaimRole (Role) or ClaimWolf / ClaimGood about Target
	EvDuel                   // the knight Seat duels Target (骑士决斗): Value ResultWolf (the target dies) or ResultGood (the knight dies)
	EvGrave                  // the gravekeeper Seat learns how yesterday's exiled Target reads (Value Result*); NoSeat: no exile (Value GraveNoDayYet: night 1, no day yet)
	EvCurse                  // the crow Seat curses Target: one more vote against him at the next day's first exile vote
	EvCursedVote             // the vote being closed counts the crow's curse against Target (the crow not named)
	EvDream                  // the dreamcatcher Seat dreams Target (摄梦人; told to him alone, the dreamer is not)
	EvMagic                  // the magician Seat swaps the two seats of Mask for the night (魔术师; told to him alone)
	EvHunt                   // the witch hunter Seat hunts Target (猎魔人)
	EvFear                   // the nightmare Seat fears Target tonight (噩梦之影)
	EvFeared                 // Seat is told he is feared tonight: no night power (噩梦之影)
	EvNoAttack               // the wolves are told they will not attack tonight (the nightmare feared one of the wolf camp)
	EvReflect                // moderator: the spirit knight Seat's reflection falls on Target (Value 1: in the next night's resolution)
	EvModel                  // the wild child Seat takes Target as his model (野孩子, night 1)
	EvWildWolf               // the wild child Seat becomes a werewolf: his model Target is dead
	EvBloodMoon              // the blood moon apostle Seat self-exploded: night Value has no village power (moderator)
	EvSilence                // the silence elder Seat silences Target for the next day (禁言长老; told to him alone)
	EvVoteBan                // the vote-ban elder Seat bans Target from the next day's exile vote (禁票长老; told to him alone)
	EvSilenced               // public, with the dawn (before the campaign on its day): Seat has no speech today
	EvVoteBanned             // public, with the dawn: Seat may not vote at today's exile vote
	EvGrowl                  // public, at dawn (before the campaign on its day): the bear growls (Value 1) or not (0) (驯熊师); Mask: the players alive to the table then
	EvSiblings               // the sisters or brothers (Role) of Mask meet tonight, night Value: told to those woken (姐妹, 三兄弟)
	EvAngelWins              // moderator: the angel Seat died as he wished (exiled on day 1, attacked on night 1): he wins alone (天使)
	EvMirror                 // moderator: Seat, told he is the seer (EvRole), holds the mirror seer's card (灯影预言家)
	EvBlood                  // the mixed blood Seat takes Target as his model (混血儿, night 1; told to him alone, not the model's camp)
	EvImitate                // the mechanical wolf Seat imitates Target, whose card is Role (机械狼; told to him alone)
	EvDoubleAttack           // the mechanical wolf Seat attacks Target too tonight, his once-per-game second attack (机械狼; told to him alone)
	EvShelter                // the eclipse wolf queen Seat shelters Target tonight (蚀时狼妃; told to her alone)
	EvRewind                 // public: the sequence prince Seat reveals and voids the exile vote just published (定序王子)
	EvDance                  // the dancer Seat makes the three seats of Mask dance tonight (舞者; told to him alone)
	EvAsk                    // the masquerade Seat is told whether Target is in tonight's dance (Value 1) (假面; told to him alone)
	EvMask                   // the masquerade Seat masks Target: his dance camp is flipped tonight (假面; told to him alone)
	EvGroom                  // the ghost bride Seat weds Target (鬼魂新娘, night 1): told to both, each learning the other's seat
	EvWitness                // the ghost bride Seat names Target the witness of Mask (the bride and groom): told to her and the witness
	EvWed                    // the bride and groom (Mask) wake together on night Value and confer: told to those woken
	EvPair                   // the warden Seat names the two seats of Mask to trade tonight (典狱长; told to him alone)
	EvTraders                // the two seats of Mask are woken to trade: each learns the other's seat (told to them alone)
	EvTradeChoice            // the trader Seat chooses trade (Value 0) or betray (1) (told to him alone)
	EvTradeResult            // the traders Seat and Target chose: Value bit 0 Seat betrayed, bit 1 Target betrayed (told to them alone)
	EvGift                   // the miracle merchant Seat gives Target the gift Value (Gift*; 奇迹商人; told to him alone)
	EvLucky                  // Seat is told he is the lucky one (幸运儿) holding gift Value (told to him alone)
	EvGiftUse                // the lucky one Seat uses his gift Value on Target (a check's reading is the EvCheck just before) (told to him alone)
	numEventKinds
)

var eventNames = [numEventKinds]string{
	"none", "game_start", "role", "wolf_team", "night", "day", "step", "protect", "check",
	"attack_pick", "attack", "charm", "witch_told", "heal", "poison", "skip", "death", "dawn",
	"tails", "run", "withdraw", "ballot", "vote_result", "sheriff", "badge", "order", "exile",
	"reveal", "explode", "shoot", "no_shot", "task", "resume", "game_over",
	"extra_cards", "swap", "lovers", "lover_role", "black_lovers", "spy", "enchant", "charmed",
	"elder_life", "powers_lost", "voters", "event_card", "ally", "attack_result", "feedback",
	"red_card", "camp_lost", "kill_power", "claim",
	"duel", "grave", "curse", "cursed_vote",
	"dream", "magic", "hunt", "fear", "feared", "no_attack", "reflect",
	"model", "wild_wolf", "blood_moon",
	"silence", "vote_ban", "silenced", "vote_banned", "growl",
	"siblings", "angel_wins", "mirror", "blood",
	"imitate", "double_attack",
	"shelter", "rewind", "dance", "ask", "mask", "groom", "witness", "wed",
	"pair", "traders", "trade_choice", "trade_result", "gift", "lucky", "gift_use",
}

func (k EventKind) String() string {
	if k < numEventKinds {
		return eventNames[k]
	}
	return "event(" + strconv.Itoa(int(k)) + ")"
}

// Results of a check under seer_sees = wolf_or_not / village_or_not.
const (
	ResultGood       = 0 // 好人 / 村民阵营
	ResultWolf       = 1 // 狼人
	ResultNotVillage = 2 // 非村民阵营
)

// Cause of a death.
type Cause uint8

// Causes of death.
const (
	CauseNone      Cause = iota
	CauseAttack          // the wolves' attack
	CausePoison          // the witch's poison
	CauseExile           // the day vote
	CauseShot            // a hunter's or wolf king's shot
	CauseExplode         // self-explosion
	CauseTaken           // taken by an exploding white wolf king
	CauseCharm           // died with the wolf beauty (殉情)
	CauseTails           // the fox lost her last tail
	CauseLove            // died with his lover (殉情)
	CauseScapegoat       // the scapegoat, on a tied vote
	CauseRedCard         // removed by the moderator
	CauseElder           // a revealed idiot, when the village kills the elder
	CauseDuel            // the knight's duel: the wolf he named, or the knight himself (以死谢罪)
	CauseHunt            // the witch hunter's hunt: the wolf he hunted, or himself
	CauseDream           // the dream: dreamed two nights in a row, or with the dreamcatcher who died in the night
	CauseReflect         // the spirit knight's reflection (恶灵骑士)
	CausePurify          // checked by the pure white (a wolf) or the wolf witch (the pure white), from night 2
	CauseChecked         // the cursed fox, checked by the seer (咒狐)
	CauseDance           // the one of the dance whose camp differs from the other two (舞者)
	CauseTrade           // the warden's trade: traded while the other betrayed, or lost the warden's duel (典狱长)
	CauseMerchant        // the miracle merchant who gave his gift to the wolf camp (奇迹商人)
	numCauses
)

var causeNames = [numCauses]string{"none", "attack", "poison", "exile", "shot", "explode", "taken", "charm", "tails",
	"love", "scapegoat", "red_card", "elder", "duel", "hunt", "dream", "reflect", "purify", "checked", "dance",
	"trade", "merchant"}

func (c Cause) String() string {
	if c < numCauses {
		return causeNames[c]
	}
	return "cause(" + strconv.Itoa(int(c)) + ")"
}

// Event is the engine's only output. Each is numbered in the game's log and
// addressed: to everyone (Public), or to the seats of the To mask. An event
// with neither is the moderator's alone. Players receive their own stream
// (Game.Stream), numbered for them.
type Event struct {
	Seq    int32
	Kind   EventKind
	Public bool
	Draws  uint8 // random draws the event's resolution consumed
	Seat   Seat
	Target Seat
	Role   Role
	Value  int16
	To     uint32 // seats that receive the event when it is not public
	Mask   uint32 // a set of seats, meaning given by Kind
}

// Visible reports whether seat may read the event's body.
func (e *Event) Visible(seat Seat) bool {
	return e.Public || (seat > 0 && e.To&seat.bit() != 0)
}

// Seats lists the seats of a mask in order.
func Seats(mask uint32) []Seat {
	n := bits.OnesCount32(mask & (1<<(MaxSeats+1) - 2)) // the bits of seats 1 to MaxSeats
	if n == 0 {
		return nil
	}
	// Sized once: a state frame lists its seats so for every connection.
	out := make([]Seat, 0, n)
	for s := Seat(1); s <= MaxSeats; s++ {
		if mask&s.bit() != 0 {
			out = append(out, s)
		}
	}
	return out
}

// Mask builds a seat set.
func Mask(seats ...Seat) uint32 {
	var m uint32
	for _, s := range seats {
		m |= s.bit()
	}
	return m
}

func seatList(mask uint32) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range Seats(mask) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(int(s)))
	}
	b.WriteByte(']')
	return b.String()
}

// String is the event's short text form, used by scripts' expectations:
// the kind followed by its meaningful fields.
func (e Event) String() string {
	k := e.Kind.String()
	s, t := int(e.Seat), int(e.Target)
	switch e.Kind {
	case EvGameStart:
		return fmt.Sprintf("%s players=%d", k, e.Value)
	case EvRole, EvReveal:
		return fmt.Sprintf("%s %d %s", k, s, e.Role)
	case EvWolfTeam, EvDawn:
		return fmt.Sprintf("%s %s", k, seatList(e.Mask))
	case EvNight, EvDay:
		return fmt.Sprintf("%s %d", k, e.Value)
	case EvStep:
		st := Step(e.Value).String()
		if e.Seat != NoSeat {
			return fmt.Sprintf("%s %s %d", k, st, s)
		}
		return fmt.Sprintf("%s %s %s", k, st, seatList(e.Mask))
	case EvCheck, EvImitate:
		if e.Role != NoRole {
			return fmt.Sprintf("%s %d %d %s", k, s, t, e.Role)
		}
		return fmt.Sprintf("%s %d %d %s", k, s, t, resultName(e.Value))
	case EvDeath:
		return fmt.Sprintf("%s %d %s", k, s, Cause(e.Value))
	case EvTails:
		return fmt.Sprintf("%s %d %d", k, s, e.Value)
	case EvRun, EvWithdraw, EvSkip, EvNoShot, EvSheriff:
		return fmt.Sprintf("%s %d", k, s)
	case EvVoteResult:
		return fmt.Sprintf("%s %s top=%s chosen=%d", k, Step(e.Value), seatList(e.Mask), t)
	case EvOrder:
		if e.Value == 1 {
			return fmt.Sprintf("%s %d ccw", k, s)
		}
		return fmt.Sprintf("%s %d cw", k, s)
	case EvExile:
		return fmt.Sprintf("%s %d", k, s)
	case EvTask:
		return fmt.Sprintf("%s %d %s", k, s, task(e.Value))
	case EvResume:
		return fmt.Sprintf("%s %s", k, Step(e.Value))
	case EvGameOver:
		return fmt.Sprintf("%s %s", k, Camp(e.Value))
	case EvExtraCards:
		return fmt.Sprintf("%s %d %s %s", k, s, e.Role, Role(e.Value))
	case EvSwap:
		return fmt.Sprintf("%s %d %d %s", k, s, e.Value, e.Role)
	case EvLovers, EvBlackLovers, EvCharmed, EvKillPower:
		return fmt.Sprintf("%s %s", k, seatList(e.Mask))
	case EvLoverRole:
		return fmt.Sprintf("%s %d %s", k, s, e.Role)
	case EvEnchant, EvVoters:
		return fmt.Sprintf("%s %d %s", k, s, seatList(e.Mask))
	case EvElderLife, EvRedCard:
		return fmt.Sprintf("%s %d", k, s)
	case EvPowersLost:
		return k
	case EvEventCard:
		return fmt.Sprintf("%s %s", k, cardName(e.Value))
	case EvSpy:
		if e.Mask == 0 && e.Target != NoSeat { // a pick, as older versions told them
			return fmt.Sprintf("%s %d", k, t)
		}
		return fmt.Sprintf("%s %s", k, seatList(e.Mask))
	case EvAttackResult:
		if e.Value == 1 {
			return fmt.Sprintf("%s %d died", k, t)
		}
		return fmt.Sprintf("%s %d survived", k, t)
	case EvFeedback:
		if e.Value == 1 {
			return fmt.Sprintf("%s %d %d killed", k, s, t)
		}
		return fmt.Sprintf("%s %d %d missed", k, s, t)
	case EvCampLost:
		return fmt.Sprintf("%s %s", k, Camp(e.Value))
	case EvClaim:
		switch e.Value {
		case ClaimRole:
			return fmt.Sprintf("%s %d %s", k, s, e.Role)
		case ClaimWolf:
			return fmt.Sprintf("%s %d wolf %d", k, s, t)
		}
		return fmt.Sprintf("%s %d good %d", k, s, t)
	case EvDuel:
		return fmt.Sprintf("%s %d %d %s", k, s, t, resultName(e.Value))
	case EvGrave:
		if e.Target == NoSeat && e.Value == GraveNoDayYet {
			return fmt.Sprintf("%s %d none_yet", k, s)
		}
		if e.Target == NoSeat {
			return fmt.Sprintf("%s %d none", k, s)
		}
		return fmt.Sprintf("%s %d %d %s", k, s, t, resultName(e.Value))
	case EvFeared, EvSilenced, EvVoteBanned:
		return fmt.Sprintf("%s %d", k, s)
	case EvNoAttack:
		return k
	case EvMagic, EvDance:
		return fmt.Sprintf("%s %d %s", k, s, seatList(e.Mask))
	case EvAsk:
		if e.Value == 1 {
			return fmt.Sprintf("%s %d %d dances", k, s, t)
		}
		return fmt.Sprintf("%s %d %d not_dancing", k, s, t)
	case EvReflect:
		if e.Value == 1 {
			return fmt.Sprintf("%s %d %d next_night", k, s, t)
		}
		return fmt.Sprintf("%s %d %d", k, s, t)
	case EvCursedVote:
		return fmt.Sprintf("%s %d", k, t)
	case EvGrowl:
		if e.Value == 1 {
			return k + " yes"
		}
		return k + " no"
	case EvSiblings:
		return fmt.Sprintf("%s %d %s %s", k, e.Value, e.Role, seatList(e.Mask))
	case EvWitness:
		return fmt.Sprintf("%s %d %d of %s", k, s, t, seatList(e.Mask))
	case EvWed:
		return fmt.Sprintf("%s %d %s", k, e.Value, seatList(e.Mask))
	case EvPair:
		return fmt.Sprintf("%s %d %s", k, s, seatList(e.Mask))
	case EvTraders:
		return fmt.Sprintf("%s %s", k, seatList(e.Mask))
	case EvTradeChoice:
		return fmt.Sprintf("%s %d %s", k, s, tradeName(e.Value&1))
	case EvTradeResult:
		return fmt.Sprintf("%s %d %s %d %s", k, s, tradeName(e.Value&1), t, tradeName(e.Value>>1&1))
	case EvGift, EvGiftUse:
		return fmt.Sprintf("%s %d %d %s", k, s, t, GiftName(e.Value))
	case EvLucky:
		return fmt.Sprintf("%s %d %s", k, s, GiftName(e.Value))
	}
	return fmt.Sprintf("%s %d %d", k, s, t)
}

func resultName(v int16) string {
	switch v {
	case ResultWolf:
		return "wolf"
	case ResultNotVillage:
		return "not_village"
	}
	return "good"
}

func tradeName(v int16) string {
	if v == 1 {
		return "betray"
	}
	return "trade"
}

// GiftName names a miracle merchant's gift (EvGift's Value).
func GiftName(v int16) string {
	switch v {
	case GiftCheck:
		return "check"
	case GiftPoison:
		return "poison"
	case GiftShield:
		return "shield"
	}
	return "none"
}
