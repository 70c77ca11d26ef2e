package bot

import (
	"math/bits"

	"github.com/wolfden/wolfden/rules"
)

// The roles of std-12-eternal (ROLES-MORE-2.md 蚀时狼妃, 定序王子).
//
// The eclipse wolf queen shelters the wolf of her pack (herself included)
// the table accuses most, whom the seer checks next: his check then
// rebounds and reads "good"; with nobody accused, a packmate drawn at
// random, never last night's (a refusal). A queen outside the wolf camp's
// pack (a lover who left it) shelters nobody.
func (b *smartBot) actShelter(v *rules.View, c *rules.Choice) rules.Command {
	pool := c.Targets & v.Wolves
	if pool == 0 {
		return skip
	}
	t, best := rules.NoSeat, 0
	for cm := pool; cm != 0; {
		w := next(&cm)
		n := 0
		for s := 1; s < maxSeat; s++ {
			if has(b.accWolf[s], w) {
				n++
			}
		}
		if n > best {
			t, best = w, n
		}
	}
	if t == rules.NoSeat {
		k := b.r.IntN(bits.OnesCount32(pool))
		for cm := pool; cm != 0; k-- {
			if t = next(&cm); k == 0 {
				break
			}
		}
	}
	return cmd(rules.CmdShelter, t)
}

// actRewind: the sequence prince voids the first exile vote when it would
// exile himself or a player his model holds good (a wolf's chance under
// 25%), so that the village votes again after his speech; every other seat,
// and the prince otherwise, lets the vote stand.
func (b *smartBot) actRewind(v *rules.View, ch []rules.Choice) rules.Command {
	if find(ch, rules.CmdRewind) == nil || bits.OnesCount32(b.tied) != 1 {
		return skip
	}
	m := b.tied
	t := next(&m)
	if t == b.seat || (b.camp(v) == campVillage && b.model(v).p[t] < 0.25) {
		return rules.Command{Kind: rules.CmdRewind}
	}
	return skip
}
