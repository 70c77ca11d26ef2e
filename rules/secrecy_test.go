package rules

import (
	"math/rand/v2"
	"testing"
)

// play sends each command, failing the test on a refusal.
func play(t *testing.T, g *Game, cmds ...Command) {
	t.Helper()
	for _, c := range cmds {
		if err := g.Do(c); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
	}
}

// dyingNow checks Dying on the game and on a copy that followed its log:
// the answer must come from the state the events build.
func dyingNow(t *testing.T, g *Game) uint32 {
	t.Helper()
	r, err := Replay(g.Board(), g.Seed(), g.Events())
	if err != nil {
		t.Fatal(err)
	}
	if d, rd := g.Dying(), r.Dying(); d != rd {
		t.Fatalf("Dying is %v, on the replayed game %v", Seats(d), Seats(rd))
	}
	return g.Dying()
}

func std12(t *testing.T, opts map[Option]uint8) *Game {
	t.Helper()
	p, _ := LookupPreset("std-12")
	b, _ := p.Board(0)
	b.Options[OptNightOrder] = SeerFirst // the tests' nights are written in 000's order
	for o, v := range opts {
		b.Options[o] = v
	}
	deal := []Role{Seer, Witch, Hunter, Idiot, Villager, Villager, Villager, Villager, Werewolf, Werewolf, Werewolf, Werewolf}
	g, err := New(b, 1, deal)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func wolvesAttack(t *testing.T, g *Game, target Seat) {
	t.Helper()
	for w := Seat(9); w <= 12; w++ {
		play(t, g, Command{Seat: w, Kind: CmdAttack, Target: target})
	}
}

// TestDyingHunterNight: a hunter killed at night is dying from the dawn
// until he has shot and spoken his last words; his victim, dying by day, is
// dying until his own last words. Before the dawn the table does not know
// either is dead: Dying is empty.
func TestDyingHunterNight(t *testing.T) {
	g := std12(t, map[Option]uint8{OptSheriff: SheriffNone})
	play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 9})
	wolvesAttack(t, g, 3)
	if d := dyingNow(t, g); d != 0 {
		t.Fatalf("before the witch: Dying %v, want none", Seats(d))
	}
	play(t, g, Command{Seat: 2, Kind: CmdSkip})
	if st, s := g.Step(); st != StepSkill || s != 3 {
		t.Fatalf("at %s %d, want the hunter's skill window", st, s)
	}
	if d := dyingNow(t, g); d != Mask(3) {
		t.Fatalf("in the hunter's skill window: Dying %v, want [3]", Seats(d))
	}
	play(t, g, Command{Seat: 3, Kind: CmdShoot, Target: 5})
	if d := dyingNow(t, g); d != Mask(3, 5) {
		t.Fatalf("after the shot: Dying %v, want [3 5] (5's tasks, then 3's last words)", Seats(d))
	}
	play(t, g, Command{Seat: 5, Kind: CmdSkip}) // 5's skill window
	play(t, g, Command{Seat: 5, Kind: CmdSkip}) // 5's last words
	if st, s := g.Step(); st != StepLastWords || s != 3 {
		t.Fatalf("at %s %d, want the hunter's last words", st, s)
	}
	if d := dyingNow(t, g); d != Mask(3) {
		t.Fatalf("during the hunter's last words: Dying %v, want [3]", Seats(d))
	}
	play(t, g, Command{Seat: 3, Kind: CmdSkip})
	if d := dyingNow(t, g); d != 0 {
		t.Fatalf("after the last words: Dying %v, want none", Seats(d))
	}
}

// TestDyingSheriff: a sheriff killed in the night (elected in the day-1
// campaign before the dawn) is dying through his skill window, the badge
// and his last words; the night's other dead through theirs.
func TestDyingSheriff(t *testing.T) {
	g := std12(t, nil)
	play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 9})
	wolvesAttack(t, g, 5)
	play(t, g, Command{Seat: 2, Kind: CmdPoison, Target: 6})
	play(t, g, Command{Seat: 5, Kind: CmdRun})
	if d := dyingNow(t, g); d != 0 {
		t.Fatalf("in the campaign: Dying %v, want none (the night's dead are not announced)", Seats(d))
	}
	g.Timeout() // the others stay out
	// A single candidate: he speaks, does not withdraw, and is elected.
	play(t, g, Command{Seat: 5, Kind: CmdSkip}, Command{Seat: 5, Kind: CmdSkip})
	if g.Sheriff() != 5 {
		t.Fatalf("sheriff %d, want 5", g.Sheriff())
	}
	if d := dyingNow(t, g); d != Mask(5, 6) {
		t.Fatalf("after the dawn: Dying %v, want [5 6]", Seats(d))
	}
	play(t, g, Command{Seat: 5, Kind: CmdSkip}) // skill window
	if st, _ := g.Step(); st != StepBadge {
		t.Fatalf("at %s, want the badge", st)
	}
	if d := dyingNow(t, g); d != Mask(5, 6) {
		t.Fatalf("while the badge is passed: Dying %v, want [5 6]", Seats(d))
	}
	play(t, g, Command{Seat: 5, Kind: CmdBadge, Target: 7})
	play(t, g, Command{Seat: 5, Kind: CmdSkip}) // last words
	if d := dyingNow(t, g); d != Mask(6) {
		t.Fatalf("5 is done: Dying %v, want [6]", Seats(d))
	}
	play(t, g, Command{Seat: 6, Kind: CmdSkip}, Command{Seat: 6, Kind: CmdSkip})
	if d := dyingNow(t, g); d != 0 {
		t.Fatalf("all done: Dying %v, want none", Seats(d))
	}
}

