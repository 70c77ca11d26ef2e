package rules

import (
	"strings"
	"testing"
)

// TestAngelBoardStartsByDay: ROLES-MORE-2.md forces first_phase=day on a
// board with the angel; a board that starts by night is refused, naming the
// option to set.
func TestAngelBoardStartsByDay(t *testing.T) {
	b := Board{Cards: []Role{Angel, Seer, Werewolf, Werewolf, Villager, Villager, Villager, Villager}}
	if err := b.Validate(); err == nil || !strings.Contains(err.Error(), "set first_phase=day") {
		t.Fatalf("an angel board starting by night: %v", err)
	}
	b.Options[OptFirstPhase] = FirstDay
	if err := b.Validate(); err != nil {
		t.Fatalf("an angel board starting by day: %v", err)
	}
}

// TestAngelWinIsToldByTheEndAlone: the angel's win is the moderator's
// (angel_wins, told to nobody) until the game's end, which is public: the
// angel and a wolf receive the same events about it.
func TestAngelWinIsToldByTheEndAlone(t *testing.T) {
	g := dealtGame(t, map[Option]uint8{OptFirstPhase: FirstDay}, Angel, Seer, Werewolf, Werewolf, Villager, Villager, Villager, Villager)
	idleOn(g)
	for s := Seat(2); s <= 8; s++ {
		play(t, g, Command{Seat: s, Kind: CmdVote, Target: 1})
	}
	play(t, g, Command{Seat: 1, Kind: CmdAbstain})
	if over, w := g.Over(); !over || w != AngelCamp {
		t.Fatalf("over %v, winner %v: want the angel", over, w)
	}
	for _, s := range []Seat{1, 3} {
		if e := told(g, s, EvAngelWins); len(e) != 0 {
			t.Fatalf("seat %d (%v) was told %v", s, g.Role(s), e)
		}
		if e := told(g, s, EvGameOver); len(e) != 1 || e[0].Value != int16(AngelCamp) {
			t.Fatalf("seat %d (%v) was told the end %v", s, g.Role(s), e)
		}
	}
}
