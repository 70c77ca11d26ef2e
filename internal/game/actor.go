// Package game runs one live game as an actor: a goroutine that owns the
// game, takes commands from a bounded queue, keeps its timers, stores every
// change before acknowledging it, and tells each seat what it may know.
package game

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/bits"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// Config is what a game is played with.
type Config struct {
	Board  rules.Board
	Seed   uint64
	Timers Timers
	Bots   uint32 // seats played by the server's bots from the start
	Level  bot.Level
	// SeatLevels, if set, is each seat's bot level (index seat−1; ""
	// takes Level): a tournament's table of bots of several levels
	// (wolfden arena).
	SeatLevels []bot.Level
	// Deal, if not nil, fixes the cards (tests); otherwise the seed deals.
	Deal []rules.Role
	// Unpaced: a game of programs only (the AIWolf gateway's matches).
	// Its nights are not on the fixed schedule, and there is no beat: a
	// night's stage ends as soon as the live game has left it, and frames
	// go out as they come. Nobody at such a table reads the timing of a
	// phone; a room with people keeps the schedule (docs/aiwolf.md).
	Unpaced bool
	// CardSeen: after the deal the table waits until every person has
	// confirmed seeing his card before the first night falls (seen.go).
	CardSeen bool
	// KeepAlive is the day's keep-alive period (alive.go); 0 takes
	// KeepAlive.
	KeepAlive time.Duration
	// Clock is the game's time; nil is the wall clock. Tests drive a
	// forum game's hour-long clocks with one of their own.
	Clock Clock
	// Remind: how long before a deadline the table is reminded of it
	// (forum.go), at most MaxRemind offsets; nil takes DefaultRemind,
	// empty reminds of nothing.
	Remind []time.Duration
}

// levelOf is seat s's bot level.
func (c *Config) levelOf(s rules.Seat) bot.Level {
	if int(s) <= len(c.SeatLevels) && c.SeatLevels[s-1] != "" {
		return c.SeatLevels[s-1]
	}
	return c.Level
}

// checkLevels refuses a bot level no bot has.
func (c *Config) checkLevels() error {
	for i, l := range c.SeatLevels {
		if _, err := bot.ParseLevel(string(l)); l != "" && err != nil {
			return fmt.Errorf("game: seat %d: unknown bot level %q", i+1, l)
		}
	}
	return nil
}

// Hooks let the server observe the actor without the actor knowing about
// metrics or rooms. Every field may be nil.
type Hooks struct {
	// Command is told of each command handled: "ok", "refused", "busy".
	Command func(result string, took time.Duration)
	// Over is called once when the game ends, after the end is stored.
	Over func(winner rules.Camp)
	// Failed is called when the game stopped for good on an internal error
	// (a panic): what was stored stays, and resumes at the next start.
	Failed func(err error)
	// WriteFailed is told of each write the store refused; Stalled when
	// the game pauses because it cannot save (true) and when a write
	// succeeds again and it goes on (false).
	WriteFailed func(err error)
	Stalled     func(on bool)
	// Lost tells a refused write that is no failure of the store but the
	// end of this process's claim on the game (a cluster node whose lease
	// was fenced: another node has it now). Such a write does not stall
	// the game: the actor tells nobody anything more, takes nothing more,
	// and waits to be stopped (the server closes its connections as
	// moved). WriteFailed is not told of it.
	Lost func(err error) bool
	// Begin, if set, stores the game's first records in place of the
	// store's Append: the server stores them with its room's change to
	// running, in one transaction (store.StartGame).
	Begin func(ctx context.Context, recs []store.Record) error
	// Voice, if set, is told who may be heard by whom whenever that
	// changes, from the actor: the room's voice forwards by it (voice.go).
	Voice func(Voices)
}

// ErrStalled is the answer while the game cannot save: it is paused until
// a write succeeds again.
var ErrStalled = errors.New("the server cannot save right now (is its disk full?): the game is paused until it can")

