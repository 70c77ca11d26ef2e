package game

import (
	"testing"

	"github.com/wolfden/wolfden/rules"
)

// TestTheNightmareAndTheMagicianHaveTheirSlotsEveryNight: the nightmare's
// and the magician's stages (ROLES-MORE.md: they act before everyone else)
// are on every night's schedule of a board that holds the card, first, as
// long as a setup stage, whether the holder lives or not; not at night 0
// and not on a board without the card.
func TestTheNightmareAndTheMagicianHaveTheirSlotsEveryNight(t *testing.T) {
	tm := nightTimers()
	for _, c := range []struct {
		preset string
		step   rules.Step
	}{{"std-12-nightmare", rules.StepNightmare}, {"std-12-magician", rules.StepMagician}} {
		b := presetBoard(t, c.preset, 12)
		for night := 1; night <= 3; night++ {
			slots := nightSlots(&b, night, &tm)
			if first := slots[0]; first.Step != c.step || first.Dur != tm.Setup.Milliseconds() {
				t.Fatalf("%s night %d: the schedule %v does not open with the %s slot", c.preset, night, slots, c.step)
			}
			if slots[1].Step != rules.StepNight {
				t.Fatalf("%s night %d: the schedule %v", c.preset, night, slots)
			}
		}
		b.Options[rules.OptFirstPhase] = rules.FirstDay
		for _, sl := range nightSlots(&b, 0, &tm) {
			if sl.Step == c.step {
				t.Fatalf("%s: night 0 has the %s slot", c.preset, c.step)
			}
		}
	}
	b := std12(t)
	for _, sl := range nightSlots(&b, 2, &tm) {
		if sl.Step == rules.StepNightmare || sl.Step == rules.StepMagician {
			t.Fatalf("std-12 has the %s slot", sl.Step)
		}
	}
	// A slot opens with its stage's step event.
	var c clock
	c.Slots = nightSlots(func() *rules.Board { b := presetBoard(t, "std-12-magician", 12); return &b }(), 2, &tm)
	if got := c.opens(&rules.Event{Kind: rules.EvStep, Value: int16(rules.StepMagician)}); got != 0 {
		t.Fatalf("the magician's step opens slot %d, want 0", got)
	}
}

// TestTheMerchantAndTheWardenHaveTheirSlotsEveryNight: the miracle
// merchant's and the lucky one's stages come after the magician's every
// real night of a board with the merchant, given or not (ROLES-MORE-2.md
// §5 group 4), and the warden's and the traders' from night 2 (group 6),
// before the night step, whatever happens in them: their ends would tell
// the table a gift was given or a pair named.
func TestTheMerchantAndTheWardenHaveTheirSlotsEveryNight(t *testing.T) {
	tm := nightTimers()
	steps := func(sl []slot) (out []rules.Step) {
		for _, s := range sl {
			out = append(out, s.Step)
		}
		return out
	}
	m := presetBoard(t, "std-12-miracle-merchant", 12)
	for night := 1; night <= 3; night++ {
		got := steps(nightSlots(&m, night, &tm))
		if len(got) < 3 || got[0] != rules.StepMerchant || got[1] != rules.StepLucky || got[2] != rules.StepNight {
			t.Fatalf("std-12-miracle-merchant night %d: %v", night, got)
		}
	}
	w := presetBoard(t, "std-12-warden", 12)
	if got := steps(nightSlots(&w, 1, &tm)); got[0] != rules.StepNight {
		t.Fatalf("std-12-warden night 1: %v", got)
	}
	for night := 2; night <= 3; night++ {
		got := steps(nightSlots(&w, night, &tm))
		if len(got) < 3 || got[0] != rules.StepWarden || got[1] != rules.StepTrade || got[2] != rules.StepNight {
			t.Fatalf("std-12-warden night %d: %v", night, got)
		}
	}
	var c clock
	c.Slots = nightSlots(&w, 2, &tm)
	if got := c.opens(&rules.Event{Kind: rules.EvStep, Value: int16(rules.StepTrade)}); got != 1 {
		t.Fatalf("the traders' step opens slot %d, want 1", got)
	}
}
