package game

import (
	"encoding/json"
	"fmt"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// AwayPhases counts, for each seat a bot played while its player was gone
// (the clock's Away, stored with the records), the phases (nights and
// days) in some part of which it did: what the fairness rules call a
// leaver (internal/ledger). A seat that timed out while its player's
// connection was closed is played by a bot until he comes back; one phase
// of it is a dropped connection, more is a player who left.
func AwayPhases(recs []store.Record) (map[rules.Seat]int, error) {
	phase, away := 0, uint32(0)
	seen := map[rules.Seat]map[int]bool{}
	mark := func() {
		for m := away; m != 0; m &= m - 1 {
			s := rules.Seat(lowBit(m))
			if seen[s] == nil {
				seen[s] = map[int]bool{}
			}
			seen[s][phase] = true
		}
	}
	for _, r := range recs {
		for _, e := range r.Events {
			if e.Kind == rules.EvNight || e.Kind == rules.EvDay {
				phase++
				mark()
			}
		}
		if r.Clock != nil {
			var c storedClock
			if err := json.Unmarshal(r.Clock, &c); err != nil {
				return nil, fmt.Errorf("record %d: the clock: %v", r.N, err)
			}
			away = c.Away
			mark()
		}
	}
	out := make(map[rules.Seat]int, len(seen))
	for s, ph := range seen {
		out[s] = len(ph)
	}
	return out, nil
}
