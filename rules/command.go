package rules

import (
	"fmt"
	"strconv"
)

// CmdKind is what a seat asks to do.
type CmdKind uint8

// The commands.
const (
	CmdNone     CmdKind = iota
	CmdAttack           // wolves: attack Target (NoSeat: nobody, 空刀)
	CmdHeal             // witch: heal the attack target
	CmdPoison           // witch: poison Target
	CmdProtect          // guard: protect Target
	CmdCheck            // seer: check Target
	CmdShoot            // hunter, wolf king: shoot Target
	CmdVote             // vote for Target
	CmdAbstain          // vote for nobody
	CmdRun              // stand for sheriff (上警)
	CmdWithdraw         // withdraw from the campaign (退水)
	CmdBadge            // sheriff: pass the badge to Target
	CmdTear             // sheriff: tear the badge (撕警徽)
	CmdExplode          // wolves: self-explode (自爆); white wolf king: Target optional
	CmdCharm            // wolf beauty: charm Target; piper: charm the seats of Mask
	CmdSkip             // decline this step: end a speech or last words, keep out, do nothing
	CmdOrder            // sheriff: speeches go clockwise (Value 0) or counter-clockwise (Value 1)
	CmdTake             // thief: take extra card Value (1 or 2)
	CmdLink             // cupid: make the two seats of Mask lovers
	CmdVoters           // scapegoat: the seats of Mask may vote tomorrow (none: nobody)
	CmdAlly             // the first dead: make Target the wolves' ally
	CmdClaim            // a structured claim in a speech: Value ClaimRole (Role), ClaimWolf or ClaimGood (Target)
	CmdDuel             // knight: reveal and duel Target, once, by day (骑士决斗)
	CmdCurse            // crow: curse Target tonight (乌鸦)
	CmdDream            // dreamcatcher: dream Target tonight (摄梦人)
	CmdSwap             // magician: swap the two seats of Mask for the night (魔术师)
	CmdHunt             // witch hunter: hunt Target tonight (猎魔人)
	CmdFear             // nightmare: fear Target tonight (噩梦之影)
	CmdModel            // wild child: take Target as model (night 1)
	CmdSilence          // silence elder: Target has no speech tomorrow (禁言长老)
	CmdVoteBan          // vote-ban elder: Target may not vote at tomorrow's exile vote (禁票长老)

	CmdImitate      // mechanical wolf: imitate Target, learning his card (机械狼)
	CmdDoubleAttack // mechanical wolf with a pack card, holding the kill: attack Target too tonight, once per game
	CmdShelter      // eclipse wolf queen: shelter Target tonight (蚀时狼妃)
	CmdRewind       // sequence prince: reveal and void the exile vote just published (定序王子)
	CmdDance        // dancer: the three seats of Mask dance tonight (舞者)
	CmdAsk          // masquerade: ask whether Target is in tonight's dance (假面)
	CmdMask         // masquerade: Target's dance camp is flipped tonight (假面)
	CmdGroom        // ghost bride: wed Target (night 1, 鬼魂新娘)
	CmdWitness      // ghost bride: name Target the witness (night 1, after the groom)
	CmdPair         // warden: the two seats of Mask trade tonight (典狱长)
	CmdTrade        // a trader: trade (交易)
	CmdBetray       // a trader: betray (背叛)
	CmdGiftCheck    // miracle merchant: Target is the lucky one, with a check (奇迹商人)
	CmdGiftPoison   // miracle merchant: Target is the lucky one, with a poison
	CmdGiftShield   // miracle merchant: Target is the lucky one, with a shield
	numCmds
)

var cmdNames = [numCmds]string{"none", "attack", "heal", "poison", "protect", "check", "shoot",
	"vote", "abstain", "run", "withdraw", "badge", "tear", "explode", "charm", "skip", "order",
	"take", "link", "voters", "ally", "claim", "duel", "curse", "dream", "swap", "hunt", "fear", "model",
	"silence", "ban", "imitate", "double",
	"shelter", "rewind", "dance", "ask", "mask", "groom", "witness",
	"pair", "trade", "betray", "gift_check", "gift_poison", "gift_shield"}

