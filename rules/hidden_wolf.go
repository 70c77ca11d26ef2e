package rules

// The hidden wolf (隐狼, ROLES-MORE.md) is of the wolf camp: when the
// wolves meet he is told who they are, but they are not told of him; he
// does not wake with them and is not in their channel. He reads as good to
// camp checks (the psychic and the gargoyle see his card). He cannot
// self-explode. When every wolf of the pack is dead he takes the kill, and
// attacks alone each night (killers).

func init() {
	hooks[HiddenWolf] = roleHooks{
		lone:      true,
		knowsPack: true,
		noExplode: true,
		readsWolf: readsGood,
	}
}
