package rules

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// entitled is who may receive a private event of each kind: the rule the
// audience of every emitted event is checked against.
func entitled(g *Game, e *Event) uint32 {
	wolfTeam := g.wolves &^ g.loversCamp
	switch e.Kind {
	case EvRole, EvBallot, EvSkip, EvRun, EvNoShot, EvFeedback, EvSwap, EvShoot:
		return e.Seat.bit()
	case EvWolfTeam: // not the gargoyle nor the possessed, who do not know the wolves
		return wolfTeam&^g.seatsOf(Gargoyle, g.all)&^g.seatsOf(Possessed, g.all)&^g.seatsOf(MechanicalWolf, g.all) | g.ally.bit()
	case EvAttackPick, EvAttack, EvAttackResult: // the possessed never holds the kill
		return g.wolves&^g.seatsOf(Possessed, g.all) | g.lovers | g.newlyweds() // the black lovers hold the widow knife, the newlyweds theirs
	case EvModel, EvWildWolf:
		return g.seatsOf(WildChild, g.all)
	case EvBlood:
		return g.seatsOf(MixedBlood, g.all)
	case EvImitate, EvDoubleAttack:
		return g.seatsOf(MechanicalWolf, g.all)
	case EvDance:
		return g.seatsOf(Dancer, g.all)
	case EvAsk, EvMask:
		return g.seatsOf(Masquerade, g.all)
	case EvGroom: // the bride and her groom
		return g.seatsOf(GhostBride, g.all) | g.groom.bit()
	case EvWitness: // the bride and the witness, not the groom
		return g.seatsOf(GhostBride, g.all) | g.witness.bit()
	case EvWed:
		return g.couple()
	case EvPair:
		return g.seatsOf(Warden, g.all)
	case EvTraders, EvTradeResult: // the two named, and nobody else
		return e.Mask | e.Seat.bit() | e.Target.bit()
	case EvTradeChoice:
		return e.Seat.bit() & g.traded
	case EvGift:
		return g.seatsOf(MiracleMerchant, g.all)
	case EvLucky, EvGiftUse:
		return g.lucky.bit() &^ 1
	case EvCharm:
		return g.seatsOf(WolfBeauty, g.all)
	case EvSiblings: // the group's own members (the thief may hold a sister's card)
		return g.seatsOf(e.Role, g.all)
	case EvProtect:
		return g.seatsOf(Guard, g.all) | g.seatsOf(MechanicalWolf, g.all)
	case EvCheck:
		return g.seatsOf(Seer, g.all) | g.seatsOf(Psychic, g.all) | g.seatsOf(Gargoyle, g.all) | g.seatsOf(PureWhite, g.all) | g.seatsOf(WolfWitch, g.all) | g.seatsOf(MirrorSeer, g.all) | g.seatsOf(MechanicalWolf, g.all) | g.lucky.bit()&^1
	case EvGrave:
		return g.seatsOf(Gravekeeper, g.all)
	case EvCurse:
		return g.seatsOf(Crow, g.all)
	case EvSilence:
		return g.seatsOf(SilenceElder, g.all)
	case EvVoteBan:
		return g.seatsOf(VoteBanElder, g.all)
	case EvWitchTold, EvHeal:
		return g.seatsOf(Witch, g.all)
	case EvPoison:
		return g.seatsOf(Witch, g.all) | g.seatsOf(MechanicalWolf, g.all)
	case EvDream:
		return g.seatsOf(Dreamcatcher, g.all)
	case EvMagic:
		return g.seatsOf(Magician, g.all)
	case EvShelter:
		return g.seatsOf(EclipseWolfQueen, g.all)
	case EvHunt:
		return g.seatsOf(WitchHunter, g.all)
	case EvFear:
		return g.seatsOf(Nightmare, g.all)
	case EvFeared: // the feared alone, and only one the nightmare named
		if feared(g, e.Seat) {
			return e.Seat.bit()
		}
		return 0
	case EvNoAttack:
		return g.wolves | g.lovers | g.newlyweds()
	case EvReflect:
		return 0 // the moderator's
	case EvTails:
		return g.seatsOf(NineTailedFox, g.all)
	case EvExtraCards:
		return dealt(g, Thief)
	case EvLovers:
		return g.lovers | g.seatsOf(Cupid, g.all)
	case EvLoverRole:
		return g.lovers
	case EvKillPower:
		return g.loversCamp | g.newlyweds()
	case EvBlackLovers, EvCampLost:
		return e.Mask | g.all // (checked below: the camp's own members)
	case EvSpy:
		return g.seatsOf(LittleGirl, g.all)
	case EvEnchant:
		return g.seatsOf(Piper, g.all)
	case EvCharmed:
		return g.charmed | g.seatsOf(Piper, g.all)
	case EvAlly:
		return g.firstDead.bit() | g.ally.bit()
	case EvStep:
		switch Step(e.Value) {
		case StepNight:
			m := g.seatsOf(e.Role, g.all)
			if e.Role == Seer { // the mirror seer is woken as the seer
				m |= g.seatsOf(MirrorSeer, g.all)
			}
			return m | g.wolves&^g.seatsOf(Possessed, g.all) | g.lovers | g.newlyweds()
		case StepBride:
			return g.seatsOf(GhostBride, g.all)
		case StepThief:
			return dealt(g, Thief)
		case StepCupid:
			return g.seatsOf(Cupid, g.all)
		case StepNightmare:
			return g.seatsOf(Nightmare, g.all)
		case StepMagician:
			return g.seatsOf(Magician, g.all)
		case StepEclipse:
			return g.seatsOf(EclipseWolfQueen, g.all)
		case StepMasquerade:
			return g.seatsOf(Masquerade, g.all)
		case StepMerchant:
			return g.seatsOf(MiracleMerchant, g.all)
		case StepLucky:
			return g.lucky.bit() &^ 1
		case StepWarden:
			return g.seatsOf(Warden, g.all)
		case StepTrade:
			return g.traded
		case StepCheck: // night_order=wolves_first: a checker woken alone
			return g.seatsOf(Seer, g.all) | g.seatsOf(Psychic, g.all) | g.seatsOf(PureWhite, g.all) | g.seatsOf(MirrorSeer, g.all)
		case StepNightShot: // a shooter killed tonight, woken alone (the mechanical wolf who imitated the hunter shoots as he)
			return (g.seatsOf(Hunter, g.all) | g.seatsOf(WolfKing, g.all) | g.seatsOf(MechanicalWolf, g.all)) &^ g.alive
		}
		return g.seatsOf(Witch, g.all)
	}
	return 0 // deaths before dawn, the moderator's bookkeeping
}

