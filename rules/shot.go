package rules

// The skill window (StepSkill): every dying player is offered it alike, so
// that it tells nothing; a role with a shoots hook (the hunter, the wolf
// king) may fire into it.

// mayShoot reports whether the dead seat s may shoot.
func (g *Game) mayShoot(s Seat) bool {
	f := hooks[g.role[s]].shoots
	return f != nil && f(g, s)
}

// shotAllowed is the rule every shooter shares: dead, not sent off, not
// killed in a way that forbids the shot; poisoned only if poisonedMay.
func (g *Game) shotAllowed(s Seat, poisonedMay bool) bool {
	if g.has(g.alive, s) || g.has(g.redCard, s) {
		return false
	}
	switch g.cause[s] {
	case CauseExplode, CauseRedCard:
		return false
	case CauseCharm, CauseLove:
		if g.opt(OptHunterShootsOnHeartbreak) == Off {
			return false
		}
	}
	if g.has(g.poisoned, s) {
		return poisonedMay
	}
	return true
}

func (g *Game) checkShoot(c Command) refusal {
	s := c.Seat
	if !g.mayShoot(s) {
		return refuse(CodeRule, "", "seat %d has no shot to fire", s)
	}
	if c.Target == s || !g.has(g.pubAlive, c.Target) {
		return refuse(CodeTarget, "", "the shot must go to another living player")
	}
	return accept
}

func (g *Game) shotQueued() bool {
	for s := Seat(1); s <= g.n && g.opt(OptNightShot) == NightShotDawn; s++ {
		if g.has(g.nightDead, s) && g.mayShoot(s) {
			return true // shoots at dawn
		}
	}
	for i := uint8(0); i < g.qlen; i++ {
		q := g.queue[(g.qhead+i)%queueCap]
		if q.kind == taskSkill && g.mayShoot(q.seat) {
			return true
		}
	}
	return false
}

func (g *Game) shoot(s, t Seat) {
	if g.step == StepNightShot {
		g.nightShoot(s, t)
		return
	}
	g.reveal(s)
	g.emit(Event{Kind: EvShoot, Public: true, Seat: s, Target: t})
	// A hunter taken down by the white wolf king is still in his chain: his
	// victim has no last words either (001 白狼王 A1: 相關的更多玩家也沒有).
	var b batch
	g.kill(t, CauseShot, true, g.has(g.silent, s), &b)
	g.queueTasks(&b, true, false)
	if g.opt(OptActionFeedback) == On {
		g.emit(Event{Kind: EvFeedback, To: s.bit(), Seat: s, Target: t, Value: 1})
	}
}

// nextNightShot: under night_shot=in_night (002 游戏流程 4: 如果在此流程中，猎人
// 一旦出局，猎人需立即决定<最后一枪>，被枪杀的角色立即在猎人出局之后出局) a
// shooter who died tonight is woken, alone, to fire before the day: his
// victim dies in the night and is among the dawn's dead, the cause hidden;
// his card is not turned. A shooter his shot kills is woken in turn. With
// win_check_before_shot, a night that already decided the game has no shot.
// Otherwise, and once every shot is fired, the day opens.
func (g *Game) nextNightShot() {
	if g.opt(OptNightShot) == NightShotInNight && !(g.opt(OptWinCheckBeforeShot) == On && g.judge() != NoCamp) {
		for s := Seat(1); s <= g.n; s++ {
			if g.has(g.nightDead&^g.shotAtNight, s) && g.mayShoot(s) {
				g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNightShot), Seat: s, Mask: s.bit()})
				return
			}
		}
	}
	g.startDay()
}

// nightShoot is a shot fired inside the night: told to the shooter alone,
// the death unannounced until dawn.
func (g *Game) nightShoot(s, t Seat) {
	g.emit(Event{Kind: EvShoot, To: s.bit(), Seat: s, Target: t})
	var b batch
	if !g.shielded(t) { // the mechanical shield covers a shot inside the night
		g.kill(t, CauseShot, false, g.has(g.silent, s), &b)
	}
	if g.opt(OptActionFeedback) == On {
		died := int16(0)
		if !g.has(g.alive, t) && g.cause[t] == CauseShot {
			died = 1
		}
		g.emit(Event{Kind: EvFeedback, To: s.bit(), Seat: s, Target: t, Value: died})
	}
}
