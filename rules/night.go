package rules

// enterNight opens a night (天黑请闭眼). On night 1 the thief and cupid act
// first, one after the other; then every other role with a night action is
// woken at once, each in his own channel, so no one learns who else acts.
func (g *Game) enterNight() {
	g.emit(Event{Kind: EvNight, Public: true, Value: g.night + 1})
	g.nextNightStage(StepNone)
}

// nextNightStage wakes the stage that follows the one just finished.
// With first_phase=day they act before day 1 (002: 游戏开始时，月老选择情侣),
// at "night 0".
func (g *Game) nextNightStage(after Step) {
	setup := g.night == 0 || (g.night == 1 && g.opt(OptFirstPhase) == FirstNight)
	if after == StepNone && setup {
		if s := g.firstOf(Thief, g.alive); s != NoSeat {
			g.emit(Event{Kind: EvExtraCards, To: s.bit(), Seat: s, Role: g.extra[0], Value: int16(g.extra[1])})
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepThief), Role: Thief, Mask: s.bit()})
			return
		}
	}
	if (after == StepNone || after == StepThief) && setup && g.lovers == 0 {
		if s := g.firstOf(Cupid, g.alive); s != NoSeat && !g.powersLost {
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepCupid), Role: Cupid, Mask: s.bit()})
			return
		}
	}
	if !g.teamTold {
		w := g.wolves &^ g.loversCamp
		g.emit(Event{Kind: EvWolfTeam, To: w, Mask: w})
	}
	if g.night == 0 {
		g.startDay()
		return
	}
	g.wakeNight()
}

// villagePower reports whether a village role still has its power.
func (g *Game) villagePower() bool { return !g.powersLost }

// Killers are the players who hold tonight's kill (moderator's view): a
// server that plays some of them with bots needs to know the team.
func (g *Game) Killers() uint32 { return g.killers() }

// killers are the players who hold tonight's kill: the wolves outside the
// lovers' camp; once the wolf camp has lost, the black lovers (寡妇刀).
func (g *Game) killers() uint32 {
	if g.widowKnife {
		return g.lovers & g.loversCamp & g.alive
	}
	if g.lost[Wolves] {
		return 0
	}
	return g.wolves & g.alive &^ g.loversCamp
}

// spy is the little girl who reads the wolves' channel tonight, if any.
func (g *Game) spy() Seat {
	if g.opt(OptLittleGirlSpy) != DefaultOn || !g.villagePower() {
		return NoSeat
	}
	return g.firstOf(LittleGirl, g.alive)
}

// Spy is the little girl reading the wolves' channel tonight: NoSeat by
// day, or when there is none. A server copies the wolves' night chat to her
// with the writer's seat hidden, as the engine does with their picks.
func (g *Game) Spy() Seat {
	if !g.isNight || g.night == 0 { // night 0 has no wolves' turn
		return NoSeat
	}
	return g.spy()
}

