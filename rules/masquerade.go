package rules

// The masquerade (假面, ROLES-MORE-2.md) is of the wolf camp but outside the
// pack (lone: he does not know the wolves, they do not know him), may not
// self-explode and is immune to the witch's poison. From night 2, after the
// dancer, he wakes in a step of his own (StepMasquerade, after the witch,
// and after the checkers under night_order=wolves_first) and may (a) ask
// about one living player and be told whether he is in tonight's dance,
// then (b) give one living player (himself allowed) the mask: that
// player's dance camp is flipped in tonight's dance. When every wolf of the
// pack is dead he holds the kill (killers) and attacks alone in the night
// step, as the gargoyle does.
//
// Choices where the page is silent: the question comes before the mask
// (the mask ends his turn); with no dance tonight the answer is "not in
// it", as for anyone outside it, so the answer never tells him more than
// the dance's floor; the question and the mask land where the magician's
// swap sends them; his step is on the night's schedule from night 2 on
// every board that holds him, alive or not, so that its slot tells nothing.

func init() {
	hooks[Masquerade] = roleHooks{
		nightFalls: func(g *Game) { g.dance, g.masked, g.asked = 0, NoSeat, false },
		lone:       true,
		noExplode:  true,
		step:       StepMasquerade,
		check:      checkMasquerade,
		exec: func(g *Game, c Command) {
			if c.Kind == CmdAsk {
				in := int16(0)
				if g.has(g.dance, g.landed(c.Target)) {
					in = 1
				}
				g.emit(Event{Kind: EvAsk, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target, Value: in})
				return
			}
			g.emit(Event{Kind: EvMask, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if !g.asked {
				c[0] = choice(CmdAsk, g.alive, false)
			}
			c[1] = choice(CmdMask, g.alive, false)
			return c
		},
		spared: func(g *Game, s Seat, c Cause) bool { return c == CausePoison },
		awake:  func(g *Game) bool { return g.night >= 2 && g.firstOf(Masquerade, g.alive) != NoSeat },
	}
}

func checkMasquerade(g *Game, c Command) (refusal, bool) {
	switch c.Kind {
	case CmdAsk:
		if g.asked {
			return refuse(CodeRule, "", "the masquerade asks once a night"), true
		}
		if !g.has(g.alive, c.Target) {
			return refuse(CodeTarget, "", "the masquerade asks about a living player"), true
		}
		return accept, true
	case CmdMask:
		if !g.has(g.alive, c.Target) {
			return refuse(CodeTarget, "", "the mask goes to a living player"), true
		}
		return accept, true
	}
	return accept, false
}

func (g *Game) applyMask(e *Event) {
	g.masked = g.landed(e.Target)
	g.pending &^= e.Seat.bit()
}

// afterChecks follows the witch (and the checkers under wolves_first): the
// masquerade's step from night 2 on a board that holds him, else the
// night's resolution.
func (g *Game) afterChecks() {
	if g.cardSet&(1<<Masquerade) != 0 && g.night >= 2 {
		g.setResume(StepMasquerade, false)
		return
	}
	g.resolveNight()
}

// wakeMasquerade wakes the living masquerade in his step; a dead one's
// step still comes, the moderator's alone.
func (g *Game) wakeMasquerade() {
	if s := g.firstOf(Masquerade, g.alive); s != NoSeat {
		g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepMasquerade), Role: Masquerade, Mask: s.bit()})
		return
	}
	g.emit(Event{Kind: EvStep, Value: int16(StepMasquerade)})
}
