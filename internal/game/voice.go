package game

import (
	"slices"

	"github.com/wolfden/wolfden/rules"
)

// Voices is who may be heard by whom at this moment of the game, for a
// room's voice (internal/voice): Hears[l] is the mask of the seats whose
// voice listener l hears (bit s for seat s); Hears[0] is every spectator's.
// It is the chat's rule said for voices, with one difference: a voice names
// its speaker, so nobody listens to a channel he could only read without
// names (the little girl keeps her peek at the wolves' text).
type Voices struct {
	Hears []uint32
	// The public moment the map is for, as every seat was told it.
	Night bool
	Step  rules.Step
	Turn  rules.Seat
	Over  bool
	Alive uint32 // alive as announced
	Dead  uint32 // the dead's channel: the dead whose death's tasks are done
}

// Equal reports whether two maps let the same people hear each other.
func (v Voices) Equal(w Voices) bool { return slices.Equal(v.Hears, w.Hears) }

// Heard reports whether listener l (0: a spectator) hears seat s.
func (v Voices) Heard(l, s rules.Seat) bool {
	return int(l) < len(v.Hears) && v.Hears[l]&(1<<uint(s)) != 0
}

// floorStep reports whether a step gives the floor to the seat whose turn
// it is: a speech, a PK speech, a campaign speech, last words.
func floorStep(s rules.Step) bool {
	switch s {
	case rules.StepCampaign, rules.StepSheriffPK, rules.StepSpeech, rules.StepPK, rules.StepLastWords:
		return true
	}
	return false
}

// voices is the map for the table as it was told (the views), never ahead
// of it: a voice opened before the table hears the dawn would tell it.
//
//   - Over: everyone hears everyone, as the chat is open to all.
//   - Paused: nobody.
//   - Night: a living wolf of the pack hears the living wolves he knows;
//     everyone else hears nothing but the dead's channel.
//   - Day: the seat holding the floor (a turn of speech, last words) is
//     heard by every seat and spectator; in free discussion every living
//     seat is; the silenced never hold the floor (their turn is skipped).
//   - The dead, once their death's tasks are done, hear each other at all
//     times and the floor by day; the living never hear them.
func (a *Actor) voices() Voices {
	n := a.cfg.Board.Players()
	out := Voices{Hears: make([]uint32, n+1)}
	var all uint32
	for s := 1; s <= n; s++ {
		all |= 1 << uint(s)
	}
	if a.clk.Paused {
		return out
	}
	pub := a.view(rules.NoSeat)
	out.Step, out.Turn, out.Over = pub.Step, pub.Turn, pub.Over
	if pub.Over {
		for l := range out.Hears {
			out.Hears[l] = all
		}
		for s := 1; s <= n; s++ {
			out.Hears[s] &^= 1 << uint(s)
		}
		return out
	}
	night := a.clk.Slots != nil || pub.Night
	out.Night = night
	var floor uint32
	if !night {
		switch {
		case floorStep(pub.Step) && pub.Turn != rules.NoSeat:
			floor = 1 << uint(pub.Turn)
		case pub.Step == rules.StepDiscussion:
			floor = pub.Alive
		}
	}
	dead := all &^ pub.Alive &^ a.shown.Dying()
	out.Alive, out.Dead = pub.Alive, dead
	out.Hears[0] = floor
	for s := 1; s <= n; s++ {
		me := uint32(1) << uint(s)
		h := floor
		switch {
		case dead&me != 0:
			h |= dead
		case night && pub.Alive&me != 0:
			v := a.view(rules.Seat(s))
			if v.Wolves&me != 0 {
				h |= v.Wolves & v.Alive
			}
		}
		out.Hears[s] = h &^ me
	}
	return out
}

// tellVoices calls the Voice hook when who hears whom has changed.
func (a *Actor) tellVoices() {
	if a.hooks.Voice == nil {
		return
	}
	v := a.voices()
	if v.Equal(a.lastVoices) {
		return
	}
	a.lastVoices = v
	a.hooks.Voice(v)
}
