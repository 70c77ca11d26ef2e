package rules

// Do validates a seat's command and, if it is legal, resolves it. A refused
// command changes nothing.
func (g *Game) Do(c Command) error {
	if err := g.Check(c); err != nil {
		return err
	}
	g.exec(c)
	if g.Pending() == 0 && !g.over {
		g.complete()
		g.proceed()
	}
	return nil
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
	if g.over {
		return refuse(CodeOver, "", "the game is over")
	}
	s := c.Seat
	if s < 1 || s > g.n {
		return refuse(CodeSeat, "", "there is no seat %d", s)
	}
	if c.Kind == CmdExplode {
		return g.checkExplode(c)
	}
	if c.Kind == CmdWithdraw && g.step == StepCampaign && g.has(g.cands, s) {
		return nil // a candidate may withdraw during the speeches too (退水)
	}
	mine := g.Pending()&s.bit() != 0
	// The wolves may change their pick while the night lasts.
	if !mine && g.step == StepNight && c.Kind == CmdAttack && g.has(g.wolves&g.alive, s) {
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
			return nil
		case CmdVote:
			if !g.has(g.targets(g.step), c.Target) {
				return refuse(CodeTarget, "", "seat %d cannot be voted for in this vote", c.Target)
			}
			return nil
		}
	case StepSignup:
		if c.Kind == CmdRun || c.Kind == CmdSkip {
			return nil
		}
	case StepWithdraw:
		if c.Kind == CmdWithdraw || c.Kind == CmdSkip {
			return nil
		}
	case StepOrder:
		if c.Kind == CmdSkip || (c.Kind == CmdOrder && (c.Value == 0 || c.Value == 1)) {
			return nil
		}
	case StepCampaign, StepSheriffPK, StepSpeech, StepPK, StepDiscussion, StepLastWords:
		if c.Kind == CmdSkip {
			return nil
		}
	case StepSkill:
		switch c.Kind {
		case CmdSkip:
			return nil
		case CmdShoot:
			if !g.mayShoot(s) {
				return refuse(CodeRule, "", "seat %d has no shot to fire", s)
			}
			if c.Target == s || !g.has(g.pubAlive, c.Target) {
				return refuse(CodeTarget, "", "the shot must go to another living player")
			}
			return nil
		}
	case StepBadge:
		switch c.Kind {
		case CmdSkip, CmdTear:
			return nil
		case CmdBadge:
			if c.Target == s || !g.has(g.pubAlive&^g.noVote, c.Target) {
				return refuse(CodeTarget, "", "the badge must go to another living player who may vote")
			}
			return nil
		}
	}
	return refuse(CodeNotNow, "", "%s is not possible now (%s)", c.Kind, g.publicStep())
}

// publicStep names the moment without telling anything hidden: at night it
// says only "night".
func (g *Game) publicStep() string {
	if g.isNight {
		return "night"
	}
	return g.step.String()
}

func (g *Game) checkNight(c Command) error {
	s, t := c.Seat, c.Target
	r := g.role[s]
	living := g.has(g.alive, t)
	switch {
	case c.Kind == CmdSkip:
		return nil
	case c.Kind == CmdAttack && r.IsWolf():
		if t != NoSeat && !living {
			return refuse(CodeTarget, "", "seat %d cannot be attacked", t)
		}
		return nil
	case c.Kind == CmdCharm && r == WolfBeauty:
		if !g.charmDue {
			return refuse(CodeNotNow, "", "the charm is already cast tonight")
		}
		if t == s || !living {
			return refuse(CodeTarget, "", "the charm must go to another living player")
		}
		return nil
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
		return nil
	case c.Kind == CmdCheck && r == Seer:
		if t == s || !living {
			return refuse(CodeTarget, "", "the seer must check another living player")
		}
		return nil
	}
	return refuse(CodeNotNow, "", "%s is not your action tonight", c.Kind)
}

func (g *Game) checkWitch(c Command) error {
	s, t := c.Seat, c.Target
	switch c.Kind {
	case CmdSkip:
		return nil
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
		return nil
	case CmdPoison:
		switch {
		case g.poisonUsed:
			return refuse(CodeRule, "", "the poison is used up")
		case t == s || !g.has(g.alive, t):
			return refuse(CodeTarget, "", "the poison must go to another living player")
		case g.healTarget != NoSeat && g.opt(OptWitchBothSameNight) == Off:
			return refuse(CodeRule, "witch_both_same_night=off", "the witch may not use both potions in one night")
		}
		return nil
	}
	return refuse(CodeNotNow, "", "%s is not the witch's action", c.Kind)
}