func (k CmdKind) String() string {
	if k < numCmds {
		return cmdNames[k]
	}
	return "cmd(" + strconv.Itoa(int(k)) + ")"
}

// ParseCmd reads a command name; "done" and "pass" are accepted for skip.
func ParseCmd(s string) (CmdKind, error) {
	switch s {
	case "done", "pass":
		return CmdSkip, nil
	}
	for k := CmdKind(1); k < numCmds; k++ {
		if cmdNames[k] == s {
			return k, nil
		}
	}
	return CmdNone, fmt.Errorf("rules: unknown command %q", s)
}

// Kinds of claim (CmdClaim's Value): what a speaker states publicly.
const (
	ClaimRole = 1 // "I am Role"
	ClaimWolf = 2 // "Target is a wolf" (a check, or an accusation)
	ClaimGood = 3 // "Target is good"
)

// MaxClaims is how many claims a seat may make in one speech.
const MaxClaims = 2

// Command is one seat's request.
type Command struct {
	Seat   Seat
	Kind   CmdKind
	Target Seat
	Value  int8
	Mask   uint32 // several seats: cupid's lovers, the piper's charms, the scapegoat's voters
	Role   Role   // a claimed role
}

func (c Command) String() string {
	switch c.Kind {
	case CmdAttack, CmdPoison, CmdProtect, CmdCheck, CmdShoot, CmdVote, CmdBadge, CmdCharm, CmdDuel, CmdCurse, CmdDream, CmdHunt, CmdFear, CmdModel, CmdSilence, CmdVoteBan, CmdImitate, CmdDoubleAttack, CmdShelter, CmdAsk, CmdMask, CmdGroom, CmdWitness,
		CmdGiftCheck, CmdGiftPoison, CmdGiftShield:
		return fmt.Sprintf("%d %s %d", c.Seat, c.Kind, c.Target)
	case CmdExplode:
		if c.Target != NoSeat {
			return fmt.Sprintf("%d %s %d", c.Seat, c.Kind, c.Target)
		}
	case CmdOrder:
		if c.Value == 1 {
			return fmt.Sprintf("%d order ccw", c.Seat)
		}
		return fmt.Sprintf("%d order cw", c.Seat)
	case CmdTake:
		return fmt.Sprintf("%d take %d", c.Seat, c.Value)
	case CmdLink, CmdVoters, CmdSwap, CmdDance, CmdPair:
		return fmt.Sprintf("%d %s %s", c.Seat, c.Kind, plusList(c.Mask))
	case CmdAlly:
		return fmt.Sprintf("%d %s %d", c.Seat, c.Kind, c.Target)
	case CmdClaim:
		switch c.Value {
		case ClaimRole:
			return fmt.Sprintf("%d claim %s", c.Seat, c.Role)
		case ClaimWolf:
			return fmt.Sprintf("%d accuse %d", c.Seat, c.Target)
		}
		return fmt.Sprintf("%d vouch %d", c.Seat, c.Target)
	}
	if c.Kind == CmdCharm && c.Mask != 0 {
		return fmt.Sprintf("%d charm %s", c.Seat, plusList(c.Mask))
	}
	return fmt.Sprintf("%d %s", c.Seat, c.Kind)
}

// Code classifies a refused command.
type Code uint8

// Codes of refusal.
const (
	CodeOver   Code = iota + 1 // the game is over
	CodeSeat                   // no such seat
	CodeDead                   // the seat is out of the game
	CodeNotNow                 // the command does not belong to this moment of the game
	CodeTarget                 // the target is not allowed
	CodeRule                   // a rule forbids it
)

