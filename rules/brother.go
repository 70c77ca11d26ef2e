package rules

// The brothers (三兄弟, ROLES-MORE-2.md): three cards, as the sisters
// (sister.go), with brothers_wake_every; they keep meeting while two live.

func init() {
	hooks[Brother] = siblingHooks(Brother)
	siblingCalls[1] = siblingCallHooks(Brother)
}
