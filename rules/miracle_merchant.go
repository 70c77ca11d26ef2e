package rules

// The miracle merchant (奇迹商人, ROLES-MORE-2.md) wakes at the very start
// of each night, after the magician, until he has given his gift: once per
// game he names another living player the lucky one (幸运儿) with one gift,
// a check, a poison or a shield. A lucky one of the wolf camp in truth gets
// nothing and is told nothing, and the merchant dies in the night (cause
// merchant, §5 step 9): the guard and the heal do not save him, the dream
// does. Otherwise the lucky one is woken in a stage of his own right after
// the merchant's (CallLucky), told his gift the first time, and may use it
// that night or any later one, once. The gift counts as its source:
//   - check: a seer's wolf_or_not reading (an EvCheck); the spirit knight
//     reflects it on a lucky one of the village camp, as a seer's check;
//   - poison: a witch's poison (cause poison: a poisoned hunter shoots only
//     under hunter_shoots_when_poisoned; the spirit knight reflects it);
//   - shield: a guard's protection from tonight's attack (guarded): with
//     the guard it is one protection, with the heal on the same target
//     guard_heal_same_target decides.
// The gift survives the merchant's death; the lucky one does not become a
// god; the merchant is told nothing of the outcome.
//
// Choices where the page is silent: the shield may cover the lucky one
// himself (the guard may protect himself); the poison and the check go to
// another living player. The lucky one's wake is a night power of his card's
// camp: a village lucky one loses it with the village's powers (the elder,
// the blood moon's night), as the merchant does.

type merchantState struct {
	lucky      Seat  // the lucky one, once the gift went to a player outside the wolf camp
	gift       int16 // his gift (GiftCheck, GiftPoison, GiftShield)
	gave       bool  // the merchant has given (once per game)
	luckyTold  bool  // the lucky one was told his gift
	giftUsed   bool  // the lucky one has used it
	doomed     bool  // tonight the merchant gave to the wolf camp: he dies
	shieldT    Seat  // tonight's shield, as named
	luckPoison Seat  // tonight's gift poison, as named
}

// The gifts (EvGift's and EvLucky's Value).
const (
	GiftCheck  = 1
	GiftPoison = 2
	GiftShield = 3
)

// CallLucky is the group call of the lucky one (see Call).
const CallLucky Role = 241

var luckyCall roleHooks

// giftCmds are the merchant's commands, by gift.
var giftCmds = [...]CmdKind{GiftCheck: CmdGiftCheck, GiftPoison: CmdGiftPoison, GiftShield: CmdGiftShield}

func init() {
	hooks[MiracleMerchant] = roleHooks{
		nightFalls: func(g *Game) { g.doomed, g.shieldT, g.luckPoison = false, NoSeat, NoSeat },
		setup: func(g *Game) bool {
			s := g.firstOf(MiracleMerchant, g.alive)
			if s == NoSeat || g.gave || !g.villagePower() || g.night < 1 {
				return false
			}
			g.emit(Event{Kind: EvStep, To: s.bit(), Value: int16(StepMerchant), Role: MiracleMerchant, Mask: s.bit()})
			return true
		},
		nightly: true,
		step:    StepMerchant,
		check: func(g *Game, c Command) (refusal, bool) {
			if giftOf(c.Kind) == 0 {
				return accept, false
			}
			if !g.anotherLiving(c) {
				return refuse(CodeTarget, "", "the lucky one is another living player"), true
			}
			return accept, true
		},
		exec: func(g *Game, c Command) {
			g.emit(Event{Kind: EvGift, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target, Value: giftOf(c.Kind)})
		},
		awake: func(g *Game) bool { return g.firstOf(MiracleMerchant, g.alive) != NoSeat && !g.gave },
	}
	check, _ := onAnother(CmdCheck, "the lucky one checks another living player")
	poison, _ := onAnother(CmdPoison, "the lucky one poisons another living player")
	luckyCall = roleHooks{
		setup: func(g *Game) bool {
			l := g.lucky
			if !g.luckyAwake() || (g.role[l].Camp() == Village && !g.villagePower()) {
				return false
			}
			if !g.luckyTold {
				g.emit(Event{Kind: EvLucky, To: l.bit(), Seat: l, Value: g.gift})
			}
			g.emit(Event{Kind: EvStep, To: l.bit(), Value: int16(StepLucky), Mask: l.bit()})
			return true
		},
		nightly: true,
		step:    StepLucky,
		check: func(g *Game, c Command) (refusal, bool) {
			switch {
			case g.gift == GiftCheck && c.Kind == CmdCheck:
				return check(g, c)
			case g.gift == GiftPoison && c.Kind == CmdPoison:
				return poison(g, c)
			case g.gift == GiftShield && c.Kind == CmdProtect:
				if !g.has(g.alive, c.Target) {
					return refuse(CodeTarget, "", "the shield covers a living player"), true
				}
				return accept, true
			}
			return accept, false
		},
		exec: func(g *Game, c Command) {
			if c.Kind == CmdCheck { // the seer's wolf_or_not reading, where it landed
				e := Event{Kind: EvCheck, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target}
				if g.readsWolf(g.aimed(c.Seat, c.Target)) {
					e.Value = ResultWolf
				}
				g.emit(e)
			}
			g.emit(Event{Kind: EvGiftUse, To: c.Seat.bit(), Seat: c.Seat, Target: c.Target, Value: g.gift})
		},
		choices: func(g *Game, s Seat) [2]Choice {
			switch g.gift {
			case GiftCheck:
				return [2]Choice{choice(CmdCheck, g.alive&^s.bit(), false)}
			case GiftPoison:
				return [2]Choice{choice(CmdPoison, g.alive&^s.bit(), false)}
			}
			return [2]Choice{choice(CmdProtect, g.alive, false)}
		},
	}
}

