package rules

// The nightmare (噩梦之影, ROLES-MORE.md) is a wolf who wakes first of all
// each night, in a stage of his own, and fears one player (not himself, not
// last night's): that player keeps being called but may use no night power
// tonight (feared) — he may only skip; a feared witch is not told the
// target. Death triggers are not night powers: a feared hunter still shoots
// (the night shot too). If he fears a player of the wolf camp, the wolves
// are told that they will not attack tonight and their picks do nothing.
// On night 1 he acts alone, before the wolves meet.

type nightmareState struct {
	fear     Seat // tonight's feared player
	lastFear Seat // last night's
	packHeld bool // tonight's fear fell on the wolf camp: no attack
}

func init() {
	hooks[Nightmare] = roleHooks{
		nightFalls: func(g *Game) { g.lastFear, g.fear, g.packHeld = g.fear, NoSeat, false },
		setup: func(g *Game) bool {
			s := g.firstOf(Nightmare, g.alive)
			if s == NoSeat || g.has(g.loversCamp, s) || g.lost[Wolves] {
				return false
			}
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNightmare), Role: Nightmare, Mask: s.bit()})
			return true
		},
		nightly: true,
		step:    StepNightmare,
		check: func(g *Game, c Command) (refusal, bool) {
			if c.Kind != CmdFear {
				return accept, false
			}
			switch t := c.Target; {
			case t == c.Seat || !g.has(g.alive, t):
				return refuse(CodeTarget, "", "the nightmare fears another living player"), true
			case t == g.lastFear:
				return refuse(CodeRule, "", "the nightmare may not fear seat %d two nights in a row", t), true
			}
			return accept, true
		},
		exec: execFear,
		choices: func(g *Game, s Seat) [2]Choice {
			return [2]Choice{choice(CmdFear, g.alive&^s.bit()&^g.lastFear.bit(), false)}
		},
	}
}

// execFear: the nightmare's choice, told to him; the feared player is told
// if his card has a night power (he is called); the wolves are told they
// will not attack if he is of the wolf camp (the feared not named to them:
// he may be a wolf they do not know).
func execFear(g *Game, c Command) {
	s, t := c.Seat, c.Target
	g.emit(Event{Kind: EvFear, To: s.bit(), Seat: s, Target: t})
	h := &hooks[g.role[t]]
	if h.wake != nil || h.setup != nil || h.step == StepWitch || h.toldIsPower || g.has(g.killers(), t) {
		g.emit(Event{Kind: EvFeared, To: t.bit(), Seat: t})
	}
	if g.ofWolfCamp(t) { // a wild child who turned holds the kill with them
		if k := g.killers() | s.bit(); k != 0 {
			g.emit(Event{Kind: EvNoAttack, To: k, Value: 1})
		}
	}
}

func (g *Game) applyFear(e *Event) {
	g.fear = e.Target
	g.packHeld = g.ofWolfCamp(e.Target)
	g.pending &^= e.Seat.bit()
}

// feared: seat s may use no night power now (the nightmare's fear). The
// night shot is a death trigger, not a night power.
func (g *Game) feared(s Seat) bool {
	return g.isNight && s != NoSeat && s == g.fear && g.step != StepNightShot
}
