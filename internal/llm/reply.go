package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// reply is a model's answer, read leniently: the action may also be given
// at the top level ({"cmd": "vote", "target": 3}); seats may be numbers or
// strings ("3", "seat 3").
type reply struct {
	Action  *action `json:"action"`
	Speech  string  `json:"speech"`
	Whisper string  `json:"whisper"` // to the wolves' channel, at night
	Claims  []claim `json:"claims"`
	action          // the action at the top level
}

type action struct {
	Cmd    string    `json:"cmd"`
	Target seatArg   `json:"target"`
	Seats  []seatArg `json:"seats"`
	Value  *int      `json:"value"`
}

type claim struct {
	Claim string  `json:"claim"` // role, wolf, good
	Role  string  `json:"role"`
	Seat  seatArg `json:"seat"`
}

// seatArg is a seat number given as a number, a string of one, or null.
type seatArg int

var digits = regexp.MustCompile(`\d+`)

func (s *seatArg) UnmarshalJSON(b []byte) error {
	var n float64
	if err := json.Unmarshal(b, &n); err == nil {
		*s = seatArg(n)
		return nil
	}
	var str string
	if err := json.Unmarshal(b, &str); err == nil {
		if d := digits.FindString(str); d != "" {
			v, _ := strconv.Atoi(d)
			*s = seatArg(v)
		}
		return nil
	}
	if string(b) == "null" {
		return nil
	}
	return fmt.Errorf("%s is not a seat number", b)
}

var thinking = regexp.MustCompile(`(?s)<think>.*?</think>`)

// parseReply finds the JSON object of a model's answer: reasoning blocks,
// code fences and words around it are left out.
func parseReply(content string) (reply, error) {
	var r reply
	s := thinking.ReplaceAllString(content, "")
	for i := strings.IndexByte(s, '{'); i >= 0; {
		dec := json.NewDecoder(strings.NewReader(s[i:]))
		if err := dec.Decode(&r); err == nil {
			if r.Action == nil && r.action.Cmd != "" {
				a := r.action
				r.Action = &a
			}
			return r, nil
		}
		r = reply{}
		j := strings.IndexByte(s[i+1:], '{')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if strings.TrimSpace(s) == "" {
		return r, errors.New("the reply was empty")
	}
	return r, errors.New("the reply holds no JSON object")
}

// command turns an action into a command of the legal choices (claims are
// not actions), or says why it cannot.
func command(a *action, acts []game.ChoiceJSON) (rules.Command, error) {
	var c rules.Command
	name := strings.ToLower(strings.TrimSpace(a.Cmd))
	k, err := rules.ParseCmd(name)
	if err != nil || k == rules.CmdClaim {
		return c, fmt.Errorf("%q is not a command of the legal choices (%s)", a.Cmd, cmdNames(acts))
	}
	var cands []game.ChoiceJSON
	for _, ch := range acts {
		if ch.Cmd == k.String() {
			cands = append(cands, ch)
		}
	}
	if len(cands) == 0 {
		return c, fmt.Errorf("%q is not among the legal choices now (%s)", a.Cmd, cmdNames(acts))
	}
	ch := cands[0]
	if a.Value != nil {
		found := false
		for _, x := range cands {
			if int(x.Value) == *a.Value {
				ch, found = x, true
				break
			}
		}
		if !found {
			return c, fmt.Errorf("%s has no value %d here", k, *a.Value)
		}
	}
	c.Kind, c.Value = k, ch.Value
	switch {
	case ch.Pick != 0:
		var mask uint32
		for _, s := range a.Seats {
			if !slices.Contains(ch.Targets, rules.Seat(s)) {
				return c, fmt.Errorf("%s: seat %d is not one of %s", k, s, seatList(ch.Targets))
			}
			if mask&(1<<uint(s)) != 0 {
				return c, fmt.Errorf("%s: seat %d is named twice", k, s)
			}
			mask |= 1 << uint(s)
		}
		if ch.Pick > 0 && len(a.Seats) != int(ch.Pick) {
			return c, fmt.Errorf("%s names exactly %d seats (\"seats\"), not %d", k, ch.Pick, len(a.Seats))
		}
		c.Mask = mask
	case len(ch.Targets) > 0:
		t := rules.Seat(a.Target)
		switch {
		case t == 0 && ch.NoTarget:
		case t == 0:
			return c, fmt.Errorf("%s needs a target, one of %s", k, seatList(ch.Targets))
		case !slices.Contains(ch.Targets, t):
			return c, fmt.Errorf("%s: seat %d is not a legal target (legal: %s)", k, t, seatList(ch.Targets))
		}
		c.Target = t
	}
	return c, nil
}

func cmdNames(acts []game.ChoiceJSON) string {
	var names []string
	for _, a := range acts {
		if !slices.Contains(names, a.Cmd) {
			names = append(names, a.Cmd)
		}
	}
	return strings.Join(names, ", ")
}

// claimCommand turns a claim of the reply into a claim command, if it is
// one of the legal claims and agrees with the public facts.
func (r *record) claimCommand(cl claim, claims []game.ChoiceJSON) (rules.Command, bool) {
	c := rules.Command{Kind: rules.CmdClaim}
	switch strings.ToLower(strings.TrimSpace(cl.Claim)) {
	case "role", "card", "i am":
		ch := findClaim(claims, rules.ClaimRole)
		role, err := rules.ParseRole(strings.ToLower(strings.TrimSpace(cl.Role)))
		if ch == nil || err != nil || !slices.Contains(ch.Roles, role.String()) {
			return c, false
		}
		if own := r.revealed[r.seat]; own != rules.NoRole && own != role {
			return c, false // his card is face up: the table knows it
		}
		c.Value, c.Role = rules.ClaimRole, role
	case "wolf", "accuse", "bad":
		c.Value, c.Target = rules.ClaimWolf, rules.Seat(cl.Seat)
	case "good", "vouch", "innocent":
		c.Value, c.Target = rules.ClaimGood, rules.Seat(cl.Seat)
	default:
		return c, false
	}
	if c.Value != rules.ClaimRole {
		ch := findClaim(claims, c.Value)
		if ch == nil || !slices.Contains(ch.Targets, c.Target) {
			return c, false
		}
		if face := r.revealed[c.Target]; face != rules.NoRole && face.IsWolf() != (c.Value == rules.ClaimWolf) {
			return c, false // the card is face up: its side is public
		}
	}
	return c, true
}
