package rules

import (
	"fmt"
	"strings"
)

// Option names a variant of RULES.md. Its value is an index into the option's
// value list, so a ruleset is a small fixed array and variants stay data.
type Option uint8

// The options. The order is part of the stored format: append only.
const (
	OptFirstPhase Option = iota
	OptSheriff
	OptSheriffWeight
	OptLastWords
	OptSpeechOrder
	OptDayVote
	OptVoteTie
	OptSeerSees
	OptWitchInformed
	OptWitchSelfHeal
	OptWitchBothSameNight
	OptGuardRepeat
	OptGuardHealSameTarget
	OptWolfVote
	OptWolfWin
	OptRevealRoleOnDeath
	OptHunterShootsWhenPoisoned
	OptHunterShootsOnHeartbreak
	OptWinCheckBeforeShot
	OptDoubleExplode
	OptSimultaneousWin
	OptThiefMustTakeWolf
	OptLoversSeeRoles
	OptCupidCamp
	OptLittleGirlSpy
	OptElderHealConsumesLife
	OptIdiotDiesWithElder
	OptMobRandomAfter
	OptEventCards
	OptWolvesLearnAttackResult
	OptActionFeedback
	OptBlackLovers
	OptNarrateAbsentRoles
	OptExplodedSheriffBadge
	OptNightShot
	OptKnightDuelInCampaign
	OptKnightDuelEndsDay
	OptDreamcatcherMustDream
	OptMagicianSwapOnce
	OptSpiritKnightReflect
	OptWolfNoTarget
	OptFirstNightAttack
	OptSelfExplosion
	OptNightOrder
	OptWolfAttackWolves
	OptSilenceCoversLastWords
	OptBearReads
	OptSistersWakeEvery
	OptBrothersWakeEvery
	OptCursedFoxKilledBy
	OptMechanicalWolfLearns
	OptSequencePrinceExtraSpeech
	OptDancerOncePerPlayer
	numOptions
)

// Values of the options, one block per option, in the order of the option's
// value list in optionTable.
const (
	FirstNight = 0
	FirstDay   = 1

	SheriffNone             = 0
	SheriffBeforeFirstNight = 1
	SheriffDay1Campaign     = 2
	SheriffDay1TopVote      = 3

	Weight2   = 0
	Weight1_5 = 1

	LastWordsFirstNightAndExile = 0
	LastWordsAll                = 1
	LastWordsExileOnly          = 2
	LastWordsNone               = 3

	SpeechSheriffChooses = 0
	SpeechLeftOfVictim   = 1
	SpeechFree           = 2

	DayVoteSimultaneous = 0

	TieNobody = 0
	TiePK     = 1
	TieRandom = 2

	SeesRole         = 0
	SeesWolfOrNot    = 1
	SeesVillageOrNot = 2

	InformedAlways          = 0
	InformedWhileHealUnused = 1

	SelfHealNever          = 0
	SelfHealFirstNightOnly = 1
	SelfHealAlways         = 2

	GuardNoConsecutive = 0
	GuardOncePerTarget = 1
	GuardAny           = 2

	SameTargetDies     = 0
	SameTargetSurvives = 1

	WolfVoteMajority  = 0
	WolfVoteUnanimous = 1

	WinKillAll  = 0
	WinParity   = 1
	WinKillSide = 2
	WinHalf     = 3

	Off = 0
	On  = 1

	SimulVillage = 0
	SimulWolves  = 1
	SimulDraw    = 2

	DayVoteSequential = 1
	DayVoteAngryMob   = 2

	WinHalfOrKillSide = 4

	// Options whose default is on list "on" first.
	DefaultOn  = 0
	DefaultOff = 1

	CupidVillage = 0
	CupidLovers  = 1
	CupidPlain   = 2

	MobRandomNever = 0

	ExplodedBadgeLost = 0
	ExplodedBadgePass = 1

	NightShotDawn    = 0
	NightShotInNight = 1

	ReflectSameNight = 0
	ReflectNextNight = 1

	SeerFirst   = 0
	WolvesFirst = 1

	BearReadsAs             = 0 // bear_reads: how a camp check reads the neighbour
	BearTrueCamp            = 1 // … or his camp in truth
	KilledBySeer            = 0
	KilledByAnyVillageCheck = 1

	LearnsFirstNight = 0 // mechanical_wolf_learns: he imitates on night 1
	LearnsAnyNight   = 1 // … or on the first night he chooses
	PrinceSpeaks     = 0 // sequence_prince_extra_speech: the prince alone speaks again
	AllSpeak         = 1 // … every living player does
)

type optionInfo struct {
	name   string
	values []string
	doc    string
}

