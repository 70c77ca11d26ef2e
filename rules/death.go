package rules

import "math/bits"

// A batch collects the deaths of one resolution, in order, so that their
// consequences (shot, badge, last words) are queued in that order.
type batch struct {
	d [MaxSeats * 2]death
	n int
}

type death struct {
	seat   Seat
	cause  Cause
	noLast bool // no last actions: the white wolf king's explosion and his victim
}

func (b *batch) add(s Seat, c Cause, noLast bool) {
	if b.n < len(b.d) {
		b.d[b.n] = death{s, c, noLast}
		b.n++
	}
}

// kill removes a player and runs the chains: his lover's, his card's own
// (the wolf beauty's charmed, the elder's powers), then those of the cards
// that watch every death (the fox's tails). public: the table sees the death now (by day); otherwise it
// is announced at dawn.
func (g *Game) kill(s Seat, c Cause, public, noLast bool, b *batch) {
	if !g.has(g.alive, s) && !(public && g.has(g.pubAlive, s)) {
		return
	}
	// The white wolf king's chain: everyone it takes down has no last
	// actions (001 白狼王 A1: 相關的更多玩家也沒有). A red card silences only
	// its own target.
	chain := noLast && c != CauseRedCard
	e := Event{Kind: EvDeath, Public: public, Seat: s, Value: int16(c)}
	if chain {
		e.Mask = s.bit() // silent: the mark outlives the batch (his shot's victim, shot later)
	}
	g.emit(e)
	b.add(s, c, noLast)
	if public && g.opt(OptRevealRoleOnDeath) == On {
		g.reveal(s)
	}
	r := g.role[s]
	g.loverDies(s, public, chain, b)
	g.coupleDies(s, public, chain, b)
	if f := hooks[r].onDeath; f != nil {
		m, why := f(g, s, c, public)
		g.killAll(m, why, public, chain, b)
	}
	for m := g.cardSet; m != 0; m &= m - 1 {
		if f := hooks[bits.TrailingZeros64(m)].watch; f != nil {
			m, why := f(g, r, public)
			g.killAll(m, why, public, chain, b)
		}
	}
}

// killAll kills the seats of m, in seat order, of cause c: a chain;
// silent: of the white wolf king's, with no last actions.
func (g *Game) killAll(m uint32, c Cause, public, silent bool, b *batch) {
	for x := Seat(1); x <= g.n && m != 0; x++ {
		if g.has(m, x) {
			m &^= x.bit()
			if g.dreamSaves(x, c, public) {
				continue
			}
			g.kill(x, c, public, silent, b)
		}
	}
}

// dreamSaves: tonight's dreamer "cannot die in the night" (ROLES-MORE.md),
// so a chain of the night (the wolf beauty's charmed, the fox's last tail)
// passes him by. The night deaths the dream does not stop: his
// dreamcatcher's (cause dream, the contract's), and a lover's heartbreak
// (loverDies does not ask: lovers always die together, RULES.md). A red
// card is no night death.
func (g *Game) dreamSaves(s Seat, c Cause, public bool) bool {
	return g.isNight && !public && s == g.dreamer && c != CauseDream && c != CauseRedCard
}

func (g *Game) reveal(s Seat) {
	if !g.has(g.revealed, s) {
		g.emit(Event{Kind: EvReveal, Public: true, Seat: s, Role: g.role[s]})
	}
}

// lastWords reports whether a death earns last words (遗言) by last_words.
func (g *Game) lastWords(c Cause, atNight bool) bool {
	if c == CauseDuel { // the knight's duel kills at once, with no last words (ROLES-MORE)
		return false
	}
	switch g.opt(OptLastWords) {
	case LastWordsAll:
		return true
	case LastWordsExileOnly:
		return c == CauseExile || (c == CauseCharm && !atNight)
	case LastWordsFirstNightAndExile:
		if atNight {
			return g.night == 1
		}
		return true
	}
	return false
}

// queueTasks queues each death's last actions: the skill window (offered to
// every dying player alike, so that it tells nothing), the badge, the last
// words. front: they come before what is already queued (a death inside
// another's consequences).
func (g *Game) queueTasks(b *batch, front, atNight bool) {
	var list [MaxSeats * 6]queued
	n := 0
	for i := 0; i < b.n; i++ {
		d := b.d[i]
		// A sheriff who dies in the white wolf king's chain has no badge to
		// pass, nor one who self-explodes unless exploded_sheriff_badge=pass:
		// it is lost (警徽流失).
		exploded := d.cause == CauseExplode && g.opt(OptExplodedSheriffBadge) == ExplodedBadgeLost
		if d.seat == g.sheriff && (d.noLast || exploded) {
			why := int16(lostExplosion)
			if d.cause == CauseRedCard {
				why = lostRedCard
			}
			g.emit(Event{Kind: EvSheriff, Public: true, Value: why})
		}
		// Under night_shot=in_night the night's dead had their shot in the
		// night: the dawn opens no skill window for anyone (a public rule).
		inNight := atNight && g.opt(OptNightShot) == NightShotInNight
		if d.cause != CauseExplode && d.cause != CauseRedCard && !inNight {
			list[n] = queued{d.seat, taskSkill} // a hunter taken by the white wolf king still shoots
			n++
		}
		if d.noLast {
			continue
		}
		if d.seat == g.sheriff {
			list[n] = queued{d.seat, taskBadge}
			n++
		}
		if g.namesVoters(d.cause) {
			list[n] = queued{d.seat, taskVoters}
			n++
		}
		// After a self-explosion the day ends at the announcement: the night's
		// dead have no last words (001 Q1).
		if g.lastWords(d.cause, atNight) && !(atNight && g.cut) && g.keepsLastWords(d.seat) {
			list[n] = queued{d.seat, taskLastWords}
			n++
		}
	}
	if front {
		for i := n - 1; i >= 0; i-- {
			g.emit(Event{Kind: EvTask, Seat: list[i].seat, Value: int16(list[i].kind), Target: 1})
		}
		return
	}
	for i := 0; i < n; i++ {
		g.emit(Event{Kind: EvTask, Seat: list[i].seat, Value: int16(list[i].kind)})
	}
}

// dayDeath kills by day and queues the consequences first.
func (g *Game) dayDeath(s Seat, c Cause) {
	var b batch
	g.kill(s, c, true, false, &b)
	g.queueTasks(&b, true, false)
}

func (g *Game) startTask() {
	q := g.queue[g.qhead]
	var st Step
	switch q.kind {
	case taskSkill:
		st = StepSkill
	case taskBadge:
		st = StepBadge
	case taskVoters:
		st = StepVoters
	case taskAlly:
		st = StepAlly
	default:
		st = StepLastWords
	}
	g.emit(Event{Kind: EvStep, Public: true, Value: int16(st), Seat: q.seat, Mask: q.seat.bit()})
	if st == StepSkill && hooks[g.role[q.seat]].shoots != nil && !g.mayShoot(q.seat) {
		g.emit(Event{Kind: EvNoShot, To: q.seat.bit(), Seat: q.seat})
	}
}

func (g *Game) finish(w Camp) {
	// The night's dead not yet announced, a red-carded one among them (RedCard).
	if g.nightDead != 0 {
		g.emit(Event{Kind: EvDawn, Public: true, Mask: g.nightDead})
	}
	g.emit(Event{Kind: EvGameOver, Public: true, Value: int16(w)})
}
