package rules

// The warden (典狱长, ROLES-MORE-2.md) is a wolf of the pack. From night 2,
// in a stage of his own before the dreamcatcher (§5 group 6), he may name
// two living players who have never traded (himself allowed). Both are
// woken in the next stage, the traders' (CallTraders), told each other's
// seat, and each chooses trade or betray without knowing the other's
// choice:
//   - both trade: neither can die tonight (nightSafe);
//   - both betray: tonight every night power either uses lands on the other
//     (aimed), whatever seat he named;
//   - one trades, one betrays: the one who traded dies (cause trade).
// When the warden is one of the two it is the duel (决斗): the same choices
// kill the warden, different ones the other; nothing else follows. Trade
// deaths come after the dance and the merchant's (§5 step 10); the guard and
// the heal do not stop them, the dream does.
//
// Choices where the page is silent: a trader who lets his time run out (or
// skips, or is feared: the feared may only skip) trades. The pair and the
// result are told to the two alone (EvTraders, EvTradeResult: both choices),
// never to the warden unless he is one of them; the warden's pick is his
// alone (EvPair). The pack's attack is the pack's power, not a trader's:
// betrayal does not redirect it. A power used before the trade (the lucky
// one's check, in the merchant's group) is not redirected; his shield and
// poison, resolved at dawn, are.

type wardenState struct {
	traded     uint32 // every player named to trade so far (each trades once per game)
	pair       uint32 // tonight's two traders
	betrayed   uint32 // tonight: who of the pair chose betray
	tradeSafe  uint32 // both traded: neither dies tonight
	betrayers  uint32 // both betrayed: their powers land on each other
	tradeDeath Seat   // tonight's trade death
}

// CallTraders is the group call of the two traders (see Call).
const CallTraders Role = 240

var tradersCall roleHooks

func init() {
	hooks[Warden] = roleHooks{
		nightFalls: func(g *Game) {
			g.pair, g.betrayed, g.tradeSafe, g.betrayers, g.tradeDeath = 0, 0, 0, 0, NoSeat
		},
		setup: func(g *Game) bool {
			s := g.firstOf(Warden, g.alive)
			if s == NoSeat || g.night < 2 || !g.has(g.pack(), s) || g.lost[Wolves] || popcount(g.alive&^g.traded) < 2 {
				return false
			}
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepWarden), Role: Warden, Mask: s.bit()})
			return true
		},
		nightly: true,
		step:    StepWarden,
		check: func(g *Game, c Command) (refusal, bool) {
			if c.Kind != CmdPair {
				return accept, false
			}
			switch {
			case popcount(c.Mask) != 2 || c.Mask&^g.alive != 0:
				return refuse(CodeTarget, "", "the warden names two living players"), true
			case c.Mask&g.traded != 0:
				return refuse(CodeRule, "", "each player trades at most once per game"), true
			}
			return accept, true
		},
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvPair, To: c.Seat.bit(), Seat: c.Seat, Mask: c.Mask})
		},
		choices: func(g *Game, s Seat) [2]Choice {
			if t := g.alive &^ g.traded; popcount(t) >= 2 {
				return [2]Choice{{Kind: CmdPair, Targets: t, Pick: 2}}
			}
			return [2]Choice{}
		},
		awake: func(g *Game) bool { return g.firstOf(Warden, g.alive) != NoSeat },
	}
	tradersCall = roleHooks{
		// Woken right after the warden's stage, when he named two.
		setup: func(g *Game) bool {
			if g.pair == 0 {
				return false
			}
			g.emit(Event{Kind: EvTraders, To: g.pair, Mask: g.pair})
			g.emit(Event{Kind: EvStep, To: g.pair, Value: int16(StepTrade), Mask: g.pair})
			return true
		},
		nightly: true,
		step:    StepTrade,
		check: func(g *Game, c Command) (refusal, bool) {
			if c.Kind != CmdTrade && c.Kind != CmdBetray {
				return accept, false
			}
			return accept, true
		},
		exec: func(g *Game, c Command) {
			v := int16(0)
			if c.Kind == CmdBetray {
				v = 1
			}
			g.emit(Event{Kind: EvTradeChoice, To: c.Seat.bit(), Seat: c.Seat, Value: v})
		},
		choices: func(g *Game, s Seat) [2]Choice {
			return [2]Choice{{Kind: CmdTrade, NoTarget: true}, {Kind: CmdBetray, NoTarget: true}}
		},
		skip: func(g *Game, s Seat) bool { // the default is to trade
			g.emit(Event{Kind: EvTradeChoice, To: s.bit(), Seat: s})
			return true
		},
	}
}

func (g *Game) applyPair(e *Event) {
	g.pair = e.Mask
	g.traded |= e.Mask
	g.pending &^= e.Seat.bit()
}

func (g *Game) applyTradeChoice(e *Event) {
	if e.Value == 1 {
		g.betrayed |= e.Seat.bit()
	}
	g.pending &^= e.Seat.bit()
}

// closeTrade tells the two what both chose, once both have chosen.
func (g *Game) closeTrade() {
	a := g.lowest(g.pair)
	b := g.lowest(g.pair &^ a.bit())
	v := int16(0)
	if g.has(g.betrayed, a) {
		v |= 1
	}
	if g.has(g.betrayed, b) {
		v |= 2
	}
	g.emit(Event{Kind: EvTradeResult, To: g.pair, Seat: a, Target: b, Value: v})
}

// applyTradeResult settles what the choices do tonight.
func (g *Game) applyTradeResult(e *Event) {
	a, b := e.Seat, e.Target
	ba, bb := e.Value&1 != 0, e.Value&2 != 0
	w := g.holder[Warden]
	switch {
	case w == a || w == b: // the duel
		other := a
		if w == a {
			other = b
		}
		g.tradeDeath = other
		if ba == bb {
			g.tradeDeath = w
		}
	case !ba && !bb:
		g.tradeSafe = a.bit() | b.bit()
	case ba && bb:
		g.betrayers = a.bit() | b.bit()
	case ba:
		g.tradeDeath = b
	default:
		g.tradeDeath = a
	}
}

// aimed is where the night power of caster aimed at t lands: the
// magician's swap first, then the warden's betrayal (ROLES-MORE-2.md §5
// step 2): a betrayer's power lands on the other betrayer.
func (g *Game) aimed(caster, t Seat) Seat { return g.betray(caster, g.landed(t)) }

// betray is where a power of caster lands once the warden's betrayal is
// applied to its landing t: a betrayer's lands on the other, whatever he
// named (ROLES-MORE-2.md §5: after the swap and the eclipse queen's
// rebound, lands).
func (g *Game) betray(caster, t Seat) Seat {
	if t != NoSeat && g.isNight && caster != NoSeat && g.has(g.betrayers, caster) {
		return g.lowest(g.betrayers &^ caster.bit())
	}
	return t
}

// resolveTrade: the trade death of the night (§5 step 10).
func (g *Game) resolveTrade(b *batch) {
	if t := g.tradeDeath; t != NoSeat && g.has(g.alive, t) && !g.nightSafe(t, CauseTrade) {
		g.kill(t, CauseTrade, false, false, b)
	}
}
