package rules

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
	// A card that decides the game ends it at once (RULES §3.7: the moment
	// one camp has won), whatever step runs: a speech, a vote, the night.
	if w := g.judge(); w != NoCamp {
		g.finish(w)
		return nil
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

func (g *Game) applyRedCard(e *Event) {
	s := e.Seat
	g.pending &^= s.bit()
	g.redCard |= s.bit()
	if !g.has(g.alive, s) && g.has(g.pubAlive, s) {
		// He died tonight and the table does not know it yet: he leaves the
		// table now, but stays among the night's dead (nightDead) so that
		// the dawn announces him as it would have (RedCard). No EvDeath
		// follows; a log of an older version has one, which changes
		// nothing more than this.
		g.pubAlive &^= s.bit()
		g.cands &^= s.bit()
		g.speakers &^= s.bit()
	}
}
