package rules

// Choice is a kind of command a seat may send now, with the targets it may
// name: Targets is a set of seats; NoTarget means the command may also (or
// only) be sent without a target.
type Choice struct {
	Kind     CmdKind
	Targets  uint32
	NoTarget bool
	Value    int8
	Pick     int8   // > 0: the command names this many seats of Targets as its Mask; AnySubset: any number
	Roles    uint64 // a role claim: the roles that may be named (bit r for Role r)
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
	if g.feared(s) { // 噩梦之影: the feared player may only skip tonight
		if mine {
			buf = addChoice(buf, CmdSkip, 0, true)
		}
		return buf
	}
	if mine {
		if !g.forced(s) {
			buf = addChoice(buf, CmdSkip, 0, true)
		}
		switch g.step {
		case StepNight:
			// In the night's wake order: a role woken before the wolves lists
			// its action before the attack.
			for _, w := range g.callOrder() {
				switch {
				case w == Werewolf && g.has(g.killers(), s):
					buf = addChoice(buf, CmdAttack, g.attackable(s), g.opt(OptWolfNoTarget) == DefaultOn) // a first pick, or a change while the night lasts
				case w == r:
					buf = g.roleChoices(s, r, StepNight, buf)
				}
			}
		case StepAlly:
			buf = addChoice(buf, CmdAlly, g.pubAlive, false)
		case StepSeqVote:
			buf = addChoice(buf, CmdAbstain, 0, true)
			buf = addChoice(buf, CmdVote, g.stepSeat.bit(), true)
		case StepMobVote:
			buf = addChoice(buf, CmdAbstain, 0, true)
			buf = addChoice(buf, CmdVote, g.targets(g.step), false)
		case StepElect, StepElectPK, StepSheriffVote, StepSheriffPKVote, StepVote, StepPKVote:
			buf = addChoice(buf, CmdAbstain, 0, true)
			buf = addChoice(buf, CmdVote, g.targets(g.step), false)
		case StepSignup:
			buf = addChoice(buf, CmdRun, 0, true)
		case StepWithdraw:
			buf = addChoice(buf, CmdWithdraw, 0, true)
		case StepOrder:
			buf = append(buf, Choice{Kind: CmdOrder, NoTarget: true}, Choice{Kind: CmdOrder, NoTarget: true, Value: 1})
		case StepSkill, StepNightShot:
			if g.mayShoot(s) {
				buf = addChoice(buf, CmdShoot, g.pubAlive&^me, false)
			}
		case StepBadge:
			buf = addChoice(buf, CmdTear, 0, true)
			buf = addChoice(buf, CmdBadge, g.pubAlive&^g.noVote&^me, false)
		default: // a step of the role's own, or of a group call's
			if h := g.callHooks(); h != nil {
				for _, c := range h.choices(g, s) {
					if c.Kind != CmdNone {
						buf = append(buf, c)
					}
				}
				break
			}
			if r == MiracleMerchant && g.step == StepMerchant { // three gifts: one more than a hook's array holds
				buf = g.merchantChoices(s, buf)
				break
			}
			buf = g.roleChoices(s, r, g.step, buf)
		}
	} else if g.step == StepNight && g.has(g.killers(), s) {
		buf = addChoice(buf, CmdAttack, g.attackable(s), g.opt(OptWolfNoTarget) == DefaultOn) // a wolf may change his pick while the night lasts
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
		if hooks[r].explodeTakes {
			t = g.pubAlive &^ me
		}
		buf = addChoice(buf, CmdExplode, t, true)
	}
	if f := hooks[r].anytimeChoice; f != nil { // the knight's duel
		if c := f(g, s); c.Kind != CmdNone {
			buf = append(buf, c)
		}
	}
	return buf
}

// roleChoices appends what the holder s of card r may do in step st by
// the role's choices hook.
func (g *Game) roleChoices(s Seat, r Role, st Step, buf []Choice) []Choice {
	h := &hooks[r]
	if g.stepOf(r) != st || h.choices == nil {
		return buf
	}
	for _, c := range h.choices(g, s) {
		if c.Kind != CmdNone {
			buf = append(buf, c)
		}
	}
	return buf
}

// onAnother is the check and the choices of a role's one command aimed at
// another living player (the seer's check, the crow's curse, the dream…);
// refused is the refusal's text for any other target.
func onAnother(k CmdKind, refused string) (func(*Game, Command) (refusal, bool), func(*Game, Seat) [2]Choice) {
	check := func(g *Game, c Command) (refusal, bool) {
		if c.Kind != k {
			return accept, false
		}
		if !g.anotherLiving(c) {
			return refuse(CodeTarget, "", refused), true
		}
		return accept, true
	}
	choices := func(g *Game, s Seat) [2]Choice {
		return [2]Choice{choice(k, g.alive&^s.bit(), false)}
	}
	return check, choices
}

// anotherLiving: the command names a living player other than its sender.
func (g *Game) anotherLiving(c Command) bool {
	return c.Target != c.Seat && g.has(g.alive, c.Target)
}

// choice is the Choice addChoice would append, or none (a zero Kind).
func choice(k CmdKind, targets uint32, bare bool) Choice {
	if targets != 0 || bare {
		return Choice{Kind: k, Targets: targets, NoTarget: bare}
	}
	return Choice{}
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
		if pick == 3 { // the dancer's three
			for j, b := range ts[i+1:] {
				for _, d := range ts[i+j+2:] {
					c.Mask = a.bit() | b.bit() | d.bit()
					buf = append(buf, c)
				}
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
