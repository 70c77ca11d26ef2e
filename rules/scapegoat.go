package rules

// The scapegoat (替罪羊) dies instead of the tied on a tied exile vote
// (closeVote), and names who may vote the next day.

type scapegoatState struct {
	voteOnly uint32 // the scapegoat's voters …
	voteDay  int16  // … for this day
}

func init() {
	hooks[Scapegoat] = roleHooks{
		step: StepVoters,
		check: func(g *Game, c Command) (refusal, bool) {
			if c.Kind != CmdVoters {
				return accept, false
			}
			if c.Mask&^g.pubAlive != 0 {
				return refuse(CodeTarget, "", "only living players can be allowed to vote"), true
			}
			return accept, true
		},
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvVoters, Public: true, Seat: c.Seat, Mask: c.Mask, Value: g.day + 1})
		},
		choices: func(g *Game, s Seat) [2]Choice {
			return [2]Choice{{Kind: CmdVoters, Targets: g.pubAlive, Pick: AnySubset}}
		},
	}
}

// scapegoat is the living scapegoat, who dies on a tied vote. Once the
// village has killed the elder he is a plain villager like every
// village role (000 长者: 所有村人失去他们的特殊能力): a tie no longer takes him.
func (g *Game) scapegoat() Seat {
	if !g.villagePower() {
		return NoSeat
	}
	return g.firstOf(Scapegoat, g.pubAlive)
}

// namesVoters: a death of this cause earns the scapegoat's voters task.
func (g *Game) namesVoters(c Cause) bool { return c == CauseScapegoat && g.villagePower() }

func (g *Game) applyVoters(e *Event) {
	g.voteOnly, g.voteDay = e.Mask, e.Value
	g.pending = 0
}