var optionTable = [numOptions]optionInfo{
	OptFirstPhase:               {"first_phase", []string{"night", "day"}, "the game starts with night 1 (000, 001) or with a discussion day (002)"},
	OptSheriff:                  {"sheriff", []string{"none", "before_first_night", "day1_campaign", "day1_top_vote"}, "how the sheriff (警长) is chosen"},
	OptSheriffWeight:            {"sheriff_vote_weight", []string{"2", "1.5"}, "what the sheriff's vote counts"},
	OptLastWords:                {"last_words", []string{"first_night_and_exile", "all", "exile_only", "none"}, "who may speak last words (遗言)"},
	OptSpeechOrder:              {"speech_order", []string{"sheriff_chooses", "left_of_victim", "free"}, "the order of the day speeches"},
	OptDayVote:                  {"day_vote", []string{"simultaneous", "sequential", "angry_mob"}, "how the exile vote (放逐投票) is taken"},
	OptVoteTie:                  {"vote_tie", []string{"nobody", "pk", "random"}, "what a tied exile vote does"},
	OptSeerSees:                 {"seer_sees", []string{"role", "wolf_or_not", "village_or_not"}, "what the seer (预言家) learns"},
	OptWitchInformed:            {"witch_informed", []string{"always", "while_heal_unused"}, "when the witch (女巫) is told the attack target"},
	OptWitchSelfHeal:            {"witch_self_heal", []string{"never", "first_night_only", "always"}, "whether the witch may heal herself"},
	OptWitchBothSameNight:       {"witch_both_same_night", []string{"off", "on"}, "whether the witch may heal and poison in one night"},
	OptGuardRepeat:              {"guard_repeat", []string{"no_consecutive", "once_per_target", "any"}, "how often the guard (守卫) may protect the same player (any: no limit, as AIWolf's bodyguard)"},
	OptGuardHealSameTarget:      {"guard_heal_same_target", []string{"dies", "survives"}, "a player both guarded and healed dies (同守同救) or survives"},
	OptWolfVote:                 {"wolf_vote", []string{"majority", "unanimous"}, "how the wolves' picks become the attack"},
	OptWolfWin:                  {"wolf_win", []string{"kill_all", "parity", "kill_side", "half", "half_or_kill_side"}, "when the wolves win"},
	OptRevealRoleOnDeath:        {"reveal_role_on_death", []string{"off", "on"}, "whether a dead player's card is turned face up"},
	OptHunterShootsWhenPoisoned: {"hunter_shoots_when_poisoned", []string{"off", "on"}, "whether a poisoned hunter (猎人) may still shoot"},
	OptHunterShootsOnHeartbreak: {"hunter_shoots_on_heartbreak", []string{"off", "on"}, "whether a hunter who dies with another (charmed, lover) may shoot"},
	OptWinCheckBeforeShot:       {"win_check_before_shot", []string{"off", "on"}, "whether a death that ends the game stops the hunter's shot"},
	OptDoubleExplode:            {"double_explode", []string{"off", "on"}, "双爆吞警徽: a first self-explosion in the sheriff campaign keeps the campaign"},
	OptSimultaneousWin:          {"simultaneous_win", []string{"village", "wolves", "draw"}, "who wins when two camps win in one step"},
	OptThiefMustTakeWolf:        {"thief_must_take_wolf", []string{"on", "off"}, "the thief (小偷) must take a wolf when both extra cards are wolves"},
	OptLoversSeeRoles:           {"lovers_see_roles", []string{"off", "on"}, "the lovers learn each other's role, not only who"},
	OptCupidCamp:                {"cupid_camp", []string{"village", "lovers", "plain"}, "cupid's camp: village (a god), the lovers' camp, or a plain villager"},
	OptLittleGirlSpy:            {"little_girl_spy", []string{"on", "off"}, "the little girl (小女孩) reads the wolves' night channel, senders hidden"},
	OptElderHealConsumesLife:    {"elder_heal_consumes_life", []string{"on", "off"}, "a healed attack still costs the elder (长者) a life"},
	OptIdiotDiesWithElder:       {"idiot_dies_with_elder", []string{"off", "on"}, "a revealed idiot dies when the village kills the elder"},
	OptMobRandomAfter:           {"mob_random_after", []string{"never", "1", "2", "3"}, "angry_mob: after this many tied re-votes the moderator draws at random"},
	OptEventCards:               {"event_cards", []string{"off", "on"}, "New Moon event cards: one is drawn at the start of each day"},
	OptWolvesLearnAttackResult:  {"wolves_learn_attack_result", []string{"off", "on"}, "after the witch, the wolves are told whether their target died (002)"},
	OptActionFeedback:           {"action_feedback", []string{"off", "on"}, "the witch and the hunter are told whether their poison or shot killed (002)"},
	OptBlackLovers:              {"black_lovers", []string{"off", "on"}, "cross-camp lovers and cupid form their own camp (黑情侣, 002)"},
	OptNarrateAbsentRoles:       {"narrate_absent_roles", []string{"off", "on"}, "the narration calls every role of the board, dead or absent too"},
	OptExplodedSheriffBadge:     {"exploded_sheriff_badge", []string{"lost", "pass"}, "a sheriff who self-explodes (自爆) loses the badge (警徽流失) or passes it"},
	OptKnightDuelInCampaign:     {"knight_duel_in_campaign", []string{"off", "on"}, "the knight (骑士) may also duel during the sheriff campaign's speeches"},
	OptKnightDuelEndsDay:        {"knight_duel_ends_day", []string{"on", "off"}, "a duel that kills a wolf ends the day, as a self-explosion does"},
	OptDreamcatcherMustDream:    {"dreamcatcher_must_dream", []string{"on", "off"}, "the dreamcatcher (摄梦人) must choose a dreamer every night"},
	OptMagicianSwapOnce:         {"magician_swap_once", []string{"on", "off"}, "the magician (魔术师) may swap each player at most once per game"},
	OptSpiritKnightReflect:      {"spirit_knight_reflect", []string{"same_night", "next_night"}, "the spirit knight's (恶灵骑士) reflection kills in the same night's resolution or the next"},
	OptWolfNoTarget:             {"wolf_no_target", []string{"on", "off"}, "the wolves may attack nobody (空刀)"},
	OptFirstNightAttack:         {"first_night_attack", []string{"on", "off"}, "the wolves attack on night 1 (AIWolf: off, the first night has only the seer's check)"},
	OptNightShot:                {"night_shot", []string{"dawn", "in_night"}, "a hunter or wolf king killed at night shoots at dawn, or inside the night's resolution (002), his victim among the dawn's dead"},
	OptSelfExplosion:            {"self_explosion", []string{"on", "off"}, "the wolves may self-explode (自爆) by day (AIWolf: off)"},
	OptNightOrder:               {"night_order", []string{"seer_first", "wolves_first"}, "the night's wake order: the checkers (seer, psychic) before the wolves (000), or after the witch (守卫→狼人→女巫→预言家, as 狼人杀 clubs call it)"},
	OptSilenceCoversLastWords:   {"silence_covers_last_words", []string{"off", "on"}, "a player silenced by the silence elder (禁言长老) also loses that day's last words"},
	OptBearReads:                {"bear_reads", []string{"reads_as", "true_camp"}, "what makes the bear (驯熊师) growl: a neighbour who reads as a wolf (a hidden wolf does not, a gargoyle does), or one of the wolf camp in truth"},
	OptWolfAttackWolves:         {"wolf_attack_wolves", []string{"on", "off"}, "the wolves may attack one of their own or themselves (自刀); off (AIWolf): their target must be outside the pack"},
	OptSistersWakeEvery:         {"sisters_wake_every", []string{"2", "1", "0"}, "the sisters (姐妹) meet on night 1, then every this many nights (0: night 1 only)"},
	OptCursedFoxKilledBy:        {"cursed_fox_killed_by", []string{"seer", "any_village_check"}, "which checks kill the cursed fox (咒狐): the seer's (and the mirror seer's), or every village check (the psychic's too)"},
	OptMechanicalWolfLearns:     {"mechanical_wolf_learns", []string{"first_night", "any_night"}, "when the mechanical wolf (机械狼) imitates a player: on night 1, or on the first night he chooses"},
	OptBrothersWakeEvery:        {"brothers_wake_every", []string{"2", "1", "0"}, "the brothers (三兄弟) meet on night 1, then every this many nights (0: night 1 only)"},

	OptSequencePrinceExtraSpeech: {"sequence_prince_extra_speech", []string{"prince", "all"}, "who speaks again before the sequence prince's (定序王子) re-vote: the prince alone, or every living player in the day's order"},
	OptDancerOncePerPlayer:       {"dancer_once_per_player", []string{"on", "off"}, "every player but the dancer (舞者) dances at most once per game"},
}