// ErrMoved is the answer to a connection that joins a game whose claim
// this process has lost (Hooks.Lost): it is to connect again, to the
// game's new owner.
var ErrMoved = errors.New("the game has moved to another server; connect again")

// stallRetry is how often a stalled game tries to save again.
var stallRetry = time.Second

// QueueSize bounds the actor's inbox: a game that cannot keep up answers
// "busy" rather than piling up work.
const QueueSize = 64

// ErrBusy is returned when the actor's inbox is full.
var ErrBusy = errors.New("the game is busy; try again")

// ErrStopped is returned once the actor has stopped.
var ErrStopped = errors.New("the game is not running")

// Actor is one live game.
type Actor struct {
	id         string
	cfg        Config
	st         store.Store
	hooks      Hooks
	lastVoices Voices // what Voice was last told
	log        *slog.Logger

	inbox    chan func()
	quit     chan struct{}
	quitOnce sync.Once
	done     chan struct{}

	live     *rules.Game // the truth
	shown    *rules.Game // what the table has been told: a prefix of live's log
	clk      clock
	n        int64     // records stored
	lastAt   time.Time // the time of the last record stored
	covered  int       // live events already in a record
	savedClk clock     // the clock as last stored

	subs    map[*Sub]struct{}
	online  [rules.MaxSeats + 1]int // connections per seat
	bots    [rules.MaxSeats + 1]*seatBot
	views   [rules.MaxSeats + 1]rules.View // each seat's view of shown, kept up to date
	botPend uint32                         // bot seats awaited, when botAt was set
	botAt   time.Time
	chats   []chat
	recs    []store.Record // changes not yet stored
	later   int            // how many of recs are notes that wait for the next write (NoteLater)
	acks    []ack          // answers to send once they are
	wrote   bool           // the last flush stored something
	timer   Timer
	overSet bool

	// The night's beat (beat.go): while ticking, connections are sent one
	// message of NightMessage bytes at each tick and nothing in between.
	ticking  bool
	tickBase time.Time // nightfall: tick n is due at tickBase + n ticks
	tickAt   time.Time // the next tick
	tickN    int       // the last tick sent
	// aliveAt: the day's next keep-alive (alive.go); zero while ticking.
	aliveAt time.Time
	// pubSeen: the events of shown looked at for a public one (alive.go).
	pubSeen int

	// notices: reminders and announcements (forum.go) sent to every
	// connection once the write they came with is stored.
	notices [][]byte

	calls      []wire.CallJSON // tonight's calls, as the table knew the game at nightfall
	callsNight int

	// What deliveries share among connections (sub.go).
	gen       int // deliveries made
	stCache   [rules.MaxSeats + 1]seatState
	stBuf     []byte       // a state's encoding, before it is copied to its size
	aliveMask uint32       // alive's last mask
	aliveList []rules.Seat // and its list, shared by the states that list it
	evTails   [][]byte     // shown's events' frames after their seq
	chatTails [][2][]byte  // the messages' frames after their seq: as written, anonymous

	team wolfTeam // tonight's wolf team of people and bots (wolfteam.go)

	// stalled: the last write failed; the clocks stand still, nothing is
	// told and nobody acts until a write succeeds (stallAt: since when).
	stalled bool
	stallAt time.Time
	// gone: a write was refused because the game is another process's now
	// (Hooks.Lost); nothing more is stored or told.
	gone bool

	// taken: per seat, the ids of the latest requests of its connections
	// the game took (answered with an ack), so that a client that lost the
	// answer with its connection learns it on the next one (Answer). Those
	// stored are found again from the records after a restart or a move.
	taken [rules.MaxSeats + 1][]int64
}

type seatBot struct {
	b      bot.Bot
	view   rules.View
	cursor int // events of shown's log already observed
	buf    []rules.Choice
}

