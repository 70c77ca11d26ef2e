package rules

// The mirror seer (灯影预言家, ROLES-MORE-2.md) plays a seer who does not know
// he is false: he is told his card is the seer's (EvRole says seer; the
// moderator's EvMirror, told to nobody, files the true card), he is woken
// as the seer (the wake names seer), apart from a true seer, in the seer's
// slot, and each night he checks another living player; his result is the
// opposite of the true reading. He is of the village and plain for
// kill_side. The psychic, the gargoyle and the end of the game see his card
// mirror_seer, and the table does under reveal_role_on_death.
//
// Choices where the page is silent: under seer_sees=role he is told a
// card, reversed as a camp: werewolf for a player who reads as good,
// villager for one who reads as a wolf; the narration calls him with the
// seer's call (a call of his own would tell him); the thief does not play
// with him (Validate: the extra cards are shown as they are); a feared or
// powerless mirror seer is treated as the seer.

func init() {
	check, choices := onAnother(CmdCheck, "the seer must check another living player")
	hooks[MirrorSeer] = roleHooks{
		wake:      func(g *Game) { g.wakeAs(MirrorSeer, Seer) },
		step:      StepNight,
		lateCheck: true,
		check:     check,
		exec: func(g *Game, c Command) {
			e := seerCheck(g, c)
			switch t := g.aimed(c.Seat, c.Target); g.opt(OptSeerSees) {
			case SeesRole:
				e.Role = Werewolf
				if g.readsWolf(t) {
					e.Role = Villager
				}
			case SeesWolfOrNot:
				e.Value = ResultWolf - e.Value
			default:
				e.Value = ResultNotVillage - e.Value
			}
			g.emit(e)
		},
		choices: choices,
	}
}

// applyMirror files seat s's true card, the mirror seer's, over the seer's
// his EvRole told him, and gives the seer's card back to its holder.
func (g *Game) applyMirror(e *Event) {
	g.setRole(e.Seat, MirrorSeer)
	for s := Seat(1); s <= g.n; s++ {
		if g.role[s] == Seer {
			g.holder[Seer] = s
		}
	}
}