// Error is a refused command. Its message names the rule; it never tells
// the sender anything his seat may not know.
type Error struct {
	Code Code
	Rule string // the option or rule that refuses, if any
	Msg  string
}

func (e *Error) Error() string {
	if e.Rule != "" {
		return "rules: " + e.Msg + " (" + e.Rule + ")"
	}
	return "rules: " + e.Msg
}

// Is matches errors by code, so errors.Is(err, ErrNotNow) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Msg == ""
}

// Sentinels for errors.Is.
var (
	ErrOver   = &Error{Code: CodeOver}
	ErrSeat   = &Error{Code: CodeSeat}
	ErrDead   = &Error{Code: CodeDead}
	ErrNotNow = &Error{Code: CodeNotNow}
	ErrTarget = &Error{Code: CodeTarget}
	ErrRule   = &Error{Code: CodeRule}
)

// refusal is an Error not yet formatted. Its arguments are one-byte values
// (Seat, Step, CmdKind, Role, number), kept packed with their types in one
// word: small enough to be returned in registers, so that accepting a
// command (the zero refusal) costs nothing, and formatted only by err.
type refusal struct {
	code   Code
	rule   string
	format string
	args   uint64 // byte i: argument i; byte 4+i: its argKind (argNone: no argument)
}

// argKind is the type of a refusal's argument, to rebuild it for formatting.
type argKind uint8

const (
	argNone argKind = iota
	argSeat
	argStep
	argCmd
	argRole
	argNumber
)

// maxRefusalArgs is how many arguments a refusal keeps (the word's four
// value bytes; refuse drops any beyond, and TestRefuseCallsFitTheirFormat
// holds every call of the package to its format's verbs).
const maxRefusalArgs = 4

// refusalArg is a value a refusal may carry: only the package's one-byte
// types implement it, so an argument refuse could not pack is a compile
// error, not a panic while a game runs.
type refusalArg interface {
	refusalArg() (uint8, argKind)
}

// number is a plain count or code in a refusal, printed as a number (an
// unknown CmdKind, which would print as its name).
type number uint8

func (s Seat) refusalArg() (uint8, argKind)    { return uint8(s), argSeat }
func (s Step) refusalArg() (uint8, argKind)    { return uint8(s), argStep }
func (k CmdKind) refusalArg() (uint8, argKind) { return uint8(k), argCmd }
func (r Role) refusalArg() (uint8, argKind)    { return uint8(r), argRole }
func (n number) refusalArg() (uint8, argKind)  { return uint8(n), argNumber }

var accept refusal

func refuse(code Code, rule, format string, args ...refusalArg) refusal {
	r := refusal{code: code, rule: rule, format: format}
	for i, a := range args {
		if i == maxRefusalArgs || a == nil {
			break // formatted as fmt's %!v(MISSING): a refusal still, never a panic
		}
		v, k := a.refusalArg()
		r.args |= uint64(v)<<(8*i) | uint64(k)<<(8*(4+i))
	}
	return r
}

func (r refusal) err() error {
	var args [maxRefusalArgs]any
	n := 0
	for ; n < len(args); n++ {
		v := uint8(r.args >> (8 * n))
		switch argKind(r.args >> (8 * (4 + n))) {
		case argSeat:
			args[n] = Seat(v)
		case argStep:
			args[n] = Step(v)
		case argCmd:
			args[n] = CmdKind(v)
		case argRole:
			args[n] = Role(v)
		case argNumber:
			args[n] = v
		}
		if args[n] == nil {
			break
		}
	}
	return &Error{Code: r.code, Rule: r.rule, Msg: fmt.Sprintf(r.format, args[:n]...)}
}

// plusList writes a seat set as scripts do: "5+7", or "none".
func plusList(m uint32) string {
	if m == 0 {
		return "none"
	}
	out := ""
	for _, s := range Seats(m) {
		if out != "" {
			out += "+"
		}
		out += strconv.Itoa(int(s))
	}
	return out
}
