package rules

// The moderator's running order: proceed moves from step to step until
// someone must act; complete resolves a step once nobody is left to act.

// proceed runs the game on until a seat must act or the game ends.
func (g *Game) proceed() {
	for !g.over && g.Pending() == 0 {
		before := len(g.events)
		if w := g.winCheck(); w != NoCamp && (g.opt(OptWinCheckBeforeShot) == On || !g.shotQueued()) {
			g.finish(w)
			return
		}
		if g.qlen > 0 {
			g.startTask()
			continue
		}
		g.enter(g.resume)
		if len(g.events) == before {
			// Every step emits something; a step that does not would loop forever.
			panic("rules: the moderator is stuck at step " + g.resume.String())
		}
	}
}

func (g *Game) setResume(s Step, cut bool) {
	e := Event{Kind: EvResume, Value: int16(s)}
	if cut {
		e.Target = 1
	}
	g.emit(e)
}

// enter begins a step; a step nobody can act in is completed at once.
func (g *Game) enter(s Step) {
	switch s {
	case StepElect:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(s), Mask: g.pubAlive})
	case StepElectPK, StepSheriffPKVote, StepPKVote:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(s), Mask: g.voters(s)})
	case StepNight:
		g.enterNight()
	case StepWitch:
		w := g.firstOf(Witch, g.alive)
		if w == NoSeat || (g.healUsed && g.poisonUsed) {
			g.resolveNight()
			return
		}
		told := g.attack
		if g.opt(OptWitchInformed) == InformedWhileHealUnused && g.healUsed {
			told = NoSeat
		}
		g.emit(Event{Kind: EvWitchTold, To: w.bit(), Seat: w, Target: told})
		g.emit(Event{Kind: EvStep, To: w.bit(), Value: int16(s), Mask: w.bit()})
	case StepSignup:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(s), Mask: g.pubAlive})
	case StepCampaign:
		g.nextSpeaker(s, g.n, g.cands)
		return
	case StepSheriffPK, StepPK:
		g.nextSpeaker(s, g.n, g.tied&g.pubAlive)
		return
	case StepWithdraw:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(s), Mask: g.cands})
	case StepSheriffVote, StepVote:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(s), Mask: g.voters(s)})
	case StepDawn:
		g.dawn()
		return
	case StepOrder:
		g.beginSpeeches()
		return
	case StepDusk:
		g.enterNight()
		return
	}
	if g.Pending() == 0 {
		g.complete()
	}
}

// voters of a vote step.
func (g *Game) voters(s Step) uint32 {
	switch s {
	case StepElect, StepElectPK:
		return g.pubAlive
	case StepSheriffVote, StepSheriffPKVote:
		return g.pubAlive &^ (g.cands | g.withdrawn)
	case StepPKVote:
		return g.pubAlive &^ g.noVote &^ g.tied
	}
	return g.pubAlive &^ g.noVote
}

// targets a vote step allows.
func (g *Game) targets(s Step) uint32 {
	switch s {
	case StepElectPK, StepSheriffPKVote, StepPKVote:
		return g.tied & g.pubAlive
	case StepSheriffVote:
		return g.cands
	}
	return g.pubAlive
}

// nextSpeaker gives the floor to the next seat of speakers after from, in
// the round's direction, or completes the round.
func (g *Game) nextSpeaker(s Step, from Seat, speakers uint32) {
	speakers &= g.pubAlive | g.cands
	dir := Seat(1)
	if s == StepSpeech && g.dir < 0 {
		dir = -1
	}
	cur := from
	for i := Seat(0); i < g.n; i++ {
		cur += dir
		if cur > g.n {
			cur = 1
		} else if cur < 1 {
			cur = g.n
		}
		if g.has(speakers, cur) {
			g.emit(Event{Kind: EvStep, Public: true, Value: int16(s), Seat: cur, Mask: speakers})
			return
		}
	}
	g.roundOver(s)
}

// roundOver: every speaker of a round has spoken.
func (g *Game) roundOver(s Step) {
	switch s {
	case StepCampaign:
		g.setResume(StepWithdraw, false)
	case StepSheriffPK:
		g.setResume(StepSheriffPKVote, false)
	case StepSpeech:
		g.setResume(StepVote, false)
	case StepPK:
		g.setResume(StepPKVote, false)
	}
}

