package rules

// The dreamcatcher (摄梦人, ROLES-MORE.md) chooses another player as dreamer
// each night, in the shared night step (dreamcatcher_must_dream, default on:
// he may not skip). The dreamer is not told. That night the dreamer cannot
// die in the night (attack, poison, hunt, reflection); if the dreamcatcher
// dies in the night his dreamer dies with him; a player dreamed two nights
// in a row dies in the second night (cause dream).

type dreamState struct {
	dreamer   Seat // tonight's dreamer, where the dream landed (the magician's swap)
	lastDream Seat // last night's
}

func init() {
	check, choices := onAnother(CmdDream, "the dreamcatcher dreams another living player")
	hooks[Dreamcatcher] = roleHooks{
		nightFalls: func(g *Game) { g.lastDream, g.dreamer = g.dreamer, NoSeat },
		wake:       func(g *Game) { g.wakeAlone(Dreamcatcher) },
		step:       StepNight,
		check:      check,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvDream, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: choices,
		mustAct: func(g *Game, s Seat) (refusal, Command, bool) {
			if g.opt(OptDreamcatcherMustDream) != DefaultOn || g.feared(s) {
				return accept, Command{}, false
			}
			// The moderator's pick when his time runs out: the first living
			// player to his left who was not last night's dreamer.
			t := NoSeat
			for i := Seat(1); i < g.n && t == NoSeat; i++ {
				x := (s+i-1)%g.n + 1
				if g.has(g.alive, x) && x != g.lastDream {
					t = x
				}
			}
			if t == NoSeat {
				return accept, Command{}, false
			}
			return refuse(CodeRule, "dreamcatcher_must_dream=on", "the dreamcatcher must choose a dreamer"),
				Command{Seat: s, Kind: CmdDream, Target: t}, true
		},
		onDeath: func(g *Game, s Seat, c Cause, public bool) (uint32, Cause) {
			d := g.dreamer
			if !g.isNight || public || c == CauseRedCard || d == NoSeat || d == s || !g.has(g.alive, d) || g.spared(d, CauseDream) {
				return 0, CauseNone
			}
			return d.bit(), CauseDream
		},
	}
}

func (g *Game) applyDream(e *Event) {
	g.dreamer = g.lands(e.Seat, e.Target)
	g.pending &^= e.Seat.bit()
}

// nightSafe: the night's kill of cause c cannot reach t: he is tonight's
// dreamer, or his card meets that cause its own way (roleHooks.spared).
// The dream's immunity comes before the resolution's order (ROLES-MORE.md).
func (g *Game) nightSafe(t Seat, c Cause) bool {
	return (t != NoSeat && t == g.dreamer) || g.has(g.tradeSafe, t) || g.spared(t, c) || (c == CauseAttack && g.danceShields(t))
}

// spared: the card of t survives a night death of cause c (roleHooks.spared).
func (g *Game) spared(t Seat, c Cause) bool {
	f := hooks[g.role[t]].spared
	return f != nil && f(g, t, c)
}

// resolveDreams: a player dreamed two nights in a row dies in the second.
func (g *Game) resolveDreams(b *batch) {
	if d := g.dreamer; d != NoSeat && d == g.lastDream && g.has(g.alive, d) && !g.spared(d, CauseDream) {
		g.kill(d, CauseDream, false, false, b)
	}
}
