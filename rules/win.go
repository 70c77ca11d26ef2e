package rules

// Who wins: the camps of RULES.md §3.7, the wolves' condition (wolf_win),
// camp-by-camp judging with black lovers (优先判负), and the stalemate.

// CampMembers is the seats of camp c (RULES.md §3.7) as they stand, the
// lovers' camp formed in play included (moderator's view): at the end, the
// seats that won or lost with c.
func (g *Game) CampMembers(c Camp) uint32 { return g.campMembers(c) }

// campMembers lists the camps of RULES.md §3.7 as they stand.
func (g *Game) campMembers(c Camp) uint32 {
	piper := g.seatsOf(Piper, g.all)
	switch c {
	case Wolves:
		return g.wolves &^ g.loversCamp &^ g.newlyweds()
	case Lovers:
		return g.loversCamp
	case PiperCamp:
		return piper
	case Newlyweds:
		return g.newlyweds() | g.wedBlood
	case Village:
		return g.all &^ g.wolves &^ g.loversCamp &^ piper &^ g.newlyweds() &^ g.wedBlood
	}
	return 0
}

// wolfCondition: the wolves' winning condition (wolf_win) among the living.
// It may hold with no wolf left: the last wolf and the last god dying in one
// step make both camps win at once (simultaneous_win). It is judged on the
// living only.
func (g *Game) wolfCondition(wolves, others uint32) bool {
	// The wolves' ally sides with them: he is not among those they must beat.
	// The eloped black lovers no longer count for the village.
	// (Only while a wolf lives: the ally alone does not keep the wolves in.)
	var ally uint32
	if wolves != 0 && g.ally != NoSeat {
		ally = g.ally.bit()
	}
	others &^= ally
	// The possessed counts with the humans (half, parity), but the wolves
	// need not kill him (kill_all, kill_side's "everyone").
	half := popcount(wolves) >= popcount(others)
	rest := others &^ g.humans
	wed := g.newlyweds() | g.wedBlood // counted over the village's members only (鬼魂新娘)
	plain, gods := g.plain&^g.loversCamp&^ally&^wed, g.gods&^g.loversCamp&^ally&^wed
	side := rest == 0 || (plain != 0 && plain&g.alive == 0) || (gods != 0 && gods&g.alive == 0)
	switch g.opt(OptWolfWin) {
	case WinKillAll:
		return rest == 0
	case WinParity, WinHalf:
		return half
	case WinKillSide:
		return side
	}
	return half || side
}

// StalemateDays: when this many days in a row begin with no death since the
// day before, the game is a draw. No seed says it; without it a table where
// no camp can kill the other (the wolves attack nobody, the village exiles
// nobody) would never end, and a live moderator would call it.
const StalemateDays = 5

// judge checks the camps (RULES.md §3.7) and returns the winner, if any.
// Without black lovers it is the classic check; with them, each camp that
// meets its losing condition is out (优先判负) and the last camp standing wins.
func (g *Game) judge() Camp {
	if g.angelWon { // judged first (ROLES-MORE-2.md §5)
		return AngelCamp
	}
	w := g.judgeAll()
	if g.cardSet&(1<<CursedFox) != 0 && g.foxSteals(w) {
		return FoxCamp // 咒狐: alive when a camp wins, he wins alone
	}
	return w
}

// judgeAll is judge's verdict among the camps of RULES.md §3.7.
func (g *Game) judgeAll() Camp {
	if g.quiet >= StalemateDays {
		return Draw // no camp can end the game: the moderator calls it
	}
	alive := g.alive
	piper := g.seatsOf(Piper, alive)
	if g.piperWins(alive) {
		return PiperCamp // every other living player is charmed
	}
	if g.opt(OptBlackLovers) == On {
		return g.judgeCamps()
	}
	if g.lovers != 0 && alive == g.lovers && g.crossLovers() {
		return Lovers // 000 C: a cross-camp couple, last two alive
	}
	if g.newlyweds() != 0 { // the newlyweds are judged camp by camp (鬼魂新娘)
		return g.judgeCamps()
	}
	wolves := alive & g.wolves &^ g.humans // the village need not kill the possessed
	village := wolves == 0 && piper == 0
	wolf := g.wolfCondition(wolves, alive&^wolves)
	switch {
	case village && wolf:
		return g.simultaneous()
	case village:
		return Village
	case wolf:
		return Wolves
	}
	return NoCamp
}

func (g *Game) simultaneous() Camp {
	switch g.opt(OptSimultaneousWin) {
	case SimulWolves:
		return Wolves
	case SimulDraw:
		return Draw
	}
	return Village
}

func (g *Game) judgeCamps() Camp {
	alive := g.alive
	var newly [numCamps]bool
	for _, c := range [...]Camp{Wolves, Village, Lovers, PiperCamp, Newlyweds} {
		m := g.campMembers(c)
		if m == 0 || g.lost[c] {
			continue
		}
		// The wolf camp is out with its last wolf, the possessed alive or not.
		out := m&alive&^g.humans == 0
		switch c {
		case Village: // the village's own losing conditions hold after the wolves are out too
			w := g.campMembers(Wolves) & alive &^ g.humans
			out = out || g.wolfCondition(w, alive&^w&^g.campMembers(Newlyweds))
		case Newlyweds: // out when the three are dead, whoever models on them
			out = g.newlyweds()&alive == 0
		}
		if out {
			newly[c] = true
			g.emit(Event{Kind: EvCampLost, To: m & g.alive, Value: int16(c)})
		}
	}
	if newly[Wolves] && g.loversCamp != 0 && g.lovers&g.loversCamp&alive != 0 && !g.widowKnife {
		k := g.lovers & g.loversCamp & alive
		g.emit(Event{Kind: EvKillPower, To: g.loversCamp & alive, Mask: k}) // told to the camp (002: 通知黑情侣阵营)
	}
	if newly[Wolves] && !newly[Newlyweds] && !g.lost[Newlyweds] && g.newlyweds()&alive != 0 {
		g.emit(Event{Kind: EvKillPower, To: g.newlyweds() & alive, Mask: g.wedKillers(), Role: GhostBride}) // the newlyweds hold the kill
	}
	n, last := 0, NoCamp
	for _, c := range [...]Camp{Village, Wolves, Lovers, PiperCamp, Newlyweds} {
		if g.campMembers(c) != 0 && !g.lost[c] {
			n, last = n+1, c
		}
	}
	switch {
	case n == 1 && last == PiperCamp:
		return NoCamp // the piper wins only by charming everyone left
	case n == 1:
		return last
	case n == 0:
		if newly[Village] && newly[Wolves] {
			return g.simultaneous()
		}
		return Draw
	}
	return NoCamp
}
