package rules

// Do validates a seat's command and, if it is legal, resolves it. A refused
// command changes nothing.
func (g *Game) Do(c Command) error {
	_, err := g.Resolve(c)
	return err
}

// Resolve is Do that also tells how many of the events it added resolve
// the command itself (a seer's result, a wolf's pick); the rest are the game
// moving on. A server that tells the table at fixed times at night hands a
// seat its own result at once and holds back the rest.
func (g *Game) Resolve(c Command) (own int, err error) {
	if g.normalizes(c.Seat) {
		c = g.normalize(c)
	}
	if r := g.check(c); r.code != 0 {
		return 0, r.err()
	}
	before := len(g.events)
	g.exec(c)
	own = len(g.events) - before
	if g.Pending() == 0 && !g.over {
		g.complete()
		g.proceed()
	}
	return own, nil
}

// Timeout is the moderator's "time is up": every seat still awaited in the
// current step takes the default (skip: abstain, no action, end of speech,
// badge torn).
func (g *Game) Timeout() {
	st := g.step
	m := g.Pending()
	for s := Seat(1); s <= g.n && !g.over && g.step == st; s++ {
		if m&s.bit() != 0 && g.Pending()&s.bit() != 0 {
			c := Command{Seat: s, Kind: CmdSkip}
			if _, forced, ok := g.mustAct(s); ok {
				c = forced
			}
			_ = g.Do(c)
		}
	}
}

// mustAct asks the role of seat s, in a step of its own, whether it may
// skip now (roleHooks.mustAct).
func (g *Game) mustAct(s Seat) (refusal, Command, bool) {
	if h := &hooks[g.role[s]]; h.mustAct != nil && g.stepOf(g.role[s]) == g.step && !g.feared(s) { // the feared may only skip
		return h.mustAct(g, s)
	}
	return accept, Command{}, false
}

// forced is mustAct's verdict alone: a bool comes back in a register, where
// mustAct's results are written to memory, so asking costs little for the
// many seats whose role has no such hook.
func (g *Game) forced(s Seat) bool {
	if h := &hooks[g.role[s]]; h.mustAct == nil || g.stepOf(g.role[s]) != g.step {
		return false
	}
	_, _, ok := g.mustAct(s)
	return ok
}

// Check tells whether a command would be accepted, without doing it.
func (g *Game) Check(c Command) error {
	if r := g.check(g.normalize(c)); r.code != 0 {
		return r.err()
	}
	return nil
}

// normalizes reports whether the role of seat s has a normalize hook; it
// is inlined, sparing the others a call that copies the command twice.
func (g *Game) normalizes(s Seat) bool {
	return s >= 1 && s <= g.n && hooks[g.role[s]].normalize != nil
}

// normalize lets a role rewrite a shorthand of its commands.
func (g *Game) normalize(c Command) Command {
	if c.Seat >= 1 && c.Seat <= g.n {
		if f := hooks[g.role[c.Seat]].normalize; f != nil {
			return f(g, c)
		}
	}
	return c
}

