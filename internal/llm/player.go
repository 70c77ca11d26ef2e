package llm

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// Table is what a player may do at its seat: the two requests a
// connection makes. The answers come back among the seat's frames.
type Table interface {
	Act(id int64, c rules.Command) error
	Chat(id int64, channel, text string) error
}

// Player plays one seat through the model. It is handed the seat's frames
// (Frames) and the seat's requests (Table), nothing else: it cannot read
// what a person on the seat could not.
type Player struct {
	cfg    *Config
	seat   rules.Seat
	seed   int64
	frames <-chan []byte
	table  Table
	log    *slog.Logger
	rec    *record
	nextID int64

	handled string // the question last answered (or given up)
	q       *question
	todo    []step        // the requests of the answer still to send
	todoKey string        // … for this question
	stopped chan struct{} // closed when Run returns

	// onAsk, if set (tests), is told of every conversation sent.
	onAsk func(seat rules.Seat, msgs []Message)
	// OnReply, if set, is given every reply the model made, whole: its
	// reasoning with its answer (wolfden arena keeps them for the replay,
	// after the end). It is called from Run's goroutine.
	OnReply func(content string)
}

// question is one decision asked of the model.
type question struct {
	key      string
	floor    bool
	msgs     []Message
	acts     []game.ChoiceJSON
	claims   []game.ChoiceJSON
	deadline time.Time
	tries    int
	cancel   context.CancelFunc
}

type answer struct {
	key     string
	content string
	err     error
}

// SeatSeed is the seed sent to the endpoint for a seat: fixed by the game's
// seed, so that a game played again asks the same, and one-way, so that
// neither the endpoint nor the player can learn the deal from it.
func SeatSeed(gameSeed uint64, seat rules.Seat) int64 {
	var b [17]byte
	copy(b[:], "llm")
	binary.LittleEndian.PutUint64(b[3:], gameSeed)
	b[11] = byte(seat)
	h := sha256.Sum256(b[:])
	return int64(binary.LittleEndian.Uint32(h[:]) >> 1)
}

// NewPlayer makes the player of seat at a table of players, reading its
// frames from frames and acting through t.
func NewPlayer(cfg *Config, seat rules.Seat, players int, seed int64, frames <-chan []byte, t Table, log *slog.Logger) *Player {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Player{cfg: cfg, seat: seat, seed: seed, frames: frames, table: t, rec: newRecord(seat, players),
		log: log.With("seat", int(seat), "player", Level)}
}