// complete resolves the current step once nobody is left to act in it.
func (g *Game) complete() {
	switch s := g.step; s {
	case StepNight:
		g.resolveAttack()
		g.setResume(StepWitch, false)
	case StepWitch:
		g.resolveNight()
	case StepCampaign, StepSheriffPK, StepSpeech, StepPK:
		g.nextSpeaker(s, g.stepSeat, g.speakers)
	case StepOrder:
		g.nextSpeaker(StepSpeech, g.sheriff, g.pubAlive)
	case StepDiscussion:
		g.setResume(StepVote, false)
	case StepSignup:
		switch {
		case g.cands == 0:
			g.emit(Event{Kind: EvSheriff, Public: true, Value: lostNoCandidate})
			g.setResume(StepDawn, false)
		case g.cands == g.pubAlive:
			g.emit(Event{Kind: EvSheriff, Public: true, Value: lostNoVoter})
			g.setResume(StepDawn, false)
		default:
			g.setResume(StepCampaign, false)
		}
	case StepWithdraw:
		switch popcount(g.cands) {
		case 0:
			g.emit(Event{Kind: EvSheriff, Public: true, Value: lostNoCandidate})
			g.setResume(StepDawn, false)
		case 1:
			g.emit(Event{Kind: EvSheriff, Public: true, Seat: g.lowest(g.cands), Value: elected})
			g.setResume(StepDawn, false)
		default:
			g.setResume(StepSheriffVote, false)
		}
	case StepElect, StepElectPK, StepSheriffVote, StepSheriffPKVote, StepVote, StepPKVote:
		g.closeVote(s)
	}
}

// Reasons carried by EvSheriff.
const (
	elected         = 0
	lostNoCandidate = 1
	lostNoVoter     = 2
	lostTie         = 3
	lostExplosion   = 4 // 吞警徽
	lostIdiot       = 5
)

func (g *Game) lowest(m uint32) Seat {
	for s := Seat(1); s <= g.n; s++ {
		if g.has(m, s) {
			return s
		}
	}
	return NoSeat
}

// beginSpeeches starts the day's discussion by speech_order.
func (g *Game) beginSpeeches() {
	switch {
	case g.opt(OptSpeechOrder) == SpeechFree:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(StepDiscussion), Mask: g.pubAlive})
	case g.opt(OptSpeechOrder) == SpeechSheriffChooses && g.sheriff != NoSeat && g.has(g.pubAlive, g.sheriff):
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(StepOrder), Seat: g.sheriff, Mask: g.sheriff.bit()})
	default:
		// From the left of the night's first victim; after a peaceful night
		// from the left of the sheriff, or from seat 1.
		from := g.lowest(g.lastDawn)
		if from == NoSeat {
			from = g.sheriff
		}
		if from == NoSeat {
			from = g.n
		}
		g.nextSpeaker(StepSpeech, from, g.pubAlive)
	}
}

// tally counts a closed vote in half-votes and returns the top seats.
func (g *Game) tally(s Step) (top uint32, best int) {
	var score [MaxSeats + 1]int
	exile := s == StepVote || s == StepPKVote
	for v := Seat(1); v <= g.n; v++ {
		t := g.votes[v]
		if !g.has(g.voted, v) || t == NoSeat {
			continue
		}
		w := 2
		if exile && v == g.sheriff {
			w = 4
			if g.opt(OptSheriffWeight) == Weight1_5 {
				w = 3
			}
		}
		score[t] += w
	}
	for t := Seat(1); t <= g.n; t++ {
		switch {
		case score[t] > best:
			top, best = t.bit(), score[t]
		case score[t] == best && best > 0:
			top |= t.bit()
		}
	}
	return top, best
}

func (g *Game) closeVote(s Step) {
	for v := Seat(1); v <= g.n; v++ {
		if g.has(g.voted, v) {
			g.emit(Event{Kind: EvBallot, Public: true, Seat: v, Target: g.votes[v]})
		}
	}
	top, _ := g.tally(s)
	res := Event{Kind: EvVoteResult, Public: true, Value: int16(s), Mask: top}
	single := popcount(top) == 1
	if single {
		res.Target = g.lowest(top)
	}
	exileVote := s == StepVote || s == StepPKVote
	// 002: the first discussion day's top vote elects the sheriff instead.
	electing := !exileVote || (g.opt(OptSheriff) == SheriffDay1TopVote && !g.sheriffDone)
	tieRule := g.opt(OptVoteTie)
	if !single && top != 0 && s == StepVote && tieRule == TieRandom {
		res.Target, res.Draws = g.pick(top), 1
	}
	g.emit(res)
	chosen := res.Target
	pk := res.Target == NoSeat && top != 0 &&
		(s == StepElect || s == StepSheriffVote || (s == StepVote && tieRule == TiePK))
	switch {
	case pk:
		switch s {
		case StepElect:
			g.setResume(StepElectPK, false)
		case StepSheriffVote:
			g.setResume(StepSheriffPK, false)
		default:
			g.setResume(StepPK, false)
		}
	case electing:
		if chosen != NoSeat {
			g.emit(Event{Kind: EvSheriff, Public: true, Seat: chosen, Value: elected})
		} else {
			g.emit(Event{Kind: EvSheriff, Public: true, Value: lostTie})
		}
		switch s {
		case StepElect, StepElectPK:
			g.setResume(StepNight, false)
		case StepVote, StepPKVote:
			g.setResume(StepDusk, false)
		default:
			g.setResume(StepDawn, false)
		}
	default:
		g.exile(chosen)
	}
}
