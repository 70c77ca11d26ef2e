package rules

// The sheriff (警长): the campaign (上警, speeches, 退水, the vote), the
// badge and its loss. The badge's pass and the sheriff's weight are read by
// the death tasks (death.go) and the votes (vote.go).

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

type sheriffState struct {
	sheriff      Seat
	sheriffDone  bool // elected or lost for good
	cands        uint32
	withdrawn    uint32
	campExploded bool // double_explode: the first explosion happened …
	campPK       bool // … in the PK speeches, which the next day resumes (001 Q5: 保存警上競選狀態)
}

// stillRunning: the candidates of the campaign; when a first explosion
// (double_explode) interrupted the PK speeches, only those of the PK: the
// candidates beaten in the first round do not come back (001 Q5).
func (g *Game) stillRunning() uint32 {
	if g.campPK {
		return g.cands & g.tied
	}
	return g.cands
}

// closeSignup ends 上警: the hands are shown together, and no candidate
// or no voter loses the badge.
func (g *Game) closeSignup() {
	for s := Seat(1); s <= g.n; s++ {
		if g.has(g.cands, s) {
			g.emit(Event{Kind: EvRun, Public: true, Seat: s, Value: 1})
		}
	}
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
}

// closeWithdraw ends 退水: a single candidate left is elected unopposed.
func (g *Game) closeWithdraw() {
	running := g.stillRunning()
	switch {
	case running == 0:
		g.emit(Event{Kind: EvSheriff, Public: true, Value: lostNoCandidate})
		g.setResume(StepDawn, false)
	case popcount(running) == 1:
		g.emit(Event{Kind: EvSheriff, Public: true, Seat: g.lowest(running), Value: elected})
		g.setResume(StepDawn, false)
	case g.campPK:
		g.setResume(StepSheriffPKVote, false) // the kept PK's own vote: a tie loses the badge
	default:
		g.setResume(StepSheriffVote, false)
	}
}