// Run plays until the game is over, the frames end or ctx is done. Calls
// to the model run on goroutines of their own: the frames are read all the
// while, so the game never waits for the model.
func (p *Player) Run(ctx context.Context) error {
	answers := make(chan answer)
	p.stopped = make(chan struct{})
	defer func() {
		close(p.stopped) // calls still running give up their answer
		if p.q != nil {
			p.q.cancel()
		}
	}()
	for {
		select {
		case msg, ok := <-p.frames:
			if !ok {
				return nil
			}
			state, err := p.rec.take(msg)
			if err != nil {
				return err
			}
			if p.rec.over {
				return nil
			}
			p.advance()
			if state {
				p.consider(ctx, answers)
			}
		case a := <-answers:
			p.answered(ctx, a, answers)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// consider asks the model when the seat is awaited by a question it has
// not answered yet; a question overtaken (the step moved on, the timer ran
// out) is dropped, its call cancelled.
func (p *Player) consider(ctx context.Context, answers chan<- answer) {
	st := p.rec.state
	key := p.key()
	if !st.Pending || len(st.Choices) == 0 || key == p.handled {
		p.drop(key)
		return
	}
	if p.q != nil && p.q.key == key {
		return
	}
	p.drop(key)
	acts, claims := splitChoices(st.Choices)
	q := &question{key: key, floor: len(claims) > 0, acts: acts, claims: claims}
	if st.Deadline > 0 {
		q.deadline = time.UnixMilli(st.Deadline)
	}
	q.msgs = []Message{{Role: "system", Content: systemPrompt(p.seat, p.rec.players, p.cfg.lang())},
		{Role: "user", Content: p.rec.userPrompt(q.floor)}}
	p.q = q
	p.ask(ctx, answers)
}

// key names the question the state asks: the step (counted), its turn and
// the day. Claims made in a speech change the choices, not the question.
func (p *Player) key() string {
	st := p.rec.state
	return fmt.Sprintf("%d/%d/%t/%s/%d", p.rec.steps, st.Day, st.Night, st.Step, st.Turn)
}

func (p *Player) drop(key string) {
	if p.q != nil && p.q.key != key {
		p.q.cancel()
		p.q = nil
	}
}

// budget is how long a call may take: the configured timeout, cut short
// before the step's timer (a tenth of what is left, at least 200 ms, is
// kept for the answer to be played).
func (q *question) budget(max time.Duration) time.Duration {
	if q.deadline.IsZero() {
		return max
	}
	left := time.Until(q.deadline)
	left -= maxDur(left/10, 200*time.Millisecond)
	return min(left, max)
}

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// ask sends the question's conversation, unless no time is left: then
// the default applies at the timer, as for a person who does not act.
func (p *Player) ask(ctx context.Context, answers chan<- answer) {
	q := p.q
	d := q.budget(p.cfg.timeout())
	if d <= 0 {
		p.log.Info("no time left to ask the model; the default applies at the timer", "step", p.rec.state.Step)
		p.handled, p.q = q.key, nil
		return
	}
	q.tries++
	cctx, cancel := context.WithTimeout(ctx, d)
	q.cancel = cancel
	msgs := slices.Clone(q.msgs)
	if p.onAsk != nil {
		p.onAsk(p.seat, msgs)
	}
	go func() {
		content, err := p.cfg.complete(cctx, msgs, p.seed)
		select {
		case answers <- answer{key: q.key, content: content, err: err}:
		case <-p.stopped:
		}
	}()
}

// answered plays an answer, or asks once more: a reply that cannot be
// used (malformed, an illegal command or target) is retried once, then
// the default applies at the timer.
func (p *Player) answered(ctx context.Context, a answer, answers chan<- answer) {
	q := p.q
	if q == nil || q.key != a.key {
		return // overtaken: the step moved on
	}
	q.cancel()
	if a.err == nil && p.OnReply != nil {
		p.OnReply(a.content)
	}
	why := ""
	var plan []step
	if a.err != nil {
		why = "the endpoint failed"
		p.log.Warn("the model did not answer", "err", a.err, "try", q.tries)
	} else {
		var err error
		if plan, err = p.plan(q, a.content); err != nil {
			why = err.Error()
			p.log.Info("the model's reply cannot be used", "why", why, "try", q.tries)
		}
	}
	if why != "" {
		if q.tries < 2 {
			if a.err == nil {
				q.msgs = append(q.msgs, Message{Role: "assistant", Content: a.content}, Message{Role: "user", Content: retryPrompt(why)})
			}
			p.ask(ctx, answers)
			return
		}
		p.log.Info("no usable reply; the default applies at the timer", "step", p.rec.state.Step)
		p.handled, p.q = q.key, nil
		return
	}
	p.handled, p.q = q.key, nil
	p.todo, p.todoKey = plan, q.key
	p.advance()
}

// advance sends the answer's requests in order. After a message it waits
// for the message's answer: a message and the commands sent with it would
// reach the table in one change, whose events are told before its
// messages, and the seat's stream would depend on timing.
func (p *Player) advance() {
	for len(p.todo) > 0 {
		if p.key() != p.todoKey {
			p.todo = nil // the floor has passed: the rest would be refused
			return
		}
		if w := p.rec.want; w != 0 {
			a, ok := p.rec.acks[w]
			if !ok {
				return
			}
			if !a.ok {
				p.log.Info("the game refused the player's message", "code", a.code)
			}
			delete(p.rec.acks, w)
			p.rec.want = 0
		}
		s := p.todo[0]
		p.todo = p.todo[1:]
		p.nextID++
		var err error
		if s.chat != "" {
			p.rec.want = p.nextID
			err = p.table.Chat(p.nextID, s.channel, s.chat)
		} else {
			err = p.table.Act(p.nextID, s.cmd)
		}
		if err != nil {
			p.log.Warn("the game did not take the player's request", "err", err)
			p.todo, p.rec.want = nil, 0
			return
		}
	}
}

// whisper is a message for the wolves' channel, when the seat may write to
// it now: checked as a speech is, left out when nothing is left of it.
func (p *Player) whisper(text string) string {
	if strings.TrimSpace(text) == "" || !slices.Contains(p.rec.state.Channels, game.ChanWolves) {
		return ""
	}
	ck := p.rec.checkSpeech(text, p.cfg.lang())
	if ck.Neutral {
		return ""
	}
	return ck.Text
}

// step is one request of a plan: a message or a command.
type step struct {
	chat    string
	channel string
	cmd     rules.Command
}

// plan reads a reply into the requests it makes: at the floor the checked
// speech, its claims, then the action (by default the speech's end);
// otherwise the action alone.
func (p *Player) plan(q *question, content string) ([]step, error) {
	r, err := parseReply(content)
	if err != nil {
		return nil, err
	}
	var act *rules.Command
	if r.Action != nil && r.Action.Cmd != "" {
		c, err := command(r.Action, q.acts)
		if err != nil {
			return nil, err
		}
		act = &c
	} else if !q.floor {
		return nil, errors.New(`the reply has no "action"`)
	}
	if !q.floor {
		var out []step
		if w := p.whisper(r.Whisper); w != "" {
			out = append(out, step{chat: w, channel: game.ChanWolves})
		}
		return append(out, step{cmd: *act}), nil
	}
	var out []step
	said := ""
	if strings.TrimSpace(r.Speech) != "" {
		ck := p.rec.checkSpeech(r.Speech, p.cfg.lang())
		if len(ck.Dropped) > 0 {
			p.log.Info("the speech was corrected before it was said", "left_out", strings.Join(ck.Dropped, "; "), "neutral", ck.Neutral)
		}
		if slices.Contains(p.rec.state.Channels, game.ChanDay) {
			out = append(out, step{chat: ck.Text, channel: game.ChanDay})
		}
		if !ck.Neutral {
			said = ck.Text
		}
	}
	n := 0
	seen := map[rules.Command]bool{}
	for _, cl := range append(slices.Clone(r.Claims), spokenClaims(said)...) {
		c, ok := p.rec.claimCommand(cl, q.claims)
		if !ok || seen[c] || n == rules.MaxClaims {
			continue
		}
		seen[c] = true
		n++
		out = append(out, step{cmd: c})
	}
	end := rules.Command{Kind: rules.CmdSkip}
	if act != nil {
		out = append(out, step{cmd: *act})
		if act.Kind == rules.CmdSkip || act.Kind == rules.CmdExplode || act.Kind == rules.CmdDuel {
			return out, nil
		}
	}
	if slices.ContainsFunc(q.acts, func(c game.ChoiceJSON) bool { return c.Cmd == end.Kind.String() }) {
		out = append(out, step{cmd: end})
	}
	return out, nil
}