// Start deals a new game, stores its first record and runs it.
func Start(ctx context.Context, id string, cfg Config, st store.Store, hooks Hooks, log *slog.Logger) (*Actor, error) {
	if err := cfg.checkLevels(); err != nil {
		return nil, err
	}
	live, err := rules.New(cfg.Board, cfg.Seed, cfg.Deal)
	if err != nil {
		return nil, err
	}
	shown, _ := rules.Replay(cfg.Board, cfg.Seed, nil)
	a := newActor(id, cfg, st, hooks, log, live, shown)
	a.startWait()
	a.record("start", nil)
	a.settle()
	if err := a.flush(ctx); err != nil {
		return nil, err
	}
	a.told()
	go a.run()
	return a, nil
}

// Restore rebuilds a game from its stored records and runs it on from the
// same point, with the time its clocks had when last stored.
func Restore(id string, cfg Config, st store.Store, recs []store.Record, hooks Hooks, log *slog.Logger) (*Actor, error) {
	events, chats, err := readLog(recs)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	var sc storedClock // the last one stored
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Clock != nil {
			if err := json.Unmarshal(recs[i].Clock, &sc); err != nil {
				return nil, fmt.Errorf("game %s: record %d: %v", id, recs[i].N, err)
			}
			break
		}
	}
	if err := sc.check(len(events)); err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	live, err := rules.Replay(cfg.Board, cfg.Seed, events)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	shown, err := rules.Replay(cfg.Board, cfg.Seed, events[:sc.Released])
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	a := newActor(id, cfg, st, hooks, log, live, shown)
	a.n, a.chats = int64(len(recs)), chats
	if len(recs) > 0 {
		a.lastAt = recs[len(recs)-1].At
	}
	now := a.now()
	a.clk = sc.load(sc.resumeAt(now, &a.cfg.Timers, shown))
	if a.clk.Slots != nil && a.clk.Marks == nil && a.clk.Released < len(events) {
		// stored before marks were kept: the rest waits for the next slot
		a.clk.plan(events, a.clk.Released, a.clk.Slot+1)
	}
	a.savedClk, a.covered = a.clk, len(events)
	a.readTaken(recs)
	a.savedClk.Marks = slices.Clone(a.clk.Marks)
	if a.clk.Slots != nil {
		a.beat(now)
	}
	a.settle()
	if err := a.flush(context.Background()); err != nil {
		return nil, err
	}
	a.told()
	go a.run()
	return a, nil
}

func newActor(id string, cfg Config, st store.Store, hooks Hooks, log *slog.Logger, live, shown *rules.Game) *Actor {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Level == "" {
		cfg.Level = bot.Smart
	}
	a := &Actor{id: id, cfg: cfg, st: st, hooks: hooks, log: log.With("room", id),
		inbox: make(chan func(), QueueSize), quit: make(chan struct{}), done: make(chan struct{}),
		live: live, shown: shown, subs: map[*Sub]struct{}{}}
	if a.cfg.Clock == nil {
		a.cfg.Clock = wallClock{}
	}
	a.timer = a.cfg.Clock.NewTimer(time.Hour)
	if shown != nil {
		a.pubSeen = len(shown.Events())
	}
	return a
}

// Done is closed when the actor has stopped.
func (a *Actor) Done() <-chan struct{} { return a.done }

// Stop ends the actor; its game stays in the store and resumes at the next
// start. Connections are closed.
func (a *Actor) Stop() {
	a.halt()
	<-a.done
}

// Ended is the game as its stored records leave it, and the time of the
// last record, once the actor has stopped with everything stored: what a
// replay of the store gives, without reading the store back. ok is false
// while it runs, or if something was left unstored.
func (a *Actor) Ended() (g *rules.Game, at time.Time, ok bool) {
	select {
	case <-a.done:
	default:
		return nil, time.Time{}, false
	}
	if a.n == 0 || len(a.recs) > 0 || a.covered != len(a.live.Events()) {
		return nil, time.Time{}, false
	}
	return a.live, a.lastAt, true
}

func (a *Actor) halt() { a.quitOnce.Do(func() { close(a.quit) }) }

