package rules

// The sisters (姐妹, two cards) and the brothers (三兄弟, three cards) of
// ROLES-MORE-2.md are plain villagers with no power but their meetings: on
// night 1 they wake together and learn each other's seat, then every
// sisters_wake_every-th (brothers_wake_every-th) night they wake together
// again and share a private channel for that night. A group meets while at
// least two of it are alive (the sisters: both). brother.go fills the
// brothers' hooks with the same functions.
//
// The night-1 meeting is called in the setup group of the wake order (after
// the wild child), the later ones near the end (after the gravekeeper), as
// §5 lists them: the later meetings are the group calls CallSisters and
// CallBrothers, whose hooks (hooksOf) wake them. Either way they are told in
// the night step's wakes (EvSiblings), so that the channel is open for the
// whole night.
//
// Choices where the page is silent: a meeting is a night power of the
// village: the elder's loss of the village's powers and the blood moon's
// night cancel it, and a feared member is left out (told he is feared, as
// every feared player with a wake); the others meet if two remain. A
// sister card the thief left in the middle leaves one sister, who never
// meets. The channel's audience is the members woken tonight (Mask names
// the whole group, the dead too, whom the table knows anyway).

type siblingsState struct {
	met [2]uint32 // tonight's meeting of the sisters [0] and the brothers [1]: who was woken
}

// Group calls of the later meetings (see Call).
const (
	CallSisters  Role = 252 // the sisters wake and share their channel
	CallBrothers Role = 253 // the brothers wake and share their channel
)

func init() {
	hooks[Sister] = siblingHooks(Sister)
	siblingCalls[0] = siblingCallHooks(Sister)
}

// siblingHooks are the hooks of a sibling card: the night-1 meeting
// (narrated then only; the group call narrates the later ones).
func siblingHooks(r Role) roleHooks {
	return roleHooks{
		firstNightOnly: true,
		wake: func(g *Game) {
			if g.night == 1 {
				g.meetSiblings(r)
			}
		},
		nightFalls: func(g *Game) { g.met = [2]uint32{} },
		awake:      func(g *Game) bool { return popcount(g.seatsOf(r, g.alive)) >= 2 },
	}
}

// siblingCalls are the hooks of the group calls CallSisters and
// CallBrothers (hooksOf): the later meetings.
var siblingCalls [2]roleHooks

func siblingCallHooks(r Role) roleHooks {
	return roleHooks{
		wake: func(g *Game) {
			if g.night > 1 && g.siblingsNight(r, int(g.night)) {
				g.meetSiblings(r)
			}
		},
		awake: func(g *Game) bool { return popcount(g.seatsOf(r, g.alive)) >= 2 },
	}
}

// siblingCard is the card of a group call, or NoRole.
func siblingCard(call Role) Role {
	switch call {
	case CallSisters:
		return Sister
	case CallBrothers:
		return Brother
	}
	return NoRole
}

// siblingsNight: night n is one of card r's meetings by the board's
// sisters_wake_every / brothers_wake_every (night 1, then every k-th).
func (g *Game) siblingsNight(r Role, n int) bool {
	o := OptSistersWakeEvery
	if r == Brother {
		o = OptBrothersWakeEvery
	}
	k := 2 - int(g.opt(o)) // the values are "2", "1", "0"
	return n == 1 || (k > 0 && n > 1 && (n-1)%k == 0)
}

// meetSiblings wakes card r's group tonight, if two of it can meet.
func (g *Game) meetSiblings(r Role) {
	if !g.villagePower() {
		return
	}
	all := g.seatsOf(r, g.all)
	awake := all & g.alive
	if g.feared(g.fear) {
		awake &^= g.fear.bit()
	}
	if popcount(awake) < 2 {
		return
	}
	g.emit(Event{Kind: EvSiblings, To: awake, Role: r, Mask: all, Value: g.night})
}

func (g *Game) applySiblings(e *Event) {
	if e.Role == Brother {
		g.met[1] = e.To
	} else {
		g.met[0] = e.To
	}
}

// Siblings is who of card r's group (Sister, Brother) met tonight (the
// moderator's view; empty by day).
func (g *Game) Siblings(r Role) uint32 {
	if !g.isNight {
		return 0
	}
	if r == Brother {
		return g.met[1]
	}
	return g.met[0]
}