// Options is a ruleset: one value per option.
type Options [numOptions]uint8

// Name is the option's identifier, as in board files.
func (o Option) Name() string { return optionTable[o].name }

// Values lists the option's allowed values.
func (o Option) Values() []string { return optionTable[o].values }

// Doc is the one-line explanation of the option.
func (o Option) Doc() string { return optionTable[o].doc }

// AllOptions lists every option in order.
func AllOptions() []Option {
	out := make([]Option, numOptions)
	for i := range out {
		out[i] = Option(i)
	}
	return out
}

// ParseOption reads an option name.
func ParseOption(name string) (Option, error) {
	for o := Option(0); o < numOptions; o++ {
		if optionTable[o].name == name {
			return o, nil
		}
	}
	return 0, fmt.Errorf("rules: unknown option %q", name)
}

// Set sets the option to the named value; a value outside its list is refused.
func (opts *Options) Set(name, value string) error {
	o, err := ParseOption(name)
	if err != nil {
		return err
	}
	for i, v := range optionTable[o].values {
		if v == value {
			opts[o] = uint8(i)
			return nil
		}
	}
	return fmt.Errorf("rules: option %s has no value %q (allowed: %s)", name, value, strings.Join(optionTable[o].values, ", "))
}

// Get returns the option's value as text.
func (opts *Options) Get(o Option) string { return optionTable[o].values[opts[o]] }