// send runs f in the actor's goroutine, or refuses when the inbox is full.
func (a *Actor) send(f func()) error {
	select {
	case <-a.quit:
		return ErrStopped
	default:
	}
	select {
	case a.inbox <- f:
		return nil
	default:
		return ErrBusy
	}
}

// do runs an act in the actor: its refusal, or why the actor could not
// take it.
func (a *Actor) do(f func() error) error {
	err, cerr := ask(a, f)
	if cerr != nil {
		return cerr
	}
	return err
}

// askWait bounds how long a caller waits for the actor to answer: a game
// stuck on its store must not hold an HTTP request forever.
var askWait = 5 * time.Second

// ask runs f in the actor and returns its result. The result travels on a
// channel of its own, so a caller that gave up shares nothing with f.
func ask[T any](a *Actor, f func() T) (T, error) {
	ch := make(chan T, 1)
	var zero T
	if err := a.send(func() { ch <- f() }); err != nil {
		return zero, err
	}
	t := time.NewTimer(askWait)
	defer t.Stop()
	select {
	case v := <-ch:
		return v, nil
	case <-a.done:
		// An act that stops the actor (Abort) has answered before done
		// closed; both being ready, select may pick either.
		select {
		case v := <-ch:
			return v, nil
		default:
		}
		return zero, ErrStopped
	case <-t.C:
		return zero, ErrBusy
	}
}

func (a *Actor) run() {
	defer close(a.done) // connections see it, send what is queued, and close
	defer a.timer.Stop()
	defer a.recover()
	defer a.flushLater()
	a.keepAlive(a.now())
	for {
		select {
		case f := <-a.inbox:
			f()
			// Whatever else is waiting is handled before storing: twelve
			// votes arriving together are stored in one write, not twelve.
			for more := true; more && !a.stopping(); {
				select {
				case f := <-a.inbox:
					f()
				default:
					more = false
				}
			}
			a.commit()
		case <-a.timer.C():
			a.settle()
			a.commit()
		case <-a.quit:
			return
		}
		if a.stopping() {
			return
		}
		a.keepAlive(a.now())
	}
}

// recover stops a game whose actor panicked, and only that game: the error
// is logged, its players are told, and what was stored stays (the game
// resumes from it at the next start, or stays for the operator to look at).
func (a *Actor) recover() {
	r := recover()
	if r == nil {
		return
	}
	a.log.Error("the game stopped on an internal error", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	a.halt()
	msg := encode(wire.ErrorFrame{Type: "error", Code: "internal",
		Message: "the game has stopped on an internal error; it is kept and resumes when the server restarts"})
	for sub := range a.subs {
		sub.offer(msg) // behind what it has waiting; a full queue misses it
	}
	if a.hooks.Failed != nil {
		a.hooks.Failed(fmt.Errorf("panic: %v", r))
	}
}

func (a *Actor) stopping() bool {
	select {
	case <-a.quit:
		return true
	default:
		return false
	}
}

// record notes a change of the live game; the events the log gained since
// the last record are stored with it.
func (a *Actor) record(kind string, body any) {
	var raw []byte
	switch b := body.(type) {
	case nil:
	case json.RawMessage: // a note's, JSON already (Note): encoding it again would scan and copy a day's request log
		raw = b
	default:
		raw = encode(body)
	}
	ev := a.live.Events()
	r := store.Record{N: a.n + int64(len(a.recs)) + 1, At: a.now(), Kind: kind, Body: raw,
		Events: append([]rules.Event(nil), ev[a.covered:]...)}
	a.covered = len(ev)
	a.recs = append(a.recs, r)
}

// flush stores the changes and the clock. Nothing is told to anyone before
// it is stored: after a crash the game resumes where the table last saw it.
func (a *Actor) flush(ctx context.Context) error {
	a.wrote = false
	if len(a.recs) == a.later && a.clk.same(&a.savedClk) {
		return nil // nothing, or notes that wait for the game's next write
	}
	if len(a.recs) == 0 {
		a.record("tick", nil)
	}
	sc := a.clk.store(a.now())
	a.recs[len(a.recs)-1].Clock = encode(sc)
	write := func(ctx context.Context, recs []store.Record) error { return a.st.Append(ctx, a.id, recs...) }
	if a.n == 0 && a.hooks.Begin != nil {
		write = a.hooks.Begin
	}
	if err := write(ctx, a.recs); err != nil {
		return err
	}
	a.n += int64(len(a.recs))
	a.lastAt = a.recs[len(a.recs)-1].At
	a.recs, a.wrote, a.later = a.recs[:0], true, 0
	a.savedClk = a.clk
	a.savedClk.Slots = slices.Clone(a.clk.Slots)
	a.savedClk.Marks = slices.Clone(a.clk.Marks)
	return nil
}

// flushLater stores, as the actor stops, the notes that waited for a write
// (NoteLater): a drain keeps them. Everything else was stored at its
// commit; a game whose store fails or that is another's keeps what it has.
func (a *Actor) flushLater() {
	if a.later == 0 || a.later != len(a.recs) || a.stalled || a.gone {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), askWait)
	defer cancel()
	a.later = 0 // they wait no more
	if err := a.flush(ctx); err != nil {
		a.log.Warn("the game's last notes could not be stored as it stopped", "err", err)
	}
}

