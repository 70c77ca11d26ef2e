package script

import (
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strings"

	"github.com/wolfden/wolfden/rules"
)

// Failure is an expectation or command of the script that did not hold.
type Failure struct {
	Where string // file:line
	Step  string
	Msg   string
}

func (f *Failure) Error() string { return fmt.Sprintf("%s: %s: %s", f.Where, f.Step, f.Msg) }

// Run plays the script. out, if not nil, receives every new event as the
// game produces it. A command refused by the rules, or an expectation that
// does not hold, stops the run with a *Failure.
//
// While the game waits only for something that decides nothing (a speech,
// last words, a skill window without a shot) and the next command is not
// accepted, the runner ends that wait, as the moderator's timer would; so a
// script lists only the choices that matter.
func (s *Script) Run(out func(rules.Event)) (*rules.Game, error) {
	g, err := rules.New(s.Board, s.Seed, s.Deal)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Source, err)
	}
	sent := 0
	flush := func() {
		ev := g.Events()
		if out != nil {
			for ; sent < len(ev); sent++ {
				out(ev[sent])
			}
		}
	}
	flush()
	for _, st := range s.Steps {
		fail := func(format string, args ...any) error {
			return &Failure{Where: fmt.Sprintf("%s:%d", s.Source, st.Line), Step: st.Text, Msg: fmt.Sprintf(format, args...)}
		}
		switch {
		case st.Timeout:
			if over, _ := g.Over(); over {
				return g, fail("the game is over")
			}
			g.Timeout()
		case st.Expect != nil:
			if msg := check(g, st.Expect); msg != "" {
				return g, fail("%s", msg)
			}
		case st.Refused && st.RedCard != 0:
			err := g.RedCard(st.RedCard)
			if err == nil {
				return g, fail("the red card on seat %d was accepted; expected a refusal", st.RedCard)
			}
			if st.Refuse != "" && !strings.Contains(err.Error(), st.Refuse) {
				return g, fail("refused with %q, expected %q", err.Error(), st.Refuse)
			}
		case st.RedCard != 0:
			// The moderator's action: it never waits for a speech to end.
			if err := g.RedCard(st.RedCard); err != nil {
				return g, fail("%v", err)
			}
		case st.Refused:
			for _, c := range st.Cmds {
				err := g.Do(c)
				if err == nil {
					return g, fail("%v was accepted; expected a refusal", c)
				}
				if st.Refuse != "" && !strings.Contains(err.Error(), st.Refuse) {
					return g, fail("refused with %q, expected %q", err.Error(), st.Refuse)
				}
			}
		case st.Advance:
			for g.Idle() && timeout(g) {
			}
		default:
			for _, c := range st.Cmds {
				if err := doAdvancing(g, c); err != nil {
					return g, fail("%v", err)
				}
			}
		}
		flush()
	}
	flush()
	return g, nil
}

func doAdvancing(g *rules.Game, c rules.Command) error {
	for {
		err := g.Do(c)
		var re *rules.Error
		if err == nil || !errors.As(err, &re) || (re.Code != rules.CodeNotNow && re.Code != rules.CodeDead) || !g.Idle() {
			return err
		}
		if !timeout(g) {
			return err
		}
	}
}

// timeout runs the moderator's timer and reports whether the game moved.
func timeout(g *rules.Game) bool {
	n := len(g.Events())
	g.Timeout()
	return len(g.Events()) > n
}

func seatsOf(mask uint32) []int {
	var out []int
	for _, s := range rules.Seats(mask) {
		out = append(out, int(s))
	}
	return out
}

