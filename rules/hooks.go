package rules

// roleHooks is how a role plugs into the shared steps. Each role's file
// fills its entry of hooks in an init function; a nil field means the role
// takes no part in that step, so a role with no power (the villager) has an
// empty entry. They are plain function values in a table indexed by Role,
// not interfaces: calling one neither allocates nor boxes the Game.
//
// The shared steps call the hooks in the game's wake order (callOrder,
// narration.go) where an order matters, so that the moderator's wake
// order, the events' order and the order of Choices are one and the same
// list.
type roleHooks struct {
	// start sets the role's state for a new game (the fox's nine tails).
	start func(g *Game)
	// nightFalls resets the role's state of the night before (EvNight).
	nightFalls func(g *Game)

	// setup wakes the role in a stage of its own before the first night's
	// shared step (the thief, cupid); it reports whether it woke someone.
	setup func(g *Game) bool
	// wake wakes the role in the shared night step (StepNight).
	wake func(g *Game)
	// due: the role wakes in the night step by a flag of its own (Game.due)
	// rather than the pending mask, so that its holder may also hold the
	// night kill and owe the pack's pick beside it (the wolf beauty, the piper).
	due bool
	// nightly: the setup stage comes every night, not only the first (the
	// nightmare's fear, the magician's swap: ROLES-MORE.md has them act
	// before everyone else, in a stage of their own, each night).
	nightly bool
	// skipped applies the holder's EvSkip in the night step to the role's state.
	skipped func(g *Game, s Seat)

	// step is the step in which check, choices and skip answer for the
	// holder: StepNight, or a step of the role's own.
	step Step
	// normalize rewrites a shorthand of the role's commands before checking.
	normalize func(g *Game, c Command) Command
	// check judges a command of the holder in step; false: not one of the
	// role's commands, and the shared refusal answers.
	check func(g *Game, c Command) (refusal, bool)
	// exec resolves a role command that check accepted (CmdProtect, CmdHeal…).
	exec func(g *Game, c Command)
	// choices lists the holder's role commands in step (CmdSkip is shared),
	// at most two; a zero Kind is none. (An array, not the caller's slice:
	// a slice handed to a function value escapes, and Legal's is on the stack.)
	choices func(g *Game, s Seat) [2]Choice
	// skip is the holder's default in step; false: the shared default.
	skip func(g *Game, s Seat) bool
	// mustAct: the holder may not skip in step now (the thief facing two
	// wolf cards); it gives the refusal, naming the rule, and the command
	// the moderator plays for him when his time runs out.
	mustAct func(g *Game, s Seat) (refusal, Command, bool)

	// packDone runs as the pack's turn ends, before its picks are resolved
	// (the little girl's report).
	packDone func(g *Game)
	// told is what the role is told as the night step ends, before the
	// night is resolved (the fox's tails, the piper's charmed).
	told func(g *Game)
	// toldIsPower: what told gives the holder is his night power, not a
	// state of his (the gravekeeper's reading of the exiled, not the fox's
	// tails): the nightmare's fear takes it, and the feared is told so.
	toldIsPower bool
	// awake: a narration without absent roles calls the role (default:
	// a living holder).
	awake func(g *Game) bool

	// unguardable: the guard's protection has no effect on the holder.
	unguardable bool
	// attacked answers the night's attack on the holder (t) its own way
	// and reports true, or false to let it kill as usual (hit).
	attacked func(g *Game, t Seat, hit, healed, guarded bool) bool
	// exiled answers the day's exile of the holder its own way and reports
	// true (the idiot's reveal), or false to let him die.
	exiled func(g *Game, s Seat) bool
	// onDeath runs the chains of the holder's death and names who dies of
	// them, and of what; kill kills them. (It returns them rather than take
	// the batch: a pointer handed to a function value escapes, and the batch
	// lives on the stack.)
	onDeath func(g *Game, s Seat, c Cause, public bool) (uint32, Cause)
	// watch runs when anyone of card r dies while the role is on the board
	// (the fox loses tails), and names who dies of it, as onDeath.
	watch func(g *Game, r Role, public bool) (uint32, Cause)
	// spared: the holder survives a night death of cause c aimed at him
	// (the spirit knight: the attack, the poison, the hunt, the dream; the
	// witch hunter: the poison). The attacked hook cannot say it: the
	// poison and the hunt are not the attack (nightSafe).
	spared func(g *Game, s Seat, c Cause) bool
	// shoots reports whether the dead holder may shoot in the skill window.
	shoots func(g *Game, s Seat) bool
	// explodeTakes: the holder's self-explosion may take another player.
	explodeTakes bool

	// The wolf camp's players outside the pack (ROLES-MORE.md): the
	// shared steps treat every wolf card alike, so these flags say where
	// such a card differs (outsiders.go).
	//
	// lone: the holder is of the wolf camp but not of the pack: he does not
	// wake with the wolves, is not in their channel, they are not told of
	// him, and he holds the kill only once the pack is dead (the gargoyle,
	// the hidden wolf), or never (human).
	lone bool
	// human: of the wolf camp but human (the possessed): never the kill,
	// counted with the humans for the wolves' win (wolf_win), not needed
	// dead by the village.
	human bool
	// knowsPack: the holder is told who the wolves are when they meet,
	// though they are not told of him (the hidden wolf).
	knowsPack bool
	// noExplode: the holder, though of the wolf camp, may not self-explode.
	noExplode bool
	// readsWolf: how the holder reads to a camp check (seer_sees
	// wolf_or_not / village_or_not, the gravekeeper): true as a wolf. Nil:
	// by his card's camp.
	readsWolf func(g *Game, s Seat) bool
	// firstNightOnly: the role acts in the night step of night 1 only (the
	// wild child), so the narration calls it on that night alone.
	firstNightOnly bool
	// lateCheck: the role is a checker (ROLES-MORE-2.md §5, group 10): under
	// night_order=wolves_first it wakes in a step of its own, StepCheck,
	// after the witch, rather than in the night step (stepOf).
	lateCheck bool

	// anytime judges a command the holder may send while he is not awaited,
	// whatever step runs (the knight's duel during anyone's speech), before
	// the awaited seats' commands are; false: not such a command. Its exec
	// is the role's exec.
	anytime func(g *Game, c Command) (refusal, bool)
	// anytimeChoice is the command anytime accepts now, if any (a zero Kind:
	// none), for Choices.
	anytimeChoice func(g *Game, s Seat) Choice
	// extraVote names a seat that carries extra votes in the vote of step s
	// being counted, and how many half-votes (the crow's curse); NoSeat:
	// none. The vote's close announces it (EvCursedVote).
	extraVote func(g *Game, s Step) (Seat, int)
}

