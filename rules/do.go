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
	c = g.normalize(c)
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
			_ = g.Do(Command{Seat: s, Kind: CmdSkip})
		}
	}
}

// Check tells whether a command would be accepted, without doing it.
func (g *Game) Check(c Command) error {
	if r := g.check(g.normalize(c)); r.code != 0 {
		return r.err()
	}
	return nil
}

// normalize accepts "charm N" from the piper when one player is left to charm.
func (g *Game) normalize(c Command) Command {
	if c.Kind == CmdCharm && c.Mask == 0 && c.Target != NoSeat && c.Seat >= 1 && c.Seat <= g.n && g.role[c.Seat] == Piper {
		c.Mask, c.Target = c.Target.bit(), NoSeat
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
		return refuse(CodeNotNow, "", "unknown command %d", uint8(c.Kind))
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
	if c.Mask != 0 && c.Kind != CmdLink && c.Kind != CmdVoters && c.Kind != CmdCharm {
		return refuse(CodeTarget, "", "%s takes no list of seats", c.Kind)
	}
	switch c.Kind {
	case CmdSkip, CmdAbstain, CmdRun, CmdWithdraw, CmdTear, CmdOrder, CmdTake, CmdLink, CmdVoters:
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
	switch g.step {
	case StepNight:
		return g.checkNight(c)
	case StepWitch:
		return g.checkWitch(c)
	case StepElect, StepElectPK, StepSheriffVote, StepSheriffPKVote, StepVote, StepPKVote:
		switch c.Kind {
		case CmdAbstain, CmdSkip:
			return accept
		case CmdVote:
			if !g.has(g.targets(g.step), c.Target) {
				return refuse(CodeTarget, "", "seat %d cannot be voted for in this vote", c.Target)
			}
			return accept
		}
	case StepSignup:
		if c.Kind == CmdRun || c.Kind == CmdSkip {
			return accept
		}
	case StepWithdraw:
		if c.Kind == CmdWithdraw || c.Kind == CmdSkip {
			return accept
		}
	case StepOrder:
		if c.Kind == CmdSkip || (c.Kind == CmdOrder && (c.Value == 0 || c.Value == 1)) {
			return accept
		}
	case StepCampaign, StepSheriffPK, StepSpeech, StepPK, StepDiscussion, StepLastWords:
		if c.Kind == CmdSkip {
			return accept
		}
	case StepSkill:
		switch c.Kind {
		case CmdSkip:
			return accept
		case CmdShoot:
			if !g.mayShoot(s) {
				return refuse(CodeRule, "", "seat %d has no shot to fire", s)
			}
			if c.Target == s || !g.has(g.pubAlive, c.Target) {
				return refuse(CodeTarget, "", "the shot must go to another living player")
			}
			return accept
		}
	case StepThief:
		switch {
		case c.Kind == CmdSkip:
			return accept // a thief who must take a wolf and skips takes the first
		case c.Kind == CmdTake && c.Value != 1 && c.Value != 2:
			return refuse(CodeTarget, "", "the thief takes extra card 1 or 2")
		case c.Kind == CmdTake:
			return accept
		}
	case StepCupid:
		switch c.Kind {
		case CmdSkip:
			return accept
		case CmdLink:
			if popcount(c.Mask) != 2 || c.Mask&^g.alive != 0 {
				return refuse(CodeTarget, "", "cupid links two living players")
			}
			return accept
		}
	case StepVoters:
		switch c.Kind {
		case CmdSkip:
			return accept
		case CmdVoters:
			if c.Mask&^g.pubAlive != 0 {
				return refuse(CodeTarget, "", "only living players can be allowed to vote")
			}
			return accept
		}
	case StepAlly:
		switch c.Kind {
		case CmdSkip:
			return accept
		case CmdAlly:
			// Any living player: refusing a wolf would tell the dead who the
			// wolves are. A wolf named has no effect.
			if !g.has(g.pubAlive, c.Target) {
				return refuse(CodeTarget, "", "the ally must be a living player")
			}
			return accept
		}
	case StepSeqVote:
		switch c.Kind {
		case CmdSkip, CmdAbstain:
			return accept
		case CmdVote:
			if c.Target != NoSeat && c.Target != g.stepSeat {
				return refuse(CodeTarget, "", "hands are raised for seat %d now", g.stepSeat)
			}
			return accept
		}
	case StepMobVote:
		switch c.Kind {
		case CmdSkip, CmdAbstain:
			return accept
		case CmdVote:
			if !g.has(g.targets(StepMobVote), c.Target) {
				return refuse(CodeTarget, "", "seat %d cannot be voted for in this vote", c.Target)
			}
			return accept
		}
	case StepBadge:
		switch c.Kind {
		case CmdSkip, CmdTear:
			return accept
		case CmdBadge:
			if c.Target == s || !g.has(g.pubAlive&^g.noVote, c.Target) {
				return refuse(CodeTarget, "", "the badge must go to another living player who may vote")
			}
			return accept
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

func (g *Game) checkNight(c Command) refusal {
	s, t := c.Seat, c.Target
	r := g.role[s]
	living := g.has(g.alive, t)
	switch {
	case c.Kind == CmdSkip:
		return accept
	case c.Kind == CmdAttack && g.has(g.killers(), s):
		if t != NoSeat && !living {
			return refuse(CodeTarget, "", "seat %d cannot be attacked", t)
		}
		return accept
	case c.Kind == CmdCharm && r == Piper:
		want := min(2, popcount(g.enchantable(s)))
		switch {
		case !g.enchantDue:
			return refuse(CodeNotNow, "", "the piper has charmed tonight")
		case c.Target != NoSeat || popcount(c.Mask) != want || c.Mask&^g.enchantable(s) != 0:
			return refuse(CodeTarget, "", "the piper charms two other living players not yet charmed")
		}
		return accept
	case c.Kind == CmdCharm && r == WolfBeauty:
		if c.Mask != 0 {
			return refuse(CodeTarget, "", "the wolf beauty charms one player")
		}
		if !g.charmDue {
			return refuse(CodeNotNow, "", "the charm is already cast tonight")
		}
		if t == s || !living {
			return refuse(CodeTarget, "", "the charm must go to another living player")
		}
		return accept
	case c.Kind == CmdProtect && r == Guard:
		if !living {
			return refuse(CodeTarget, "", "seat %d cannot be protected", t)
		}
		if g.opt(OptGuardRepeat) == GuardNoConsecutive && t == g.lastGuard {
			return refuse(CodeRule, "guard_repeat=no_consecutive", "the guard may not protect seat %d two nights in a row", t)
		}
		if g.opt(OptGuardRepeat) == GuardOncePerTarget && g.has(g.guardedEver, t) {
			return refuse(CodeRule, "guard_repeat=once_per_target", "the guard has already protected seat %d once", t)
		}
		return accept
	case c.Kind == CmdCheck && r == Seer:
		if t == s || !living {
			return refuse(CodeTarget, "", "the seer must check another living player")
		}
		return accept
	}
	return refuse(CodeNotNow, "", "%s is not your action tonight", c.Kind)
}

func (g *Game) checkWitch(c Command) refusal {
	s, t := c.Seat, c.Target
	switch c.Kind {
	case CmdSkip:
		return accept
	case CmdHeal:
		switch {
		case g.healUsed:
			return refuse(CodeRule, "", "the healing potion is used up")
		case g.attack == NoSeat:
			return refuse(CodeTarget, "", "no one was attacked tonight")
		case t != NoSeat && t != g.attack:
			return refuse(CodeTarget, "", "only the attacked player can be healed")
		case g.poisonT != NoSeat && g.opt(OptWitchBothSameNight) == Off:
			return refuse(CodeRule, "witch_both_same_night=off", "the witch may not use both potions in one night")
		case g.attack == s && g.opt(OptWitchSelfHeal) == SelfHealNever:
			return refuse(CodeRule, "witch_self_heal=never", "the witch may not heal herself")
		case g.attack == s && g.opt(OptWitchSelfHeal) == SelfHealFirstNightOnly && g.night != 1:
			return refuse(CodeRule, "witch_self_heal=first_night_only", "the witch may heal herself on the first night only")
		}
		return accept
	case CmdPoison:
		switch {
		case g.poisonUsed:
			return refuse(CodeRule, "", "the poison is used up")
		case !g.has(g.alive, t):
			return refuse(CodeTarget, "", "the poison must go to a living player")
		case g.healTarget != NoSeat && g.opt(OptWitchBothSameNight) == Off:
			return refuse(CodeRule, "witch_both_same_night=off", "the witch may not use both potions in one night")
		}
		return accept
	}
	return refuse(CodeNotNow, "", "%s is not the witch's action", c.Kind)
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

// canExplode: seat s may self-explode now.
func (g *Game) canExplode(s Seat) bool {
	return g.role[s].IsWolf() && !g.has(g.loversCamp, s) && g.has(g.pubAlive, s) &&
		(g.step.speech() || (g.step == StepWithdraw && g.opt(OptDoubleExplode) == On))
}

func (g *Game) checkExplode(c Command) refusal {
	s := c.Seat
	if !g.role[s].IsWolf() || g.has(g.loversCamp, s) {
		return refuse(CodeRule, "", "only the wolves may self-explode")
	}
	if !g.has(g.pubAlive, s) {
		return refuse(CodeDead, "", "seat %d is out of the game", s)
	}
	if !g.step.speech() && !(g.step == StepWithdraw && g.opt(OptDoubleExplode) == On) {
		return refuse(CodeNotNow, "double_explode", "a wolf may self-explode only during the speeches (%s)", g.publicStep())
	}
	if c.Target != NoSeat {
		if g.role[s] != WhiteWolfKing {
			return refuse(CodeRule, "", "only the white wolf king takes someone with him")
		}
		if c.Target == s || !g.has(g.pubAlive, c.Target) {
			return refuse(CodeTarget, "", "the white wolf king must take another living player")
		}
	}
	return accept
}

// exec resolves a command that Check accepted.
func (g *Game) exec(c Command) {
	s, t := c.Seat, c.Target
	me := s.bit()
	switch c.Kind {
	case CmdProtect:
		g.emit(Event{Kind: EvProtect, To: me, Seat: s, Target: t})
	case CmdCheck:
		e := Event{Kind: EvCheck, To: me, Seat: s, Target: t}
		switch g.opt(OptSeerSees) {
		case SeesRole:
			e.Role = g.role[t]
		case SeesWolfOrNot:
			if g.role[t].IsWolf() {
				e.Value = ResultWolf
			}
		default: // black lovers (and cupid with them) have left the village too
			if g.role[t].Camp() != Village || g.has(g.loversCamp, t) {
				e.Value = ResultNotVillage
			}
		}
		g.emit(e)
	case CmdAttack:
		g.pickAttack(s, t)
	case CmdCharm:
		if c.Mask != 0 {
			g.enchant(s, c.Mask)
			return
		}
		g.emit(Event{Kind: EvCharm, To: me, Seat: s, Target: t}) // she wakes alone (001: 單獨睜眼)
	case CmdHeal:
		g.emit(Event{Kind: EvHeal, To: me, Seat: s, Target: g.attack})
	case CmdPoison:
		g.emit(Event{Kind: EvPoison, To: me, Seat: s, Target: t})
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
	case CmdTake:
		g.emit(Event{Kind: EvSwap, To: me, Seat: s, Value: int16(c.Value), Role: g.extra[c.Value-1]})
	case CmdLink:
		g.link(s, c.Mask)
	case CmdVoters:
		g.emit(Event{Kind: EvVoters, Public: true, Seat: s, Mask: c.Mask, Value: g.day + 1})
	case CmdClaim:
		g.emit(Event{Kind: EvClaim, Public: true, Seat: s, Target: t, Value: int16(c.Value), Role: c.Role})
	case CmdAlly:
		// The moderator's record says whether the card took; the dead is
		// told the same either way, in an event of his own, so that
		// nothing in his stream shows that he named a wolf.
		if g.has(g.wolves, t) { // the card does nothing
			g.emit(Event{Kind: EvAlly, Seat: s, Target: t, Value: 1})
			g.emit(Event{Kind: EvAlly, To: me, Seat: s, Target: t})
			return
		}
		g.emit(Event{Kind: EvAlly, Seat: s, Target: t})
		g.emit(Event{Kind: EvAlly, To: me, Seat: s, Target: t})
		g.emit(Event{Kind: EvAlly, To: t.bit(), Seat: s, Target: t})
		w := g.wolves &^ g.loversCamp
		g.emit(Event{Kind: EvWolfTeam, To: t.bit(), Mask: w})
	case CmdRun:
		g.emit(Event{Kind: EvRun, Public: true, Seat: s})
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
	}
}

// pickAttack records a wolf's pick in the wolves' channel. The little girl
// is not told it now: one spy event a pick would count the wolves and time
// their choices; she learns the night's picks at once (spyReport).
func (g *Game) pickAttack(s, t Seat) {
	g.emit(Event{Kind: EvAttackPick, To: g.killers(), Seat: s, Target: t})
}

// skip applies a seat's default for the current step.
func (g *Game) skip(s Seat) {
	me := s.bit()
	switch {
	case g.step == StepThief && g.extra[0].IsWolf() && g.extra[1].IsWolf() && g.opt(OptThiefMustTakeWolf) == DefaultOn:
		g.emit(Event{Kind: EvSwap, To: me, Seat: s, Value: 1, Role: g.extra[0]}) // thief_must_take_wolf
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
	case g.step == StepNight && (g.has(g.killers(), s) || g.role[s] == WolfBeauty || g.role[s] == Piper):
		if g.has(g.pending, s) {
			g.pickAttack(s, NoSeat)
		}
		if (g.role[s] == WolfBeauty && g.charmDue) || (g.role[s] == Piper && g.enchantDue) {
			g.emit(Event{Kind: EvSkip, To: me, Seat: s})
		}
	case g.step.turn() || g.step == StepNight || g.step == StepWitch:
		g.emit(Event{Kind: EvSkip, To: me, Seat: s})
	default:
		g.emit(Event{Kind: EvSkip, Public: true, Seat: s})
	}
}

// Choice is a kind of command a seat may send now, with the targets it may
// name: Targets is a set of seats; NoTarget means the command may also (or
// only) be sent without a target.
type Choice struct {
	Kind     CmdKind
	Targets  uint32
	NoTarget bool
	Value    int8
	Pick     int8   // > 0: the command names this many seats of Targets as its Mask; AnySubset: any number
	Roles    uint32 // a role claim: the roles that may be named (bit r for Role r)
}

// AnySubset as a Choice's Pick: any set of the Targets, the empty set too.
const AnySubset = -1

// Choices lists what seat may do now, appended to buf. It agrees with Check:
// a command is accepted exactly when it is one of these.
func (g *Game) Choices(s Seat, buf []Choice) []Choice {
	if g.over || s < 1 || s > g.n {
		return buf
	}
	me := s.bit()
	r := g.role[s]
	mine := g.Pending()&me != 0
	if mine {
		buf = addChoice(buf, CmdSkip, 0, true)
		switch g.step {
		case StepNight:
			switch {
			case r == Guard:
				t := g.alive
				if g.opt(OptGuardRepeat) == GuardNoConsecutive && g.lastGuard != NoSeat {
					t &^= g.lastGuard.bit()
				}
				if g.opt(OptGuardRepeat) == GuardOncePerTarget {
					t &^= g.guardedEver
				}
				buf = addChoice(buf, CmdProtect, t, false)
			case r == Seer:
				buf = addChoice(buf, CmdCheck, g.alive&^me, false)
			}
			if g.has(g.killers(), s) {
				buf = addChoice(buf, CmdAttack, g.alive, true) // a first pick, or a change while the night lasts
			}
			if r == WolfBeauty && g.charmDue {
				buf = addChoice(buf, CmdCharm, g.alive&^me, false)
			}
			if r == Piper && g.enchantDue {
				t := g.enchantable(s)
				buf = append(buf, Choice{Kind: CmdCharm, Targets: t, Pick: int8(min(2, popcount(t)))})
			}
		case StepThief:
			buf = append(buf, Choice{Kind: CmdTake, NoTarget: true, Value: 1}, Choice{Kind: CmdTake, NoTarget: true, Value: 2})
		case StepCupid:
			buf = append(buf, Choice{Kind: CmdLink, Targets: g.alive, Pick: 2})
		case StepVoters:
			buf = append(buf, Choice{Kind: CmdVoters, Targets: g.pubAlive, Pick: AnySubset})
		case StepAlly:
			buf = addChoice(buf, CmdAlly, g.pubAlive, false)
		case StepSeqVote:
			buf = addChoice(buf, CmdAbstain, 0, true)
			buf = addChoice(buf, CmdVote, g.stepSeat.bit(), true)
		case StepMobVote:
			buf = addChoice(buf, CmdAbstain, 0, true)
			buf = addChoice(buf, CmdVote, g.targets(g.step), false)
		case StepWitch:
			if g.check(Command{Seat: s, Kind: CmdHeal}).code == 0 {
				buf = addChoice(buf, CmdHeal, g.attack.bit(), true) // "heal" or "heal N" for the attacked N
			}
			if !g.poisonUsed && !(g.healTarget != NoSeat && g.opt(OptWitchBothSameNight) == Off) {
				buf = addChoice(buf, CmdPoison, g.alive, false) // 001: 毒殺任意一位玩家, herself too
			}
		case StepElect, StepElectPK, StepSheriffVote, StepSheriffPKVote, StepVote, StepPKVote:
			buf = addChoice(buf, CmdAbstain, 0, true)
			buf = addChoice(buf, CmdVote, g.targets(g.step), false)
		case StepSignup:
			buf = addChoice(buf, CmdRun, 0, true)
		case StepWithdraw:
			buf = addChoice(buf, CmdWithdraw, 0, true)
		case StepOrder:
			buf = append(buf, Choice{Kind: CmdOrder, NoTarget: true}, Choice{Kind: CmdOrder, NoTarget: true, Value: 1})
		case StepSkill:
			if g.mayShoot(s) {
				buf = addChoice(buf, CmdShoot, g.pubAlive&^me, false)
			}
		case StepBadge:
			buf = addChoice(buf, CmdTear, 0, true)
			buf = addChoice(buf, CmdBadge, g.pubAlive&^g.noVote&^me, false)
		}
	} else if g.step == StepNight && g.has(g.killers(), s) {
		buf = addChoice(buf, CmdAttack, g.alive, true) // a wolf may change his pick while the night lasts
	}
	if g.step == StepCampaign && g.has(g.cands, s) {
		buf = addChoice(buf, CmdWithdraw, 0, true)
	}
	if g.canClaim(s) {
		buf = append(buf, Choice{Kind: CmdClaim, Value: ClaimRole, NoTarget: true, Roles: g.cardSet},
			Choice{Kind: CmdClaim, Value: ClaimWolf, Targets: g.pubAlive &^ me},
			Choice{Kind: CmdClaim, Value: ClaimGood, Targets: g.pubAlive &^ me})
	}
	if g.canExplode(s) {
		var t uint32
		if r == WhiteWolfKing {
			t = g.pubAlive &^ me
		}
		buf = addChoice(buf, CmdExplode, t, true)
	}
	return buf
}

func addChoice(buf []Choice, k CmdKind, targets uint32, bare bool) []Choice {
	if targets != 0 || bare {
		buf = append(buf, Choice{Kind: k, Targets: targets, NoTarget: bare})
	}
	return buf
}

// Legal lists every command seat may send now, appended to buf.
func (g *Game) Legal(s Seat, buf []Command) []Command {
	var cb [12]Choice
	for _, c := range g.Choices(s, cb[:0]) {
		if c.Pick != 0 {
			buf = appendSubsets(buf, Command{Seat: s, Kind: c.Kind, Value: c.Value}, c.Targets, c.Pick)
			continue
		}
		if c.Roles != 0 {
			for r := Role(1); r < numRoles; r++ {
				if c.Roles&(1<<r) != 0 {
					buf = append(buf, Command{Seat: s, Kind: c.Kind, Value: c.Value, Role: r})
				}
			}
			continue
		}
		if c.NoTarget {
			buf = append(buf, Command{Seat: s, Kind: c.Kind, Value: c.Value})
		}
		for t := Seat(1); t <= g.n; t++ {
			if c.Targets&t.bit() != 0 {
				buf = append(buf, Command{Seat: s, Kind: c.Kind, Target: t, Value: c.Value})
			}
		}
	}
	return buf
}

// appendSubsets lists the commands naming pick seats of targets; for
// AnySubset, the sets of at most two seats (the empty set too): all of them
// would be too many to list, Choices describes them.
func appendSubsets(buf []Command, c Command, targets uint32, pick int8) []Command {
	ts := Seats(targets)
	if pick == AnySubset {
		buf = append(buf, c)
	}
	for i, a := range ts {
		if pick == 1 || pick == AnySubset {
			c.Mask = a.bit()
			buf = append(buf, c)
		}
		if pick == 2 || pick == AnySubset {
			for _, b := range ts[i+1:] {
				c.Mask = a.bit() | b.bit()
				buf = append(buf, c)
			}
		}
	}
	return buf
}

// Idle reports whether the moderator waits only for something that decides
// nothing (a speech, last words, a free discussion, or a skill window of a
// seat without a shot), so that a script may move on past it.
func (g *Game) Idle() bool {
	switch g.step {
	case StepCampaign, StepSheriffPK, StepSpeech, StepPK, StepLastWords, StepDiscussion:
		return !g.over
	case StepSkill:
		return !g.over && !g.mayShoot(g.stepSeat)
	}
	return false
}
