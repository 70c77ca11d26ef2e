package rules

// The idiot (白痴) survives his first exile by showing his card, and loses
// his vote and the badge.

type idiotState struct {
	noVote uint32 // revealed idiots: they no longer vote nor take the badge
}

func init() {
	hooks[Idiot] = roleHooks{
		exiled: func(g *Game, s Seat) bool {
			if g.has(g.revealed, s) || !g.villagePower() {
				return false
			}
			g.emit(Event{Kind: EvReveal, Public: true, Seat: s, Role: Idiot, Value: 1})
			if g.sheriff == s {
				g.emit(Event{Kind: EvSheriff, Public: true, Value: lostIdiot})
			}
			return true
		},
	}
}

func (g *Game) applyIdiotReveal(e *Event) {
	if e.Role == Idiot && e.Value == 1 {
		g.noVote |= e.Seat.bit()
	}
}
