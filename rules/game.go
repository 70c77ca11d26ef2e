package rules

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

// Game is one game's state. Only apply changes it, and apply is only called
// with the events the game emits, so replaying the log rebuilds it exactly.
type Game struct {
	board   Board
	cardSet uint64 // bit r: a card r is on the board
	n       Seat
	seed    uint64
	draws   uint32
	events  []Event

	role     [MaxSeats + 1]Role
	holder   [numRoles]Seat // who holds each card (all but werewolf and villager are single)
	cause    [MaxSeats + 1]Cause
	all      uint32 // every seat
	alive    uint32 // alive to the moderator
	pubAlive uint32 // alive as the table knows it
	wolves   uint32 // the wolf camp
	plain    uint32 // villagers (平民)
	gods     uint32 // village roles with a power (神职)
	revealed uint32 // cards turned face up
	redCard  uint32 // seats sent off by the moderator (红牌)
	silent   uint32 // dead in the white wolf king's chain: no last actions

	shotAtNight uint32 // night_shot=in_night: shooters woken to fire in the night

	day, night int16
	isNight    bool
	step       Step
	stepSeat   Seat
	pending    uint32
	due        uint32 // seats woken in the night step by a flag of their role (roleHooks.due)
	speakers   uint32 // who is still to speak in this round
	dir        int8   // +1 clockwise, -1 counter-clockwise
	resume     Step   // the day's next step once the queue is empty
	cut        bool   // the day ends after the dawn announcement (a self-explosion)
	dawned     bool   // today's dawn announcement was made
	lastDawn   uint32 // who the last dawn announced
	lastKilled Seat   // the last player the table saw die (the lowest of a dawn's list)
	nightDead  uint32 // tonight's dead, not yet announced

	queue       [queueCap]queued
	qhead, qlen uint8

	lost        [numCamps]bool     // camps that have lost (优先判负)
	exileRounds int8               // exile votes closed today
	seqStart    Seat               // the first candidate of a sequential vote round
	claims      [MaxSeats + 1]int8 // claims made in the current step
	deaths      int16              // deaths so far …
	deathsSeen  int16              // … when the last day began
	quiet       int16              // days begun in a row with no death since the one before

	// sheriff and votes
	sheriffState
	votes [MaxSeats + 1]Seat
	voted uint32
	tied  uint32

	// The roles' own state, each declared in the role's file.
	packState
	guardState
	witchState
	wolfBeautyState
	foxState
	elderState
	piperState
	thiefState
	loversState
	scapegoatState
	idiotState
	eventCardState
	knightState
	gravekeeperState
	crowState
	silenceState
	voteBanState
	bearState
	purifyState
	outsiderState
	wildChildState
	bloodMoonState
	dreamState
	magicianState
	witchHunterState
	spiritKnightState
	nightmareState
	siblingsState
	angelState
	mixedBloodState
	mechanicalWolfState
	eclipseState
	princeState
	danceState
	brideState
	wardenState
	merchantState

	winner Camp
	over   bool
}

// New starts a game on a board with a seed. deal, if not nil, fixes each
// seat's card (deal[0] is seat 1) and must be a permutation of the board's
// cards; otherwise the seed shuffles them.
func New(board Board, seed uint64, deal []Role) (*Game, error) {
	g := new(Game)
	if err := g.Reset(board, seed, deal); err != nil {
		return nil, err
	}
	return g, nil
}

