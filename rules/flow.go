package rules

// The moderator's running order: proceed moves from step to step until
// someone must act; complete resolves a step once nobody is left to act.

// proceed runs the game on until a seat must act or the game ends.
func (g *Game) proceed() {
	for !g.over && g.Pending() == 0 {
		before := len(g.events)
		// The night is judged once it is resolved, at the start of the day.
		if w := g.judgeUnlessNight(); w != NoCamp && (g.opt(OptWinCheckBeforeShot) == On || !g.shotQueued()) {
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

func (g *Game) judgeUnlessNight() Camp {
	if g.isNight {
		return NoCamp
	}
	return g.judge()
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
	case StepVote, StepPKVote:
		if g.beginVoteRound(s) {
			return
		}
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(s), Mask: g.voters(s)})
	case StepElectPK, StepSheriffVote, StepSheriffPKVote:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(s), Mask: g.voters(s)})
	case StepNight:
		g.enterNight()
	case StepWitch:
		w := g.firstOf(Witch, g.alive)
		if w == NoSeat || (g.healUsed && g.poisonUsed) || !g.villagePower() {
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
	}
	v := g.pubAlive &^ g.noVote
	if g.voteDay == g.day {
		v &= g.voteOnly // named by the scapegoat
	}
	if s == StepPKVote || (g.exileRounds > 0 && (s == StepSeqVote || s == StepMobVote)) {
		v &^= g.tied // the tied do not vote in their own re-vote
	}
	return v
}

// targets a vote step allows.
func (g *Game) targets(s Step) uint32 {
	switch s {
	case StepElectPK, StepSheriffPKVote, StepPKVote:
		return g.tied & g.pubAlive
	case StepSheriffVote:
		return g.cands
	case StepSeqVote, StepMobVote:
		if g.exileRounds > 0 {
			return g.tied & g.pubAlive
		}
	}
	return g.pubAlive
}

// beginVoteRound starts a round of the exile vote in the sequential or
// angry-mob form (day_vote); it reports false for the simultaneous form.
// Both go round the table from the left of the last victim.
func (g *Game) beginVoteRound(s Step) bool {
	mode := g.opt(OptDayVote)
	if mode == DayVoteSimultaneous {
		return false
	}
	from := g.lowest(g.lastDawn)
	if from == NoSeat {
		from = g.n
	}
	if mode == DayVoteSequential {
		g.nextCandidate(from, true)
		return true
	}
	voters := g.voters(StepMobVote)
	for i, cur := Seat(0), from; i < g.n; i++ {
		cur = cur%g.n + 1
		if g.has(voters, cur) {
			g.emit(Event{Kind: EvStep, Public: true, Value: int16(StepMobVote), Seat: cur, Mask: voters, Target: 1})
			return true
		}
	}
	g.closeVote(StepMobVote) // nobody may vote
	return true
}

// nextCandidate moves a sequential vote to the next candidate after from:
// the voters whose hand is still free raise it for him or not.
func (g *Game) nextCandidate(from Seat, first bool) {
	cands := g.targets(StepSeqVote)
	free := g.voters(StepSeqVote)
	if !first {
		free &^= g.voted
	}
	for i, cur := Seat(0), from; i < g.n && free != 0; i++ {
		cur = cur%g.n + 1
		if !first && cur == g.seqStart {
			break
		}
		if g.has(cands, cur) {
			e := Event{Kind: EvStep, Public: true, Value: int16(StepSeqVote), Seat: cur, Mask: free}
			if first {
				e.Target = 1
			}
			g.emit(e)
			return
		}
	}
	g.closeVote(StepSeqVote)
}

// nextSpeaker gives the floor to the next seat of speakers after from, in
// the round's direction, or completes the round.
func (g *Game) nextSpeaker(s Step, from Seat, speakers uint32) {
	speakers &= g.pubAlive
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
		g.spyReport()
		g.resolveAttack()
		g.wakeTold()
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
	case StepThief, StepCupid:
		g.nextNightStage(s)
	case StepSeqVote:
		g.nextCandidate(g.stepSeat, false)
	case StepMobVote:
		g.nextMobVoter()
	}
}

func (g *Game) nextMobVoter() {
	for i, cur := Seat(0), g.stepSeat; i < g.n; i++ {
		cur = cur%g.n + 1
		if g.has(g.speakers, cur) {
			g.emit(Event{Kind: EvStep, Public: true, Value: int16(StepMobVote), Seat: cur, Mask: g.speakers})
			return
		}
	}
	g.closeVote(StepMobVote)
}

