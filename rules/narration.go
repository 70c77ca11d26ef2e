package rules

// Call is one line of the moderator's narration for a table game: a
// catalogue key (internal/i18n) and, for a role's call, the role.
type Call struct {
	Key  string // "night.falls", "role.open", "role.close", "day.breaks"
	Role Role
}

// nightCalls is the wake order of 000 (thief, cupid, lovers, defender, seer,
// wolves and the little girl, witch, piper, the charmed) with the roles of
// 001 placed where they act: the wolf beauty after the wolves, the fox last.
// It is also the engine's night order: the setup stages, the wakes of the
// night step, the order of a seat's Choices and what is told at the wake
// all follow it (night.go), so a new role with a night action takes its
// place here.
var nightCalls = [...]Role{Nightmare, EclipseWolfQueen, Magician, MiracleMerchant, CallLucky, Thief, Cupid, CallLovers, GhostBride, WildChild, MixedBlood, MechanicalWolf, Sister, Brother, Warden, CallTraders, Dreamcatcher, Guard, SilenceElder, VoteBanElder, Seer, MirrorSeer, Psychic, PureWhite, Gargoyle, Werewolf, WolfWitch, WolfBeauty, Witch, WitchHunter, Crow, Dancer, Masquerade, Gravekeeper, CallWed, CallSisters, CallBrothers, Piper, CallCharmed, NineTailedFox}

// wolvesFirstCalls is nightCalls under night_order=wolves_first
// (ROLES-MORE-2.md §5): the checkers (the roles with lateCheck) right after
// the witch, so that the table hears 守卫 → 狼人 → 女巫 → 预言家. (Written
// out: the hooks are filled by init functions, after package variables.)
var wolvesFirstCalls = [len(nightCalls)]Role{Nightmare, EclipseWolfQueen, Magician, MiracleMerchant, CallLucky, Thief, Cupid, CallLovers, GhostBride, WildChild, MixedBlood, MechanicalWolf, Sister, Brother, Warden, CallTraders, Dreamcatcher, Guard, SilenceElder, VoteBanElder, Gargoyle, Werewolf, WolfWitch, WolfBeauty, Witch, Seer, MirrorSeer, Psychic, PureWhite, WitchHunter, Crow, Dancer, Masquerade, Gravekeeper, CallWed, CallSisters, CallBrothers, Piper, CallCharmed, NineTailedFox}

// callOrder is the game's wake order: nightCalls, or wolvesFirstCalls.
func (g *Game) callOrder() *[len(nightCalls)]Role {
	if g.opt(OptNightOrder) == WolvesFirst {
		return &wolvesFirstCalls
	}
	return &nightCalls
}

// Calls of a group rather than a card, in a Call's Role. (Werewolf in a
// Call means all the wolves; CallSisters and CallBrothers, the siblings'
// later meetings, are in sister.go.)
const (
	CallLovers  Role = 250 // the lovers wake and see each other
	CallCharmed Role = 251 // the charmed wake and see each other
)

// Narration is the moderator's script for night n of this game: every call
// in order, each role opening then closing its eyes. A role that is dead, or
// not in play (the thief's extra cards), is called only with
// narrate_absent_roles=on, so that in a narrated game no one learns from a
// call left out (000's house note); with it off, only the roles still able
// to act are called. With first_phase=day, night 0 (before day 1, when the
// board has a thief or cupid) has only the setup calls: the thief, cupid,
// the lovers.
func (g *Game) Narration(n int) []Call {
	all := g.opt(OptNarrateAbsentRoles) == On
	out := []Call{{Key: "night.falls"}}
	for _, r := range g.callOrder() {
		if !g.narrated(r, n, all) {
			continue
		}
		out = append(out, Call{Key: "role.open", Role: r}, Call{Key: "role.close", Role: r})
	}
	return append(out, Call{Key: "day.breaks"})
}

// narrated: is role r called on night n?
func (g *Game) narrated(r Role, n int, all bool) bool {
	// The setup calls (thief, cupid, the lovers) come on night 1, or with
	// first_phase=day at night 0, before day 1, which has no other call.
	firstNight := n == 1 && g.opt(OptFirstPhase) != FirstDay
	if g.opt(OptFirstPhase) == FirstDay && n == 0 {
		firstNight = true
		if r != Thief && r != Cupid && r != CallLovers && r != GhostBride {
			return false
		}
	}
	inBoard := func(r Role) bool {
		if r == Seer { // the mirror seer is called as the seer (mirror_seer.go)
			return g.cardSet&(1<<Seer|1<<MirrorSeer) != 0
		}
		if r == Werewolf { // any wolf card: the wolves are called together
			return g.cardSet&(1<<Werewolf|1<<WhiteWolfKing|1<<WolfBeauty|1<<WolfKing|1<<BloodMoon|1<<SpiritKnight|1<<Nightmare|1<<WolfWitch|1<<EclipseWolfQueen|1<<Warden) != 0
		}
		return g.cardSet&(1<<r) != 0
	}
	switch r {
	case CallLovers:
		if !firstNight || !inBoard(Cupid) {
			return false
		}
		return all || g.lovers&g.alive != 0 || g.lovers == 0
	case CallCharmed:
		if !inBoard(Piper) {
			return false
		}
		return all || g.firstOf(Piper, g.alive) != NoSeat || g.charmed&g.alive != 0
	case MirrorSeer: // called with the seer's call: his card says seer
		return false
	case CallWed: // the bride and groom confer from night 2 (ghost_bride.go)
		if n <= 1 || !inBoard(GhostBride) {
			return false
		}
		return all || hooksOf(r).awake(g)
	case Warden, CallTraders: // from night 2 (warden.go)
		if n < 2 || !inBoard(Warden) {
			return false
		}
		return all || g.firstOf(Warden, g.alive) != NoSeat
	case CallLucky: // while a lucky one holds the gift (miracle_merchant.go)
		if !inBoard(MiracleMerchant) {
			return false
		}
		return all || g.luckyAwake()
	case CallSisters, CallBrothers: // the siblings' later meetings (sister.go)
		c := siblingCard(r)
		if n <= 1 || !inBoard(c) || !g.siblingsNight(c, n) {
			return false
		}
		return all || hooksOf(r).awake(g)
	}
	h := hooksOf(r)
	if h.setup != nil && !h.nightly && !firstNight { // a setup stage comes on the first night only (the nightmare's and the magician's every night)
		return false
	}
	if h.firstNightOnly && n != 1 { // the wild child, in night 1's step
		return false
	}
	if all {
		return inBoard(r)
	}
	if h.awake != nil {
		return h.awake(g)
	}
	return g.firstOf(r, g.alive) != NoSeat
}
