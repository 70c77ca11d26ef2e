package game

import (
	"time"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/rules"
)

// A wolf team of people and the server's bots (docs/bots.md, "People and
// bots in one wolf team"). The engine closes the night step, and resolves
// the attack, once nobody is awaited; a person who has picked could then no
// longer change his mind, and when he could not would tell him when the
// others (the seer, the guard) were done. So in a mixed team one bot, the
// holder (the lowest-numbered bot of the team), keeps the step open: it
// sends its pick only when the slot ends, just before the moderator's
// timeout. Until then every person of the team may pick again, at any
// time, and is answered the same whatever the rest of the table does. The
// other bots of the team wait until every person has picked (or until a
// quarter of the slot is left), follow the people's majority, and pick
// again when a person changes his. Everything a pick produces is told on
// the night's schedule as before: the attack line at the end of the slot.
type wolfTeam struct {
	repick uint32    // bots of the team to ask again: a person changed his pick
	at     time.Time // when they are asked
}

// teamLeft is the part of the wolves' slot the bots of a mixed team keep
// for themselves when the people have not all picked.
const teamLeft = 4 // a quarter

// killers are tonight's killers (the wolves, or the black lovers with the
// widow knife) while the night step is open.
func (a *Actor) killers() uint32 {
	if st, _ := a.live.Step(); st != rules.StepNight || !a.live.Night() {
		return 0
	}
	return a.live.Killers()
}

// held is tonight's mixed team, with its holder, while the table is in the
// wolves' slot and knows the whole log: 0 when the team is not mixed (all
// people or all bots), when its holder has picked, or at any other time.
// An unpaced game (programs only: a model's seat, an agent) holds it only
// until every player of the team has picked: its programs answer once, and
// no schedule hides when the step ends, so keeping the slot open would
// only wait out its timer.
func (a *Actor) held() (team uint32, holder rules.Seat) {
	if a.clk.Slots == nil || a.clk.Slots[a.clk.Slot].Step != rules.StepNight || !a.caughtUp() ||
		a.slotOf() != a.clk.Slot {
		return 0, rules.NoSeat
	}
	k := a.killers()
	bots := k & a.cfg.Bots
	if bots == 0 || k&^a.cfg.Bots == 0 {
		return 0, rules.NoSeat
	}
	if a.cfg.Unpaced && k&^(a.cfg.Bots|a.clk.Away)&a.live.Pending() == 0 {
		return 0, rules.NoSeat
	}
	holder = rules.Seat(lowBit(bots))
	if a.live.Pending()&(1<<uint(holder)) == 0 {
		return 0, rules.NoSeat
	}
	return k, holder
}

// mayRepick reports whether seat s, a person of a mixed team, may send an
// attack now although the table no longer awaits him: until the slot ends.
func (a *Actor) mayRepick(s rules.Seat) bool {
	k, _ := a.held()
	return s != rules.NoSeat && k&(1<<uint(s))&^a.cfg.Bots != 0
}

// teamGate takes out of the bots due to act those of a mixed team that
// must wait: the holder until the slot ends; the others until every
// person of the team has picked, or a quarter of the slot is left.
func (a *Actor) teamGate(pend uint32, now time.Time) uint32 {
	k, holder := a.held()
	if k == 0 {
		return pend
	}
	pend &^= 1 << uint(holder)
	people := k &^ (a.cfg.Bots | a.clk.Away)
	if people&a.live.Pending() != 0 && now.Before(a.teamMark()) {
		pend &^= k
	}
	return pend
}

// teamMark is when the bots of a mixed team stop waiting for the people.
func (a *Actor) teamMark() time.Time {
	d := time.Duration(a.clk.Slots[a.clk.Slot].Dur) * time.Millisecond
	return a.clk.SlotEnd.Add(-d / teamLeft)
}

// teamAt is the next time the wolf team's bots are due, for the timer.
func (a *Actor) teamAt() time.Time {
	k, _ := a.held()
	if k == 0 {
		return time.Time{}
	}
	if a.team.repick != 0 {
		return a.team.at
	}
	if now := a.now(); now.Before(a.teamMark()) && k&a.live.Pending()&^(a.cfg.Bots|a.clk.Away) != 0 {
		return a.teamMark()
	}
	return time.Time{}
}

// teamPicked notes a person's pick in a mixed team: the team's bots that
// have picked are asked again, after the bots' pause.
func (a *Actor) teamPicked(s rules.Seat, c rules.Command, now time.Time) {
	k, holder := a.held()
	if c.Kind != rules.CmdAttack || k&(1<<uint(s))&^a.cfg.Bots == 0 {
		return
	}
	a.team.repick |= k & (a.cfg.Bots | a.clk.Away) &^ a.live.Pending() &^ (1 << uint(holder))
	a.team.at = now.Add(a.cfg.Timers.Bot)
}

// teamRepick lets one bot of the team pick again if one is due; it reports
// whether it looked at one.
func (a *Actor) teamRepick(now time.Time, force bool) bool {
	k, _ := a.held()
	a.team.repick &= k
	if a.team.repick == 0 || (!force && now.Before(a.team.at)) {
		return false
	}
	s := rules.Seat(lowBit(a.team.repick))
	a.team.repick &^= 1 << uint(s)
	c := a.botCommandOf(s, true)
	if c.Kind != rules.CmdAttack || c.Target == a.standingPick(s) {
		return true // no change
	}
	a.botResolve(s, c)
	return true
}

// teamEnd runs at the end of the wolves' slot, before the timeout: the
// team's bots ask again, then those still awaited pick, the holder last.
// It reports whether one acted.
func (a *Actor) teamEnd(now time.Time) bool {
	k, holder := a.held()
	if k == 0 {
		return false
	}
	if a.teamRepick(now, true) {
		return true
	}
	pend := a.live.Pending() & k & (a.cfg.Bots | a.clk.Away) &^ (1 << uint(holder))
	s := holder
	if pend != 0 {
		s = rules.Seat(lowBit(pend))
	}
	return a.botResolve(s, a.botCommandOf(s, false))
}

// standingPick is seat s's pick tonight in the live log, NoSeat if none.
func (a *Actor) standingPick(s rules.Seat) rules.Seat {
	ev := a.live.Events()
	for i := len(ev) - 1; i >= 0 && ev[i].Kind != rules.EvNight; i-- {
		if ev[i].Kind == rules.EvAttackPick && ev[i].Seat == s {
			return ev[i].Target
		}
	}
	return rules.NoSeat
}

// people tells a bot which seats are played by people now, for the bots
// that play with them (bot.TeamPlayer).
func (a *Actor) people(b bot.Bot) {
	if tp, ok := b.(bot.TeamPlayer); ok {
		all := uint32(1)<<uint(a.live.Players()+1) - 2
		tp.People(all &^ (a.cfg.Bots | a.clk.Away))
	}
}

// onlyAttack keeps the attack choices of buf.
func onlyAttack(buf []rules.Choice) []rules.Choice {
	out := buf[:0]
	for _, c := range buf {
		if c.Kind == rules.CmdAttack {
			out = append(out, c)
		}
	}
	return out
}