// Reasons carried by EvSheriff.
const (
	elected         = 0
	lostNoCandidate = 1
	lostNoVoter     = 2
	lostTie         = 3
	lostExplosion   = 4 // 吞警徽
	lostIdiot       = 5
	lostRedCard     = 6
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

// weight of v's ballot in half-votes: the sheriff's counts
// sheriff_vote_weight in the exile vote.
func (g *Game) weight(s Step, v Seat) int {
	exile := s == StepVote || s == StepPKVote || s == StepSeqVote || s == StepMobVote
	if exile && v == g.sheriff {
		if g.opt(OptSheriffWeight) == Weight1_5 {
			return 3
		}
		return 4
	}
	return 2
}

// scores counts a closed vote in half-votes. A ballot of or for a player
// removed during the vote (red card) is void.
func (g *Game) scores(s Step) (score [MaxSeats + 1]int) {
	for v := Seat(1); v <= g.n; v++ {
		if t := g.votes[v]; g.has(g.voted, v) && t != NoSeat && g.has(g.pubAlive, t) && g.has(g.pubAlive, v) {
			score[t] += g.weight(s, v)
		}
	}
	return score
}

// topBelow is the set of seats with the highest non-zero score under limit
// (limit 0: no limit), and that score.
func (g *Game) topBelow(score *[MaxSeats + 1]int, limit int) (top uint32, best int) {
	for t := Seat(1); t <= g.n; t++ {
		switch sc := score[t]; {
		case sc == 0 || (limit > 0 && sc >= limit):
		case sc > best:
			top, best = t.bit(), sc
		case sc == best:
			top |= t.bit()
		}
	}
	return top, best
}

func (g *Game) closeVote(s Step) {
	open := s == StepSeqVote || s == StepMobVote // ballots were public as cast
	if !open {
		for v := Seat(1); v <= g.n; v++ {
			if g.has(g.voted, v) {
				g.emit(Event{Kind: EvBallot, Public: true, Seat: v, Target: g.votes[v], Value: 1})
			}
		}
	}
	score := g.scores(s)
	top, best := g.topBelow(&score, 0)
	exileVote := s == StepVote || s == StepPKVote || open
	firstRound := s == StepElect || s == StepSheriffVote || (exileVote && g.exileRounds == 0)
	res := Event{Kind: EvVoteResult, Public: true, Value: int16(s), Mask: top}
	if s == StepMobVote && firstRound && top != 0 && popcount(top) == 1 {
		// The angry mob's candidates are the top two (more on a tie).
		second, _ := g.topBelow(&score, best)
		res.Mask |= second
		top = res.Mask
	}
	single := popcount(top) == 1
	if single {
		res.Target = g.lowest(top)
	}
	// 002: the first discussion day's top vote elects the sheriff instead.
	electing := !exileVote || (g.opt(OptSheriff) == SheriffDay1TopVote && !g.sheriffDone)
	tieRule := g.opt(OptVoteTie)
	sg := g.scapegoat()
	tie := !single && top != 0
	mob := s == StepMobVote
	switch {
	case tie && exileVote && !electing && sg != NoSeat && (!mob || !firstRound):
		// The scapegoat dies instead of the tied (000), whatever vote_tie says.
	case tie && firstRound && exileVote && !mob && tieRule == TieRandom:
		res.Target, res.Draws = g.pick(top), 1
	case tie && mob && !firstRound && g.mobRandom():
		res.Target, res.Draws = g.pick(top), 1
	}
	g.emit(res)
	chosen := res.Target
	switch {
	case tie && exileVote && !electing && sg != NoSeat && (!mob || !firstRound):
		g.emit(Event{Kind: EvExile, Public: true})
		g.setResume(StepDusk, false)
		g.dayDeath(sg, CauseScapegoat)
	case mob && firstRound && popcount(top) > 1:
		g.setResume(StepPK, false) // the candidates defend themselves, then the others vote again
	case mob && !firstRound && chosen == NoSeat && top != 0:
		g.setResume(StepPKVote, false) // a tie: the vote is taken again
	case chosen == NoSeat && top != 0 &&
		(s == StepElect || s == StepSheriffVote || (exileVote && firstRound && tieRule == TiePK)):
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
		case StepSheriffVote, StepSheriffPKVote:
			g.setResume(StepDawn, false)
		default:
			g.setResume(StepDusk, false)
		}
	default:
		g.exile(chosen)
	}
}

// mobRandom: the angry mob's re-votes have tied often enough that the
// moderator draws (mob_random_after).
func (g *Game) mobRandom() bool {
	after := int(g.opt(OptMobRandomAfter))
	return after != MobRandomNever && int(g.exileRounds) >= after
}