// giftOf is the gift a merchant's command gives, or 0.
func giftOf(k CmdKind) int16 {
	for g, c := range giftCmds {
		if c == k && g != 0 {
			return int16(g)
		}
	}
	return 0
}

// luckyAwake: the lucky one lives and still holds his gift.
func (g *Game) luckyAwake() bool {
	return g.lucky != NoSeat && !g.giftUsed && g.has(g.alive, g.lucky)
}

// applyGift: the gift lands as a village god's power does (lands: the
// magician's swap, the eclipse queen's rebound, which makes the merchant
// his own lucky one); the merchant's event keeps the seat he named.
func (g *Game) applyGift(e *Event) {
	g.gave = true
	g.pending &^= e.Seat.bit()
	t := g.lands(e.Seat, e.Target)
	if g.ofWolfCamp(t) {
		g.doomed = true
		return
	}
	g.lucky, g.gift = t, e.Value
}

func (g *Game) applyGiftUse(e *Event) {
	g.giftUsed = true
	g.pending &^= e.Seat.bit()
	switch e.Value {
	case GiftShield:
		g.shieldT = e.Target
	case GiftPoison:
		g.luckPoison = e.Target
		g.poisoned |= g.aimed(e.Seat, e.Target).bit()
	}
}

// luckyShielded: the lucky one's shield covers t tonight (a guard's
// protection: guarded).
func (g *Game) luckyShielded(t Seat) bool {
	return g.shieldT != NoSeat && g.aimed(g.lucky, g.shieldT) == t
}

// resolveGiftPoison kills the lucky one's poisoned, after the witch's (§5
// step 5), with the witch's poison's rules.
func (g *Game) resolveGiftPoison(b *batch) {
	if g.luckPoison == NoSeat {
		return
	}
	if p := g.aimed(g.lucky, g.luckPoison); g.has(g.alive, p) && !g.nightSafe(p, CausePoison) {
		g.kill(p, CausePoison, false, false, b)
	}
}

// resolveMerchant: the merchant who gave to the wolf camp dies (§5 step 9).
func (g *Game) resolveMerchant(b *batch) {
	if m := g.holder[MiracleMerchant]; g.doomed && m != NoSeat && g.has(g.alive, m) && !g.nightSafe(m, CauseMerchant) {
		g.kill(m, CauseMerchant, false, false, b)
	}
}

// merchantChoices: the three gifts, each to another living player.
func (g *Game) merchantChoices(s Seat, buf []Choice) []Choice {
	t := g.alive &^ s.bit()
	for _, k := range giftCmds[1:] {
		buf = addChoice(buf, k, t, false)
	}
	return buf
}
