package llm

import (
	"strconv"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/i18n"
	"github.com/wolfden/wolfden/internal/narrate"
	"github.com/wolfden/wolfden/rules"
)

// The prompt is in English whatever the table's language: models follow
// English instructions best, and the moderator's lines are the catalogue's,
// the very lines a person on the seat reads in his log.
const promptLang = "en"

// narrator renders the seat's events as the web client's log does, in
// the prompt's language, naming cards with their id and Chinese name.
var narrator = narrate.Narrator{Lang: promptLang, RoleName: roleName}

// eventLine renders one event of the seat's stream (internal/narrate).
func eventLine(f *game.EventFrame) string { return narrator.Event(f) }

// chatLine renders a message the seat was sent. The text is quoted as a
// JSON string: a player cannot forge a line of the prompt by typing one.
func chatLine(f *game.ChatFrame) string {
	who := "seat " + seatNum(f.Seat)
	if f.Seat == 0 {
		who = "a wolf (you cannot see which)"
	}
	return "[" + f.Channel + " chat] " + who + " says " + quote(f.Text)
}

func quote(s string) string {
	b := []byte(strconv.Quote(s))
	return string(b)
}

func seatNum(s rules.Seat) string { return narrator.SeatNum(s) }

func seatList(ss []rules.Seat) string { return narrator.SeatList(ss) }

// roleName is a card's English name with its id and its Chinese name:
// "Seer (seer, 预言家)".
func roleName(id string) string {
	r, err := rules.ParseRole(id)
	if err != nil {
		return id
	}
	return i18n.Role(promptLang, r) + " (" + id + ", " + r.Chinese() + ")"
}
