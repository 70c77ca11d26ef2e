package rules

// The nine-tailed fox (九尾狐) loses a tail when a village player dies, two
// for a god, and dies with her last; she learns her tails when she wakes.

type foxState struct {
	tails int8
}

func init() {
	hooks[NineTailedFox] = roleHooks{
		start: func(g *Game) { g.tails = 9 },
		// Told before the night is resolved: told after it, a tail lost
		// would reveal tonight's deaths before the dawn. Tails lost in the
		// resolution stay the moderator's until her next wake.
		told: func(g *Game) {
			if f := g.firstOf(NineTailedFox, g.alive); f != NoSeat {
				g.emit(Event{Kind: EvTails, To: f.bit(), Seat: f, Value: int16(g.tails)})
			}
		},
		watch: func(g *Game, r Role, public bool) (uint32, Cause) {
			// A wild child who turned is a werewolf, no longer good.
			if r.Camp() != Village || r == NineTailedFox || r == WildChild && g.turned {
				return 0, CauseNone
			}
			f := g.firstOf(NineTailedFox, g.alive)
			if f == NoSeat {
				return 0, CauseNone
			}
			lost := int16(1)
			if r.IsGod() {
				lost = 2
			}
			tails := max(int16(g.tails)-lost, 0)
			g.emit(Event{Kind: EvTails, Seat: f, Value: tails})
			if tails == 0 {
				return f.bit(), CauseTails
			}
			return 0, CauseNone
		},
	}
}