// check returns what does not hold, or "".
func check(g *rules.Game, ex *Expect) string {
	var bad []string
	for _, s := range ex.Dead {
		if g.Alive(rules.Seat(s)) {
			bad = append(bad, fmt.Sprintf("seat %d is alive, expected dead", s))
		}
	}
	for _, s := range ex.Alive {
		if !g.Alive(rules.Seat(s)) {
			bad = append(bad, fmt.Sprintf("seat %d is dead, expected alive", s))
		}
	}
	over, winner := g.Over()
	if ex.Winner != "" && winner.String() != ex.Winner {
		bad = append(bad, fmt.Sprintf("winner is %s, expected %s", winner, ex.Winner))
	}
	if ex.Over != nil && over != *ex.Over {
		bad = append(bad, fmt.Sprintf("over is %v, expected %v", over, *ex.Over))
	}
	step, turn := g.Step()
	if ex.Step != "" && step.String() != ex.Step {
		bad = append(bad, fmt.Sprintf("step is %s (seat %d), expected %s", step, turn, ex.Step))
	}
	if ex.Turn != 0 && int(turn) != ex.Turn {
		bad = append(bad, fmt.Sprintf("turn is seat %d, expected %d", turn, ex.Turn))
	}
	if ex.Day != 0 && g.Day() != ex.Day {
		bad = append(bad, fmt.Sprintf("day is %d, expected %d", g.Day(), ex.Day))
	}
	if ex.Sheriff != nil && int(g.Sheriff()) != *ex.Sheriff {
		bad = append(bad, fmt.Sprintf("sheriff is seat %d, expected %d", g.Sheriff(), *ex.Sheriff))
	}
	if ex.Pending != nil {
		if got := seatsOf(g.Pending()); fmt.Sprint(got) != fmt.Sprint(ex.Pending) {
			bad = append(bad, fmt.Sprintf("awaited seats are %v, expected %v", got, ex.Pending))
		}
	}
	for seat, wants := range ex.Told {
		for _, w := range wants {
			if !told(g, rules.Seat(seat), w) {
				bad = append(bad, fmt.Sprintf("seat %d was not told %q", seat, w))
			}
		}
	}
	for seat, wants := range ex.NotTold {
		for _, w := range wants {
			if told(g, rules.Seat(seat), w) {
				bad = append(bad, fmt.Sprintf("seat %d was told %q", seat, w))
			}
		}
	}
	for _, w := range ex.Log {
		if !logged(g, w) {
			bad = append(bad, fmt.Sprintf("no event %q", w))
		}
	}
	for _, w := range ex.NotLog {
		if logged(g, w) {
			bad = append(bad, fmt.Sprintf("unexpected event %q", w))
		}
	}
	bad = append(bad, checkJudge(g, ex)...)
	return strings.Join(bad, "; ")
}

// checkJudge checks the keys that read the moderator's state directly
// (rules/inspect.go), not the texts of events.
func checkJudge(g *rules.Game, ex *Expect) []string {
	var bad []string
	var dead uint32
	for s := 1; s <= g.Players(); s++ {
		if !g.Alive(rules.Seat(s)) {
			dead |= 1 << uint(s)
		}
	}
	if ex.DeadExactly != nil {
		if want := maskOf(ex.DeadExactly); dead != want {
			bad = append(bad, fmt.Sprintf("dead_exactly: the dead are %v, expected %v", seatsOf(dead), seatsOf(want)))
		}
	}
	if ex.DeadOneOf != nil {
		if got := dead & maskOf(ex.DeadOneOf); bits.OnesCount32(got) != 1 {
			bad = append(bad, fmt.Sprintf("dead_one_of: of %v the dead are %v, expected exactly one", seatsOf(maskOf(ex.DeadOneOf)), seatsOf(got)))
		}
	}
	if ex.winnerIn != nil {
		if _, w := g.Over(); !slices.Contains(ex.winnerIn, w) {
			bad = append(bad, fmt.Sprintf("winner is %s, expected one of %v", w, ex.WinnerIn))
		}
	}
	for _, s := range slices.Sorted(maps.Keys(ex.cards)) {
		if got, want := g.Role(s), ex.cards[s]; got != want {
			bad = append(bad, fmt.Sprintf("seat %d's card is %s, expected %s", s, got, want))
		}
	}
	if ex.ElderLives != nil && g.ElderLives() != *ex.ElderLives {
		bad = append(bad, fmt.Sprintf("elder_lives is %d, expected %d", g.ElderLives(), *ex.ElderLives))
	}
	if ex.FoxTails != nil && g.FoxTails() != *ex.FoxTails {
		bad = append(bad, fmt.Sprintf("fox_tails is %d, expected %d", g.FoxTails(), *ex.FoxTails))
	}
	if ex.BadgeGone != nil && g.BadgeGone() != *ex.BadgeGone {
		bad = append(bad, fmt.Sprintf("badge_gone is %v, expected %v", g.BadgeGone(), *ex.BadgeGone))
	}
	sets := []struct {
		key  string
		want []int
		got  uint32
	}{
		{"charmed", ex.Charmed, g.Charmed()},
		{"may_vote", ex.MayVote, g.MayVote()},
		{"face_up", ex.FaceUp, g.Revealed()},
	}
	for _, c := range sets {
		if c.want != nil && c.got != maskOf(c.want) {
			bad = append(bad, fmt.Sprintf("%s is %v, expected %v", c.key, seatsOf(c.got), seatsOf(maskOf(c.want))))
		}
	}
	return bad
}

func maskOf(seats []int) uint32 {
	var m uint32
	for _, s := range seats {
		m |= 1 << uint(s)
	}
	return m
}

// told: an event the seat may read matches want.
func told(g *rules.Game, s rules.Seat, want string) bool {
	for _, e := range g.Events() {
		if e.Visible(s) && matches(e.String(), want) {
			return true
		}
	}
	return false
}

func logged(g *rules.Game, want string) bool {
	for _, e := range g.Events() {
		if matches(e.String(), want) {
			return true
		}
	}
	return false
}

// matches: the event's text is want, or begins with want and a space, so
// that "death 1" does not match "death 12 attack".
func matches(text, want string) bool {
	return text == want || strings.HasPrefix(text, want+" ")
}
