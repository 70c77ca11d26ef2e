package aiwolf

import "github.com/wolfden/wolfden/rules"

// SetJoinHook has f called before a starting table joins each seat to
// its game, until the test ends (restore). unsent tells whether a
// request to a seat is queued and not written; f runs on the table's
// goroutine.
func SetJoinHook(f func(s rules.Seat, unsent func(rules.Seat) bool)) (restore func()) {
	h := func(t *table, s rules.Seat) {
		f(s, func(x rules.Seat) bool {
			if int(x) >= len(t.seats) || t.seats[x] == nil {
				return false
			}
			for _, o := range t.seats[x].queue {
				if needsReply(o.req) {
					return true
				}
			}
			return false
		})
	}
	testHookJoin.Store(&h)
	return func() { testHookJoin.Store(nil) }
}
