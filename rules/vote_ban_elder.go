package rules

// The vote-ban elder (禁票长老, ROLES-MORE-2.md) bans one living player a
// night, himself allowed, not the same player two nights in a row: the next
// day the banned may not vote at the exile vote (its first round and its PK
// re-vote); he may be voted for, speak, and vote in the sheriff election.
// Announced with the dawn deaths (EvVoteBanned, silence_elder.go).

type voteBanState struct {
	ban       Seat  // tonight's, as named …
	lastBan   Seat  // … and last night's
	banned    Seat  // the player banned, where it landed (the magician's swap) …
	bannedDay int16 // … and the day it holds
}

func init() {
	check, choices := onNotLast(CmdVoteBan, func(g *Game) Seat { return g.lastBan },
		"the vote-ban elder bans a living player", func(t Seat) refusal {
			return refuse(CodeRule, "", "the vote-ban elder may not ban seat %d two nights in a row", t)
		})
	hooks[VoteBanElder] = roleHooks{
		nightFalls: func(g *Game) { g.lastBan, g.ban = g.ban, NoSeat },
		wake:       func(g *Game) { g.wakeAlone(VoteBanElder) },
		step:       StepNight,
		check:      check,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvVoteBan, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: choices,
	}
}

func (g *Game) applyVoteBan(e *Event) {
	g.ban = e.Target
	g.banned, g.bannedDay = g.aimed(e.Seat, e.Target), g.day+1
	g.pending &^= e.Seat.bit()
}

// voteBanned is the seat the ban keeps out of vote step s: the exile vote's
// rounds of its day, not a vote that elects the sheriff.
func (g *Game) voteBanned(s Step) uint32 {
	if g.bannedDay != g.day || g.silenceTold != g.day {
		return 0
	}
	switch s {
	case StepVote, StepPKVote, StepSeqVote, StepMobVote:
	default:
		return 0
	}
	if g.opt(OptSheriff) == SheriffDay1TopVote && !g.sheriffDone {
		return 0 // that vote elects the sheriff
	}
	return g.banned.bit()
}
