package rules

// The dancer (舞者, ROLES-MORE-2.md) wakes in the night step from night 2
// and must choose three living players to dance (himself allowed every
// night; under dancer_once_per_player, default on, every other player
// dances at most once per game). With fewer than three to choose from he is
// not woken and nobody dances. Each dancer's dance camp is wolf when he is
// of the wolf camp in truth, good otherwise, flipped for the one the
// masquerade masks tonight; the one whose camp differs from the other two
// dies in the night (cause dance, resolveDance): the guard and the heal do
// not stop it, the dream does. With the dancer among the three, all three
// are immune to the wolves' attack tonight (nightSafe; the witch is still
// told the target). The witch's poison has no effect on him.
//
// Choices where the page is silent: his timer makes him dance with the two
// next players of the floor on his left (he must dance); the dance is
// chosen as the night step runs, so the dance happens even when the dancer
// himself dies tonight outside it (it was chosen before the resolution);
// the three's camps are read at the resolution, a dancer already dead of
// the attack or the poison tonight still counts for the others' dance; the
// magician's swap moves a dancer as it moves every action, and each choice
// then lands as a village god's power does (lands): the eclipse queen's
// sheltered seat rebounds to the dancer, a betraying dancer's three land
// on the other betrayer. Two choices landing on one player make him dance
// twice: the dance still has three places and the odd one out dies (the
// dancer sent back to himself and a wolf: the wolf dies); three on one
// player are one camp.

type danceState struct {
	dance      uint32  // tonight's dancers, where they landed
	danced     [3]Seat // tonight's three places, where they landed (a player may hold two)
	dancedEver uint32  // every player who danced, the dancer aside (dancer_once_per_player)
	masked     Seat    // tonight's mask, where it landed
	asked      bool    // the masquerade asked tonight
}

func init() {
	hooks[Dancer] = roleHooks{
		nightFalls: func(g *Game) { g.dance, g.masked, g.asked = 0, NoSeat, false },
		wake: func(g *Game) {
			if s := g.firstOf(Dancer, g.alive); s != NoSeat && g.night >= 2 && popcount(g.danceFloor(s)) >= 3 {
				g.wakeAlone(Dancer)
			}
		},
		step:  StepNight,
		check: checkDance,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvDance, To: c.Seat.bit(), Seat: c.Seat, Mask: c.Mask})
		},
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if g.dances(s) {
				c[0] = Choice{Kind: CmdDance, Targets: g.danceFloor(s), Pick: 3}
			}
			return c
		},
		mustAct: func(g *Game, s Seat) (refusal, Command, bool) {
			if !g.dances(s) {
				return accept, Command{}, false
			}
			why := refuse(CodeRule, "", "the dancer must choose three players to dance")
			floor := g.danceFloor(s) &^ s.bit()
			a := g.leftOf(s, floor)
			b := g.leftOf(a, floor&^a.bit())
			return why, Command{Seat: s, Kind: CmdDance, Mask: s.bit() | a.bit() | b.bit()}, true
		},
		spared: func(g *Game, s Seat, c Cause) bool { return c == CausePoison },
		awake:  func(g *Game) bool { return g.night >= 2 && g.firstOf(Dancer, g.alive) != NoSeat },
	}
}

// dances: the dancer s is awaited for tonight's three.
func (g *Game) dances(s Seat) bool {
	return g.isNight && g.night >= 2 && g.step == StepNight && g.has(g.pending, s) && g.dance == 0
}

// danceFloor is who dancer s may choose tonight: the living, less those who
// danced before under dancer_once_per_player=on (he may always choose himself).
func (g *Game) danceFloor(s Seat) uint32 {
	if g.opt(OptDancerOncePerPlayer) == DefaultOn {
		return g.alive &^ (g.dancedEver &^ s.bit())
	}
	return g.alive
}

func checkDance(g *Game, c Command) (refusal, bool) {
	if c.Kind != CmdDance {
		return accept, false
	}
	switch {
	case !g.dances(c.Seat):
		return refuse(CodeNotNow, "", "the dancer has chosen tonight's dance"), true
	case popcount(c.Mask) != 3:
		return refuse(CodeTarget, "", "the dancer must choose exactly three players, not %d", number(popcount(c.Mask))), true
	case c.Mask&^g.alive != 0:
		return refuse(CodeTarget, "", "the dancer must choose three living players"), true
	case c.Mask&^g.danceFloor(c.Seat) != 0:
		return refuse(CodeRule, "dancer_once_per_player=on", "a player other than the dancer may dance only once per game"), true
	}
	return accept, true
}

func (g *Game) applyDance(e *Event) {
	i := 0
	for m := e.Mask; m != 0 && i < len(g.danced); i++ {
		s := g.lowest(m)
		m &^= s.bit()
		l := g.lands(e.Seat, s)
		g.dance |= l.bit()
		g.danced[i] = l
	}
	g.dancedEver |= e.Mask &^ e.Seat.bit()
	g.pending &^= e.Seat.bit()
}

// danceShields: t dances tonight with the dancer among the three, so the
// wolves' attack on him fails.
func (g *Game) danceShields(t Seat) bool {
	if g.dance == 0 || !g.has(g.dance, t) {
		return false
	}
	d := g.firstOf(Dancer, g.all)
	return d != NoSeat && g.has(g.dance, d)
}

// danceCamp: t dances as a wolf (of the wolf camp in truth), the mask flipping it.
func (g *Game) danceCamp(t Seat) bool { return g.ofWolfCamp(t) != (t == g.masked) }

// resolveDance: the one of the three whose dance camp differs from the
// other two dies (ROLES-MORE-2.md §5 step 8).
func (g *Game) resolveDance(b *batch) {
	if g.dance == 0 {
		return
	}
	var wolves, goods int
	var wolf, good Seat // the last place of each camp
	for _, s := range g.danced {
		if g.danceCamp(s) {
			wolves, wolf = wolves+1, s
		} else {
			goods, good = goods+1, s
		}
	}
	odd := NoSeat
	switch {
	case wolves == 1:
		odd = wolf
	case goods == 1:
		odd = good
	}
	if odd != NoSeat && g.has(g.alive, odd) && !g.nightSafe(odd, CauseDance) {
		g.kill(odd, CauseDance, false, false, b)
	}
}