// check is Check without building the error, so that listing the legal
// commands costs no allocation.
func (g *Game) check(c Command) refusal {
	if g.over {
		return refuse(CodeOver, "", "the game is over")
	}
	s := c.Seat
	if s < 1 || s > g.n {
		return refuse(CodeSeat, "", "there is no seat %d", s)
	}
	if c.Kind == CmdNone || c.Kind >= numCmds {
		return refuse(CodeNotNow, "", "unknown command %d", number(c.Kind))
	}
	if c.Kind == CmdClaim {
		return g.checkClaim(c)
	}
	if c.Role != NoRole {
		return refuse(CodeTarget, "", "%s names no role", c.Kind)
	}
	if c.Value != 0 && !(c.Kind == CmdOrder && c.Value == 1) && !(c.Kind == CmdTake && (c.Value == 1 || c.Value == 2)) {
		return refuse(CodeTarget, "", "%s takes no such value", c.Kind)
	}
	if c.Mask != 0 && c.Kind != CmdLink && c.Kind != CmdVoters && c.Kind != CmdCharm && c.Kind != CmdSwap && c.Kind != CmdDance && c.Kind != CmdPair {
		return refuse(CodeTarget, "", "%s takes no list of seats", c.Kind)
	}
	switch c.Kind {
	case CmdSkip, CmdAbstain, CmdRun, CmdWithdraw, CmdTear, CmdOrder, CmdTake, CmdLink, CmdVoters, CmdSwap, CmdRewind, CmdDance, CmdPair, CmdTrade, CmdBetray:
		if c.Target != NoSeat {
			return refuse(CodeTarget, "", "%s takes no target", c.Kind)
		}
	case CmdExplode:
		return g.checkExplode(c)
	}
	if c.Mask&^g.all != 0 {
		return refuse(CodeTarget, "", "the list names a seat that does not exist")
	}
	if c.Kind == CmdWithdraw && g.step == StepCampaign && g.has(g.cands, s) {
		return accept // a candidate may withdraw during the speeches too (退水)
	}
	// A role's command sent whatever step runs (the knight's duel).
	if h := &hooks[g.role[s]]; h.anytime != nil {
		if r, ok := h.anytime(g, c); ok {
			return r
		}
	}
	mine := g.Pending()&s.bit() != 0
	// The wolves may change their pick while the night lasts.
	if !mine && g.step == StepNight && c.Kind == CmdAttack && g.has(g.killers(), s) {
		mine = true
	}
	if !mine {
		if !g.has(g.pubAlive, s) {
			return refuse(CodeDead, "", "seat %d is out of the game", s)
		}
		return refuse(CodeNotNow, "", "seat %d has nothing to do now (%s)", s, g.publicStep())
	}
	if g.feared(s) { // 噩梦之影: the feared player may use no night power tonight
		if c.Kind == CmdSkip {
			return accept
		}
		return refuse(CodeRule, "", "seat %d is feared tonight and may use no night power", s)
	}
	if c.Kind == CmdSkip {
		switch g.step {
		case StepNone, StepDawn, StepDusk, StepOver:
		default:
			if g.forced(s) {
				why, _, _ := g.mustAct(s)
				return why
			}
			return accept // every step a seat waits in has its default
		}
	}
	switch g.step {
	case StepNight:
		return g.checkNight(c)
	case StepElect, StepElectPK, StepSheriffVote, StepSheriffPKVote, StepVote, StepPKVote:
		switch c.Kind {
		case CmdAbstain:
			return accept
		case CmdVote:
			if !g.has(g.targets(g.step), c.Target) {
				return refuse(CodeTarget, "", "seat %d cannot be voted for in this vote", c.Target)
			}
			return accept
		}
	case StepSignup:
		if c.Kind == CmdRun {
			return accept
		}
	case StepWithdraw:
		if c.Kind == CmdWithdraw {
			return accept
		}
	case StepOrder:
		if c.Kind == CmdOrder && (c.Value == 0 || c.Value == 1) {
			return accept
		}
	case StepSkill, StepNightShot:
		if c.Kind == CmdShoot {
			return g.checkShoot(c)
		}
	case StepAlly:
		if c.Kind == CmdAlly {
			// Any living player: refusing a wolf would tell the dead who the
			// wolves are. A wolf named has no effect.
			if !g.has(g.pubAlive, c.Target) {
				return refuse(CodeTarget, "", "the ally must be a living player")
			}
			return accept
		}
	case StepSeqVote:
		switch c.Kind {
		case CmdAbstain:
			return accept
		case CmdVote:
			if c.Target != NoSeat && c.Target != g.stepSeat {
				return refuse(CodeTarget, "", "hands are raised for seat %d now", g.stepSeat)
			}
			return accept
		}
	case StepMobVote:
		switch c.Kind {
		case CmdAbstain:
			return accept
		case CmdVote:
			if !g.has(g.targets(StepMobVote), c.Target) {
				return refuse(CodeTarget, "", "seat %d cannot be voted for in this vote", c.Target)
			}
			return accept
		}
	case StepBadge:
		switch c.Kind {
		case CmdTear:
			return accept
		case CmdBadge:
			if c.Target == s || !g.has(g.pubAlive&^g.noVote, c.Target) {
				return refuse(CodeTarget, "", "the badge must go to another living player who may vote")
			}
			return accept
		}
	default: // a step of the role's own (the witch's, the thief's, cupid's, the scapegoat's), or of a group call's
		if h := g.callHooks(); h != nil {
			if r, ok := h.check(g, c); ok {
				return r
			}
		} else if h := &hooks[g.role[s]]; g.stepOf(g.role[s]) == g.step && h.check != nil {
			if r, ok := h.check(g, c); ok {
				return r
			}
		}
	}
	return refuse(CodeNotNow, "", "%s is not possible now (%s)", c.Kind, g.publicStep())
}

// publicStep names the moment without telling anything hidden: at night it
// says only "night".
func (g *Game) publicStep() Step {
	if g.isNight {
		return StepNight
	}
	return g.step
}

// checkNight: the night step, where the pack's attack and the roles woken
// together are checked.
func (g *Game) checkNight(c Command) refusal {
	s := c.Seat
	switch {
	case c.Kind == CmdSkip:
		return accept
	case c.Kind == CmdAttack && g.has(g.killers(), s):
		return g.checkAttack(c)
	}
	if h := &hooks[g.role[s]]; g.stepOf(g.role[s]) == StepNight && h.check != nil {
		if r, ok := h.check(g, c); ok {
			return r
		}
	}
	return refuse(CodeNotNow, "", "%s is not your action tonight", c.Kind)
}

// canClaim: seat s holds the floor (a speech, last words, the free
// discussion) and has claims left.
func (g *Game) canClaim(s Seat) bool {
	floor := (g.step.speech() || g.step == StepLastWords) && g.Pending()&s.bit() != 0
	return floor && g.claims[s] < MaxClaims
}

