package rules

// The day: its opening, the dawn announcement, the speeches and the exile.

// startDay opens the next day: the sheriff campaign first on its day, then
// the dawn announcement.
func (g *Game) startDay() {
	g.emit(Event{Kind: EvDay, Public: true, Value: g.day + 1})
	switch {
	case g.judge() != NoCamp:
		// The night decided the game; only a shot at dawn can still change it
		// (win_check_before_shot=off), so no campaign.
		g.setResume(StepDawn, false)
	case g.opt(OptSheriff) == SheriffDay1Campaign && !g.sheriffDone && g.campExploded:
		g.growl()                        // the bear growls before the campaign (ROLES-MORE-2.md) …
		g.announceBans()                 // … and the silence is told: it covers the campaign's speeches
		g.setResume(StepWithdraw, false) // 双爆: the campaign resumes at the withdraw step
	case g.opt(OptSheriff) == SheriffDay1Campaign && !g.sheriffDone && g.day == 1:
		g.growl()
		g.announceBans()
		g.setResume(StepSignup, false)
	default:
		g.setResume(StepDawn, false)
	}
}

// dawn announces the night's dead (天亮了) and queues their last actions;
// with event cards, a card is drawn.
func (g *Game) dawn() {
	if !g.dawned && g.night > 0 {
		g.growl() // before the deaths (told already on a campaign day)
		dead := g.nightDead
		g.emit(Event{Kind: EvDawn, Public: true, Mask: dead})
		g.announceBans()
		var b batch
		for s := Seat(1); s <= g.n; s++ {
			if g.has(dead, s) {
				if g.opt(OptRevealRoleOnDeath) == On {
					g.reveal(s)
				}
				if !g.has(g.redCard, s) { // sent off before the dawn: no last actions
					b.add(s, g.cause[s], false)
				}
			}
		}
		g.queueTasks(&b, false, true)
		g.tellPowersLost()
	}
	g.drawEventCard()
	if g.cut {
		g.setResume(StepDusk, false)
	} else {
		g.setResume(StepOrder, false)
	}
}

// nextSpeaker gives the floor to the next seat of speakers after from, in
// the round's direction, or completes the round.
func (g *Game) nextSpeaker(s Step, from Seat, speakers uint32) {
	speakers &= g.pubAlive &^ g.mute() // the silenced has no turn (禁言长老)
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

// beginSpeeches starts the day's discussion by speech_order.
func (g *Game) beginSpeeches() {
	switch {
	case g.opt(OptSpeechOrder) == SpeechFree:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(StepDiscussion), Mask: g.pubAlive &^ g.mute()})
	case g.opt(OptSpeechOrder) == SpeechSheriffChooses && g.sheriff != NoSeat && g.has(g.pubAlive, g.sheriff):
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(StepOrder), Seat: g.sheriff, Mask: g.sheriff.bit()})
	default:
		g.nextSpeaker(StepSpeech, g.speechStart(), g.pubAlive)
	}
}

// speechStart: the day speeches go from the left of the night's first
// victim; after a peaceful night from the left of the sheriff, or from
// seat 1.
func (g *Game) speechStart() Seat {
	from := g.lowest(g.lastDawn)
	if from == NoSeat {
		from = g.sheriff
	}
	if from == NoSeat {
		from = g.n
	}
	return from
}

// exile carries out the day vote's verdict.
func (g *Game) exile(s Seat) {
	g.emit(Event{Kind: EvExile, Public: true, Seat: s})
	g.setResume(StepDusk, false)
	if s == NoSeat {
		return
	}
	if f := hooks[g.role[s]].exiled; f != nil && f(g, s) {
		return // he answered it his own way (the idiot's reveal)
	}
	g.dayDeath(s, CauseExile)
}