func (g *Game) wakeNight() {
	if g.villagePower() {
		for _, r := range [...]Role{Guard, Seer} {
			if s := g.firstOf(r, g.alive); s != NoSeat {
				g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNight), Role: r, Mask: s.bit()})
			}
		}
	}
	if w := g.killers(); w != 0 {
		g.emit(Event{Kind: EvStep, To: w, Value: int16(StepNight), Role: Werewolf, Mask: w})
	}
	if s := g.firstOf(WolfBeauty, g.alive); s != NoSeat {
		g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNight), Role: WolfBeauty})
	}
	if s := g.firstOf(Piper, g.alive); s != NoSeat && g.alive&^s.bit()&^g.charmed != 0 {
		g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNight), Role: Piper})
	}
	if g.Pending() == 0 { // nobody acts tonight (the wolf camp has lost, no power is left)
		g.emit(Event{Kind: EvStep, Value: int16(StepNight)})
		g.complete()
	}
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
	e := Event{Kind: EvAttack, To: k}
	switch {
	case named == 0:
	case g.opt(OptWolfVote) == WolfVoteUnanimous:
		if popcount(named) == 1 {
			e.Target = g.lowest(named)
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

// resolveNight applies the attack, the heal, the guard and the poison, then
// the chains, and opens the day. Deaths stay unannounced until dawn.
func (g *Game) resolveNight() {
	var b batch
	k := g.killers()
	if t := g.attack; t != NoSeat && g.has(g.alive, t) {
		// The guard's protection has no effect on the little girl (000).
		guarded, healed := g.guardTarget == t && g.role[t] != LittleGirl, g.healTarget == t
		hit := !guarded && !healed
		if guarded && healed && g.opt(OptGuardHealSameTarget) == SameTargetDies {
			hit = true // 同守同救
		}
		switch {
		case g.role[t] == Elder && hit && g.elderLives > 1 && g.poisonT != t:
			// The elder's first wound does not kill him, and is not announced.
			g.emit(Event{Kind: EvElderLife, Seat: t})
		case g.role[t] == Elder && !hit && healed && !guarded && g.elderLives > 1 &&
			g.opt(OptElderHealConsumesLife) == DefaultOn:
			g.emit(Event{Kind: EvElderLife, Seat: t})
		case hit:
			c := CauseAttack
			if g.poisonT == t {
				c = CausePoison
			}
			g.kill(t, c, false, false, &b)
		}
		if g.opt(OptWolvesLearnAttackResult) == On {
			died := int16(0)
			if !g.has(g.alive, t) {
				died = 1
			}
			g.emit(Event{Kind: EvAttackResult, To: k, Target: t, Value: died})
		}
	}
	if p := g.poisonT; p != NoSeat {
		if g.has(g.alive, p) {
			g.kill(p, CausePoison, false, false, &b)
		}
		if w := g.firstOf(Witch, g.all); g.opt(OptActionFeedback) == On && w != NoSeat {
			g.emit(Event{Kind: EvFeedback, To: w.bit(), Seat: w, Target: p, Value: 1})
		}
	}
	g.startDay()
}

// spyReport tells the little girl (little_girl_spy) what she saw of the
// wolves' turn, once, when it ends: the set of players named by at least
// one wolf's standing pick, the wolves hidden. One event a night, whatever
// the number of wolves and of picks, emitted at a fixed point: one a pick
// would tell her how many wolves live and when each chose.
func (g *Game) spyReport() {
	lg := g.spy()
	k := g.killers()
	if lg == NoSeat || g.has(k, lg) { // a black lover with the widow knife reads the picks anyway
		return
	}
	var named uint32
	for w := Seat(1); w <= g.n; w++ {
		if g.has(g.picked&k, w) && g.picks[w] != NoSeat {
			named |= g.picks[w].bit()
		}
	}
	g.emit(Event{Kind: EvSpy, To: lg.bit(), Mask: named})
}

// wakeTold is what the charmed (with the piper) and the nine-tailed fox are
// told when they wake, at the end of the night's step: the charmed list,
// tonight's charms included, among the living; the fox's tails. Both are
// read before the night is resolved: told after it, they would reveal
// tonight's deaths before the dawn (a charmed victim missing from the list,
// a tail lost). Tails lost in the resolution stay the moderator's until her
// next wake.
func (g *Game) wakeTold() {
	if g.charmed != 0 {
		m := g.charmed & g.alive
		g.emit(Event{Kind: EvCharmed, To: m | g.seatsOf(Piper, g.alive), Mask: m})
	}
	if f := g.firstOf(NineTailedFox, g.alive); f != NoSeat {
		g.emit(Event{Kind: EvTails, To: f.bit(), Seat: f, Value: int16(g.tails)})
	}
}

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
		g.setResume(StepWithdraw, false) // 双爆: the campaign resumes at the withdraw step
	case g.opt(OptSheriff) == SheriffDay1Campaign && !g.sheriffDone && g.day == 1:
		g.setResume(StepSignup, false)
	default:
		g.setResume(StepDawn, false)
	}
}

// dawn announces the night's dead (天亮了) and queues their last actions;
// with event cards, a card is drawn.
func (g *Game) dawn() {
	if !g.dawned && g.night > 0 {
		dead := g.nightDead
		g.emit(Event{Kind: EvDawn, Public: true, Mask: dead})
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
		if g.powersLost && !g.powersTold {
			g.emit(Event{Kind: EvPowersLost, Public: true})
		}
	}
	g.drawEventCard()
	if g.cut {
		g.setResume(StepDusk, false)
	} else {
		g.setResume(StepOrder, false)
	}
}
