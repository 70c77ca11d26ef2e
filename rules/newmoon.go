package rules

// The New Moon event cards, drawn one a day (event_cards), and the wolves'
// ally that the first card makes.

type eventCardState struct {
	cardsDrawn int8
	firstDead  Seat
	ally       Seat // the wolves' ally (wolf_ally card)
}

// Event cards of the New Moon deck, drawn in this order. The deck is a list
// so that cards can be added; the seeds describe one.
const (
	cardWolfAlly = 1 // the first dead names a non-wolf, who learns the wolves and wins with them
)

var eventDeck = [...]int16{cardWolfAlly}

func cardName(c int16) string {
	if c == cardWolfAlly {
		return "wolf_ally"
	}
	return "card?"
}

// drawEventCard draws the day's card (event_cards) and applies it.
func (g *Game) drawEventCard() {
	if g.opt(OptEventCards) != On || int(g.cardsDrawn) >= len(eventDeck) {
		return
	}
	card := eventDeck[g.cardsDrawn]
	g.emit(Event{Kind: EvEventCard, Public: true, Value: card})
	if card == cardWolfAlly && g.firstDead != NoSeat && g.ally == NoSeat {
		g.emit(Event{Kind: EvTask, Seat: g.firstDead, Value: int16(taskAlly)})
	}
}

// nameAlly: the first dead names the wolves' ally. The moderator's record
// says whether the card took; the dead is told the same either way, in an
// event of his own, so that nothing in his stream shows that he named a wolf.
func (g *Game) nameAlly(s, t Seat) {
	me := s.bit()
	if g.has(g.wolves, t) { // the card does nothing
		g.emit(Event{Kind: EvAlly, Seat: s, Target: t, Value: 1})
		g.emit(Event{Kind: EvAlly, To: me, Seat: s, Target: t})
		return
	}
	g.emit(Event{Kind: EvAlly, Seat: s, Target: t})
	g.emit(Event{Kind: EvAlly, To: me, Seat: s, Target: t})
	g.emit(Event{Kind: EvAlly, To: t.bit(), Seat: s, Target: t})
	g.emit(Event{Kind: EvWolfTeam, To: t.bit(), Mask: g.pack()}) // not the lone wolf-camp cards
}

func (g *Game) applyAlly(e *Event) {
	if e.To == 0 { // the moderator's record; the others are notices
		if e.Value == 0 {
			g.ally = e.Target
		}
		g.pending = 0
	}
}
