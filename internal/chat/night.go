package chat

import (
	"context"
	"slices"
	"time"
)

// Night secrecy in a group (docs/chat.md). From nightfall to dawn the
// group is sent nothing, and each living player is sent exactly one
// message as each slot of the night's schedule opens — the board's fixed
// schedule, the same whoever lives or acts (game.Actor.Schedule): his real
// prompt when his role is called, else a decoy of the same shape. What he
// is told in between (a check's result, the wolves' picks) waits for his
// next prompt or the dawn. So the count and the timing of the messages a
// player receives at night are his table's, not his role's. Only what he
// asked for himself comes at once: the answer to his command, and the
// messages of the channel he talks in (the wolves' talk at night).

// roundMargin is how many ticks after a slot opens its round goes out:
// the slot's frames are sent at the tick after it opens, and every
// stream must have read them.
const roundMargin = 2

// nightPace is a night's rounds.
type nightPace struct {
	on    bool
	opens []time.Time
	next  int   // the next round
	at    []int // per round: the night tick every stream must have read before it goes
}

// pace sends the night's rounds that are due.
func (t *table) pace(ctx context.Context) {
	sp := t.spec
	if sp == nil || !sp.have || !sp.st.Night || sp.st.Over || sp.st.Paused {
		t.night = nightPace{}
		return
	}
	if !t.night.on {
		tick, base, opens, err := t.actor.Schedule()
		if err != nil || len(opens) == 0 {
			return // asked again at the next tick
		}
		// A slot's frames go out at the first tick after it opens; the
		// round waits until every stream has read a later one.
		at := make([]int, len(opens))
		for k, o := range opens {
			at[k] = max(int((o.Sub(base)+tick-1)/tick), 0) + roundMargin
		}
		t.night = nightPace{on: true, opens: opens, at: at}
		// Joined in the middle of the night (a restart): the slots gone by
		// are not sent again; the running slot's round is, to everyone.
		now := time.Now()
		for t.night.next+1 < len(opens) && !opens[t.night.next+1].After(now) {
			t.night.next++
		}
	}
	n := &t.night
	for n.next < len(n.opens) && t.earliestTick() >= n.at[n.next] {
		t.round(ctx)
		n.next++
	}
}

// earliestTick is the last night tick the slowest stream read.
func (t *table) earliestTick() int {
	m := int(^uint(0) >> 1)
	for _, s := range t.live() {
		m = min(m, s.tick)
	}
	return m
}

// live is the streams the bridge reads now.
func (t *table) live() []*stream {
	var out []*stream
	for _, s := range t.all() {
		if s.sub != nil {
			out = append(out, s)
		}
	}
	return out
}

// round sends each living player of the table his night message.
func (t *table) round(ctx context.Context) {
	for _, s := range t.live() {
		if s.seat == 0 || !slices.Contains(t.spec.st.Alive, s.seat) {
			continue
		}
		role := t.roleLine(s)
		p, digest := t.promptOf(s)
		if digest == "" {
			d := t.decoy(s)
			d.Text = joinText(role, d.Text)
			if t.b.send(ctx, Target{User: s.user}, d) {
				s.roleTold = s.roleTold || role != ""
			}
			continue
		}
		m := Message{Text: joinText(role, joinText(joinLines(s.lines), p.Text)), Buttons: p.Buttons}
		if t.b.send(ctx, Target{User: s.user}, m) {
			s.roleTold = s.roleTold || role != ""
			s.prompt = digest
			t.sent(ctx, s, s.lines)
			s.lines, s.urgentFrom = nil, 0
		}
	}
}
