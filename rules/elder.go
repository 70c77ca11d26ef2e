package rules

// The elder (长者) survives the wolves' first attack; if the village kills
// him (poison, shot, exile) every village role loses its power (000).

type elderState struct {
	elderLives int8
	powersLost bool // the village killed the elder
	powersTold bool // … and the table was told
}

func init() {
	hooks[Elder] = roleHooks{
		start: func(g *Game) { g.elderLives = 2 },
		attacked: func(g *Game, t Seat, hit, healed, guarded bool) bool {
			switch {
			case hit && g.elderLives > 1 && g.poisonT != t:
				// The first wound does not kill him, and is not announced.
			case !hit && healed && !guarded && g.elderLives > 1 && g.opt(OptElderHealConsumesLife) == DefaultOn:
			default:
				return false
			}
			g.emit(Event{Kind: EvElderLife, Seat: t})
			return true
		},
		onDeath: func(g *Game, s Seat, c Cause, public bool) (uint32, Cause) {
			if (c != CausePoison && c != CauseShot && c != CauseExile) || g.powersLost {
				return 0, CauseNone
			}
			// By night the table learns it at dawn (tellPowersLost).
			g.emit(Event{Kind: EvPowersLost, Public: public, Seat: s})
			if g.opt(OptIdiotDiesWithElder) == On {
				return g.seatsOf(Idiot, g.noVote&g.alive), CauseElder
			}
			return 0, CauseNone
		},
	}
}

// villagePower reports whether a village role still has its power: not
// once the village killed the elder, nor in the night after the blood moon
// apostle's self-explosion (blood_moon.go).
func (g *Game) villagePower() bool { return !g.powersLost && !g.bloodMoonNight() }

func (g *Game) applyPowersLost(e *Event) {
	g.powersLost = true
	g.powersTold = g.powersTold || e.Public
}

// tellPowersLost announces at dawn a loss of the night.
func (g *Game) tellPowersLost() {
	if g.powersLost && !g.powersTold {
		g.emit(Event{Kind: EvPowersLost, Public: true})
	}
}
