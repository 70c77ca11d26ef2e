package rules

// The witch hunter (猎魔人, ROLES-MORE.md) wakes in the shared night step
// from night 2 and may hunt one other player: the hunt is resolved after
// the poison; a target of the wolf camp dies in the night, otherwise the
// witch hunter dies instead. The witch's poison has no effect on him.
// Hunting the spirit knight kills nobody.

type witchHunterState struct {
	hunt Seat // tonight's hunt, where it landed (the magician's swap)
}

func init() {
	check, choices := onAnother(CmdHunt, "the witch hunter hunts another living player")
	hooks[WitchHunter] = roleHooks{
		nightFalls: func(g *Game) { g.hunt = NoSeat },
		wake: func(g *Game) {
			if g.night >= 2 {
				g.wakeAlone(WitchHunter)
			}
		},
		step:  StepNight,
		check: check,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvHunt, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: choices,
		spared:  func(g *Game, s Seat, c Cause) bool { return c == CausePoison },
	}
}

func (g *Game) applyHunt(e *Event) {
	g.hunt = g.aimed(e.Seat, e.Target)
	g.pending &^= e.Seat.bit()
}

// resolveHunt runs after the poison: a wolf-camp target dies, otherwise the
// witch hunter does; neither if the dream (or the spirit knight) spares him.
func (g *Game) resolveHunt(b *batch) {
	t := g.hunt
	h := g.firstOf(WitchHunter, g.all)
	if t == NoSeat || h == NoSeat {
		return
	}
	victim := h
	if g.ofWolfCamp(t) { // a wild child who turned too
		victim = t
	}
	if g.has(g.alive, victim) && !g.nightSafe(victim, CauseHunt) {
		g.kill(victim, CauseHunt, false, false, b)
	}
}
