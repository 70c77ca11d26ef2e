package rules

// The gravekeeper (守墓人, ROLES-MORE.md; AIWolf's MEDIUM) is told each
// night that follows a day how the player that day's exile vote put out of
// the game reads (wolf or not), or "no exile", so that his nights look
// alike. He has no command: he is told as the night's step ends (told).

// GraveNoDayYet is EvGrave's Value, with no Target, on a night no day came
// before (night 1): "no exile yet", not "nobody was exiled".
const GraveNoDayYet = 1

type gravekeeperState struct {
	buried uint32 // the exiled already accounted for at a nightfall
	grave  Seat   // the player exiled by the day just ended (NoSeat: none)
}

func init() {
	hooks[Gravekeeper] = roleHooks{
		nightFalls: func(g *Game) {
			// Only the exile vote counts (the scapegoat, whom a tied vote
			// kills, too); a revealed idiot did not die of it.
			var m uint32
			for s := Seat(1); s <= g.n; s++ {
				if !g.has(g.alive, s) && (g.cause[s] == CauseExile || g.cause[s] == CauseScapegoat) {
					m |= s.bit()
				}
			}
			g.grave = g.lowest(m &^ g.buried)
			g.buried |= m
		},
		// His reading is his night skill (验尸), as the witch's being
		// told the target is hers: the fear takes it (ROLES-MORE.md: the
		// feared is told he is feared, and nothing else).
		toldIsPower: true,
		told: func(g *Game) {
			s := g.firstOf(Gravekeeper, g.alive)
			if s == NoSeat || !g.villagePower() || g.feared(s) {
				return // 噩梦之影's fear took it
			}
			e := Event{Kind: EvGrave, To: s.bit(), Seat: s, Target: g.grave}
			if g.day == 0 { // called on night 1 too: his screen says why he learns nothing
				e.Target, e.Value = NoSeat, GraveNoDayYet
			}
			if t := g.grave; t != NoSeat && g.readsWolf(t) {
				e.Value = ResultWolf
			}
			g.emit(e)
		},
	}
}