// Reset starts a new game in g as New does, reusing g's memory, so that a
// simulator plays millions of games without allocating.
func (g *Game) Reset(board Board, seed uint64, deal []Role) error {
	if err := board.Validate(); err != nil {
		return err
	}
	if deal != nil {
		if len(deal) != len(board.Cards) {
			return fmt.Errorf("rules: the deal has %d cards for %d seats", len(deal), len(board.Cards))
		}
		a, b := slices.Clone(deal), slices.Clone(board.Cards)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			return errors.New("rules: the deal is not the board's cards")
		}
	}
	g.init(board, seed)
	g.emit(Event{Kind: EvGameStart, Public: true, Value: int16(g.n)})
	cards := deal
	draws := uint8(0)
	if cards == nil {
		var buf [MaxSeats + 2]Role
		cards = buf[:len(board.Cards)]
		copy(cards, board.Cards)
		for i := range cards { // Fisher-Yates, one draw a card
			j := i + int(g.peek(uint32(i))%uint64(len(cards)-i))
			cards[i], cards[j] = cards[j], cards[i]
		}
		draws = 1
	}
	for i, r := range cards[:g.n] {
		s := Seat(i + 1)
		if r == MirrorSeer { // told he is the seer; the moderator knows better (mirror_seer.go)
			g.emit(Event{Kind: EvRole, To: s.bit(), Seat: s, Role: Seer, Draws: draws})
			g.emit(Event{Kind: EvMirror, Seat: s, Role: MirrorSeer})
			continue
		}
		g.emit(Event{Kind: EvRole, To: s.bit(), Seat: s, Role: r, Draws: draws})
	}
	if len(cards) > int(g.n) { // the thief's two extra cards, face down in the middle
		g.emit(Event{Kind: EvExtraCards, Role: cards[g.n], Value: int16(cards[g.n+1]), Draws: 2 * draws})
	}
	// With a thief, cupid or the ghost bride the wolves meet after them, on night 1; with a
	// nightmare too, who acts alone before meeting them (ROLES-MORE.md).
	nightmareFirst := slices.Contains(board.Cards, Nightmare) && board.Options[OptFirstPhase] == FirstNight
	if !slices.Contains(board.Cards, Thief) && !slices.Contains(board.Cards, Cupid) && !slices.Contains(board.Cards, GhostBride) && !nightmareFirst {
		g.emit(Event{Kind: EvWolfTeam, To: g.wolfTeam(), Mask: g.pack()}) // nobody is in the lovers' camp yet
	}
	switch {
	case g.opt(OptSheriff) == SheriffBeforeFirstNight:
		g.setResume(StepElect, false)
	case g.opt(OptFirstPhase) == FirstDay && !g.teamTold:
		// The thief and cupid act before day 1, at night 0: it is a night for
		// the views (who acts is hidden from those not woken), not a real one
		// (no attack, no seer; g.night stays 0). It falls whenever the board
		// has those cards, even if the thief's card lies in the middle, so
		// that the schedule tells nothing of the deal.
		g.emit(Event{Kind: EvNight, Public: true, Value: 0})
		g.nextNightStage(StepNone)
	case g.opt(OptFirstPhase) == FirstDay:
		g.startDay()
	default:
		g.setResume(StepNight, false)
	}
	g.proceed()
	return nil
}

// init clears g for a new game, keeping the event log's memory.
func (g *Game) init(board Board, seed uint64) {
	events := g.events[:0]
	if cap(events) == 0 {
		events = make([]Event, 0, 256) // a std-12 game has about 200 events
	}
	*g = Game{board: board, n: Seat(board.Players()), seed: seed, dir: 1, events: events}
	for _, r := range board.Cards {
		g.cardSet |= 1 << r
	}
	for s := Seat(1); s <= g.n; s++ {
		g.all |= s.bit()
	}
	g.alive, g.pubAlive = g.all, g.all
	for r := range hooks {
		if f := hooks[r].start; f != nil {
			f(g)
		}
	}
}

// setRole gives seat s the card r, keeping the role sets in step.
func (g *Game) setRole(s Seat, r Role) {
	if old := g.role[s]; g.holder[old] == s {
		g.holder[old] = NoSeat
	}
	g.role[s], g.holder[r] = r, s
	b := s.bit()
	g.wolves, g.plain, g.gods = g.wolves&^b, g.plain&^b, g.gods&^b
	switch {
	case r.IsWolf():
		g.wolves |= b
	case r == Villager || r == Thief || r == WildChild || r == Sister || r == Brother || r == Angel || r == MirrorSeer || r == MixedBlood: // the wild child is plain until he turns; the mixed blood until his model says
		g.plain |= b
	case r.IsGod():
		g.gods |= b
	}
	g.setOutsider(s, r)
}

