package rules

// The ghost bride (鬼魂新娘, ROLES-MORE-2.md) acts in a setup stage of her
// own on night 1, after cupid: she weds a groom (the groom is told her seat,
// she his; neither the card), then names a witness, who is told the seats
// of the bride and groom. The three are the newlyweds' camp (新人阵营): a
// wolf among them leaves the pack (not told the team, no kill, no
// self-explosion); the bride and groom die together (殉情, cause love); from
// night 2 the two wake together and confer (EvWed, their channel). Once the
// wolf camp is out (the pack dead) the newlyweds hold the kill: a wolf
// witness alive, else the bride and groom jointly, else the witness. The
// camps are judged one by one (win.go): the newlyweds are out when the
// three are dead. The bride reads as good.
//
// Choices where the page is silent (docs/rules.md): her timer weds her left
// neighbour and names the next living player on the groom's left; a player
// already in the lovers' camp (cupid's black lovers) stays in it, bound to
// the bride in death but not of her camp; a mixed blood who models on one
// of the three wins with the newlyweds but does not keep their camp in; a
// wolf newlywed never self-explodes, the pack dead or not; the couple's
// meeting is not a village power (the elder's loss and the blood moon leave
// it), and the nightmare's fear keeps the feared one asleep, leaving no
// meeting.

type brideState struct {
	groom, witness Seat
	wedBlood       uint32 // a mixed blood whose model is a newlywed: wins with them
	wedMet         uint32 // tonight's meeting of the bride and groom: who was woken
}

// CallWed is the group call of the bride and groom's meeting (night 2 on).
const CallWed Role = 254

var wedCall roleHooks

func init() {
	hooks[GhostBride] = roleHooks{
		setup: func(g *Game) bool {
			s := g.firstOf(GhostBride, g.alive)
			if s == NoSeat || g.groom != NoSeat {
				return false
			}
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepBride), Role: GhostBride, Mask: s.bit()})
			return true
		},
		step: StepBride,
		check: func(g *Game, c Command) (refusal, bool) {
			switch c.Kind {
			case CmdGroom:
				if g.groom != NoSeat {
					return refuse(CodeNotNow, "", "the bride has wed her groom: she names the witness now"), true
				}
			case CmdWitness:
				if g.groom == NoSeat {
					return refuse(CodeNotNow, "", "the bride weds her groom before she names the witness"), true
				}
				if c.Target == g.groom {
					return refuse(CodeTarget, "", "the witness must be a third player, not the groom"), true
				}
			default:
				return accept, false
			}
			if !g.anotherLiving(c) {
				return refuse(CodeTarget, "", "the bride must name another living player"), true
			}
			return accept, true
		},
		exec: func(g *Game, c Command) {
			if c.Kind == CmdGroom {
				g.emit(Event{Kind: EvGroom, To: c.Seat.bit() | c.Target.bit(), Seat: c.Seat, Target: c.Target})
				return
			}
			couple := c.Seat.bit() | g.groom.bit()
			g.emit(Event{Kind: EvWitness, To: c.Seat.bit() | c.Target.bit(), Seat: c.Seat, Target: c.Target, Mask: couple})
		},
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if g.groom == NoSeat {
				c[0] = choice(CmdGroom, g.alive&^s.bit(), false)
			} else {
				c[0] = choice(CmdWitness, g.alive&^s.bit()&^g.groom.bit(), false)
			}
			return c
		},
		mustAct: func(g *Game, s Seat) (refusal, Command, bool) {
			if g.groom == NoSeat {
				why := refuse(CodeRule, "", "the ghost bride must wed a groom")
				return why, Command{Seat: s, Kind: CmdGroom, Target: g.leftOf(s, g.alive)}, true
			}
			why := refuse(CodeRule, "", "the ghost bride must name a witness")
			return why, Command{Seat: s, Kind: CmdWitness, Target: g.leftOf(g.groom, g.alive&^s.bit())}, true
		},
		nightFalls: func(g *Game) { g.wedMet = 0 },
		readsWolf:  readsGood,
	}
	wedCall = roleHooks{
		wake: func(g *Game) {
			if g.night > 1 {
				g.meetCouple()
			}
		},
		awake: func(g *Game) bool { return g.couple()&g.alive != 0 },
	}
}

// couple is the bride and groom once wed (0 before).
func (g *Game) couple() uint32 {
	if g.groom == NoSeat {
		return 0
	}
	return g.groom.bit() | g.holder[GhostBride].bit()&^1
}

// newlyweds is the newlyweds' camp: the bride from the deal, her groom and
// witness once named, but a player already in the lovers' camp.
func (g *Game) newlyweds() uint32 {
	var m uint32
	if g.cardSet&(1<<GhostBride) != 0 {
		m = g.holder[GhostBride].bit() &^ 1
	}
	if g.groom != NoSeat {
		m |= g.groom.bit()
	}
	if g.witness != NoSeat {
		m |= g.witness.bit()
	}
	return m &^ g.loversCamp
}

// meetCouple wakes the bride and groom together (night 2 on).
func (g *Game) meetCouple() {
	c := g.couple()
	awake := c & g.alive
	if g.feared(g.fear) {
		awake &^= g.fear.bit()
	}
	if popcount(awake) < 2 {
		return
	}
	g.emit(Event{Kind: EvWed, To: awake, Mask: c, Value: g.night})
}

func (g *Game) applyGroom(e *Event) { g.groom = e.Target }

func (g *Game) applyWed(e *Event) { g.wedMet = e.To }

func (g *Game) applyWitness(e *Event) {
	g.witness = e.Target
	g.pending &^= e.Seat.bit()
}

// Couple is who of the bride and groom met tonight (the moderator's view,
// for their channel; empty by day).
func (g *Game) Couple() uint32 {
	if !g.isNight {
		return 0
	}
	return g.wedMet
}

// coupleDies: the other of the bride and groom dies with s (殉情), as a
// lover does (cause love).
func (g *Game) coupleDies(s Seat, public, silent bool, b *batch) {
	if c := g.couple(); g.has(c, s) {
		if p := c &^ s.bit(); p&g.alive != 0 {
			g.kill(g.lowest(p), CauseLove, public, silent, b)
		}
	}
}

// wedKillers hold the kill once the wolf camp is out: a wolf witness
// alive, else the bride and groom alive, else the witness.
func (g *Game) wedKillers() uint32 {
	m := g.newlyweds() & g.alive
	w := g.witness.bit() &^ 1 & m
	switch {
	case w&g.wolves != 0:
		return w
	case m&g.couple() != 0:
		return m & g.couple()
	}
	return w
}
