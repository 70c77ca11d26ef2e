package rules

// The roles and rules of part 2: the thief, cupid and the lovers, the piper,
// the elder, the scapegoat, the little girl, the wolf ally and the event
// cards, the red card, and camp-by-camp judging (优先判负).

// Event cards of the New Moon deck, drawn in this order. The deck is a list
// so that cards can be added; the seeds describe one.
const (
	cardWolfAlly = 1 // the first dead names a non-wolf, who learns the wolves and wins with them
)

var eventDeck = [...]int16{cardWolfAlly}

func cardName(c int16) string {
	if c == cardWolfAlly {
		return "wolf_ally"
	}
	return "card?"
}

// drawEventCard draws the day's card (event_cards) and applies it.
func (g *Game) drawEventCard() {
	if g.opt(OptEventCards) != On || int(g.cardsDrawn) >= len(eventDeck) {
		return
	}
	card := eventDeck[g.cardsDrawn]
	g.emit(Event{Kind: EvEventCard, Public: true, Value: card})
	if card == cardWolfAlly && g.firstDead != NoSeat && g.ally == NoSeat {
		g.emit(Event{Kind: EvTask, Seat: g.firstDead, Value: int16(taskAlly)})
	}
}

// crossLovers: the lovers belong to different camps.
func (g *Game) crossLovers() bool {
	a := g.lowest(g.lovers)
	b := g.lowest(g.lovers &^ a.bit())
	return a != NoSeat && b != NoSeat && g.role[a].Camp() != g.role[b].Camp()
}

// link makes two players lovers (cupid, night 1) and tells them.
func (g *Game) link(cupid Seat, pair uint32) {
	g.emit(Event{Kind: EvLovers, To: pair | cupid.bit(), Seat: cupid, Mask: pair})
	a := g.lowest(pair)
	b := g.lowest(pair &^ a.bit())
	if g.opt(OptLoversSeeRoles) == On {
		g.emit(Event{Kind: EvLoverRole, To: a.bit(), Seat: b, Role: g.role[b]})
		g.emit(Event{Kind: EvLoverRole, To: b.bit(), Seat: a, Role: g.role[a]})
	}
	if g.opt(OptBlackLovers) == On && g.crossLovers() {
		// A cross-camp couple leaves its camps: with cupid (cupid_camp=lovers)
		// it forms the lovers' camp; a wolf in it loses the kill and the wolf
		// group (002).
		camp := pair
		if g.opt(OptCupidCamp) == CupidLovers {
			camp |= cupid.bit()
		}
		g.emit(Event{Kind: EvBlackLovers, To: camp, Mask: camp})
	}
}

// enchant: the piper's charms of the night.
func (g *Game) enchant(s Seat, m uint32) {
	g.emit(Event{Kind: EvEnchant, To: s.bit(), Seat: s, Mask: m})
}

// enchantable: the players the piper may charm tonight.
func (g *Game) enchantable(s Seat) uint32 { return g.alive &^ s.bit() &^ g.charmed }

// scapegoat is the living scapegoat, who dies on a tied vote.
func (g *Game) scapegoat() Seat { return g.firstOf(Scapegoat, g.pubAlive) }

// RedCard is the moderator removing a player for breaking the rules (002):
// he dies at once, publicly, and none of his own triggers runs (no shot, no
// badge, no last words, no charm). A lover still dies with him.
//
// A player who died tonight but whose death is not announced yet (the day-1
// campaign comes before the dawn) is sent off too, and the table sees it; but
// his night death stands: the dawn still names him among the night's dead,
// cause hidden, as it would have without the card. Dropping him from the
// dawn would tell the table that he was already dead, and so what the night
// did. He has no last actions. His chains (a lover, the charmed, the fox's
// tails) ran in the night.
func (g *Game) RedCard(s Seat) error {
	if g.over {
		return refuse(CodeOver, "", "the game is over").err()
	}
	if s < 1 || s > g.n {
		return refuse(CodeSeat, "", "there is no seat %d", s).err()
	}
	if !g.has(g.pubAlive, s) {
		return refuse(CodeDead, "", "seat %d is out of the game", s).err()
	}
	nightDead := !g.has(g.alive, s)
	g.emit(Event{Kind: EvRedCard, Public: true, Seat: s})
	if nightDead {
		if g.sheriff == s { // no badge to pass: it is lost
			g.emit(Event{Kind: EvSheriff, Public: true, Value: lostRedCard})
		}
	} else {
		var b batch
		g.kill(s, CauseRedCard, true, true, &b) // a lover who dies with him keeps his own last actions
		g.queueTasks(&b, true, false)
	}
	switch {
	case g.over:
	case g.step == StepSeqVote && g.stepSeat == s:
		g.nextCandidate(s, false) // hands are no longer raised for him
	case g.Pending() == 0:
		g.complete()
	}
	g.proceed()
	return nil
}

// campMembers lists the camps of RULES.md §3.7 as they stand.
func (g *Game) campMembers(c Camp) uint32 {
	piper := g.seatsOf(Piper, g.all)
	switch c {
	case Wolves:
		return g.wolves &^ g.loversCamp
	case Lovers:
		return g.loversCamp
	case PiperCamp:
		return piper
	case Village:
		return g.all &^ g.wolves &^ g.loversCamp &^ piper
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
	half := popcount(wolves) >= popcount(others)
	plain, gods := g.plain&^g.loversCamp&^ally, g.gods&^g.loversCamp&^ally
	side := others == 0 || (plain != 0 && plain&g.alive == 0) || (gods != 0 && gods&g.alive == 0)
	switch g.opt(OptWolfWin) {
	case WinKillAll:
		return others == 0
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
	if g.quiet >= StalemateDays {
		return Draw // no camp can end the game: the moderator calls it
	}
	alive := g.alive
	piper := g.seatsOf(Piper, alive)
	if piper != 0 && alive&^piper&^g.charmed == 0 {
		return PiperCamp // every other living player is charmed
	}
	if g.opt(OptBlackLovers) == On {
		return g.judgeCamps()
	}
	if g.lovers != 0 && alive == g.lovers && g.crossLovers() {
		return Lovers // 000 C: a cross-camp couple, last two alive
	}
	wolves := alive & g.wolves
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
	for _, c := range [...]Camp{Wolves, Village, Lovers, PiperCamp} {
		m := g.campMembers(c)
		if m == 0 || g.lost[c] {
			continue
		}
		out := m&alive == 0
		if c == Village { // the village's own losing conditions hold after the wolves are out too
			w := g.campMembers(Wolves) & alive
			out = out || g.wolfCondition(w, alive&^w)
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
	n, last := 0, NoCamp
	for _, c := range [...]Camp{Village, Wolves, Lovers, PiperCamp} {
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
