package rules

// The sequence prince (定序王子, ROLES-MORE-2.md) may, once per game,
// reveal his card after a day's first exile vote is counted and published
// and before its result is applied (rewind): that vote is void (nobody is
// exiled by it, no death trigger of it runs, a scapegoat tie kills no one),
// he speaks once more (sequence_prince_extra_speech=all: every living
// player does, in the day's order), and the same voters vote again; that
// vote stands, its ties following vote_tie (the scapegoat too). The crow's
// curse weighs only on the voided vote. Never in the sheriff election nor
// in a PK re-vote.
//
// The window (StepRewind) opens after every day's first exile vote while
// the rewind is unused, whether the prince lives or not, and every living
// player is awaited in it and passes alike (privately), so that neither its
// opening nor who is still awaited tells who holds the card.

type princeState struct {
	rewound   bool  // the prince has rewound (once per game)
	rewindDay int16 // the day he did
	lastVote  Step  // the last exile vote closed, its top seats (tied) …
	lastPick  Seat  // … and the seat it chose (NoSeat: none)
}

func init() {
	hooks[SequencePrince] = roleHooks{
		step: StepRewind,
		check: func(g *Game, c Command) (refusal, bool) {
			if c.Kind != CmdRewind {
				return accept, false
			}
			if g.rewound { // not reachable: the window no longer opens
				return refuse(CodeRule, "", "the sequence prince has rewound once already"), true
			}
			return accept, true
		},
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvRewind, Public: true, Seat: c.Seat, Value: int16(g.lastVote)})
			g.reveal(c.Seat)
		},
		choices: func(g *Game, s Seat) [2]Choice {
			return [2]Choice{{Kind: CmdRewind, NoTarget: true}}
		},
	}
}

// rewindWindow: the vote of step s just published may be voided: a day's
// first exile vote (not the sheriff's election, not a PK re-vote, not the
// re-vote itself) on a board with the prince, while his rewind is unused.
func (g *Game) rewindWindow(s Step, firstRound, electing bool) bool {
	return g.cardSet&(1<<SequencePrince) != 0 && !g.rewound && firstRound && !electing &&
		(s == StepVote || s == StepSeqVote || s == StepMobVote)
}

func (g *Game) applyRewind(e *Event) {
	g.rewound, g.rewindDay = true, g.day
	g.exileRounds = 0 // the re-vote is the day's first exile vote again (its ties, its voters)
	g.pending = 0
}

// closeRewind ends the prince's window: after a rewind the extra speech
// (then the re-vote), else the voided-or-not vote's result is applied.
func (g *Game) closeRewind() {
	if !g.rewound || g.rewindDay != g.day || g.exileRounds != 0 {
		g.settleVote(g.lastVote, g.tied, g.lastPick, true, false)
		return
	}
	p := g.firstOf(SequencePrince, g.pubAlive)
	if g.opt(OptSequencePrinceExtraSpeech) == PrinceSpeaks || p == NoSeat {
		g.nextSpeaker(StepSpeech, p, p.bit()) // a silenced prince has no speech: the vote follows
		return
	}
	g.speakAgain()
}

// speakAgain: every living player speaks once more, in the day's order
// (the sheriff's direction kept), before the prince's re-vote.
func (g *Game) speakAgain() {
	switch {
	case g.opt(OptSpeechOrder) == SpeechFree:
		g.emit(Event{Kind: EvStep, Public: true, Value: int16(StepDiscussion), Mask: g.pubAlive &^ g.mute()})
	case g.opt(OptSpeechOrder) == SpeechSheriffChooses && g.sheriff != NoSeat && g.has(g.pubAlive, g.sheriff):
		g.nextSpeaker(StepSpeech, g.sheriff, g.pubAlive)
	default:
		g.nextSpeaker(StepSpeech, g.speechStart(), g.pubAlive)
	}
}

// revoting: today's exile vote is the prince's re-vote (the crow's curse
// weighs only on the vote he voided).
func (g *Game) revoting() bool { return g.rewound && g.rewindDay == g.day }
