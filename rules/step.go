package rules

import "fmt"

// Step is a moment of the game where the moderator waits for someone.
type Step uint8

// The steps. A "turn" step waits for one seat (Seat of its EvStep); the
// others wait for every seat of their mask at once.
const (
	StepNone          Step = iota
	StepElect              // before_first_night: everyone votes for a sheriff
	StepElectPK            // the tied are voted on again
	StepNight              // guard, seer, wolves and wolf beauty act together
	StepWitch              // the witch, told the attack target, heals or poisons
	StepSignup             // 上警: who stands for sheriff
	StepCampaign           // a candidate's speech (turn)
	StepWithdraw           // 退水: candidates may withdraw
	StepSheriffVote        // the others vote for a candidate
	StepSheriffPK          // a tied candidate's PK speech (turn)
	StepSheriffPKVote      // the second sheriff vote among the tied
	StepDawn               // the night's deaths are announced (instant)
	StepOrder              // the sheriff picks the direction of the speeches (turn)
	StepSpeech             // a day speech (turn)
	StepDiscussion         // free chat: ends when everyone is ready
	StepVote               // the exile vote
	StepPK                 // a tied player's PK speech (turn)
	StepPKVote             // the second exile vote among the tied
	StepSkill              // a dead player may shoot (turn; offered to every dying player alike)
	StepBadge              // the dead sheriff passes or tears the badge (turn)
	StepLastWords          // last words (turn)
	StepDusk               // night falls (instant)
	StepOver               // the game is over
	StepThief              // night 1: the thief may take one of the two extra cards
	StepCupid              // night 1: cupid links two lovers
	StepVoters             // the scapegoat names tomorrow's voters (turn)
	StepAlly               // event card: the first dead names the wolves' ally (turn)
	StepSeqVote            // sequential vote: hands up for one candidate (turn of the candidate)
	StepMobVote            // angry mob: one voter names his choice aloud (turn)
	StepNightShot          // night_shot=in_night: a shooter killed tonight fires inside the night (not a turn: the table does not see it)
	StepNightmare          // each night, first: the nightmare fears one player (噩梦之影)
	StepMagician           // each night, after the nightmare: the magician may swap two players (魔术师)
	StepCheck              // night_order=wolves_first: the checkers (seer, psychic) wake after the witch
	StepEclipse            // each night, after the nightmare: the eclipse wolf queen shelters a player (蚀时狼妃)
	StepRewind             // after a day's first exile vote: the sequence prince may void it (定序王子; every living player passes or acts)
	StepMasquerade         // from night 2, after the dancer: the masquerade asks about the dance and gives the mask (假面)
	StepBride              // night 1: the ghost bride weds a groom, then names a witness (鬼魂新娘)
	StepMerchant           // each night until he has given, after the magician: the miracle merchant names the lucky one and his gift (奇迹商人)
	StepLucky              // each night until he has used it, after the merchant: the lucky one may use his gift (幸运儿)
	StepWarden             // from night 2, before the dreamcatcher: the warden names two players to trade (典狱长)
	StepTrade              // after the warden: the two named each choose trade or betray
	numSteps
)

var stepNames = [numSteps]string{"none", "elect", "elect_pk", "night", "witch", "signup", "campaign",
	"withdraw", "sheriff_vote", "sheriff_pk", "sheriff_pk_vote", "dawn", "order", "speech",
	"discussion", "vote", "pk", "pk_vote", "skill", "badge", "last_words", "dusk", "over",
	"thief", "cupid", "voters", "ally", "seq_vote", "mob_vote", "night_shot", "nightmare", "magician", "check",
	"eclipse", "rewind", "masquerade", "bride",
	"merchant", "lucky", "warden", "trade"}

func (s Step) String() string {
	if s < numSteps {
		return stepNames[s]
	}
	return fmt.Sprintf("step(%d)", uint8(s))
}

func (s Step) turn() bool {
	switch s {
	case StepCampaign, StepSheriffPK, StepOrder, StepSpeech, StepPK, StepSkill, StepBadge, StepLastWords,
		StepVoters, StepAlly, StepMobVote:
		return true
	}
	return false
}

func (s Step) isVote() bool {
	switch s {
	case StepElect, StepElectPK, StepSheriffVote, StepSheriffPKVote, StepVote, StepPKVote:
		return true
	}
	return false
}

// speechStep: a wolf may self-explode while it runs.
func (s Step) speech() bool {
	switch s {
	case StepCampaign, StepSheriffPK, StepSpeech, StepPK, StepDiscussion:
		return true
	}
	return false
}

func (s Step) campaign() bool {
	return s == StepSignup || s == StepCampaign || s == StepWithdraw || s == StepSheriffVote ||
		s == StepSheriffPK || s == StepSheriffPKVote
}

// A task is a death consequence waiting in the moderator's queue.
type task uint8

const (
	taskSkill task = iota + 1
	taskBadge
	taskLastWords
	taskVoters
	taskAlly
)

func (t task) String() string {
	switch t {
	case taskSkill:
		return "skill"
	case taskBadge:
		return "badge"
	case taskLastWords:
		return "last_words"
	case taskVoters:
		return "voters"
	case taskAlly:
		return "ally"
	}
	return "task?"
}

type queued struct {
	seat Seat
	kind task
}

const queueCap = 64