// commit stores, then tells the table and sets the timer. A failed write
// stalls the game (stall): what was not stored is not told, and the game
// goes on by itself once a write succeeds.
func (a *Actor) commit() bool {
	if a.gone {
		return false
	}
	if a.stalled { // the clocks stood still while the game could not save
		if !a.clk.Paused { // a paused game's clocks stand still anyway
			a.shift(a.now().Sub(a.stallAt))
		}
		a.stallAt = a.now()
	}
	a.remind(a.now())
	if err := a.flush(context.Background()); err != nil {
		a.stall(err)
		return false
	}
	if a.stalled {
		a.stalled = false
		a.log.Info("the store takes writes again; the game goes on")
		if a.hooks.Stalled != nil {
			a.hooks.Stalled(false)
		}
	}
	if a.wrote { // whatever the table may see was stored first: nothing new, nothing to tell
		a.deliver()
	}
	a.sendNotices()
	for _, k := range a.acks {
		a.queue(k.sub, encode(wire.AckFrame{Type: "ack", ID: k.id}))
		a.tookFrom(k.sub.Seat, k.id)
		if k.cmd && a.hooks.Command != nil {
			a.hooks.Command("ok", time.Since(k.start))
		}
	}
	a.acks = a.acks[:0]
	public := a.toldPublic()
	a.out()
	if public {
		a.aliveSent(a.now())
	}
	a.told()
	a.tellVoices() // by night the beat tells the table, not deliver: here either way
	return true
}

// stall pauses a game whose write failed: its clocks stop, nobody may act
// and nothing more is told (what was not stored must not be), its players
// are told why, and the write is tried again every stallRetry. Nothing
// acknowledged is lost: answers wait for the write.
func (a *Actor) stall(err error) {
	if a.hooks.Lost != nil && a.hooks.Lost(err) {
		a.gone = true
		a.log.Warn("a write was refused: the game is another's now; it stops here", "err", err)
		return
	}
	if a.hooks.WriteFailed != nil {
		a.hooks.WriteFailed(err)
	}
	if !a.stalled {
		a.stalled, a.stallAt = true, a.now()
		a.log.Error("store write failed; the game is paused until a write succeeds", "err", err)
		if a.hooks.Stalled != nil {
			a.hooks.Stalled(true)
		}
		notice := encode(wire.ErrorFrame{Type: "error", Code: "store", Message: ErrStalled.Error()})
		for sub := range a.subs {
			a.queue(sub, notice)
		}
	}
	a.out() // at night the beat goes on, carrying the notice
	a.arm()
}