// TestDyingExiled: the exiled player is dying until his last words end.
func TestDyingExiled(t *testing.T) {
	g := std12(t, map[Option]uint8{OptSheriff: SheriffNone})
	play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 9})
	wolvesAttack(t, g, NoSeat)
	play(t, g, Command{Seat: 2, Kind: CmdSkip})
	for st, _ := g.Step(); st == StepSpeech; st, _ = g.Step() {
		_, s := g.Step()
		play(t, g, Command{Seat: s, Kind: CmdSkip})
	}
	for s := Seat(1); s <= 12; s++ {
		play(t, g, Command{Seat: s, Kind: CmdVote, Target: 7})
	}
	if g.Alive(7) {
		t.Fatal("7 should be exiled")
	}
	if d := dyingNow(t, g); d != Mask(7) {
		t.Fatalf("after the exile: Dying %v, want [7]", Seats(d))
	}
	play(t, g, Command{Seat: 7, Kind: CmdSkip}) // skill window
	if st, _ := g.Step(); st != StepLastWords {
		t.Fatalf("at %s, want the last words", st)
	}
	if d := dyingNow(t, g); d != Mask(7) {
		t.Fatalf("during the last words: Dying %v, want [7]", Seats(d))
	}
	play(t, g, Command{Seat: 7, Kind: CmdSkip})
	if d := dyingNow(t, g); d != 0 || !g.Night() {
		t.Fatalf("night falls: Dying %v, want none", Seats(d))
	}
}

// TestSpyOncePerNight: whatever the number of wolves and of their picks
// (changes and empty picks included), the little girl receives exactly one
// spy event each night she is awake to spy, at the end of the night's step.
func TestSpyOncePerNight(t *testing.T) {
	for wolves := 1; wolves <= 3; wolves++ {
		cards := []Role{LittleGirl, Seer, Guard, Villager, Villager, Villager, Villager}
		for range wolves {
			cards = append(cards, Werewolf)
		}
		for seed := uint64(1); seed <= 30; seed++ {
			b := Board{Cards: cards}
			g, err := New(b, seed, cards)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(seed, uint64(wolves)))
			spies, night := 0, 0
			check := func() {
				if night > 0 && spies != 1 {
					t.Fatalf("%d wolves, seed %d: night %d gave the little girl %d spy events, want 1", wolves, seed, night, spies)
				}
			}
			seen := 0
			var buf []Command
			for over, _ := g.Over(); !over && g.Day() < 6; over, _ = g.Over() {
				pend := Seats(g.Pending())
				s := pend[r.IntN(len(pend))]
				if st, _ := g.Step(); st == StepNight && r.IntN(3) == 0 {
					// A wolf who has picked changes his pick while others still act.
					if k := g.killers() & g.picked; k != 0 {
						s = Seats(k)[r.IntN(popcount(k))]
					}
				}
				buf = g.Legal(s, buf[:0])
				if err := g.Do(buf[r.IntN(len(buf))]); err != nil {
					t.Fatal(err)
				}
				for _, e := range g.Stream(1, seen, nil) {
					seen++
					switch e.Kind {
					case EvNight:
						check()
						night, spies = int(e.Value), 0
					case EvDay:
						check()
						night = 0
					case EvSpy:
						spies++
						if e.Mask&^g.all != 0 || e.Target != NoSeat {
							t.Fatalf("spy event %v", e)
						}
					}
				}
				if !g.Alive(1) {
					night = 0 // she is dead: no more spying
				}
			}
		}
	}
}

