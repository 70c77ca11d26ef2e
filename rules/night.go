package rules

// enterNight wakes, together, every living role with a night action: guard,
// seer, the wolves, and the wolf beauty for her charm. Each is woken in its
// own channel, so no one learns who else acts.
func (g *Game) enterNight() {
	g.emit(Event{Kind: EvNight, Public: true, Value: int16(g.night + 1)})
	for _, r := range [...]Role{Guard, Seer} {
		if s := g.firstOf(r, g.alive); s != NoSeat {
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNight), Role: r, Mask: s.bit()})
		}
	}
	if w := g.wolves & g.alive; w != 0 {
		g.emit(Event{Kind: EvStep, To: w, Value: int16(StepNight), Role: Werewolf, Mask: w})
	}
	if s := g.firstOf(WolfBeauty, g.alive); s != NoSeat {
		g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNight), Role: WolfBeauty})
	}
}

// resolveAttack turns the wolves' picks into the night's attack by wolf_vote.
func (g *Game) resolveAttack() {
	var count [MaxSeats + 1]int
	var named uint32
	for w := Seat(1); w <= g.n; w++ {
		if g.has(g.picked, w) && g.has(g.alive&g.wolves, w) && g.picks[w] != NoSeat {
			count[g.picks[w]]++
			named |= g.picks[w].bit()
		}
	}
	to := g.wolves & g.alive
	e := Event{Kind: EvAttack, To: to}
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
	if t := g.attack; t != NoSeat && g.has(g.alive, t) {
		guarded, healed := g.guardTarget == t, g.healTarget == t
		dies := !guarded && !healed
		if guarded && healed && g.opt(OptGuardHealSameTarget) == SameTargetDies {
			dies = true // 同守同救
		}
		if dies {
			c := CauseAttack
			if g.poisonT == t {
				c = CausePoison
			}
			g.kill(t, c, false, false, &b)
		}
	}
	if p := g.poisonT; p != NoSeat && g.has(g.alive, p) {
		g.kill(p, CausePoison, false, false, &b)
	}
	if f := g.firstOf(NineTailedFox, g.alive); f != NoSeat {
		g.emit(Event{Kind: EvTails, To: f.bit(), Seat: f, Value: int16(g.tails)})
	}
	g.startDay()
}

// startDay opens the next day: the sheriff campaign first on its day, then
// the dawn announcement.
func (g *Game) startDay() {
	g.emit(Event{Kind: EvDay, Public: true, Value: int16(g.day + 1)})
	switch {
	case g.winCheck() != NoCamp:
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

// dawn announces the night's dead (天亮了) and queues their last actions.
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
				b.add(s, g.cause[s], false)
			}
		}
		g.queueTasks(&b, false, true)
	}
	if g.cut {
		g.setResume(StepDusk, false)
	} else {
		g.setResume(StepOrder, false)
	}
}
