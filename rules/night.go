package rules

// The night: the setup stages of the first night (the thief, cupid), the
// night step where the pack and the roles in nightCalls wake together, the
// witch's step, and the resolution that opens the day.

// enterNight opens a night (天黑请闭眼). On night 1 the thief and cupid act
// first, one after the other; then every other role with a night action is
// woken at once, each in his own channel, so no one learns who else acts.
func (g *Game) enterNight() {
	g.emit(Event{Kind: EvNight, Public: true, Value: g.night + 1})
	g.nextNightStage(StepNone)
}

// nextNightStage wakes the stage that follows the one just finished: the
// roles with a setup stage in nightCalls order, then the night step.
// With first_phase=day they act before day 1 (002: 游戏开始时，月老选择情侣),
// at "night 0".
func (g *Game) nextNightStage(after Step) {
	first := g.night == 0 || (g.night == 1 && g.opt(OptFirstPhase) == FirstNight)
	{
		started := after == StepNone
		for _, r := range g.callOrder() {
			h := hooksOf(r)
			// A nightly stage (the nightmare, the magician) comes every real
			// night, the others on the first only.
			if h.setup == nil || (h.nightly && g.night == 0) || (!h.nightly && !first) {
				continue
			}
			if !started {
				started = h.step == after
				continue
			}
			if h.setup(g) {
				return
			}
		}
	}
	if !g.teamTold {
		g.tellWolfTeam()
	}
	if g.night == 0 {
		g.startDay()
		return
	}
	g.wakeNight()
}

// wakeAlone wakes the living holder of a village card r in his step (the
// night step, or the checkers' step), while the village has its powers.
func (g *Game) wakeAlone(r Role) { g.wakeAs(r, r) }

// wakeAs wakes card r's holder as wakeAlone does, the wake naming card
// shown: the card he believes he holds (the mirror seer's, seer).
func (g *Game) wakeAs(r, shown Role) {
	if !g.villagePower() {
		return
	}
	if s := g.firstOf(r, g.alive); s != NoSeat {
		g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(g.stepOf(r)), Role: shown, Mask: s.bit()})
	}
}

func (g *Game) wakeNight() {
	for _, r := range g.callOrder() {
		if f := hooksOf(r).wake; f != nil && g.stepOf(r) != StepCheck {
			f(g)
		}
	}
	if g.Pending() == 0 { // nobody acts tonight (the wolf camp has lost, no power is left)
		g.emit(Event{Kind: EvStep, Value: int16(StepNight)})
		g.complete()
	}
}

// endNightStep runs once nobody is left to act in the night step: the
// pack's turn ends, the attack is resolved, those told at their wake are
// told, and the witch's step follows.
func (g *Game) endNightStep() {
	for r := range hooks {
		if f := hooks[r].packDone; f != nil {
			f(g)
		}
	}
	g.resolveAttack()
	g.wakeTold()
	g.setResume(StepWitch, false)
}

// wakeTold is what the roles are told when they wake, at the end of the
// night's step (the charmed list, the fox's tails). It is read before the
// night is resolved: told after it, it would reveal tonight's deaths before
// the dawn (a charmed victim missing from the list, a tail lost).
func (g *Game) wakeTold() {
	for _, r := range g.callOrder() {
		if f := hooksOf(r).told; f != nil {
			f(g)
		}
	}
}

// afterWitch follows the witch's step: under night_order=wolves_first the
// checkers' step, else the night's resolution.
func (g *Game) afterWitch() {
	if g.opt(OptNightOrder) == WolvesFirst {
		g.setResume(StepCheck, false)
		return
	}
	g.afterChecks()
}

// wakeChecks wakes the checkers after the witch (night_order=wolves_first).
// What they may know when they wake is what they knew in the night step:
// a check reads a card, which no choice of the wolves' or the witch's
// changes before the dawn; the deaths are not yet applied, so a seer
// attacked tonight still checks.
func (g *Game) wakeChecks() {
	for _, r := range g.callOrder() {
		if f := hooksOf(r).wake; f != nil && g.stepOf(r) == StepCheck {
			f(g)
		}
	}
	if g.Pending() == 0 {
		g.emit(Event{Kind: EvStep, Value: int16(StepCheck)})
	}
}

// resolveNight applies the attack, the heal, the guard and the poison, then
// the chains, and opens the day. Deaths stay unannounced until dawn.
func (g *Game) resolveNight() {
	var b batch
	k := g.killers()
	// The magician's swap first: the attack lands on the other of the pair
	// (landed); the wolves are still told of the seat they named.
	if t := g.landed(g.attack); t != NoSeat && g.has(g.alive, t) {
		guarded, healed := g.guarded(t), g.healed(t)
		hit := !guarded && !healed
		if guarded && healed && g.opt(OptGuardHealSameTarget) == SameTargetDies {
			hit = true // 同守同救
		}
		// Then the dream's immunity, and the spirit knight's (nightSafe).
		if f := hooks[g.role[t]].attacked; !g.nightSafe(t, CauseAttack) && (f == nil || !f(g, t, hit, healed, guarded)) && hit {
			c := CauseAttack
			if g.poisonLands() == t {
				c = CausePoison
			}
			g.kill(t, c, false, false, &b)
		}
		if g.opt(OptWolvesLearnAttackResult) == On {
			died := int16(0)
			if !g.has(g.alive, t) {
				died = 1
			}
			g.emit(Event{Kind: EvAttackResult, To: k, Target: g.attack, Value: died})
		}
	}
	if g.cardSet&(1<<MechanicalWolf) != 0 {
		g.resolveMechanical(&b) // the second attack, after the attack
	}
	g.resolvePoison(&b)
	if g.cardSet&(1<<MechanicalWolf) != 0 {
		g.resolveMechPoison(&b)
	}
	if g.cardSet&(1<<MiracleMerchant) != 0 {
		g.resolveGiftPoison(&b) // ROLES-MORE-2.md §5 step 5: the lucky one's poison is a witch's
	}
	// ROLES-MORE.md: the hunt after the poison, the dreams, the spirit
	// knight's reflection last. (Direct calls: the batch handed to a hook
	// would escape to the heap.)
	if g.cardSet&(1<<WitchHunter|1<<Dreamcatcher|1<<SpiritKnight|1<<PureWhite|1<<WolfWitch|1<<Warden|1<<MiracleMerchant) != 0 {
		g.resolveHunt(&b)
		g.resolvePurify(&b) // ROLES-MORE-2.md §5: the check deaths after the hunt, before the dreams
		g.resolveMerchant(&b)
		g.resolveTrade(&b)
		g.resolveDreams(&b)
		g.resolveReflection(&b)
	}
	if g.cardSet&(1<<CursedFox) != 0 {
		g.resolveCursedFox(&b)
	}
	if g.cardSet&(1<<Dancer) != 0 {
		g.resolveDance(&b)
	}
	g.nextNightShot()
}