func (g *Game) checkClaim(c Command) refusal {
	s := c.Seat
	if !g.canClaim(s) {
		if g.claims[s] >= MaxClaims {
			return refuse(CodeRule, "", "at most %d claims in one speech", Seat(MaxClaims))
		}
		return refuse(CodeNotNow, "", "seat %d does not have the floor (%s)", s, g.publicStep())
	}
	switch c.Value {
	case ClaimRole:
		if c.Role == NoRole || c.Role >= numRoles || c.Target != NoSeat || c.Mask != 0 {
			return refuse(CodeTarget, "", "a role claim names one role")
		}
		if g.cardSet&(1<<c.Role) == 0 {
			return refuse(CodeTarget, "", "there is no %s card on this board", c.Role)
		}
	case ClaimWolf, ClaimGood:
		if c.Role != NoRole || c.Mask != 0 || c.Target == s || !g.has(g.pubAlive, c.Target) {
			return refuse(CodeTarget, "", "a claim about a player names another living player")
		}
	default:
		return refuse(CodeTarget, "", "unknown kind of claim %d", Seat(c.Value))
	}
	return accept
}

// exec resolves a command that Check accepted. The commands of a role's
// own are resolved in the role's file.
func (g *Game) exec(c Command) {
	s, t := c.Seat, c.Target
	me := s.bit()
	switch c.Kind {
	case CmdAttack:
		g.pickAttack(s, t)
	case CmdVote:
		switch g.step {
		case StepSeqVote:
			g.emit(Event{Kind: EvBallot, Public: true, Seat: s, Target: g.stepSeat})
		case StepMobVote:
			g.emit(Event{Kind: EvBallot, Public: true, Seat: s, Target: t})
		default:
			g.emit(Event{Kind: EvBallot, To: me, Seat: s, Target: t})
		}
	case CmdAbstain:
		g.skip(s)
	case CmdClaim:
		g.emit(Event{Kind: EvClaim, Public: true, Seat: s, Target: t, Value: int16(c.Value), Role: c.Role})
	case CmdAlly:
		g.nameAlly(s, t)
	case CmdRun:
		// Hands go up at once (上警): each is the seat's own until the
		// signup closes, so no one chooses knowing who stood before him.
		g.emit(Event{Kind: EvRun, To: me, Seat: s})
	case CmdWithdraw:
		g.emit(Event{Kind: EvWithdraw, Public: true, Seat: s})
	case CmdBadge:
		g.emit(Event{Kind: EvBadge, Public: true, Seat: s, Target: t})
	case CmdTear:
		g.emit(Event{Kind: EvBadge, Public: true, Seat: s})
	case CmdOrder:
		g.emit(Event{Kind: EvOrder, Public: true, Seat: s, Value: int16(c.Value)})
	case CmdShoot:
		g.shoot(s, t)
	case CmdExplode:
		g.explode(s, t)
	case CmdSkip:
		g.skip(s)
	default:
		if h := g.callHooks(); h != nil {
			h.exec(g, c)
			return
		}
		hooks[g.role[s]].exec(g, c)
	}
}

// skip applies a seat's default for the current step.
func (g *Game) skip(s Seat) {
	me := s.bit()
	h := &hooks[g.role[s]]
	if h.skip != nil && g.stepOf(g.role[s]) == g.step && h.skip(g, s) {
		return
	}
	if c := g.callHooks(); c != nil && c.skip != nil && c.skip(g, s) {
		return
	}
	switch {
	case g.step == StepSeqVote:
		g.emit(Event{Kind: EvSkip, To: me, Seat: s})
	case g.step == StepMobVote:
		g.emit(Event{Kind: EvBallot, Public: true, Seat: s})
	case g.step.isVote():
		g.emit(Event{Kind: EvBallot, To: me, Seat: s})
	case g.step == StepBadge:
		g.emit(Event{Kind: EvBadge, Public: true, Seat: s})
	case g.step == StepOrder:
		g.emit(Event{Kind: EvOrder, Public: true, Seat: s})
	case g.step == StepNight && (g.has(g.killers(), s) || h.due):
		// One skip declines both the pick and the role's own action.
		if g.has(g.pending, s) {
			g.pickAttack(s, NoSeat)
		}
		if g.has(g.due, s) {
			g.emit(Event{Kind: EvSkip, To: me, Seat: s})
		}
	case g.step.turn() || g.isNight || g.step == StepRewind || g.step == StepSignup:
		// By night every skip is the skipper's alone: a public one would name
		// who holds the card woken (the thief's, cupid's, a night shooter's).
		// In the prince's window who passed is nobody's business; a hand
		// kept down at the signup is told with the others when it closes.
		g.emit(Event{Kind: EvSkip, To: me, Seat: s})
	default:
		g.emit(Event{Kind: EvSkip, Public: true, Seat: s})
	}
}
