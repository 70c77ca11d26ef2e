package aiwolf

import "github.com/wolfden/wolfden/rules"

// SetJoinHook has f called before a starting table joins each seat to
// its game, until the test ends (restore).
func SetJoinHook(f func(rules.Seat)) (restore func()) {
	testHookJoin.Store(&f)
	return func() { testHookJoin.Store(nil) }
}
