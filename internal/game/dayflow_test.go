package game

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/store/memory"
	"github.com/wolfden/wolfden/rules"
)

// states reads sub's state frames in order: each call returns the next one
// that satisfies ok (a message may hold several frames).
func states(t *testing.T, sub *Sub) func(what string, ok func(*StateFrame) bool) StateFrame {
	var lines [][]byte
	return func(what string, ok func(*StateFrame) bool) StateFrame {
		t.Helper()
		limit := time.After(20 * time.Second)
		for {
			for len(lines) > 0 {
				line := lines[0]
				lines = lines[1:]
				var st StateFrame
				if json.Unmarshal(line, &st) == nil && st.Type == "state" && ok(&st) {
					return st
				}
			}
			select {
			case m := <-sub.Out:
				lines = bytes.Split(m, []byte{'\n'})
			case <-limit:
				t.Fatalf("seat %d: no state where %s", sub.Seat, what)
			}
		}
	}
}

// TestTheDayMovesOnAsSoonAsTheStepIsDone: by day the moderator does not
// wait out a step's timer once nobody is awaited: the speaker who ends his
// speech with one tap (过) gives the floor at once, and the exile vote
// closes as soon as the last ballot is in. Every day timer is an hour
// here, so the game can only move on because the step is done.
func TestTheDayMovesOnAsSoonAsTheStepIsDone(t *testing.T) {
	tm := nightTimers()
	tm.Speech, tm.Vote, tm.Other = time.Hour, time.Hour, time.Hour
	deal := []rules.Role{rules.Villager, rules.Werewolf, rules.Seer, rules.Villager, rules.Hunter, rules.Werewolf,
		rules.Witch, rules.Villager, rules.Werewolf}
	cfg := Config{Board: presetBoard(t, "std-9", 9), Seed: 9, Timers: tm, Bots: 0x3fc, Deal: deal} // seat 1 is a person
	a, err := Start(context.Background(), "day", cfg, memory.New(), Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	me := NewSub(1, 4096, nil)
	if err := a.Join(me, 0, 0); err != nil {
		t.Fatal(err)
	}
	stateWhere := states(t, me)
	speaking := func(st *StateFrame) bool {
		return !st.Night && st.Pending && (st.Step == "speech" || st.Step == "last_words")
	}
	floor := stateWhere("seat 1 has the floor", speaking)
	if err := a.Act(me, 1, rules.Command{Kind: rules.CmdSkip}); err != nil {
		t.Fatal(err)
	}
	next := stateWhere("the floor moved on", func(st *StateFrame) bool { return st.Step != floor.Step || st.Turn != 1 || st.Night || st.Over })
	if next.Deadline != 0 && time.UnixMilli(next.Deadline).Before(time.UnixMilli(floor.Deadline)) {
		t.Fatalf("the next step's deadline %v comes before the speech's %v", next.Deadline, floor.Deadline)
	}
	if floor.Step == "last_words" {
		return // seat 1 died in the night; his last words were his floor
	}
	isVote := func(st *StateFrame) bool { return !st.Night && st.Pending && st.Step == "vote" }
	vote := next
	if !isVote(&vote) {
		vote = stateWhere("seat 1 votes", isVote)
	}
	target := rules.Seat(0)
	for _, c := range vote.Choices {
		if c.Cmd == "vote" && len(c.Targets) > 0 {
			target = c.Targets[0]
		}
	}
	if target == 0 {
		t.Fatalf("no vote offered: %+v", vote.Choices)
	}
	if err := a.Act(me, 2, rules.Command{Kind: rules.CmdVote, Target: target}); err != nil {
		t.Fatal(err)
	}
	stateWhere("the vote closed", func(st *StateFrame) bool { return st.Step != "vote" || st.Night || st.Over })
}
