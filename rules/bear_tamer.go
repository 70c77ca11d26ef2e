package rules

// The bear tamer (驯熊师, ROLES-MORE-2.md) has no action. Every dawn, before
// the sheriff campaign on its day and before the death announcement on the
// others, the table is told whether the bear growls (EvGrowl): it does when
// the tamer lives and one of his two neighbours reads as a wolf (bear_reads:
// reads_as, as a camp check reads him; true_camp, the wolf camp in truth).
// His neighbours are the nearest seats on each side whose players are alive
// to the table: the night's dead, not yet announced, still count, judged by
// their card. A tamer who died in the night, or before, gives no growl.

type bearState struct {
	growlTold int16 // the day whose growl the table was told
}

func init() {
	hooks[BearTamer] = roleHooks{}
}

// growl tells the table today's growl, once a day, on a board with a bear
// tamer; a day with no night before it (day 1 of a game begun by day) has
// no dawn and no growl.
func (g *Game) growl() {
	if g.cardSet&(1<<BearTamer) == 0 || g.growlTold == g.day || g.night == 0 {
		return
	}
	e := Event{Kind: EvGrowl, Public: true, Mask: g.pubAlive} // the players alive to the table as the bear is heard
	if s := g.firstOf(BearTamer, g.alive); s != NoSeat {
		l, r := g.neighbours(s)
		if g.bearGrowlsAt(l) || g.bearGrowlsAt(r) {
			e.Value = 1
		}
	}
	g.emit(e)
}

func (g *Game) bearGrowlsAt(t Seat) bool {
	if t == NoSeat {
		return false
	}
	if g.opt(OptBearReads) == BearTrueCamp {
		return g.ofWolfCamp(t)
	}
	return g.readsWolf(t)
}

// neighbours are the nearest seats to s, counter-clockwise and clockwise,
// whose players are alive to the table (NoSeat: nobody but s).
func (g *Game) neighbours(s Seat) (left, right Seat) {
	others := g.pubAlive &^ s.bit()
	for i := Seat(1); i < g.n; i++ {
		if x := (s+i-1)%g.n + 1; right == NoSeat && g.has(others, x) {
			right = x
		}
		if x := (s-i-1+g.n)%g.n + 1; left == NoSeat && g.has(others, x) {
			left = x
		}
	}
	return left, right
}
