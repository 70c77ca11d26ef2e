package rules

// The hunter (猎人) shoots when he dies (shot.go); poisoned only with
// hunter_shoots_when_poisoned, and not once the village has lost its powers.

func init() {
	hooks[Hunter] = roleHooks{
		shoots: func(g *Game, s Seat) bool {
			return g.villagePower() && g.shotAllowed(s, g.opt(OptHunterShootsWhenPoisoned) == On)
		},
	}
}
