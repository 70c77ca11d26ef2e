package rules

// The knight (骑士, ROLES-MORE.md) may, once per game, by day, while a
// speech step runs, reveal and duel one other living player: a wolf dies at
// once with no last words and, with knight_duel_ends_day, the day ends as
// after a self-explosion; anyone else is good, and the knight dies at once
// with no last words (以死谢罪) while the day goes on where it was. The duel
// is public; the target's card is shown only under reveal_role_on_death.

type knightState struct {
	dueled bool // the duel is spent
	// A duel that lets the day go on interrupts the running speech step so
	// that the dead's last actions (a skill window, the badge) come at once;
	// the step resumes afterwards where it was (resumeAfterDuel).
	paused         Step
	pausedSeat     Seat
	pausedSpeakers uint32 // the round's speakers still to speak (a free discussion: who is not yet done)
	pausedResume   Step   // the day's resume step while the step ran (EvResume ends the pause)
}

func init() {
	hooks[Knight] = roleHooks{
		nightFalls: func(g *Game) { g.paused = StepNone },
		anytime:    checkDuel,
		exec:       execDuel,
		anytimeChoice: func(g *Game, s Seat) Choice {
			if g.canDuel(s) {
				return Choice{Kind: CmdDuel, Targets: g.pubAlive &^ s.bit()}
			}
			return Choice{}
		},
	}
}

// canDuel: seat s holds the knight's card and may duel now (a speech step;
// the campaign's only with knight_duel_in_campaign). The village's powers
// count as lost from when the table is told (at dawn for a night's loss).
func (g *Game) canDuel(s Seat) bool {
	if g.role[s] != Knight || g.dueled || !g.has(g.pubAlive, s) || (g.powersLost && g.powersTold) {
		return false
	}
	switch g.step {
	case StepSpeech, StepPK, StepDiscussion:
		return true
	case StepCampaign, StepSheriffPK:
		return g.opt(OptKnightDuelInCampaign) == On
	}
	return false
}

func checkDuel(g *Game, c Command) (refusal, bool) {
	if c.Kind != CmdDuel {
		return accept, false
	}
	s := c.Seat
	switch {
	case !g.has(g.pubAlive, s):
		return refuse(CodeDead, "", "seat %d is out of the game", s), true
	case g.dueled:
		return refuse(CodeRule, "", "the knight duels once per game"), true
	case g.powersLost && g.powersTold:
		return refuse(CodeRule, "", "the village's roles have lost their powers"), true
	case !g.canDuel(s):
		if g.step == StepCampaign || g.step == StepSheriffPK {
			return refuse(CodeNotNow, "knight_duel_in_campaign=off", "the knight may not duel during the sheriff campaign"), true
		}
		return refuse(CodeNotNow, "", "the knight duels only while a speech runs (%s)", g.publicStep()), true
	case c.Target == s || !g.has(g.pubAlive, c.Target):
		return refuse(CodeTarget, "", "the knight must duel another living player"), true
	}
	return accept, true
}

// execDuel: the knight shows his card and names his target. A wolf (of the
// wolf camp in truth, whatever he reads as) dies; anyone else is good and
// the knight dies. Neither has last words (lastWords).
func execDuel(g *Game, c Command) {
	s, t := c.Seat, c.Target
	wolf := g.ofWolfCamp(t)
	inCampaign := g.step.campaign()
	e := Event{Kind: EvDuel, Public: true, Seat: s, Target: t}
	if wolf {
		e.Value = ResultWolf
	}
	g.reveal(s)
	g.emit(e) // applyDuel ends or pauses the running step
	dead := s
	if wolf {
		dead = t
	}
	var b batch
	g.kill(dead, CauseDuel, true, false, &b)
	g.queueTasks(&b, true, false)
	if !g.duelEndsDay(wolf) {
		return // the step resumes after the dead's last actions (resumeAfterDuel)
	}
	if inCampaign { // as 吞警徽: the badge is lost and the day goes to the dawn, then night
		g.emit(Event{Kind: EvSheriff, Public: true, Value: lostExplosion})
		g.setResume(StepDawn, true)
		return
	}
	g.setResume(StepDusk, false)
}

func (g *Game) duelEndsDay(wolf bool) bool {
	return wolf && g.opt(OptKnightDuelEndsDay) == DefaultOn
}

func (g *Game) applyDuel(e *Event) {
	g.dueled = true
	if !g.duelEndsDay(e.Value == ResultWolf) {
		g.paused, g.pausedSeat, g.pausedSpeakers, g.pausedResume = g.step, g.stepSeat, g.speakers, g.resume
		if g.step == StepDiscussion {
			g.pausedSpeakers = g.pending
		}
	}
	g.pending, g.speakers, g.step = 0, 0, StepNone
}

// resumeAfterDuel reopens the speech step a duel interrupted, once the
// dead's last actions are done: the speaker who had the floor gets it back,
// or, if he died, the next one has it.
func (g *Game) resumeAfterDuel() {
	st, cur := g.paused, g.pausedSeat
	speakers := g.pausedSpeakers & g.pubAlive
	g.setResume(g.pausedResume, false) // ends the pause (apply)
	switch {
	case st == StepDiscussion:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(st), Mask: speakers})
		if g.Pending() == 0 {
			g.complete()
		}
	case g.has(g.pubAlive, cur):
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(st), Seat: cur, Mask: speakers | cur.bit()})
	default:
		g.nextSpeaker(st, cur, speakers)
	}
}
