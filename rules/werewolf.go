package rules

// The werewolf (狼人) and the pack it forms with every wolf card: the
// wolves meet on the first night, pick the night's attack together
// (wolf_vote), and may self-explode by day. The night kill is held by the
// killers, who are the wolves outside the lovers' camp, or the black lovers
// once the wolf camp has lost (寡妇刀): the pack is not bound to one card.

type packState struct {
	picks    [MaxSeats + 1]Seat // each killer's standing pick
	picked   uint32
	attack   Seat // the night's attack, once the picks are resolved
	teamTold bool // the wolf team has been told
}

func init() {
	hooks[Werewolf] = roleHooks{
		// Werewolf in the night order means the pack, whatever its cards.
		wake: func(g *Game) {
			if w := g.killers(); w != 0 {
				g.emit(Event{Kind: EvStep, To: w, Value: int16(StepNight), Role: Werewolf, Mask: w})
			}
		},
		awake: func(g *Game) bool { return g.killers() != 0 },
	}
}

// Killers are the players who hold tonight's kill (moderator's view): a
// server that plays some of them with bots needs to know the team.
func (g *Game) Killers() uint32 { return g.killers() }

// killers are the players who hold tonight's kill: the wolves outside the
// lovers' camp; once the wolf camp has lost, the black lovers (寡妇刀).
func (g *Game) killers() uint32 {
	if g.night == 1 && g.isNight && g.opt(OptFirstNightAttack) == DefaultOff {
		return 0 // AIWolf: the first night has no attack
	}
	if g.widowKnife {
		return g.lovers & g.loversCamp & g.alive
	}
	if g.lost[Wolves] {
		return g.wedKillers() // the newlyweds' kill (鬼魂新娘); none without them
	}
	if k := g.pack() & g.alive; k != 0 {
		return k
	}
	// The pack is dead: the gargoyle and the hidden wolf take the kill.
	return g.lone &^ g.humans &^ g.loversCamp & g.alive
}

// tellWolfTeam tells the wolves outside the lovers' camp who they are.
func (g *Game) tellWolfTeam() {
	g.emit(Event{Kind: EvWolfTeam, To: g.wolfTeam(), Mask: g.pack()})
}

// attackable are the players killer s may name: anyone alive, or under
// wolf_attack_wolves=off (AIWolf, whose server ignores an attack vote on a
// werewolf) anyone alive but the pack and himself. Only the pack is left
// out, which every killer knows: a lone killer (the pack dead) is kept
// from naming himself alone.
func (g *Game) attackable(s Seat) uint32 {
	if g.opt(OptWolfAttackWolves) == DefaultOff {
		return g.alive &^ g.pack() &^ s.bit()
	}
	return g.alive
}

func (g *Game) checkAttack(c Command) refusal {
	if t := c.Target; t != NoSeat && !g.has(g.alive, t) {
		return refuse(CodeTarget, "", "seat %d cannot be attacked", t)
	}
	if t := c.Target; t != NoSeat && !g.has(g.attackable(c.Seat), t) {
		return refuse(CodeRule, "wolf_attack_wolves=off", "the wolves may not attack a wolf (seat %d)", t)
	}
	if c.Target == NoSeat && g.opt(OptWolfNoTarget) == DefaultOff {
		return refuse(CodeRule, "wolf_no_target=off", "the wolves may not attack nobody")
	}
	return accept
}

// pickAttack records a wolf's pick in the wolves' channel. The little girl
// is not told it now: one spy event a pick would count the wolves and time
// their choices; she learns the night's picks at once (spyReport).
func (g *Game) pickAttack(s, t Seat) {
	g.emit(Event{Kind: EvAttackPick, To: g.killers(), Seat: s, Target: t})
}

func (g *Game) applyAttackPick(e *Event) {
	g.picks[e.Seat] = e.Target
	g.picked |= e.Seat.bit()
	g.pending &^= e.Seat.bit()
}

// resolveAttack turns the wolves' picks into the night's attack by wolf_vote.
func (g *Game) resolveAttack() {
	var count [MaxSeats + 1]int
	var named uint32
	k := g.killers()
	for w := Seat(1); w <= g.n; w++ {
		if g.has(g.picked, w) && g.has(k, w) && g.picks[w] != NoSeat {
			count[g.picks[w]]++
			named |= g.picks[w].bit()
		}
	}
	if g.packHeld { // the nightmare feared one of the wolf camp: their picks do nothing
		g.emit(Event{Kind: EvAttack, To: k})
		return
	}
	e := Event{Kind: EvAttack, To: k}
	must := g.opt(OptWolfNoTarget) == DefaultOff && k != 0 // wolf_no_target=off: the moderator draws
	switch {
	case named == 0:
		if m := g.alive &^ k; must && m != 0 { // nobody named: any living player but the killers
			e.Target, e.Draws = g.pick(m), 1
		}
	case g.opt(OptWolfVote) == WolfVoteUnanimous:
		if popcount(named) == 1 {
			e.Target = g.lowest(named)
		} else if must { // no agreement: one of those named
			e.Target, e.Draws = g.pick(named), 1
		}
	default:
		var top uint32
		best := 0
		for t := Seat(1); t <= g.n; t++ {
			if count[t] > best {
				top, best = t.bit(), count[t]
			} else if count[t] == best && best > 0 {
				top |= t.bit()
			}
		}
		if popcount(top) == 1 {
			e.Target = g.lowest(top)
		} else {
			e.Target, e.Draws = g.pick(top), 1
		}
	}
	g.emit(e)
}

