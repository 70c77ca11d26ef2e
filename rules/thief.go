package rules

// The thief (小偷) sees the two extra cards on the first night and may take
// one; he must take a wolf when both are wolves (thief_must_take_wolf).

type thiefState struct {
	extra [2]Role // the two extra cards
}

func init() {
	hooks[Thief] = roleHooks{
		setup: func(g *Game) bool {
			s := g.firstOf(Thief, g.alive)
			if s == NoSeat {
				return false
			}
			if !g.feared(s) { // feared, he is told so and nothing else: not the cards (噩梦之影)
				g.emit(Event{Kind: EvExtraCards, To: s.bit(), Seat: s, Role: g.extra[0], Value: int16(g.extra[1])})
			}
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepThief), Role: Thief, Mask: s.bit()})
			return true
		},
		step: StepThief,
		check: func(g *Game, c Command) (refusal, bool) {
			switch {
			case c.Kind == CmdTake && c.Value != 1 && c.Value != 2:
				return refuse(CodeTarget, "", "the thief takes extra card 1 or 2"), true
			case c.Kind == CmdTake:
				return accept, true
			}
			return accept, false
		},
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvSwap, To: c.Seat.bit(), Seat: c.Seat, Value: int16(c.Value), Role: g.extra[c.Value-1]})
		},
		choices: func(g *Game, s Seat) [2]Choice {
			return [2]Choice{{Kind: CmdTake, NoTarget: true, Value: 1}, {Kind: CmdTake, NoTarget: true, Value: 2}}
		},
		// Facing two wolf cards he must take one: his skip is refused, and
		// when his time runs out the moderator gives him the first.
		mustAct: func(g *Game, s Seat) (refusal, Command, bool) {
			if !(g.extra[0].IsWolf() && g.extra[1].IsWolf() && g.opt(OptThiefMustTakeWolf) == DefaultOn) {
				return accept, Command{}, false
			}
			why := refuse(CodeRule, "thief_must_take_wolf=on", "both extra cards are wolves: the thief must take one (take 1 or take 2)")
			return why, Command{Seat: s, Kind: CmdTake, Value: 1}, true
		},
	}
}

func (g *Game) applySwap(e *Event) {
	g.extra[e.Value-1] = Thief
	g.setRole(e.Seat, e.Role)
	g.pending &^= e.Seat.bit()
}