// feared: the nightmare named seat s on some night (EvFear).
func feared(g *Game, s Seat) bool {
	for _, e := range g.events {
		if e.Kind == EvFear && e.Target == s {
			return true
		}
	}
	return false
}

// dealt is the set of seats first dealt card r (the thief may change his).
func dealt(g *Game, r Role) uint32 {
	var m uint32
	for _, e := range g.events {
		if e.Kind == EvRole && e.Role == r && m&e.Seat.bit() == 0 {
			m |= e.Seat.bit()
		}
		if e.Kind == EvNight {
			break
		}
	}
	return m
}

// TestPropertiesOfRandomGames: on every preset with any option values, random legal play always
// ends; the dead never act; replaying the event log rebuilds the same state;
// no seat's view holds a role or a private event its role may not know.
func TestPropertiesOfRandomGames(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := rapid.SampledFrom(Presets()).Draw(rt, "preset")
		n := rapid.IntRange(p.MinPlayers, p.MaxPlayers).Draw(rt, "players")
		seed := rapid.Uint64().Draw(rt, "seed")
		b, err := p.Board(n)
		if err != nil {
			rt.Fatal(err)
		}
		// Any option may take any of its values.
		for o := Option(0); o < numOptions; o++ {
			if rapid.Bool().Draw(rt, "change "+o.Name()) {
				b.Options[o] = uint8(rapid.IntRange(0, len(o.Values())-1).Draw(rt, o.Name()))
			}
		}
		if slices.Contains(b.Cards, Angel) { // the angel's board starts by day (Validate)
			b.Options[OptFirstPhase] = FirstDay
		}
		playChecked(rt, b, seed)
	})
}

