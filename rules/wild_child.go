package rules

// The wild child (野孩子, ROLES-MORE.md) is of the village (plain) at first.
// On night 1 he chooses a model, another player (his timer names the next
// living player on his left). When the model dies, the wild child becomes
// a werewolf: he is told so, and the wolves and he are told the new pack
// (EvWolfTeam); he holds the kill with them from the next night, reads as
// a wolf, may self-explode and wins with the wolves. If he dies first,
// nothing happens. The psychic and the gargoyle see the card wild_child.

type wildChildState struct {
	model  Seat // the wild child's model (NoSeat: none yet)
	turned bool // the model died: the wild child is a werewolf
}

func init() {
	hooks[WildChild] = roleHooks{
		firstNightOnly: true,
		wake: func(g *Game) {
			if s := g.firstOf(WildChild, g.alive); s != NoSeat && g.night == 1 && g.model == NoSeat {
				g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNight), Role: WildChild, Mask: s.bit()})
			}
		},
		step:  StepNight,
		check: checkWildChild,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvModel, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if g.choosesModel(s) {
				c[0] = choice(CmdModel, g.alive&^s.bit(), false)
			}
			return c
		},
		mustAct: func(g *Game, s Seat) (refusal, Command, bool) {
			if !g.choosesModel(s) {
				return accept, Command{}, false
			}
			why := refuse(CodeRule, "", "the wild child must choose a model")
			return why, Command{Seat: s, Kind: CmdModel, Target: g.leftOf(s, g.alive)}, true
		},
		watch: func(g *Game, r Role, public bool) (uint32, Cause) {
			if g.model == NoSeat || g.turned || g.has(g.alive, g.model) {
				return 0, CauseNone
			}
			w := g.firstOf(WildChild, g.alive)
			if w == NoSeat {
				return 0, CauseNone // he died first: nothing happens
			}
			g.emit(Event{Kind: EvWildWolf, To: w.bit(), Seat: w, Target: g.model})
			if !g.has(g.loversCamp, w) { // a black lover stays with the lovers' camp
				g.emit(Event{Kind: EvWolfTeam, To: g.wolfTeam(), Mask: g.pack()})
			}
			return 0, CauseNone
		},
		readsWolf: func(g *Game, s Seat) bool { return g.turned },
	}
}

// choosesModel: the wild child s is awaited for his model (night 1).
func (g *Game) choosesModel(s Seat) bool {
	return g.model == NoSeat && g.night == 1 && g.isNight && g.has(g.pending, s) && !g.turned
}

func checkWildChild(g *Game, c Command) (refusal, bool) {
	if c.Kind != CmdModel {
		return accept, false
	}
	if !g.choosesModel(c.Seat) {
		return refuse(CodeNotNow, "", "the wild child has chosen his model"), true
	}
	if !g.anotherLiving(c) {
		return refuse(CodeTarget, "", "the model must be another living player"), true
	}
	return accept, true
}

func (g *Game) applyModel(e *Event) {
	g.model = e.Target
	g.pending &^= e.Seat.bit()
}

func (g *Game) applyWildWolf(e *Event) {
	b := e.Seat.bit()
	g.turned = true
	g.wolves |= b
	g.plain &^= b
}

// leftOf is the first seat of m after s clockwise (NoSeat: none).
func (g *Game) leftOf(s Seat, m uint32) Seat {
	for i, x := Seat(1), s; i < g.n; i++ {
		if x++; x > g.n {
			x = 1
		}
		if g.has(m, x) {
			return x
		}
	}
	return NoSeat
}