// shift moves every running clock d later: time that did not count.
func (a *Actor) shift(d time.Duration) {
	for _, t := range []*time.Time{&a.clk.SlotEnd, &a.clk.Deadline, &a.botAt} {
		if !t.IsZero() {
			*t = t.Add(d)
		}
	}
}

// ack is an answer held until its change is stored and told.
type ack struct {
	sub   *Sub
	id    int64
	cmd   bool // a command, timed for the metrics (a chat is not)
	start time.Time
}

// told follows what the table was told: the end of the game is reported
// once (also when a restart finds a game that ended just before the crash),
// and the timer is set to what is due next.
func (a *Actor) told() {
	if over, w := a.shown.Over(); over && !a.overSet {
		a.overSet = true
		if a.hooks.Over != nil {
			a.hooks.Over(w)
		}
	}
	a.arm()
}

// releaseTo tells the table the live log up to event i.
func (a *Actor) releaseTo(i int) {
	if i <= a.clk.Released {
		return
	}
	if err := a.shown.Follow(a.live.Events()[a.clk.Released:i]); err != nil {
		panic(err) // shown is a prefix of live by construction
	}
	a.clk.Released = i
}

// settle runs the moderator's clock: it tells the table what it may now
// know, starts tonight's schedule, times out whoever is late and lets the
// bots play, until nothing is due.
func (a *Actor) settle() {
	now := a.now()
	t := &a.cfg.Timers
	for guard := 0; guard < 100000; guard++ {
		if a.clk.Paused || a.stalled {
			return
		}
		if a.clk.Gate { // the cards are being looked at: the deal, and nothing more
			a.releaseTo(a.dealEnd())
			return
		}
		// A game the night decided ends at dawn, not when it is resolved:
		// an early end would tell who acted.
		if over, _ := a.live.Over(); over && a.clk.Slots == nil {
			a.releaseTo(len(a.live.Events()))
			a.clk.Deadline = time.Time{}
			return
		}
		if a.clk.Slots == nil {
			// By day everything is told at once, up to nightfall.
			ev := a.live.Events()
			i, night := a.clk.Released, false
			for ; i < len(ev); i++ {
				if ev[i].Kind == rules.EvNight {
					i, night = i+1, true
					break
				}
			}
			a.releaseTo(i)
			if night {
				a.clk.Slots = nightSlots(&a.cfg.Board, int(ev[i-1].Value), t)
				a.clk.Slot, a.clk.SlotEnd = 0, now.Add(time.Duration(a.clk.Slots[0].Dur)*time.Millisecond)
				a.clk.Deadline, a.clk.Marks = time.Time{}, nil
				a.clk.plan(ev, i, 0) // made before the schedule began
				a.beat(now)
				continue
			}
			if m := a.lastStep(); m > a.clk.StepMark || a.clk.Deadline.IsZero() {
				st, _ := a.shown.Step()
				a.clk.StepMark, a.clk.Deadline = m, now.Add(t.forStep(st))
			}
			if !now.Before(a.clk.Deadline) && a.live.Pending() != 0 {
				a.timeout()
				continue
			}
			if a.botTurn(now) {
				continue
			}
			return
		}
		for len(a.clk.Marks) > 0 && a.clk.Marks[0].Slot <= a.clk.Slot {
			a.releaseTo(a.clk.Marks[0].Upto)
			a.clk.Marks = a.clk.Marks[1:]
		}
		if a.cfg.Unpaced && now.Before(a.clk.SlotEnd) && a.slotOf() > a.clk.Slot {
			a.clk.SlotEnd = now // nothing left to do in this stage: it ends now
		}
		if !now.Before(a.clk.SlotEnd) {
			if a.slotOf() == a.clk.Slot && a.live.Pending() != 0 {
				if a.teamEnd(now) { // a mixed wolf team's bots pick last
					continue
				}
				a.timeout()
				continue
			}
			a.clk.Slot++
			if a.clk.Slot == len(a.clk.Slots) { // dawn: the night is told
				a.clk.Slots, a.clk.Slot, a.clk.SlotEnd, a.clk.Marks = nil, 0, time.Time{}, nil
				a.tickAt = now // the night's last beat carries the dawn
				continue
			}
			a.clk.SlotEnd = a.clk.SlotEnd.Add(time.Duration(a.clk.Slots[a.clk.Slot].Dur) * time.Millisecond)
			if a.cfg.Unpaced {
				a.clk.SlotEnd = now.Add(time.Duration(a.clk.Slots[a.clk.Slot].Dur) * time.Millisecond)
			}
			continue
		}
		if a.botTurn(now) {
			continue
		}
		return
	}
	panic("game: the moderator's clock does not settle")
}