// deadNeverAct: every command from a seat the table knows to be dead is
// refused, except his own last actions (shot, badge, last words).
func deadNeverAct(rt *rapid.T, g *Game, r *rand.Rand) {
	for s := Seat(1); s <= g.n; s++ {
		if g.has(g.pubAlive, s) {
			continue
		}
		own := (g.step == StepSkill || g.step == StepBadge || g.step == StepLastWords ||
			g.step == StepVoters || g.step == StepAlly) && g.stepSeat == s
		for k := CmdKind(1); k < numCmds; k++ {
			c := Command{Seat: s, Kind: k, Target: Seat(r.IntN(int(g.n)) + 1)}
			if err := g.Check(c); err == nil && !own {
				rt.Fatalf("dead seat %d may %v at %s", s, c, g.step)
			}
		}
	}
}

// refusedChangesNothing sends an arbitrary command; if it is refused the
// game must be exactly as before.
func refusedChangesNothing(rt *rapid.T, g *Game, r *rand.Rand) {
	c := Command{Seat: Seat(r.IntN(int(g.n)+2) - 1), Kind: CmdKind(r.IntN(int(numCmds) + 1)),
		Target: Seat(r.IntN(int(g.n)+2) - 1), Value: int8(r.IntN(3) - 1)}
	before := *g
	before.events = slices.Clone(g.events)
	if err := g.Do(c); err != nil {
		if !reflect.DeepEqual(&before, g) {
			rt.Fatalf("refused %v (%v) changed the game", c, err)
		}
	}
}

func noLeaks(rt *rapid.T, g *Game) {
	night := false
	for i := range g.events {
		e := &g.events[i]
		// While the table sleeps nothing is said aloud (but by the moderator's
		// red card): a public event at night would tell everyone who is awake
		// (a thief's or cupid's skip).
		switch {
		case e.Kind == EvNight:
			night = true
		case e.Kind == EvDay || e.Kind == EvGameOver:
			night = false
		case e.Kind == EvRedCard:
			night = false // the moderator's act is public, and so are its consequences
		case night && e.Public && e.Kind != EvDawn:
			rt.Fatalf("event %d (%v) is public at night", e.Seq, e)
		}
		// The pack told never names the lone cards (the gargoyle, the hidden
		// wolf, the possessed): the wolves are not told of them.
		if e.Kind == EvWolfTeam && e.Mask&g.lone != 0 {
			rt.Fatalf("event %d (%v) names the lone wolf-camp cards %v", e.Seq, e, Seats(e.Mask&g.lone))
		}
		if !e.Public && e.To&^entitled(g, e) != 0 {
			rt.Fatalf("event %d (%v) goes to %v, beyond %v", e.Seq, e, Seats(e.To), Seats(entitled(g, e)))
		}
	}
	// Views taken before the end, when the cards are not yet turned.
	over := g.over
	g.over = false
	defer func() { g.over = over }()
	for s := Seat(1); s <= g.n; s++ {
		v := g.View(s)
		for x := Seat(1); x <= g.n; x++ {
			k := v.Known[x]
			if k == NoRole {
				continue
			}
			team := g.wolves &^ g.loversCamp
			// The pack knows itself; the hidden wolf knows the pack; nobody
			// knows the lone cards (the gargoyle, the hidden wolf, the possessed).
			mate := (g.has(team, s) || s == g.ally) && g.has(team&^g.lone, x)
			checked := ((g.role[s] == Seer || g.role[s] == MirrorSeer) && g.opt(OptSeerSees) == SeesRole) || g.role[s] == Psychic || g.role[s] == Gargoyle || g.role[s] == PureWhite || g.role[s] == WolfWitch ||
				g.role[s] == MechanicalWolf // his imitation, his learned checks
			lover := g.opt(OptLoversSeeRoles) == On && g.has(g.lovers, s) && g.has(g.lovers, x)
			sibling := (k == Sister || k == Brother) && g.role[s] == k // the sisters (brothers) meet
			if x != s && !mate && !g.has(g.revealed, x) && !checked && !lover && !sibling {
				rt.Fatalf("seat %d (%s) knows seat %d is %s", s, g.role[s], x, k)
			}
			// A check that the magician's swap moved reports another seat's card;
			// the mirror seer believes he is the seer, and his checks lie.
			mirror := g.role[s] == MirrorSeer && (x == s && k == Seer || x != s)
			imitated := g.role[x] == MechanicalWolf && k == g.mechCard // a card check reads the card he imitated
			// The eclipse queen's shelter rebounds a check onto the checker,
			// who is told his own card as the aimed seat's.
			rebound := checked && g.cardSet&(1<<EclipseWolfQueen) != 0 && k == g.role[s]
			if k != g.role[x] && !(mate && k == Werewolf) && !g.has(g.swappedEver, x) && !mirror && !imitated && !rebound {
				rt.Fatalf("seat %d believes seat %d is %s; it is %s", s, x, k, g.role[x])
			}
		}
	}
}

