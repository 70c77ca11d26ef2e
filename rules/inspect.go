package rules

// Read-only accessors for the moderator, the judge of a scripted game
// (internal/script): facts of the hidden state that a scenario checks
// directly rather than through the texts of events. None of them is part of
// a seat's View.

// ElderLives is the elder's lives left (长者): 2 at the start, one fewer for
// each attack survived, 0 once he is dead (however he died) or when no
// living player holds the card.
func (g *Game) ElderLives() int {
	for s := Seat(1); s <= g.n; s++ {
		if g.Role(s) == Elder && g.Alive(s) {
			return int(g.elderLives)
		}
	}
	return 0
}

// FoxTails is the nine-tailed fox's tails (九尾狐): 9 at the start.
func (g *Game) FoxTails() int { return int(g.tails) }

// Charmed is the set of players the piper has charmed (吹笛人).
func (g *Game) Charmed() uint32 { return g.charmed }

// Revealed is the set of seats whose card is face up.
func (g *Game) Revealed() uint32 { return g.revealed }

// BadgeGone reports whether the sheriff badge is lost for good (警徽流失):
// torn, passed to nobody, or never given (no candidate, a tie, a
// self-explosion). False while it is held or not yet contested, and on a
// board without a sheriff.
func (g *Game) BadgeGone() bool { return g.sheriffDone && g.sheriff == NoSeat }

// MayVote is the set of seats that may vote: in the vote running now (an
// exile or a sheriff vote, a PK or a later round), or else in an exile vote
// held now; the engine's own count (the living as the table knows them,
// without the revealed idiots, restricted to the scapegoat's voters on their
// day, without the tied in their own re-vote).
func (g *Game) MayVote() uint32 {
	s := g.step
	if !s.isVote() && s != StepSeqVote && s != StepMobVote {
		s = StepVote
	}
	return g.voters(s)
}