// canExplode: seat s may self-explode now.
func (g *Game) canExplode(s Seat) bool {
	return g.has(g.wolves, s) && !hooks[g.role[s]].noExplode && g.opt(OptSelfExplosion) == DefaultOn &&
		!g.has(g.loversCamp|g.newlyweds(), s) && g.has(g.pubAlive, s) &&
		(g.step.speech() || (g.step == StepWithdraw && g.opt(OptDoubleExplode) == On))
}

func (g *Game) checkExplode(c Command) refusal {
	s := c.Seat
	if !g.has(g.wolves, s) || hooks[g.role[s]].noExplode || g.has(g.loversCamp|g.newlyweds(), s) {
		return refuse(CodeRule, "", "only the wolves may self-explode")
	}
	if g.opt(OptSelfExplosion) == DefaultOff {
		return refuse(CodeRule, "self_explosion=off", "nobody may self-explode on this board")
	}
	if !g.has(g.pubAlive, s) {
		return refuse(CodeDead, "", "seat %d is out of the game", s)
	}
	if !g.step.speech() && !(g.step == StepWithdraw && g.opt(OptDoubleExplode) == On) {
		return refuse(CodeNotNow, "double_explode", "a wolf may self-explode only during the speeches (%s)", g.publicStep())
	}
	if c.Target != NoSeat {
		if !hooks[g.role[s]].explodeTakes {
			return refuse(CodeRule, "", "only the white wolf king takes someone with him")
		}
		if c.Target == s || !g.has(g.pubAlive, c.Target) {
			return refuse(CodeTarget, "", "the white wolf king must take another living player")
		}
	}
	return accept
}

// explode is a wolf's self-explosion (自爆): the day's remaining steps are
// skipped; in the sheriff campaign the badge is swallowed (吞警徽), or under
// double_explode the campaign is kept for the next day.
func (g *Game) explode(s, target Seat) {
	wasDead := !g.has(g.alive, s) // poisoned last night, not yet announced
	inCampaign := g.step.campaign()
	took := hooks[g.role[s]].explodeTakes && target != NoSeat && !wasDead
	e := Event{Kind: EvExplode, Public: true, Seat: s}
	if took {
		e.Target = target
	}
	if inCampaign && g.opt(OptDoubleExplode) == On && !g.campExploded {
		e.Value = 1 // the campaign is kept for tomorrow
	}
	g.emit(e)
	var b batch
	if took {
		g.reveal(s)
		g.kill(s, CauseExplode, true, true, &b)
		g.reveal(target)
		g.kill(target, CauseTaken, true, true, &b)
	} else {
		g.kill(s, CauseExplode, true, false, &b)
	}
	g.queueTasks(&b, true, false)
	switch {
	case !inCampaign:
		g.setResume(StepDusk, false)
	case e.Value == 1:
		if g.cands == 0 {
			g.emit(Event{Kind: EvSheriff, Public: true, Value: lostNoCandidate})
		}
		g.setResume(StepDawn, true)
	default:
		g.emit(Event{Kind: EvSheriff, Public: true, Value: lostExplosion})
		// 001 Q3: a wolf poisoned in the night explodes without ending the day.
		cut := !wasDead || g.opt(OptDoubleExplode) == On
		g.setResume(StepDawn, cut)
	}
}

// dueBesideThePack are the hooks of a role whose own night action is owed by
// the due flag, as it may hold the pack's pick beside it (the wolf beauty's
// charm, the gargoyle's check once he holds the kill): he is woken alone,
// the flag drops at nightfall, and a skip drops it once no pick is owed (a
// skip while the pick is owed declines the pick first).
func dueBesideThePack(r Role) (nightFalls func(*Game), wake func(*Game), skipped func(*Game, Seat)) {
	nightFalls = func(g *Game) { g.due &^= g.holder[r].bit() }
	wake = func(g *Game) {
		if s := g.firstOf(r, g.alive); s != NoSeat {
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNight), Role: r})
		}
	}
	skipped = func(g *Game, s Seat) {
		if !g.has(g.pending, s) {
			g.due &^= g.holder[r].bit()
		}
	}
	return nightFalls, wake, skipped
}