// view is seat s's view of what the table was told. It is kept from call to
// call, so each event is read once per seat, not once per seat and change.
func (a *Actor) view(s rules.Seat) rules.View {
	v := &a.views[s]
	v.Seat = s
	a.shown.UpdateView(v)
	return *v
}

// caughtUp reports whether the table has been told the whole log. Until it
// has, the seats it believes awaited may have been timed out already and
// the game may be at another step: nobody acts.
func (a *Actor) caughtUp() bool { return a.clk.Released == len(a.live.Events()) }

// slotOf is the slot of tonight's schedule the live game is in: past the
// last one once the night is resolved.
func (a *Actor) slotOf() int {
	if !a.live.Night() {
		return len(a.clk.Slots)
	}
	st, _ := a.live.Step()
	for i, s := range a.clk.Slots {
		if s.Step == st {
			return i
		}
	}
	return a.clk.Slot
}

// lastStep is one past the last step event the table was told.
func (a *Actor) lastStep() int {
	ev := a.shown.Events()
	for i := len(ev) - 1; i >= a.clk.StepMark; i-- {
		if ev[i].Kind == rules.EvStep {
			return i + 1
		}
	}
	return a.clk.StepMark
}

// timeout applies the defaults for every seat still awaited. A player who
// is not connected when his time runs out is handed to a bot until he
// comes back.
func (a *Actor) timeout() {
	for m := a.live.Pending() &^ a.cfg.Bots; m != 0; m &= m - 1 {
		s := rules.Seat(lowBit(m))
		if a.online[s] == 0 {
			a.clk.Away |= 1 << uint(s)
		}
	}
	before := len(a.live.Events())
	a.live.Timeout()
	a.record("timeout", nil)
	a.botPend = 0
	if a.clk.Slots != nil {
		a.clk.plan(a.live.Events(), before, a.clk.Slot+1)
	}
}

// botTurn lets one bot act if one is due; it reports whether one did.
// The bots of a wolf team with people in it keep their own pace (wolfteam.go).
func (a *Actor) botTurn(now time.Time) bool {
	pend := a.shown.Pending() & a.live.Pending() & (a.cfg.Bots | a.clk.Away)
	if !a.caughtUp() {
		pend = 0
	}
	pend = a.teamGate(pend, now)
	if a.teamRepick(now, false) {
		return true
	}
	if pend == 0 {
		a.botPend = 0
		return false
	}
	if pend&^a.botPend != 0 { // someone new is awaited: give him the bot's pause
		a.botAt = now.Add(a.cfg.Timers.Bot)
	}
	a.botPend = pend
	if now.Before(a.botAt) {
		return false
	}
	s := rules.Seat(lowBit(pend))
	ok := a.botResolve(s, a.botCommand(s))
	a.botPend &^= 1 << uint(s)
	return ok
}

// botResolve plays a bot's command; a bot bug must not stall the table:
// an illegal command is logged and the bot passes. It reports whether
// something was played.
func (a *Actor) botResolve(s rules.Seat, c rules.Command) bool {
	before := len(a.live.Events())
	own, err := a.live.Resolve(c)
	if err != nil {
		a.log.Error("bot sent an illegal command", "seat", s, "cmd", c.String(), "err", err)
		c = rules.Command{Seat: s, Kind: rules.CmdSkip}
		if own, err = a.live.Resolve(c); err != nil {
			return false
		}
	}
	a.record("cmd", cmdBody{Seat: s, Cmd: c.String(), Bot: true})
	a.tellOwn(before, own)
	return true
}