// Replay rebuilds a game from its board, seed and event log.
func Replay(board Board, seed uint64, events []Event) (*Game, error) {
	if err := board.Validate(); err != nil {
		return nil, err
	}
	g := new(Game)
	g.init(board, seed)
	if err := g.Follow(events); err != nil {
		return nil, err
	}
	return g, nil
}

// Follow applies events another game on the same board and seed emitted
// after the ones g holds. A server keeps such a copy of what the table has
// been told: at night it tells the table at fixed times, so the copy lags
// behind the game, and views built from it hold nothing not yet told.
func (g *Game) Follow(events []Event) error {
	for i := range events {
		if want := int32(len(g.events) + 1); events[i].Seq != want {
			return fmt.Errorf("rules: event number %d follows %d", events[i].Seq, want-1)
		}
		g.events = append(g.events, events[i])
		g.apply(&g.events[len(g.events)-1])
	}
	return nil
}

func (g *Game) opt(o Option) uint8 { return g.board.Options[o] }

// peek is the k-th next random number; an event with Draws consumes it.
func (g *Game) peek(k uint32) uint64 {
	z := g.seed + uint64(g.draws+k+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// pick draws one seat of a non-empty mask.
func (g *Game) pick(mask uint32) Seat {
	k := uint64(popcount(mask))
	i := g.peek(0) % k
	for s := Seat(1); s <= g.n; s++ {
		if mask&s.bit() != 0 {
			if i == 0 {
				return s
			}
			i--
		}
	}
	return NoSeat
}

func popcount(m uint32) int { return bits.OnesCount32(m) }

// emit numbers an event, appends it to the log and applies it. It is
// inlined, so that the caller builds the event in place and hands put its
// address: passed by value, it was copied twice in wide words just after
// being written field by field, and each copy waited for those narrow
// stores (a store-forwarding stall, once most of emit's time).
func (g *Game) emit(e Event) { g.put(&e) }

// put is emit's body; it copies the event field by field, for the same reason.
func (g *Game) put(e *Event) {
	n := len(g.events)
	if n == cap(g.events) {
		g.events = append(g.events, Event{})
	}
	g.events = g.events[:n+1]
	p := &g.events[n]
	p.Seq, p.Kind, p.Public, p.Draws = int32(n+1), e.Kind, e.Public, e.Draws
	p.Seat, p.Target, p.Role, p.Value = e.Seat, e.Target, e.Role, e.Value
	p.To, p.Mask = e.To, e.Mask
	g.apply(p)
}

func (g *Game) has(m uint32, s Seat) bool { return m&s.bit() != 0 }

// apply is the one place the state changes. A role's own events are
// applied by a method in the role's file.
func (g *Game) apply(e *Event) {
	g.draws += uint32(e.Draws)
	s, t := e.Seat, e.Target
	if g.shelter != NoSeat { // 蚀时狼妃: a power aimed at the sheltered rebounds
		g.noteRebound(e)
	}
	switch e.Kind {
	case EvRole:
		g.setRole(s, e.Role)
	case EvSwap:
		g.applySwap(e)
	case EvExtraCards:
		g.extra = [2]Role{e.Role, Role(e.Value)}
	case EvWolfTeam:
		g.teamTold = true
	case EvLovers:
		g.applyLovers(e)
	case EvBlackLovers:
		g.loversCamp = e.Mask
	case EvEnchant:
		g.applyEnchant(e)
	case EvElderLife:
		g.elderLives--
	case EvPowersLost:
		g.applyPowersLost(e)
	case EvVoters:
		g.applyVoters(e)
	case EvEventCard:
		g.cardsDrawn++
	case EvAlly:
		g.applyAlly(e)
	case EvCampLost:
		g.lost[e.Value] = true
	case EvKillPower:
		g.widowKnife = g.widowKnife || e.Role != GhostBride // the newlyweds' kill is theirs (ghost_bride.go)
	case EvRedCard:
		g.applyRedCard(e)
	case EvClaim:
		g.claims[s]++
	case EvDuel:
		g.applyDuel(e)
	case EvCurse:
		g.applyCurse(e)
	case EvModel:
		g.applyModel(e)
	case EvWildWolf:
		g.applyWildWolf(e)
	case EvBloodMoon:
		g.bloodNight = e.Value
	case EvSilence:
		g.applySilence(e)
	case EvVoteBan:
		g.applyVoteBan(e)
	case EvSilenced, EvVoteBanned:
		g.silenceTold = g.day
	case EvGrowl:
		g.growlTold = g.day
	case EvSiblings:
		g.applySiblings(e)
	case EvAngelWins:
		g.angelWon = true
	case EvMirror:
		g.applyMirror(e)
	case EvBlood:
		g.applyBlood(e)
	case EvImitate:
		g.applyImitate(e)
	case EvDoubleAttack:
		g.applyDoubleAttack(e)
	case EvShelter:
		g.applyShelter(e)
	case EvRewind:
		g.applyRewind(e)
	case EvDance:
		g.applyDance(e)
	case EvAsk:
		g.asked = true
	case EvMask:
		g.applyMask(e)
	case EvGroom:
		g.applyGroom(e)
	case EvWitness:
		g.applyWitness(e)
	case EvWed:
		g.applyWed(e)
	case EvPair:
		g.applyPair(e)
	case EvTradeChoice:
		g.applyTradeChoice(e)
	case EvTradeResult:
		g.applyTradeResult(e)
	case EvGift:
		g.applyGift(e)
	case EvLucky:
		g.luckyTold = true
	case EvGiftUse:
		g.applyGiftUse(e)
	case EvDream:
		g.applyDream(e)
	case EvMagic:
		g.applyMagic(e)
	case EvHunt:
		g.applyHunt(e)
	case EvFear:
		g.applyFear(e)
	case EvReflect:
		g.applyReflect(e)
	case EvNight:
		g.night, g.isNight = e.Value, true
		g.picked, g.attack, g.nightDead = 0, NoSeat, 0
		for m := g.cardSet; m != 0; m &= m - 1 {
			if f := hooks[bits.TrailingZeros64(m)].nightFalls; f != nil {
				f(g)
			}
		}
	case EvDay:
		g.quiet++
		if g.deaths != g.deathsSeen {
			g.quiet, g.deathsSeen = 0, g.deaths
		}
		g.day, g.isNight, g.dawned = e.Value, false, false
		g.dir, g.lastDawn, g.exileRounds = 1, 0, 0
	case EvStep:
		g.applyStep(e)
	case EvProtect:
		if g.role[s] == MechanicalWolf {
			g.applyShield(e)
		} else {
			g.applyProtect(e)
		}
	case EvCheck:
		g.applyCardCheck(e)
		if hooks[g.role[s]].due { // the gargoyle: his check is owed beside the pack's pick
			g.due &^= s.bit()
		} else {
			g.pending &^= s.bit()
		}
	case EvAttackPick:
		g.applyAttackPick(e)
	case EvAttack:
		g.attack = t
	case EvCharm:
		g.applyCharm(e)
	case EvHeal:
		g.applyHeal(e)
	case EvPoison:
		if g.role[s] == MechanicalWolf {
			g.applyMechPoison(e)
		} else {
			g.applyPoison(e)
		}
	case EvSkip:
		if g.step == StepNight {
			if f := hooks[g.role[s]].skipped; f != nil {
				f(g, s)
			}
		}
		g.pending &^= s.bit()
	case EvDeath:
		g.applyDeath(e)
	case EvDawn:
		g.pubAlive &^= e.Mask
		g.nightDead = 0
		g.dawned = true
		g.lastDawn = e.Mask
		if e.Mask != 0 {
			g.lastKilled = g.lowest(e.Mask)
		}
	case EvTails:
		g.tails = int8(e.Value)
	case EvRun:
		g.cands |= s.bit()
		g.pending &^= s.bit()
	case EvWithdraw:
		g.cands &^= s.bit()
		g.withdrawn |= s.bit()
		g.pending &^= s.bit()
		g.speakers &^= s.bit()
	case EvBallot:
		if e.Value == 0 { // a ballot cast, not the copy published when a secret vote closes
			g.votes[s] = t
			g.voted |= s.bit()
			g.pending &^= s.bit()
		}
	case EvVoteResult:
		g.tied = e.Mask
		g.lastVote, g.lastPick = Step(e.Value), t
		switch Step(e.Value) {
		case StepVote, StepPKVote, StepSeqVote, StepMobVote:
			g.exileRounds++
		}
	case EvSheriff:
		g.sheriff, g.sheriffDone = s, true
		g.cands, g.withdrawn = 0, 0
	case EvBadge:
		g.sheriff = t
		g.pending = 0
	case EvOrder:
		g.dir = 1
		if e.Value == 1 {
			g.dir = -1
		}
		g.pending = 0
	case EvExile:
		g.pending = 0
	case EvReveal:
		g.revealed |= s.bit()
		g.applyIdiotReveal(e)
	case EvExplode:
		if e.Value == 1 {
			g.campExploded = true
			g.campPK = g.step == StepSheriffPK
		}
		g.pending, g.speakers, g.step = 0, 0, StepNone
	case EvShoot:
		g.pending = 0
	case EvTask:
		q := queued{seat: s, kind: task(e.Value)}
		if t == 1 {
			g.qhead = (g.qhead + queueCap - 1) % queueCap
			g.queue[g.qhead] = q
		} else {
			g.queue[(int(g.qhead)+int(g.qlen))%queueCap] = q
		}
		g.qlen++
	case EvResume:
		g.resume = Step(e.Value)
		g.cut = e.Target == 1
		g.paused = StepNone // a step a knight's duel interrupted has resumed
	case EvGameOver:
		g.winner, g.over = Camp(e.Value), true
		g.step, g.pending = StepOver, 0
	}
}

func (g *Game) applyStep(e *Event) {
	s := e.Seat
	st := Step(e.Value)
	g.claims = [MaxSeats + 1]int8{}
	if st != g.step {
		g.pending = 0
		if st == StepSeqVote {
			g.seqStart = s
		}
	}
	g.step, g.stepSeat = st, s
	switch {
	case st == StepSkill || st == StepBadge || st == StepLastWords || st == StepVoters || st == StepAlly:
		g.qhead = (g.qhead + 1) % queueCap
		g.qlen--
		g.pending = s.bit()
	case st == StepSeqVote:
		if e.Target == 1 { // a new round
			g.seqStart = s
		}
		g.pending = e.Mask
	case st.turn():
		g.pending, g.speakers = s.bit(), e.Mask&^s.bit()
	case st == StepNight && hooksOf(e.Role).due:
		g.due |= g.holder[e.Role].bit() &^ 1
	case st == StepSignup:
		g.cands, g.withdrawn = 0, 0
		g.pending |= e.Mask
	case st == StepNightShot:
		g.shotAtNight |= s.bit()
		g.pending |= e.Mask
	default:
		g.pending |= e.Mask
	}
	if st.isVote() || ((st == StepSeqVote || st == StepMobVote) && e.Target == 1) {
		g.voted = 0
	}
}

func (g *Game) applyDeath(e *Event) {
	s := e.Seat
	g.silent |= e.Mask
	g.deaths++
	if g.has(g.alive, s) {
		g.cause[s] = Cause(e.Value)
		if g.role[s] == MechanicalWolf && g.isNight {
			g.mechDied = g.night // his hunter's shot (mechanical_wolf.go)
		}
	}
	if g.firstDead == NoSeat {
		g.firstDead = s
	}
	g.alive &^= s.bit()
	if e.Public {
		g.lastKilled = s
		g.pubAlive &^= s.bit()
		g.nightDead &^= s.bit()
		g.pending &^= s.bit()
		g.cands &^= s.bit()
		g.speakers &^= s.bit()
	} else {
		g.nightDead |= s.bit()
	}
}

// Events is the whole log, for the moderator and for storage.
func (g *Game) Events() []Event { return g.events }

// Board is the game's board.
func (g *Game) Board() Board { return g.board }

// Seed is the game's seed.
func (g *Game) Seed() uint64 { return g.seed }

// Players is the number of seats.
func (g *Game) Players() int { return int(g.n) }

// Over reports whether the game has ended, and who won.
func (g *Game) Over() (bool, Camp) { return g.over, g.winner }

// Step is the current step and, for a turn step, whose turn it is.
func (g *Game) Step() (Step, Seat) { return g.step, g.stepSeat }

// Pending is the set of seats the moderator waits for (moderator's view).
func (g *Game) Pending() uint32 {
	return g.pending | g.due&g.alive
}

// Dying is the set of seats out of the game as the table knows it that
// still have a consequence of their death queued or running: the skill
// window (a hunter's or wolf king's shot), the badge, the last words, the
// scapegoat's voters, the wolf ally's choice (New Moon). It is public: each
// of those is a public step, and which a death earns follows from public
// facts (the announced deaths, the sheriff, the rules), never from a hidden
// cause. A server keeps a dying player out of the dead players' chat until
// his last task is done, so that he does not hear the dead before his last
// words. It reads only the state the events build, so a copy that follows
// a prefix of the log (Follow) answers for that moment. Empty once the game
// is over: no task runs after the end.
func (g *Game) Dying() uint32 {
	if g.over {
		return 0
	}
	var m uint32
	for i := uint8(0); i < g.qlen; i++ {
		m |= g.queue[(g.qhead+i)%queueCap].seat.bit()
	}
	switch g.step {
	case StepSkill, StepBadge, StepLastWords, StepVoters, StepAlly:
		m |= g.pending & g.stepSeat.bit() // running until the seat has acted
	}
	return m &^ g.pubAlive
}

// Role is a seat's card (moderator's view).
func (g *Game) Role(s Seat) Role { return g.role[s] }

// Alive reports whether the seat is alive (moderator's view).
func (g *Game) Alive(s Seat) bool { return g.has(g.alive, s) }

// AliveMask is the set of living seats (moderator's view).
func (g *Game) AliveMask() uint32 { return g.alive }

// Sheriff is the seat holding the badge, if any.
func (g *Game) Sheriff() Seat { return g.sheriff }

// Night reports whether it is night.
func (g *Game) Night() bool { return g.isNight }

// NightNumber is the number of the current or last night.
func (g *Game) NightNumber() int { return int(g.night) }

// Day is the current day number.
func (g *Game) Day() int { return int(g.day) }

// seatsOf is the seats of within holding card r.
func (g *Game) seatsOf(r Role, within uint32) uint32 {
	if !r.multiple() && r < numRoles { // one card of each other role
		return g.holder[r].bit() & within &^ 1
	}
	var m uint32
	for s := Seat(1); s <= g.n; s++ {
		if g.role[s] == r && g.has(within, s) {
			m |= s.bit()
		}
	}
	return m
}

// firstOf is the first seat of within holding card r, if any.
func (g *Game) firstOf(r Role, within uint32) Seat {
	if !r.multiple() && r < numRoles {
		if s := g.holder[r]; s != NoSeat && g.has(within, s) {
			return s
		}
		return NoSeat
	}
	for s := Seat(1); s <= g.n; s++ {
		if g.role[s] == r && g.has(within, s) {
			return s
		}
	}
	return NoSeat
}
