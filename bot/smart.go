package bot

import (
	"math/rand/v2"

	"github.com/wolfden/wolfden/rules"
)

// smartBot plays its role the way a decent human does (see smart play in
// docs/bots.md). For now it plays at random: the strategy comes next.
type smartBot struct {
	seat rules.Seat
	r    *rand.Rand
}

func newSmart(seat rules.Seat, players int, r *rand.Rand) *smartBot {
	return &smartBot{seat: seat, r: r}
}

func (b *smartBot) Observe(rules.Event) {}

func (b *smartBot) Act(v *rules.View, choices []rules.Choice) rules.Command {
	return (&randomBot{r: b.r}).Act(v, choices)
}
