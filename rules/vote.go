package rules

// The votes: the sheriff election and the exile vote, simultaneous,
// sequential or by angry mob (day_vote), their ties and their verdicts.

// voters of a vote step.
func (g *Game) voters(s Step) uint32 {
	switch s {
	case StepElect, StepElectPK:
		return g.pubAlive
	case StepSheriffVote, StepSheriffPKVote:
		return g.pubAlive &^ (g.cands | g.withdrawn)
	}
	v := g.pubAlive &^ g.noVote &^ g.voteBanned(s)
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
	case StepElectPK, StepPKVote:
		return g.tied & g.pubAlive
	case StepSheriffPKVote:
		return g.tied & g.cands & g.pubAlive // a PK candidate may withdraw when a kept PK resumes
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
// Both go round the table from the left of the last player killed (000:
// 从上一个被杀的玩家的左手边): last night's, or after a peaceful night the one
// exiled (or shot) the day before; from seat 1 while nobody has died.
func (g *Game) beginVoteRound(s Step) bool {
	mode := g.opt(OptDayVote)
	if mode == DayVoteSimultaneous {
		return false
	}
	from := g.lastKilled
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
	if t, w := g.extraVote(s); t != NoSeat { // the crow's curse
		score[t] += w
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
	if t, _ := g.extraVote(s); t != NoSeat { // the crow's vote, the crow not named
		g.emit(Event{Kind: EvCursedVote, Public: true, Target: t, Value: int16(s)})
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
	if g.rewindWindow(s, firstRound, electing) { // 定序王子: the result waits for the prince's window
		g.setResume(StepRewind, false)
		return
	}
	g.settleVote(s, top, res.Target, firstRound, electing)
}

// settleVote applies a closed vote's result: the top seats, the one chosen
// (NoSeat: none).
func (g *Game) settleVote(s Step, top uint32, chosen Seat, firstRound, electing bool) {
	open := s == StepSeqVote || s == StepMobVote
	exileVote := s == StepVote || s == StepPKVote || open
	tieRule := g.opt(OptVoteTie)
	sg := g.scapegoat()
	tie := popcount(top) > 1
	mob := s == StepMobVote
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
