package rules

// The little girl (小女孩) spies on the wolves' turn (little_girl_spy); the
// guard's protection has no effect on her (000).

func init() {
	hooks[LittleGirl] = roleHooks{
		unguardable: true,
		packDone:    (*Game).spyReport,
	}
}

// spy is the little girl who reads the wolves' channel tonight, if any.
func (g *Game) spy() Seat {
	if g.opt(OptLittleGirlSpy) != DefaultOn || !g.villagePower() {
		return NoSeat
	}
	return g.firstOf(LittleGirl, g.alive)
}

// Spy is the little girl reading the wolves' channel tonight: NoSeat by
// day, or when there is none. A server copies the wolves' night chat to her
// with the writer's seat hidden, as the engine does with their picks.
func (g *Game) Spy() Seat {
	if !g.isNight || g.night == 0 { // night 0 has no wolves' turn
		return NoSeat
	}
	return g.spy()
}

// spyReport tells the little girl what she saw of the wolves' turn, once,
// when it ends: the set of players named by at least one wolf's standing
// pick, the wolves hidden. One event a night, whatever the number of wolves
// and of picks, emitted at a fixed point: one a pick would tell her how many
// wolves live and when each chose.
func (g *Game) spyReport() {
	lg := g.spy()
	k := g.killers()
	if lg == NoSeat || g.has(k, lg) || g.feared(lg) { // a black lover with the widow knife reads the picks anyway
		return
	}
	var named uint32
	for w := Seat(1); w <= g.n; w++ {
		if g.has(g.picked&k, w) && g.picks[w] != NoSeat {
			named |= g.picks[w].bit()
		}
	}
	g.emit(Event{Kind: EvSpy, To: lg.bit(), Mask: named})
}
