package rules

// The wolf beauty (狼美人) wakes alone after the wolves (001: 單獨睜眼) and
// charms one player, who dies with her; she also holds the kill with the
// pack, so her charm is owed by the due flag, not the pending mask.

type wolfBeautyState struct {
	charm Seat // the charmed player, until the next charm
}

func init() {
	nightFalls, wake, skipped := dueBesideThePack(WolfBeauty)
	hooks[WolfBeauty] = roleHooks{
		nightFalls: nightFalls,
		wake:       wake,
		due:        true,
		skipped:    skipped,
		step:       StepNight,
		check:      checkWolfBeauty,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvCharm, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if g.has(g.due, s) {
				c[0] = choice(CmdCharm, g.alive&^s.bit(), false)
			}
			return c
		},
		onDeath: func(g *Game, s Seat, c Cause, public bool) (uint32, Cause) {
			if c == CauseRedCard || g.charm == NoSeat || g.charm == s || !g.has(g.alive, g.charm) {
				return 0, CauseNone
			}
			if public {
				g.reveal(s) // exiled or shot by day, she shows her card and names the charmed
			}
			return g.charm.bit(), CauseCharm
		},
	}
}

func checkWolfBeauty(g *Game, c Command) (refusal, bool) {
	if c.Kind != CmdCharm {
		return accept, false
	}
	if c.Mask != 0 {
		return refuse(CodeTarget, "", "the wolf beauty charms one player"), true
	}
	if !g.has(g.due, c.Seat) {
		return refuse(CodeNotNow, "", "the charm is already cast tonight"), true
	}
	if !g.anotherLiving(c) {
		return refuse(CodeTarget, "", "the charm must go to another living player"), true
	}
	return accept, true
}

func (g *Game) applyCharm(e *Event) {
	g.charm = g.aimed(e.Seat, e.Target) // the magician's swap
	g.due &^= g.holder[WolfBeauty].bit()
}