func (g *Game) checkExplode(c Command) error {
	s := c.Seat
	if !g.role[s].IsWolf() {
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
	return nil
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
		default:
			if g.role[t].Camp() != Village {
				e.Value = ResultNotVillage
			}
		}
		g.emit(e)
	case CmdAttack:
		g.emit(Event{Kind: EvAttackPick, To: g.wolves & g.alive, Seat: s, Target: t})
	case CmdCharm:
		g.emit(Event{Kind: EvCharm, To: g.wolves & g.alive, Seat: s, Target: t})
	case CmdHeal:
		g.emit(Event{Kind: EvHeal, To: me, Seat: s, Target: g.attack})
	case CmdPoison:
		g.emit(Event{Kind: EvPoison, To: me, Seat: s, Target: t})
	case CmdVote:
		g.emit(Event{Kind: EvBallot, To: me, Seat: s, Target: t})
	case CmdAbstain:
		g.emit(Event{Kind: EvBallot, To: me, Seat: s})
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

// skip applies a seat's default for the current step.
func (g *Game) skip(s Seat) {
	me := s.bit()
	switch {
	case g.step.isVote():
		g.emit(Event{Kind: EvBallot, To: me, Seat: s})
	case g.step == StepBadge:
		g.emit(Event{Kind: EvBadge, Public: true, Seat: s})
	case g.step == StepOrder:
		g.emit(Event{Kind: EvOrder, Public: true, Seat: s})
	case g.step == StepNight && g.has(g.wolves, s):
		if g.has(g.pending, s) {
			g.emit(Event{Kind: EvAttackPick, To: g.wolves & g.alive, Seat: s})
		}
		if g.role[s] == WolfBeauty && g.charmDue {
			g.emit(Event{Kind: EvSkip, To: me, Seat: s})
		}
	case g.step.turn() || g.step == StepNight || g.step == StepWitch:
		g.emit(Event{Kind: EvSkip, To: me, Seat: s})
	default:
		g.emit(Event{Kind: EvSkip, Public: true, Seat: s})
	}
}

// Legal lists the commands seat may send now, appended to buf.
func (g *Game) Legal(s Seat, buf []Command) []Command {
	if g.over || s < 1 || s > g.n {
		return buf
	}
	try := func(k CmdKind, t Seat, v int8) {
		c := Command{Seat: s, Kind: k, Target: t, Value: v}
		if g.Check(c) == nil {
			buf = append(buf, c)
		}
	}
	targeted := func(k CmdKind) {
		for t := Seat(1); t <= g.n; t++ {
			try(k, t, 0)
		}
	}
	mine := g.Pending()&s.bit() != 0
	if mine {
		try(CmdSkip, 0, 0)
		switch g.step {
		case StepNight:
			switch g.role[s] {
			case Guard:
				targeted(CmdProtect)
			case Seer:
				targeted(CmdCheck)
			}
			if g.role[s].IsWolf() {
				if g.has(g.pending, s) {
					try(CmdAttack, NoSeat, 0)
					targeted(CmdAttack)
				}
				if g.role[s] == WolfBeauty {
					targeted(CmdCharm)
				}
			}
		case StepWitch:
			try(CmdHeal, 0, 0)
			targeted(CmdPoison)
		case StepElect, StepElectPK, StepSheriffVote, StepSheriffPKVote, StepVote, StepPKVote:
			try(CmdAbstain, 0, 0)
			targeted(CmdVote)
		case StepSignup:
			try(CmdRun, 0, 0)
		case StepWithdraw:
			try(CmdWithdraw, 0, 0)
		case StepOrder:
			try(CmdOrder, 0, 1)
		case StepSkill:
			targeted(CmdShoot)
		case StepBadge:
			try(CmdTear, 0, 0)
			targeted(CmdBadge)
		}
	}
	if g.step == StepCampaign && !mine {
		try(CmdWithdraw, 0, 0)
	}
	if g.role[s].IsWolf() && g.step != StepNight {
		try(CmdExplode, 0, 0)
		if g.role[s] == WhiteWolfKing {
			targeted(CmdExplode)
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
