package ledger

import "github.com/wolfden/wolfden/rules"

// Read fills a game's seats and end from its log: each seat's cards and
// camp, the red cards, the winner. seats are the server's (Seat, Account,
// Bot, AwayPhases set); they are returned with the rest filled in.
func Read(events []rules.Event, seats []Seat) Game {
	g := Game{Seats: seats}
	at := func(s rules.Seat) *Seat {
		if i := int(s) - 1; i >= 0 && i < len(seats) {
			return &seats[i]
		}
		return nil
	}
	for _, e := range events {
		switch e.Kind {
		case rules.EvRole:
			if s := at(e.Seat); s != nil {
				s.Dealt, s.Role, s.Camp = e.Role, e.Role, e.Role.Camp()
			}
		case rules.EvSwap: // the thief plays for the card he took
			if s := at(e.Seat); s != nil {
				s.Dealt, s.Role, s.Camp = e.Role, e.Role, e.Role.Camp()
			}
		case rules.EvBlackLovers: // a cross-camp couple plays for itself
			for i := range seats {
				if e.Mask&(1<<uint(i+1)) != 0 {
					seats[i].Camp = rules.Lovers
				}
			}
		case rules.EvGroom, rules.EvWitness: // the ghost bride's groom and witness play for the newlyweds (a black lover stays a lover)
			if s := at(e.Target); s != nil && s.Camp != rules.Lovers {
				s.Camp = rules.Newlyweds
			}
		case rules.EvAlly: // the wolves' ally wins with them
			if s := at(e.Target); s != nil {
				s.Camp = rules.Wolves
			}
		case rules.EvRedCard:
			if s := at(e.Seat); s != nil {
				s.RedCard = true
			}
		case rules.EvGameOver:
			g.Ended, g.Winner = true, rules.Camp(e.Value)
		}
	}
	return g
}
