package aiwolf

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/rules"
)

// Profile is an agent's in-game name and profile text, as the reference
// server's custom_profile gives them (name "ミナト", text "年齢: 10\n性別:
// 男性\n性格: …"). The name stands for the agent everywhere in the game
// (status_map, role_map, the talk, the replies naming a target, the CSV
// log); the text goes with INITIALIZE as info.profile.
type Profile struct {
	Name string
	Text string
}

// checkProfiles refuses a list no game could use: too short, a name
// empty, doubled, or one a reply or the CSV log could not hold.
func checkProfiles(ps []Profile, players int) error {
	if len(ps) == 0 {
		return nil
	}
	if len(ps) < players {
		return fmt.Errorf("aiwolf: %d profiles for %d players (as many at least)", len(ps), players)
	}
	seen := map[string]int{}
	for i, p := range ps {
		name := p.Name
		switch {
		case name == "":
			return fmt.Errorf("aiwolf: profile %d has no name", i+1)
		case strings.TrimSpace(name) != name:
			return fmt.Errorf("aiwolf: profile %d's name %q begins or ends with a space (a reply naming it is trimmed)", i+1, name)
		case len(name) > 64:
			return fmt.Errorf("aiwolf: profile %d's name is longer than 64 bytes", i+1)
		}
		for _, r := range name {
			if !unicode.IsPrint(r) || r == ',' {
				return fmt.Errorf("aiwolf: profile %d's name %q holds %q (printable characters, no comma: the CSV log holds it)", i+1, name, r)
			}
		}
		if j, ok := seen[name]; ok {
			return fmt.Errorf("aiwolf: profiles %d and %d are both named %q", j, i+1, name)
		}
		seen[name] = i + 1
	}
	return nil
}

// nameList is a game's in-game names by seat (index 0 unused); nil is
// Agent[01]… .
type nameList []string

func (l nameList) of(s rules.Seat) string {
	if int(s) > 0 && int(s) < len(l) {
		return l[s]
	}
	return AgentName(s)
}

// seat reads an in-game name of a game of n seats back; 0 when it names
// no seat.
func (l nameList) seat(name string, n int) rules.Seat {
	if l == nil {
		return seatOf(name, n)
	}
	for x := 1; x < len(l) && x <= n; x++ {
		if l[x] == name {
			return rules.Seat(x)
		}
	}
	return 0
}

// gameNames are the custom names a game's request log stored with its
// first line, or nil (Agent[01]…).
func gameNames(recs []store.Record) (nameList, []string) {
	for _, n := range notes(recs) {
		if n.GameID != "" {
			return n.Names, n.Profiles
		}
	}
	return nil, nil
}

// nameSeats gives the table's seats their in-game names and profiles: a
// restored game's stored ones; for a new matched game the gateway's
// profiles, drawn in an order of the game's own when ShuffleProfiles
// (from its seed, so the same seed names the same seats); else
// Agent[01]… and no profile. A web room's agent seats keep Agent[NN]:
// the people at the table know them by seat.
func (t *table) nameSeats(recs []store.Record) {
	t.byName = nil
	if names, profiles := gameNames(recs); len(names) == t.n+1 {
		t.names, t.profiles = names, profiles
		return
	}
	ps := t.g.opts.Profiles
	if !t.matched || len(ps) < t.n {
		return
	}
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	if t.g.opts.ShuffleProfiles {
		rand.New(rand.NewPCG(t.seed, 0x9f0f11e)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	t.names = make(nameList, t.n+1)
	t.profiles = make([]string, t.n+1)
	for x := 1; x <= t.n; x++ {
		p := ps[order[x-1]]
		t.names[x], t.profiles[x] = p.Name, p.Text
	}
}

// name is seat x's in-game name.
func (t *table) name(x rules.Seat) string { return t.names.of(x) }

// byNames is the seats in the order of their names, as a packet's
// status_map and role_map list them (the reference's encoder sorts a map's
// keys). Names are distinct (checkProfiles).
func (t *table) byNames() []rules.Seat {
	if t.byName != nil {
		return t.byName
	}
	seats := make([]rules.Seat, 0, t.n)
	for x := rules.Seat(1); int(x) <= t.n; x++ {
		seats = append(seats, x)
	}
	slices.SortFunc(seats, func(a, b rules.Seat) int { return strings.Compare(t.name(a), t.name(b)) })
	t.byName = seats
	return seats
}