// tellOwn tells the table a command's own events at once when everything
// before them was told; the rest follows the clock: at night, from the end
// of the slot the command was made in.
func (a *Actor) tellOwn(before, own int) {
	if a.clk.Released == before {
		a.releaseTo(before + own)
	}
	if a.clk.Slots != nil {
		a.clk.plan(a.live.Events(), before+own, a.clk.Slot+1)
	}
}

func (a *Actor) botCommand(s rules.Seat) rules.Command { return a.botCommandOf(s, false) }

// botCommandOf asks seat s's bot what it does; repick: only whether it
// changes its attack (a person of its team changed his).
func (a *Actor) botCommandOf(s rules.Seat, repick bool) rules.Command {
	sb := a.bots[s]
	if sb == nil {
		b, err := bot.New(a.cfg.levelOf(s), s, a.live.Players(), bot.Seed(a.cfg.Seed, s))
		if err != nil {
			panic(err) // the level was checked when the room was made (Start)
		}
		sb = &seatBot{b: b, view: rules.View{Seat: s}}
		a.bots[s] = sb
	}
	ev := a.shown.Events()
	for ; sb.cursor < len(ev); sb.cursor++ {
		if ev[sb.cursor].Visible(s) {
			sb.b.Observe(ev[sb.cursor])
		}
	}
	a.shown.UpdateView(&sb.view)
	sb.buf = a.shown.Choices(s, sb.buf[:0])
	if repick {
		sb.buf = onlyAttack(sb.buf)
		if len(sb.buf) == 0 {
			return rules.Command{Seat: s, Kind: rules.CmdSkip}
		}
	}
	a.people(sb.b)
	c := sb.b.Act(&sb.view, sb.buf)
	c.Seat = s
	return c
}

// arm sets the timer to the next thing due.
func (a *Actor) arm() {
	var next time.Time
	take := func(t time.Time) {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	if over, _ := a.live.Over(); (!over || a.clk.Slots != nil) && !a.clk.Paused && !a.stalled {
		if a.clk.Slots != nil {
			take(a.clk.SlotEnd)
		} else if a.live.Pending() != 0 {
			take(a.clk.Deadline)
		}
		if a.botPend != 0 {
			take(a.botAt)
		}
		take(a.teamAt())
		take(a.nextRemind())
	}
	if a.ticking {
		take(a.tickAt)
	} else {
		take(a.aliveAt)
	}
	if a.stalled {
		take(a.stallAt.Add(stallRetry))
	}
	a.timer.Stop()
	select {
	case <-a.timer.C():
	default:
	}
	if !next.IsZero() {
		a.timer.Reset(max(next.Sub(a.now()), 0))
	}
}

func (c *clock) same(o *clock) bool {
	return c.Released == o.Released && len(c.Slots) == len(o.Slots) && c.Slot == o.Slot &&
		c.SlotEnd.Equal(o.SlotEnd) && c.StepMark == o.StepMark && c.Deadline.Equal(o.Deadline) &&
		c.Paused == o.Paused && c.Away == o.Away && slices.Equal(c.Marks, o.Marks) && c.Gate == o.Gate && c.Seen == o.Seen &&
		c.RemindFor.Equal(o.RemindFor) && c.Reminded == o.Reminded
}

type cmdBody struct {
	Seat rules.Seat `json:"seat"`
	Cmd  string     `json:"cmd"`
	Bot  bool       `json:"bot,omitempty"`
	ID   int64      `json:"id,omitempty"` // the client's id of the request (Answer)
}

func lowBit(m uint32) int { return bits.TrailingZeros32(m) }
