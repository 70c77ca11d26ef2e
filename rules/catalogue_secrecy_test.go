package rules

import "testing"

// The secrecy of the knight, the gravekeeper, the psychic and the crow
// (ROLES-MORE.md): what two seats of different roles are told.

// idleOn ends every wait that decides nothing (speeches, last words, a
// skill window without a shot), as a script's advance does.
func idleOn(g *Game) {
	for over, _ := g.Over(); !over && g.Idle(); over, _ = g.Over() {
		g.Timeout()
	}
}

// TestPsychicCheckIsHisAlone: the psychic learns the card he checked; the
// checked player and a villager are told nothing of it.
func TestPsychicCheckIsHisAlone(t *testing.T) {
	g := dealtGame(t, nil, Psychic, Seer, Hunter, Werewolf, Werewolf, Villager, Villager, Villager)
	play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 3}, Command{Seat: 2, Kind: CmdCheck, Target: 4})
	if v := g.View(1); v.Known[3] != Hunter {
		t.Fatalf("the psychic knows seat 3 as %v, want hunter", v.Known[3])
	}
	for _, s := range []Seat{3, 6} {
		if v := g.View(s); v.Known[1] != NoRole || (s != 3 && v.Known[3] != NoRole) {
			t.Fatalf("seat %d learnt a card: %v", s, v.Known)
		}
	}
	if ch := told(g, 2, EvCheck); len(ch) != 1 || ch[0].Seat != 2 {
		t.Fatalf("the seer was told %v, want his own check only", ch)
	}
}

// TestCrowCurseNamesNoCrow: the curse is told to the crow alone; at the
// vote everyone learns that the cursed carries the crow's vote, not who
// the crow is.
func TestCrowCurseNamesNoCrow(t *testing.T) {
	g := dealtGame(t, nil, Crow, Seer, Villager, Werewolf, Werewolf, Villager, Villager, Villager)
	play(t, g, Command{Seat: 1, Kind: CmdCurse, Target: 6}, Command{Seat: 2, Kind: CmdCheck, Target: 4},
		Command{Seat: 4, Kind: CmdAttack, Target: 8}, Command{Seat: 5, Kind: CmdAttack, Target: 8})
	if n := len(told(g, 1, EvCurse)); n != 1 {
		t.Fatalf("the crow was told %d curses, want 1", n)
	}
	for s := Seat(2); s <= 8; s++ {
		if c := told(g, s, EvCurse); len(c) != 0 {
			t.Fatalf("seat %d was told the curse %v", s, c)
		}
	}
	idleOn(g)
	play(t, g, Command{Seat: 2, Kind: CmdVote, Target: 6})
	g.Timeout()
	for _, s := range []Seat{1, 3} {
		cv := told(g, s, EvCursedVote)
		if len(cv) != 1 || cv[0].Target != 6 || cv[0].Seat != NoSeat || cv[0].Role != NoRole {
			t.Fatalf("seat %d was told %v, want the cursed vote on 6 naming no crow", s, cv)
		}
	}
	if v := g.View(3); v.Cursed != NoSeat || v.Known[1] != NoRole {
		t.Fatalf("a villager's view holds the curse or the crow: %v %v", v.Cursed, v.Known[1])
	}
	if v := g.View(1); v.Cursed != 6 {
		t.Fatalf("the crow's view: cursed %d, want 6", v.Cursed)
	}
}

// TestGravekeeperToldAlone: the gravekeeper's result goes to him alone, and
// he is told once every night, exile or not, night 1 ("no exile yet") too,
// so that his nights look alike.
func TestGravekeeperToldAlone(t *testing.T) {
	g := dealtGame(t, nil, Gravekeeper, Seer, Villager, Werewolf, Werewolf, Villager, Villager, Villager, Villager)
	night := func(check, attack Seat) {
		play(t, g, Command{Seat: 2, Kind: CmdCheck, Target: check})
		for _, w := range Seats(g.Killers()) {
			play(t, g, Command{Seat: w, Kind: CmdAttack, Target: attack})
		}
		idleOn(g)
	}
	night(4, 9)
	for _, v := range []Seat{1, 2, 3} {
		play(t, g, Command{Seat: v, Kind: CmdVote, Target: 4})
	}
	g.Timeout() // 4 exiled
	idleOn(g)
	night(5, 8)
	g.Timeout() // nobody votes: no exile
	idleOn(g)
	night(3, 7)
	gr := told(g, 1, EvGrave)
	if len(gr) != 3 || gr[0].Target != NoSeat || gr[0].Value != GraveNoDayYet ||
		gr[1].Target != 4 || gr[1].Value != ResultWolf || gr[2].Target != NoSeat || gr[2].Value == GraveNoDayYet {
		t.Fatalf("the gravekeeper was told %v, want no exile yet, 4 wolf, then no exile", gr)
	}
	for s := Seat(2); s <= 9; s++ {
		if x := told(g, s, EvGrave); len(x) != 0 {
			t.Fatalf("seat %d was told %v", s, x)
		}
	}
	if v := g.View(1); v.Graves[4] != 2 || v.Checks[4] != 2 {
		t.Fatalf("the gravekeeper's view: graves %v", v.Graves)
	}
}

// TestKnightDuelShowsNoTargetCard: the duel and its result are public; the
// knight's card is shown, the target's is not (reveal_role_on_death=off).
func TestKnightDuelShowsNoTargetCard(t *testing.T) {
	g := dealtGame(t, nil, Knight, Seer, Villager, Werewolf, WolfKing, Villager, Villager, Villager)
	play(t, g, Command{Seat: 2, Kind: CmdCheck, Target: 3},
		Command{Seat: 4, Kind: CmdAttack, Target: 8}, Command{Seat: 5, Kind: CmdAttack, Target: 8})
	for st, _ := g.Step(); st != StepSpeech; st, _ = g.Step() {
		g.Timeout()
	}
	play(t, g, Command{Seat: 1, Kind: CmdDuel, Target: 5})
	for _, s := range []Seat{3, 4, 6} {
		v := g.View(s)
		if d := told(g, s, EvDuel); len(d) != 1 || d[0].Value != ResultWolf {
			t.Fatalf("seat %d was told the duel %v", s, d)
		}
		if v.Known[1] != Knight || !v.Dueled {
			t.Fatalf("seat %d does not see the knight: %v", s, v.Known[1])
		}
		if s != 4 && v.Known[5] != NoRole {
			t.Fatalf("seat %d was shown the duelled wolf's card %v", s, v.Known[5])
		}
	}
}
