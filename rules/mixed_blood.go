package rules

// The mixed blood (混血儿, ROLES-MORE-2.md) must choose another player as his
// model on night 1 (his timer names the next living player on his left);
// he is not told the model's card or camp. He belongs from then on to the
// camp his model was in truth at that moment and wins with it: with a
// village model he is a plain villager; with a wolf-camp model he is of the
// wolf camp but human, as the possessed (no power, no kill, no
// self-explosion, counted with the humans for parity/half, neither god nor
// plain, not needed dead by the village); with a model of the lovers' camp
// (black lovers formed by cupid before him) he joins that camp. He always
// reads as good; the psychic sees mixed_blood.
//
// Choices where the page is silent: the camp is filed when he chooses (the
// moderator's, from EvBlood); a model of the piper's camp (the piper)
// leaves him a plain villager (the piper wins alone by charming, and a
// mixed blood of his would change what "every other living player" means);
// the wild child's later turning does not move him: his model's camp at
// the moment of choosing decides.

type mixedBloodState struct {
	bloodModel Seat // the mixed blood's model (NoSeat: none yet)
}

func init() {
	hooks[MixedBlood] = roleHooks{
		firstNightOnly: true,
		wake: func(g *Game) {
			if s := g.firstOf(MixedBlood, g.alive); s != NoSeat && g.night == 1 && g.bloodModel == NoSeat {
				g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNight), Role: MixedBlood, Mask: s.bit()})
			}
		},
		step: StepNight,
		check: func(g *Game, c Command) (refusal, bool) {
			if c.Kind != CmdModel {
				return accept, false
			}
			if !g.choosesBlood(c.Seat) {
				return refuse(CodeNotNow, "", "the mixed blood has chosen his model"), true
			}
			if !g.anotherLiving(c) {
				return refuse(CodeTarget, "", "the model must be another living player"), true
			}
			return accept, true
		},
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvBlood, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if g.choosesBlood(s) {
				c[0] = choice(CmdModel, g.alive&^s.bit(), false)
			}
			return c
		},
		mustAct: func(g *Game, s Seat) (refusal, Command, bool) {
			if !g.choosesBlood(s) {
				return accept, Command{}, false
			}
			why := refuse(CodeRule, "", "the mixed blood must choose a model")
			return why, Command{Seat: s, Kind: CmdModel, Target: g.leftOf(s, g.alive)}, true
		},
		noExplode: true,
		readsWolf: readsGood,
	}
}

// choosesBlood: the mixed blood s is awaited for his model (night 1).
func (g *Game) choosesBlood(s Seat) bool {
	return g.bloodModel == NoSeat && g.night == 1 && g.isNight && g.has(g.pending, s)
}

// applyBlood files the mixed blood in his model's camp of the moment.
func (g *Game) applyBlood(e *Event) {
	s, t := e.Seat, e.Target
	b := s.bit()
	g.bloodModel = t
	g.pending &^= b
	switch {
	case g.has(g.loversCamp, t):
		g.loversCamp |= b
		g.plain &^= b
	case g.has(g.newlyweds(), t): // a newlywed: he wins with them (ghost_bride.go)
		g.wedBlood |= b
		g.plain &^= b
	case g.ofWolfCamp(t):
		g.wolves |= b
		g.lone |= b
		g.humans |= b
		g.plain &^= b
	}
}
