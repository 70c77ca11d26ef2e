package rules

// The blood moon apostle (血月使徒, ROLES-MORE.md) is a wolf of the pack.
// When he self-explodes, during the following night no village role may use
// a night power: villagePower is false that night, so the village roles
// are not woken (their calls are still spoken: the narration is unchanged),
// the guard protects nobody, the witch does not wake, the little girl does
// not spy. Death triggers are not night powers: a hunter killed that night
// still shoots. The moderator alone records it (EvBloodMoon); the table saw
// a wolf explode, not his card.

type bloodMoonState struct {
	bloodNight int16 // the night without village powers (0: none)
}

func init() {
	hooks[BloodMoon] = roleHooks{
		onDeath: func(g *Game, s Seat, c Cause, public bool) (uint32, Cause) {
			if c == CauseExplode {
				g.emit(Event{Kind: EvBloodMoon, Seat: s, Value: g.night + 1})
			}
			return 0, CauseNone
		},
	}
}

// bloodMoonNight: tonight is the night after the blood moon apostle's
// self-explosion.
func (g *Game) bloodMoonNight() bool {
	return g.isNight && g.bloodNight != 0 && g.night == g.bloodNight
}
