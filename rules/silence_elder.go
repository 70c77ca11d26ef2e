package rules

// The silence elder (禁言长老, ROLES-MORE-2.md) silences one living player a
// night, himself allowed, not the same player two nights in a row (a
// skipped night breaks the chain). The next day the silenced has no speech:
// his turns in the campaign, the day and the PK speeches are skipped, the
// free discussion leaves him out, and under silence_covers_last_words his
// last words that day too. He still acts (runs, withdraws, votes, explodes,
// duels, shoots, passes the badge). The silence is announced to the table
// with the dawn deaths (EvSilenced), even if the elder died that night; on
// a campaign day, before the campaign, whose speeches it already covers.

type silenceState struct {
	silence     Seat  // tonight's, as named …
	lastSilence Seat  // … and last night's: not the same player twice in a row
	silenced    Seat  // the player silenced, where it landed (the magician's swap) …
	silencedDay int16 // … and the day it holds
	silenceTold int16 // the day whose silence and vote ban the table was told
}

func init() {
	check, choices := onNotLast(CmdSilence, func(g *Game) Seat { return g.lastSilence },
		"the silence elder silences a living player", func(t Seat) refusal {
			return refuse(CodeRule, "", "the silence elder may not silence seat %d two nights in a row", t)
		})
	hooks[SilenceElder] = roleHooks{
		nightFalls: func(g *Game) { g.lastSilence, g.silence = g.silence, NoSeat },
		wake:       func(g *Game) { g.wakeAlone(SilenceElder) },
		step:       StepNight,
		check:      check,
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvSilence, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target})
		},
		choices: choices,
	}
}

// onNotLast: the command names a living player (its sender too), not the
// one last returns (last night's).
func onNotLast(k CmdKind, last func(*Game) Seat, refused string, twice func(Seat) refusal) (func(*Game, Command) (refusal, bool), func(*Game, Seat) [2]Choice) {
	check := func(g *Game, c Command) (refusal, bool) {
		switch {
		case c.Kind != k:
			return accept, false
		case !g.has(g.alive, c.Target):
			return refuse(CodeTarget, "", refused), true
		case c.Target == last(g):
			return twice(c.Target), true
		}
		return accept, true
	}
	choices := func(g *Game, s Seat) [2]Choice {
		return [2]Choice{choice(k, g.alive&^last(g).bit(), false)}
	}
	return check, choices
}

func (g *Game) applySilence(e *Event) {
	g.silence = e.Target
	g.silenced, g.silencedDay = g.aimed(e.Seat, e.Target), g.day+1
	g.pending &^= e.Seat.bit()
}

// announceBans tells the table today's silence and vote ban, once a day:
// with the dawn deaths, or before the campaign on its day.
func (g *Game) announceBans() {
	if g.silenceTold == g.day {
		return
	}
	silenced := g.silencedDay == g.day && g.silenced != NoSeat
	banned := g.bannedDay == g.day && g.banned != NoSeat
	if silenced {
		g.emit(Event{Kind: EvSilenced, Public: true, Seat: g.silenced})
	}
	if banned {
		g.emit(Event{Kind: EvVoteBanned, Public: true, Seat: g.banned})
	}
}

// mute is the seat that may not speak today (the silence elder's), once
// the table was told.
func (g *Game) mute() uint32 {
	if g.silencedDay == g.day && g.silenceTold == g.day && !g.isNight {
		return g.silenced.bit()
	}
	return 0
}

// keepsLastWords: the silence takes a player's last words that day only
// under silence_covers_last_words.
func (g *Game) keepsLastWords(s Seat) bool {
	return g.opt(OptSilenceCoversLastWords) == Off || !g.has(g.mute(), s)
}
