package rules

// The wolf king (狼王) shoots like a hunter when he dies (shot.go), never
// when poisoned.

func init() {
	hooks[WolfKing] = roleHooks{
		shoots: func(g *Game, s Seat) bool { return g.shotAllowed(s, false) },
	}
}
