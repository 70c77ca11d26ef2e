package rules

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

// kill removes a player and runs the chains (the wolf beauty's charmed, the
// fox's tails). public: the table sees the death now (by day); otherwise it
// is announced at dawn.
func (g *Game) kill(s Seat, c Cause, public, noLast bool, b *batch) {
	if !g.has(g.alive, s) && !(public && g.has(g.pubAlive, s)) {
		return
	}
	g.emit(Event{Kind: EvDeath, Public: public, Seat: s, Value: int16(c)})
	b.add(s, c, noLast)
	if public && g.opt(OptRevealRoleOnDeath) == On {
		g.reveal(s)
	}
	r := g.role[s]
	if g.has(g.lovers, s) {
		if p := g.lovers &^ s.bit(); p&g.alive != 0 {
			g.kill(g.lowest(p), CauseLove, public, false, b) // 殉情
		}
	}
	if r == Elder && (c == CausePoison || c == CauseShot || c == CauseExile) && !g.powersLost {
		// The village killed the elder: every village role loses its power
		// (000); by night the table learns it at dawn.
		g.emit(Event{Kind: EvPowersLost, Public: public, Seat: s})
		if g.opt(OptIdiotDiesWithElder) == On {
			for x := Seat(1); x <= g.n; x++ {
				if g.role[x] == Idiot && g.has(g.noVote&g.alive, x) {
					g.kill(x, CauseElder, public, false, b)
				}
			}
		}
	}
	if r == WolfBeauty && c != CauseRedCard && g.charm != NoSeat && g.charm != s && g.has(g.alive, g.charm) {
		if public {
			g.reveal(s) // exiled or shot by day, she shows her card and names the charmed
		}
		g.kill(g.charm, CauseCharm, public, false, b)
	}
	if r.Camp() == Village && r != NineTailedFox {
		if f := g.firstOf(NineTailedFox, g.alive); f != NoSeat {
			lost := int16(1)
			if r.IsGod() {
				lost = 2
			}
			tails := max(int16(g.tails)-lost, 0)
			g.emit(Event{Kind: EvTails, Seat: f, Value: tails})
			if tails == 0 {
				g.kill(f, CauseTails, public, false, b)
			}
		}
	}
}

func (g *Game) reveal(s Seat) {
	if !g.has(g.revealed, s) {
		g.emit(Event{Kind: EvReveal, Public: true, Seat: s, Role: g.role[s]})
	}
}

