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
	if g.paused != StepNone { // a knight's duel interrupted a speech step: it resumes
		g.resumeAfterDuel()
		return
	}
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
		if !g.wakeWitch() {
			g.afterWitch()
			return
		}
	case StepCheck:
		g.wakeChecks()
	case StepMasquerade:
		g.wakeMasquerade()
	case StepSignup, StepRewind:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(s), Mask: g.pubAlive})
	case StepCampaign:
		g.nextSpeaker(s, g.n, g.cands)
		return
	case StepSheriffPK, StepPK:
		g.nextSpeaker(s, g.n, g.tied&g.pubAlive)
		return
	case StepWithdraw:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(s), Mask: g.stillRunning()})
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

// complete resolves the current step once nobody is left to act in it.
func (g *Game) complete() {
	switch s := g.step; s {
	case StepNight:
		g.endNightStep()
	case StepWitch:
		g.afterWitch()
	case StepCheck:
		g.afterChecks()
	case StepMasquerade:
		g.resolveNight()
	case StepCampaign, StepSheriffPK, StepSpeech, StepPK:
		g.nextSpeaker(s, g.stepSeat, g.speakers)
	case StepOrder:
		g.nextSpeaker(StepSpeech, g.sheriff, g.pubAlive)
	case StepDiscussion:
		g.setResume(StepVote, false)
	case StepSignup:
		g.closeSignup()
	case StepRewind:
		g.closeRewind()
	case StepWithdraw:
		g.closeWithdraw()
	case StepElect, StepElectPK, StepSheriffVote, StepSheriffPKVote, StepVote, StepPKVote:
		g.closeVote(s)
	case StepThief, StepCupid, StepNightmare, StepMagician, StepEclipse, StepBride, StepMerchant, StepLucky, StepWarden:
		g.nextNightStage(s)
	case StepTrade:
		g.closeTrade()
		g.nextNightStage(s)
	case StepSeqVote:
		g.nextCandidate(g.stepSeat, false)
	case StepMobVote:
		g.nextMobVoter()
	case StepNightShot:
		g.nextNightShot()
	}
}

func (g *Game) lowest(m uint32) Seat {
	for s := Seat(1); s <= g.n; s++ {
		if g.has(m, s) {
			return s
		}
	}
	return NoSeat
}