// TestNightZeroView: with first_phase=day (the forum preset) and a thief
// on the board, the thief acts at night 0, before day 1: a villager's view
// says it is night and shows no step, as on any night, and nothing of the
// night is a real night (no attack, night 1 comes after day 1).
func TestNightZeroView(t *testing.T) {
	p, _ := LookupPreset("forum")
	b, _ := p.Board(9)
	b.Cards = []Role{Werewolf, Werewolf, Seer, Witch, Guard, Hunter, Thief, Villager, Villager, Villager, Villager}
	deal := []Role{Werewolf, Werewolf, Seer, Witch, Guard, Hunter, Thief, Villager, Villager, Villager, Villager}
	g, err := New(b, 1, deal)
	if err != nil {
		t.Fatal(err)
	}
	if st, s := g.Step(); st != StepThief {
		t.Fatalf("at %s %d, want the thief", st, s)
	}
	v := g.View(8)
	if !v.Night || v.Step != StepNone || v.Day != 0 {
		t.Fatalf("a villager's view during the thief's step: night %v step %s day %d, want night, no step, day 0", v.Night, v.Step, v.Day)
	}
	if th := g.View(7); !th.Night || th.Step != StepThief || !th.Pending {
		t.Fatalf("the thief's view: night %v step %s pending %v", th.Night, th.Step, th.Pending)
	}
	if g.Spy() != NoSeat || g.NightNumber() != 0 {
		t.Fatalf("night 0: spy %d, night number %d", g.Spy(), g.NightNumber())
	}
	play(t, g, Command{Seat: 7, Kind: CmdSkip})
	if st, _ := g.Step(); st != StepDiscussion || g.Night() || g.Day() != 1 || g.NightNumber() != 0 {
		t.Fatalf("after the thief: %s, night %v, day %d, night number %d; want day 1's discussion", st, g.Night(), g.Day(), g.NightNumber())
	}
	for _, e := range g.Events() {
		if e.Kind == EvAttack || e.Kind == EvCheck || e.Kind == EvDawn {
			t.Fatalf("night 0 is not a real night, but the log has %v", e)
		}
	}
	// Night 0's narration is its setup calls; night 1's has none of them.
	if got := calledRoles(g.Narration(0)); len(got) != 1 || got[0] != Thief {
		t.Errorf("night 0 calls %v, want the thief", got)
	}
	for _, r := range calledRoles(g.Narration(1)) {
		if r == Thief || r == Cupid || r == CallLovers {
			t.Errorf("night 1 calls %v after night 0", calledRoles(g.Narration(1)))
		}
	}
}

// TestNightZeroWhateverTheDeal: night 0 falls whenever the board has a
// thief or cupid, even with the thief's card in the middle, so the
// schedule does not tell the deal; a board with neither has no night 0.
func TestNightZeroWhateverTheDeal(t *testing.T) {
	p, _ := LookupPreset("forum")
	b, _ := p.Board(9)
	b.Cards = []Role{Werewolf, Werewolf, Seer, Witch, Guard, Hunter, Thief, Villager, Villager, Villager, Villager}
	// The thief's card is one of the two in the middle.
	g, err := New(b, 1, []Role{Werewolf, Werewolf, Seer, Witch, Guard, Hunter, Villager, Villager, Villager, Thief, Villager})
	if err != nil {
		t.Fatal(err)
	}
	if ev := g.Events(); !hasEvent(ev, EvNight, 0) {
		t.Fatal("no night 0 with the thief's card in the middle")
	}
	b.Cards = []Role{Werewolf, Werewolf, Seer, Witch, Guard, Hunter, Villager, Villager, Villager}
	g, err = New(b, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if hasEvent(g.Events(), EvNight, 0) {
		t.Fatal("a night 0 with neither thief nor cupid")
	}
}

func hasEvent(ev []Event, k EventKind, v int16) bool {
	for _, e := range ev {
		if e.Kind == k && e.Value == v {
			return true
		}
	}
	return false
}

// TestAnExplodedWolfIsMarkedForEveryone: a plain wolf who self-explodes (自爆)
// shows the table he is of the wolf camp: every seat's view marks him, a
// villager's as a wolf's, while his card stays hidden from those not told it.
func TestAnExplodedWolfIsMarkedForEveryone(t *testing.T) {
	g := std12(t, map[Option]uint8{OptSheriff: SheriffNone})
	play(t, g, Command{Seat: 1, Kind: CmdCheck, Target: 9})
	wolvesAttack(t, g, 5)
	play(t, g, Command{Seat: 2, Kind: CmdSkip})
	for g.Pending()&Seat(10).bit() == 0 {
		if st, _ := g.Step(); !st.speech() && st != StepLastWords && st != StepOrder && st != StepSkill {
			t.Fatalf("did not reach seat 10's speech: step %v", st)
		}
		g.Timeout()
	}
	play(t, g, Command{Seat: 10, Kind: CmdExplode})
	villager, wolf := g.View(6), g.View(11)
	if villager.Exposed != Mask(10) || wolf.Exposed != Mask(10) {
		t.Fatalf("exposed: villager %v, wolf %v; want [10] for both", Seats(villager.Exposed), Seats(wolf.Exposed))
	}
	if villager.Known[10] != NoRole {
		t.Fatalf("the villager was shown the exploded wolf's card: %v", villager.Known[10])
	}
}