// lastWords reports whether a death earns last words (遗言) by last_words.
func (g *Game) lastWords(c Cause, atNight bool) bool {
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
		// A self-exploded sheriff, and the white wolf king's victim, die with
		// no badge to pass: it is lost (警徽流失).
		if d.seat == g.sheriff && (d.noLast || d.cause == CauseExplode) {
			why := int16(lostExplosion)
			if d.cause == CauseRedCard {
				why = lostRedCard
			}
			g.emit(Event{Kind: EvSheriff, Public: true, Value: why})
		}
		if d.cause != CauseExplode && d.cause != CauseRedCard {
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
		if d.cause == CauseScapegoat && g.villagePower() {
			list[n] = queued{d.seat, taskVoters}
			n++
		}
		// After a self-explosion the day ends at the announcement: the night's
		// dead have no last words (001 Q1).
		if g.lastWords(d.cause, atNight) && !(atNight && g.cut) {
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

// mayShoot reports whether a dead hunter or wolf king may shoot.
func (g *Game) mayShoot(s Seat) bool {
	r := g.role[s]
	if (r != Hunter && r != WolfKing) || g.has(g.alive, s) || g.has(g.redCard, s) {
		return false
	}
	if r == Hunter && !g.villagePower() {
		return false
	}
	switch g.cause[s] {
	case CauseExplode, CauseRedCard:
		return false
	case CauseCharm, CauseLove:
		if g.opt(OptHunterShootsOnHeartbreak) == Off {
			return false
		}
	}
	if g.has(g.poisoned, s) {
		return r == Hunter && g.opt(OptHunterShootsWhenPoisoned) == On
	}
	return true
}

func (g *Game) shotQueued() bool {
	for s := Seat(1); s <= g.n; s++ {
		if g.has(g.nightDead, s) && g.mayShoot(s) {
			return true // shoots at dawn
		}
	}
	for i := uint8(0); i < g.qlen; i++ {
		q := g.queue[(g.qhead+i)%queueCap]
		if q.kind == taskSkill && g.mayShoot(q.seat) {
			return true
		}
	}
	return false
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
	if st == StepSkill && (g.role[q.seat] == Hunter || g.role[q.seat] == WolfKing) && !g.mayShoot(q.seat) {
		g.emit(Event{Kind: EvNoShot, To: q.seat.bit(), Seat: q.seat})
	}
}

// exile carries out the day vote's verdict.
func (g *Game) exile(s Seat) {
	g.emit(Event{Kind: EvExile, Public: true, Seat: s})
	g.setResume(StepDusk, false)
	if s == NoSeat {
		return
	}
	if g.role[s] == Idiot && !g.has(g.revealed, s) && g.villagePower() {
		// The idiot shows his card, survives, and loses his vote and the badge.
		g.emit(Event{Kind: EvReveal, Public: true, Seat: s, Role: Idiot, Value: 1})
		if g.sheriff == s {
			g.emit(Event{Kind: EvSheriff, Public: true, Value: lostIdiot})
		}
		return
	}
	g.dayDeath(s, CauseExile)
}

func (g *Game) shoot(s, t Seat) {
	g.reveal(s)
	g.emit(Event{Kind: EvShoot, Public: true, Seat: s, Target: t})
	g.dayDeath(t, CauseShot)
	if g.opt(OptActionFeedback) == On {
		g.emit(Event{Kind: EvFeedback, To: s.bit(), Seat: s, Target: t, Value: 1})
	}
}

// explode is a wolf's self-explosion (自爆): the day's remaining steps are
// skipped; in the sheriff campaign the badge is swallowed (吞警徽), or under
// double_explode the campaign is kept for the next day.
func (g *Game) explode(s, target Seat) {
	wasDead := !g.has(g.alive, s) // poisoned last night, not yet announced
	inCampaign := g.step.campaign()
	took := g.role[s] == WhiteWolfKing && target != NoSeat && !wasDead
	e := Event{Kind: EvExplode, Public: true, Seat: s}
	if took {
		e.Target = target
	}
	if inCampaign && g.opt(OptDoubleExplode) == On && !g.campExploded {
		e.Value = 1 // the campaign is kept for tomorrow
	}
	g.emit(e)
	var b batch
	if took {
		g.reveal(s)
		g.kill(s, CauseExplode, true, true, &b)
		g.reveal(target)
		g.kill(target, CauseTaken, true, true, &b)
	} else {
		g.kill(s, CauseExplode, true, false, &b)
	}
	g.queueTasks(&b, true, false)
	switch {
	case !inCampaign:
		g.setResume(StepDusk, false)
	case e.Value == 1:
		if g.cands == 0 {
			g.emit(Event{Kind: EvSheriff, Public: true, Value: lostNoCandidate})
		}
		g.setResume(StepDawn, true)
	default:
		g.emit(Event{Kind: EvSheriff, Public: true, Value: lostExplosion})
		// 001 Q3: a wolf poisoned in the night explodes without ending the day.
		cut := !wasDead || g.opt(OptDoubleExplode) == On
		g.setResume(StepDawn, cut)
	}
}

func (g *Game) finish(w Camp) {
	// The night's dead not yet announced, a red-carded one among them (RedCard).
	if g.nightDead != 0 {
		g.emit(Event{Kind: EvDawn, Public: true, Mask: g.nightDead})
	}
	g.emit(Event{Kind: EvGameOver, Public: true, Value: int16(w)})
}
