package rules

// The guard (守卫) protects one player a night from the wolves' attack,
// within guard_repeat; same-target rules with the witch's heal are
// guard_heal_same_target (resolveNight). guard_repeat=any bars nobody:
// AIWolf's reference server keeps no guard history, so its bodyguard may
// guard the same agent every night, and aiwolf-13 plays it so.

type guardState struct {
	guardTarget Seat   // tonight's protection
	lastGuard   Seat   // last night's, for guard_repeat=no_consecutive
	guardedEver uint32 // for guard_repeat=once_per_target
}

func init() {
	hooks[Guard] = roleHooks{
		nightFalls: func(g *Game) { g.lastGuard, g.guardTarget = g.guardTarget, NoSeat },
		wake:       func(g *Game) { g.wakeAlone(Guard) },
		step:       StepNight,
		check:      checkGuard,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvProtect, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: func(g *Game, s Seat) [2]Choice {
			t := g.alive
			if g.opt(OptGuardRepeat) == GuardNoConsecutive && g.lastGuard != NoSeat {
				t &^= g.lastGuard.bit()
			}
			if g.opt(OptGuardRepeat) == GuardOncePerTarget {
				t &^= g.guardedEver
			}
			return [2]Choice{choice(CmdProtect, t, false)}
		},
	}
}

func checkGuard(g *Game, c Command) (refusal, bool) {
	if c.Kind != CmdProtect {
		return accept, false
	}
	t := c.Target
	if !g.has(g.alive, t) {
		return refuse(CodeTarget, "", "seat %d cannot be protected", t), true
	}
	if g.opt(OptGuardRepeat) == GuardNoConsecutive && t == g.lastGuard {
		return refuse(CodeRule, "guard_repeat=no_consecutive", "the guard may not protect seat %d two nights in a row", t), true
	}
	if g.opt(OptGuardRepeat) == GuardOncePerTarget && g.has(g.guardedEver, t) {
		return refuse(CodeRule, "guard_repeat=once_per_target", "the guard has already protected seat %d once", t), true
	}
	return accept, true
}

func (g *Game) applyProtect(e *Event) {
	g.guardTarget = e.Target
	g.guardedEver |= e.Target.bit()
	g.pending &^= e.Seat.bit()
}

// guarded: the guard's protection covers t tonight.
func (g *Game) guarded(t Seat) bool {
	// The mechanical shield and the lucky one's shield are one more protection each.
	return (g.lands(g.firstOf(Guard, g.all), g.guardTarget) == t || g.shielded(t) || g.luckyShielded(t)) && !hooks[g.role[t]].unguardable
}