// hooks is filled once, by the role files' init functions, and only read
// afterwards.
var hooks [numRoles]roleHooks

// stepOf is the step in which card r's holder acts: the hook's step, but
// StepCheck for a checker under night_order=wolves_first.
func (g *Game) stepOf(r Role) Step {
	h := hooksOf(r)
	if h.lateCheck && g.opt(OptNightOrder) == WolvesFirst {
		return StepCheck
	}
	return h.step
}

// hooksOf is r's hooks; the group calls of the narration (CallLovers…) and
// NoRole have none, but the siblings' later meetings (sister.go).
func hooksOf(r Role) *roleHooks {
	if r < numRoles {
		return &hooks[r]
	}
	switch r {
	case CallSisters:
		return &siblingCalls[0]
	case CallBrothers:
		return &siblingCalls[1]
	case CallWed:
		return &wedCall
	case CallTraders:
		return &tradersCall
	case CallLucky:
		return &luckyCall
	}
	return &hooks[NoRole]
}

// callHooks are the hooks of the group call whose stage runs now (the
// lucky one's, the traders'): its seats act whatever their cards; nil in
// every other step.
func (g *Game) callHooks() *roleHooks {
	switch g.step {
	case StepLucky:
		return &luckyCall
	case StepTrade:
		return &tradersCall
	}
	return nil
}

// LateCheck says whether the role is a checker who wakes after the witch
// under night_order=wolves_first (StepCheck), so that the actor's night
// schedule has that slot whenever a board holds one.
func (r Role) LateCheck() bool { return r < numRoles && hooks[r].lateCheck }
