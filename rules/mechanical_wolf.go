package rules

// The mechanical wolf (机械狼, ROLES-MORE-2.md) is of the wolf camp, outside
// the pack: he does not know the wolves, they do not know him, he cannot
// self-explode, and camp checks read him as a wolf. On night 1
// (mechanical_wolf_learns=first_night; any_night: the first night he
// chooses) he imitates another living player and is told that player's
// card; from the next night he holds what that card gives:
//   - seer: a seer's check each night (seer_sees); psychic: a card check;
//   - guard: the mechanical shield, one player a night (himself allowed,
//     guard_repeat applies), safe from the attack, the poison and a shot
//     fired inside the night; shield and heal on one target follow
//     guard_heal_same_target as the guard's protection;
//   - witch: one poison, no heal;
//   - hunter: a shot when he dies (from the next day; not when poisoned);
//   - a card of the pack: once the pack is dead (he holds the kill), one
//     second attack in one night per game, which neither guard nor heal saves;
//   - any other card: nothing.
// He is woken every night whatever he learned, and holds the kill alone
// (killers: lone) once every wolf of the pack is dead. The psychic checking
// him sees the imitated card once he has imitated.
//
// Choices where the page is silent:
//   - He is woken once a night, at the imitation's place in the wake order
//     (after the mixed blood), and uses there whatever he learned: the
//     engine wakes the night step's roles together, and the resolution
//     order is the page's whatever the wake.
//   - Under first_night the imitation is owed (his timer imitates his left
//     neighbour, as the mixed blood's model); under any_night it is not.
//   - The card he is told and keeps is the card of the seat the imitation
//     landed on (the magician's swap), as of that moment; later changes of
//     that player's card change nothing.
//   - The mirror seer's card gives nothing (his check is a plain
//     villager's belief); the lone wolf cards (hidden wolf, gargoyle,
//     possessed) are not cards of the pack and give nothing.
//   - His learned check is a wolf's, not a village check: it does not kill
//     the cursed fox and the spirit knight does not reflect it.
//   - Under night_order=seer_first a psychic woken in the night step with
//     him reads mechanical_wolf on the night he imitates (whoever acted
//     first), lest the reading tell the psychic who acted first; under
//     wolves_first the psychic wakes after him and reads the imitated card.
//   - The second attack must name another player than his own pick; if
//     the swap lands both on one seat, that seat is attacked once.

type mechanicalWolfState struct {
	mechCard       Role  // the card he imitated (NoRole: not yet)
	mechNight      int16 // the night he imitated
	mechDied       int16 // the night he died in (0: alive, or died by day)
	mechShield     Seat  // tonight's mechanical shield
	lastShield     Seat  // last night's, for guard_repeat=no_consecutive
	shieldedEver   uint32
	mechPoison     Seat // tonight's poison
	mechPoisonUsed bool
	mechDouble     Seat // tonight's second attack
	mechDoubleUsed bool
}

func init() {
	falls, _, skipped := dueBesideThePack(MechanicalWolf)
	hooks[MechanicalWolf] = roleHooks{
		lone:      true,
		noExplode: true,
		due:       true,
		nightFalls: func(g *Game) {
			falls(g)
			g.lastShield, g.mechShield = g.mechShield, NoSeat
			g.mechPoison, g.mechDouble = NoSeat, NoSeat
		},
		// Woken every night; awaited only when he has something to do (a
		// wake naming no card owes nothing), so that a night with nothing
		// learned needs no skip from him.
		wake: func(g *Game) {
			if s := g.firstOf(MechanicalWolf, g.alive); s != NoSeat {
				r := MechanicalWolf
				if g.mechAction(s) == CmdNone {
					r = NoRole
				}
				g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepNight), Role: r})
			}
		},
		skipped: skipped,
		step:    StepNight,
		check:   checkMechanical,
		exec:    execMechanical,
		choices: func(g *Game, s Seat) (c [2]Choice) {
			if !g.has(g.due, s) {
				return c
			}
			switch k := g.mechAction(s); k {
			case CmdProtect:
				c[0] = choice(k, g.shieldable(), false)
			case CmdPoison:
				c[0] = choice(k, g.alive, false)
			case CmdDoubleAttack:
				t := g.alive &^ s.bit()
				if g.has(g.picked, s) && g.picks[s] != NoSeat {
					t &^= g.picks[s].bit()
				}
				c[0] = choice(k, t, false)
			case CmdImitate, CmdCheck:
				c[0] = choice(k, g.alive&^s.bit(), false)
			}
			return c
		},
		mustAct: func(g *Game, s Seat) (refusal, Command, bool) {
			// The owed imitation; a pick still owed is declined first.
			if !g.has(g.due, s) || g.has(g.pending, s) || g.mechAction(s) != CmdImitate || g.opt(OptMechanicalWolfLearns) != LearnsFirstNight {
				return accept, Command{}, false
			}
			why := refuse(CodeRule, "mechanical_wolf_learns=first_night", "the mechanical wolf must imitate a player on night 1")
			return why, Command{Seat: s, Kind: CmdImitate, Target: g.leftOf(s, g.alive)}, true
		},
		shoots: func(g *Game, s Seat) bool {
			// As the hunter, from the day after the imitation: a death in
			// the night he imitated (night 1) gives no shot.
			return g.mechCard == Hunter && g.mechNight > 0 && !(g.mechDied != 0 && g.mechDied <= g.mechNight) &&
				g.shotAllowed(s, false)
		},
	}
}

