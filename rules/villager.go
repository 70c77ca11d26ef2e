package rules

// The villager (村民, 平民) has no power: no hook. He counts as plain for
// wolf_win=kill_side (setRole).

func init() {
	hooks[Villager] = roleHooks{}
}
