package rules

// The spirit knight (恶灵骑士, ROLES-MORE.md) is a wolf who wakes with the
// wolves. Nothing kills him in the night (spared): the attack (自刀), the
// poison, a hunt, the dream's deaths, the dance (舞者). Once per game the first village role
// to check him or to poison him dies of the reflection, last in the night's
// resolution (spirit_knight_reflect=same_night) or in the next night's
// (next_night); a reflection on tonight's dreamer is used up all the same.
// He cannot self-explode. By day the vote, a shot and a duel kill him.

type spiritKnightState struct {
	reflectUsed bool
	reflectNext Seat // next_night: the one the reflection kills in the next night's resolution
}

func init() {
	hooks[SpiritKnight] = roleHooks{
		spared: func(g *Game, s Seat, c Cause) bool {
			return c == CauseAttack || c == CausePoison || c == CauseHunt || c == CauseDream || c == CausePurify || c == CauseDance
		},
		noExplode: true,
	}
}

func (g *Game) applyReflect(e *Event) {
	g.reflectUsed = true
	g.reflectNext = NoSeat
	if e.Value == ReflectNextNight {
		g.reflectNext = e.Target
	}
}

// resolveReflection comes last in the night's resolution: a reflection
// kept from last night kills now; then, once per game, the first village
// role who checked the spirit knight tonight (the check that landed on him)
// or poisoned him is reflected on.
func (g *Game) resolveReflection(b *batch) {
	if r := g.reflectNext; r != NoSeat {
		g.emit(Event{Kind: EvReflect, Seat: g.holder[SpiritKnight], Target: r})
		if g.has(g.alive, r) && !g.nightSafe(r, CauseReflect) {
			g.kill(r, CauseReflect, false, false, b)
		}
	}
	k := g.firstOf(SpiritKnight, g.all)
	if g.reflectUsed || k == NoSeat {
		return
	}
	victim := NoSeat
	start := len(g.events) - 1
	for start > 0 && g.events[start].Kind != EvNight {
		start--
	}
	for i := start; i < len(g.events) && victim == NoSeat; i++ {
		e := &g.events[i]
		if e.Kind == EvCheck && g.role[e.Seat].Camp() == Village && g.lands(e.Seat, e.Target) == k {
			victim = e.Seat
		}
	}
	if victim == NoSeat && g.poisonT != NoSeat && g.poisonLands() == k {
		victim = g.firstOf(Witch, g.all)
	}
	if victim == NoSeat && g.luckPoison != NoSeat && g.aimed(g.lucky, g.luckPoison) == k { // the gift poison is a witch's
		victim = g.lucky
	}
	if victim == NoSeat {
		return
	}
	when := int16(g.opt(OptSpiritKnightReflect))
	g.emit(Event{Kind: EvReflect, Seat: k, Target: victim, Value: when})
	if when == ReflectSameNight && g.has(g.alive, victim) && !g.nightSafe(victim, CauseReflect) {
		g.kill(victim, CauseReflect, false, false, b)
	}
}
