package rules

// The hunter (猎人) shoots when he dies (shot.go); poisoned only with
// hunter_shoots_when_poisoned, and not once the village has lost its powers.

func init() {
	hooks[Hunter] = roleHooks{
		shoots: func(g *Game, s Seat) bool {
			// Not g.villagePower(): a death trigger is no night power, and the
			// blood moon's night does not take it (ROLES-MORE.md).
			return !g.powersLost && g.shotAllowed(s, g.opt(OptHunterShootsWhenPoisoned) == On)
		},
	}
}