// mechAction is what the mechanical wolf s may do tonight beside the kill
// (CmdNone: nothing; he is woken all the same).
func (g *Game) mechAction(s Seat) CmdKind {
	if g.mechCard == NoRole {
		if g.night == 1 || g.opt(OptMechanicalWolfLearns) == LearnsAnyNight {
			return CmdImitate
		}
		return CmdNone
	}
	if g.night <= g.mechNight { // from the next night
		return CmdNone
	}
	switch r := g.mechCard; {
	case r == Seer || r == Psychic:
		return CmdCheck
	case r == Guard:
		return CmdProtect
	case r == Witch && !g.mechPoisonUsed:
		return CmdPoison
	case packCard(r) && !g.mechDoubleUsed && g.has(g.killers(), s):
		return CmdDoubleAttack
	}
	return CmdNone
}

// packCard: card r wakes with the pack (not a lone wolf card).
func packCard(r Role) bool { return r.IsWolf() && !hooks[r].lone }

// shieldable: whom the mechanical shield may cover tonight (guard_repeat).
func (g *Game) shieldable() uint32 {
	t := g.alive
	if g.opt(OptGuardRepeat) == GuardNoConsecutive && g.lastShield != NoSeat {
		t &^= g.lastShield.bit()
	}
	if g.opt(OptGuardRepeat) == GuardOncePerTarget {
		t &^= g.shieldedEver
	}
	return t
}

func checkMechanical(g *Game, c Command) (refusal, bool) {
	switch c.Kind {
	case CmdImitate, CmdCheck, CmdProtect, CmdPoison, CmdDoubleAttack:
	default:
		return accept, false
	}
	s, t := c.Seat, c.Target
	if !g.has(g.due, s) || g.mechAction(s) != c.Kind {
		return refuse(CodeNotNow, "", "the mechanical wolf has no %s tonight", c.Kind), true
	}
	switch c.Kind {
	case CmdProtect:
		if !g.has(g.alive, t) {
			return refuse(CodeTarget, "", "seat %d cannot be protected", t), true
		}
		if !g.has(g.shieldable(), t) {
			return refuse(CodeRule, "guard_repeat", "the mechanical shield may not cover seat %d tonight (guard_repeat)", t), true
		}
	case CmdPoison:
		if !g.has(g.alive, t) {
			return refuse(CodeTarget, "", "the poison must go to a living player"), true
		}
	case CmdDoubleAttack:
		if !g.anotherLiving(c) {
			return refuse(CodeTarget, "", "the second attack must name another living player"), true
		}
		if g.has(g.picked, s) && g.picks[s] == t {
			return refuse(CodeTarget, "", "the second attack must name another player than the first (seat %d)", t), true
		}
	default:
		if !g.anotherLiving(c) {
			return refuse(CodeTarget, "", "the mechanical wolf must name another living player"), true
		}
	}
	return accept, true
}

func execMechanical(g *Game, c Command) {
	s, t := c.Seat, c.Target
	switch c.Kind {
	case CmdImitate:
		g.emit(Event{Kind: EvImitate, To: s.bit(), Seat: s, Target: t, Role: g.role[g.landed(t)]})
	case CmdCheck:
		if g.mechCard == Seer {
			execSeer(g, c)
		} else {
			execCardCheck(g, c)
		}
	case CmdProtect:
		g.emit(Event{Kind: EvProtect, To: s.bit(), Seat: s, Target: t})
	case CmdPoison:
		g.emit(Event{Kind: EvPoison, To: s.bit(), Seat: s, Target: t})
	case CmdDoubleAttack:
		g.emit(Event{Kind: EvDoubleAttack, To: s.bit(), Seat: s, Target: t})
	}
}

func (g *Game) applyImitate(e *Event) {
	g.mechCard, g.mechNight = e.Role, g.night
	g.due &^= e.Seat.bit()
}

func (g *Game) applyShield(e *Event) {
	g.mechShield = e.Target
	g.shieldedEver |= e.Target.bit()
	g.due &^= e.Seat.bit()
}

func (g *Game) applyMechPoison(e *Event) {
	g.mechPoison, g.mechPoisonUsed = e.Target, true
	g.poisoned |= g.landed(e.Target).bit() // a poisoned hunter does not shoot
	g.due &^= e.Seat.bit()
}

func (g *Game) applyDoubleAttack(e *Event) {
	g.mechDouble, g.mechDoubleUsed = e.Target, true
	g.due &^= e.Seat.bit()
}

// shielded: the mechanical shield covers t tonight.
func (g *Game) shielded(t Seat) bool {
	return g.mechShield != NoSeat && g.landed(g.mechShield) == t
}

// cardSeen is the card a card check reads on seat t: the mechanical wolf's
// imitated card once he has imitated (see the choice above on the night
// he imitates), else the card.
func (g *Game) cardSeen(t Seat) Role {
	r := g.role[t]
	if r == MechanicalWolf && g.mechCard != NoRole && (g.mechNight < g.night || g.step == StepCheck || !g.isNight) {
		return g.mechCard
	}
	return r
}

// resolveMechanical: the second attack after the attack (neither the
// guard, the shield nor the heal saves from it; the dream and the
// immunities do), then his poison after the witch's.
func (g *Game) resolveMechanical(b *batch) {
	if t := g.landed(g.mechDouble); t != NoSeat && t != g.landed(g.attack) && g.has(g.alive, t) {
		if f := hooks[g.role[t]].attacked; !g.nightSafe(t, CauseAttack) && (f == nil || !f(g, t, true, false, false)) {
			g.kill(t, CauseAttack, false, false, b)
		}
	}
}

func (g *Game) resolveMechPoison(b *batch) {
	if p := g.landed(g.mechPoison); p != NoSeat && g.has(g.alive, p) && !g.nightSafe(p, CausePoison) {
		g.kill(p, CausePoison, false, false, b)
	}
}
