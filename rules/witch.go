package rules

// The witch (女巫) has one heal and one poison. She acts in a step of her
// own after the night step, told the attack target (witch_informed).

type witchState struct {
	healTarget Seat
	poisonT    Seat
	healUsed   bool
	poisonUsed bool
	poisoned   uint32 // everyone she ever poisoned: a poisoned hunter may not shoot
}

func init() {
	hooks[Witch] = roleHooks{
		nightFalls: func(g *Game) { g.healTarget, g.poisonT = NoSeat, NoSeat },
		step:       StepWitch,
		check:      checkWitch,
		exec: func(g *Game, c Command) {
			if c.Kind == CmdHeal {
				g.emit(Event{Kind: EvHeal, To: c.Seat.bit(), Seat: c.Seat, Target: g.attack})
				return
			}
			g.emit(Event{Kind: EvPoison, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if g.check(Command{Seat: s, Kind: CmdHeal}).code == 0 {
				c[0] = choice(CmdHeal, g.attack.bit(), true) // "heal" or "heal N" for the attacked N
			}
			if !g.poisonUsed && !(g.healTarget != NoSeat && g.opt(OptWitchBothSameNight) == Off) {
				c[1] = choice(CmdPoison, g.alive, false) // 001: 毒殺任意一位玩家, herself too
			}
			return c
		},
		awake: func(g *Game) bool {
			return !(g.healUsed && g.poisonUsed) && g.firstOf(Witch, g.alive) != NoSeat
		},
	}
}

// wakeWitch opens her step, or reports false when she has nothing to do.
func (g *Game) wakeWitch() bool {
	w := g.firstOf(Witch, g.alive)
	if w == NoSeat || (g.healUsed && g.poisonUsed) || !g.villagePower() {
		return false
	}
	told := g.attack
	if g.opt(OptWitchInformed) == InformedWhileHealUnused && g.healUsed {
		told = NoSeat
	}
	// A feared witch is told she is feared and nothing else (噩梦之影): not
	// even "no attack", which a client would show as a night without one.
	if !g.feared(w) {
		g.emit(Event{Kind: EvWitchTold, To: w.bit(), Seat: w, Target: told})
	}
	g.emit(Event{Kind: EvStep, To: w.bit(), Value: int16(StepWitch), Mask: w.bit()})
	return true
}

func checkWitch(g *Game, c Command) (refusal, bool) {
	s, t := c.Seat, c.Target
	switch c.Kind {
	case CmdHeal:
		switch {
		case g.healUsed:
			return refuse(CodeRule, "", "the healing potion is used up"), true
		case g.attack == NoSeat:
			return refuse(CodeTarget, "", "no one was attacked tonight"), true
		case t != NoSeat && t != g.attack:
			return refuse(CodeTarget, "", "only the attacked player can be healed"), true
		case g.poisonT != NoSeat && g.opt(OptWitchBothSameNight) == Off:
			return refuse(CodeRule, "witch_both_same_night=off", "the witch may not use both potions in one night"), true
		case g.attack == s && g.opt(OptWitchSelfHeal) == SelfHealNever:
			return refuse(CodeRule, "witch_self_heal=never", "the witch may not heal herself"), true
		case g.attack == s && g.opt(OptWitchSelfHeal) == SelfHealFirstNightOnly && g.night != 1:
			return refuse(CodeRule, "witch_self_heal=first_night_only", "the witch may heal herself on the first night only"), true
		}
		return accept, true
	case CmdPoison:
		switch {
		case g.poisonUsed:
			return refuse(CodeRule, "", "the poison is used up"), true
		case !g.has(g.alive, t):
			return refuse(CodeTarget, "", "the poison must go to a living player"), true
		case g.healTarget != NoSeat && g.opt(OptWitchBothSameNight) == Off:
			return refuse(CodeRule, "witch_both_same_night=off", "the witch may not use both potions in one night"), true
		}
		return accept, true
	}
	return refuse(CodeNotNow, "", "%s is not the witch's action", c.Kind), true
}

func (g *Game) applyHeal(e *Event) {
	g.healTarget, g.healUsed = e.Target, true
	if g.opt(OptWitchBothSameNight) == Off || g.poisonUsed {
		g.pending &^= e.Seat.bit()
	}
}

func (g *Game) applyPoison(e *Event) {
	g.poisonT, g.poisonUsed = e.Target, true
	g.poisoned |= g.aimed(e.Seat, e.Target).bit() // the magician's swap
	if g.opt(OptWitchBothSameNight) == Off || g.healUsed || g.attack == NoSeat {
		g.pending &^= e.Seat.bit()
	}
}

// healed: the witch healed t tonight.
func (g *Game) healed(t Seat) bool { return g.aimed(g.firstOf(Witch, g.all), g.healTarget) == t }

// resolvePoison kills the poisoned, after the attack, and gives her the
// feedback (action_feedback).
func (g *Game) resolvePoison(b *batch) {
	p := g.aimed(g.firstOf(Witch, g.all), g.poisonT) // the magician's swap, the warden's betrayal
	if p == NoSeat {
		return
	}
	safe := g.nightSafe(p, CausePoison) // the dream, the spirit knight, the witch hunter
	if g.has(g.alive, p) && !safe {
		g.kill(p, CausePoison, false, false, b)
	}
	if w := g.firstOf(Witch, g.all); g.opt(OptActionFeedback) == On && w != NoSeat {
		killed := int16(1)
		if safe {
			killed = 0
		}
		// Told of the seat she named: the magician's swap is never told.
		g.emit(Event{Kind: EvFeedback, To: w.bit(), Seat: w, Target: g.poisonT, Value: killed})
	}
}