// randomBoard draws a board with RandomBoard, each choice a rapid draw.
func randomBoard(rt *rapid.T) Board {
	return RandomBoard(func(name string, lo, hi int) int { return rapid.IntRange(lo, hi).Draw(rt, name) })
}

// TestPropertiesOfRandomBoards: on any board with any options, every game
// ends; the dead never act; replaying the log rebuilds the state; no view
// leaks; lovers always die together; the piper wins only when every other
// living player is charmed.
func TestPropertiesOfRandomBoards(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		b := randomBoard(rt)
		if err := b.Validate(); err != nil {
			rt.Skip(err)
		}
		playChecked(rt, b, rapid.Uint64().Draw(rt, "seed"))
	})
}

// playChecked plays a random game on b, checking the properties after every
// command and at the end: every game ends; the dead never act; a refused
// command changes nothing; lovers die together; the piper wins only with
// every other living player charmed; no view leaks; replaying the log
// rebuilds the state. Now and then the moderator shows a red card.
func playChecked(rt *rapid.T, b Board, seed uint64) {
	g, err := New(b, seed, nil)
	if err != nil {
		rt.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, rapid.Uint64().Draw(rt, "driver")))
	for cmds := 0; !g.over; cmds++ {
		if cmds > 5000 {
			rt.Fatalf("not over after 5000 commands (day %d, step %s)", g.day, g.step)
		}
		deadNeverAct(rt, g, r)
		refusedChangesNothing(rt, g, r)
		if r.IntN(200) == 0 {
			_ = g.RedCard(Seat(r.IntN(int(g.n)) + 1))
		} else {
			playRandom(rt, g, r, 1)
		}
		if popcount(g.lovers&g.alive) == 1 {
			rt.Fatalf("lover %v lives on alone", Seats(g.lovers&g.alive))
		}
	}
	if over, w := g.Over(); over && w == PiperCamp {
		piper := g.seatsOf(Piper, g.alive)
		if g.alive&^piper&^g.charmed != 0 {
			rt.Fatalf("the piper won with %v alive and not charmed", Seats(g.alive&^piper&^g.charmed))
		}
	}
	noLeaks(rt, g)
	g2, err := Replay(b, seed, g.Events())
	if err != nil {
		rt.Fatal(err)
	}
	if !reflect.DeepEqual(g, g2) {
		rt.Fatalf("replaying %d events does not rebuild the state", len(g.events))
	}
}
