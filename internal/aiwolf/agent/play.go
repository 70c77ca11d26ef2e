package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/coder/websocket"
)

// Options configure an agent. The zero value but a Name is a well-behaved
// agent; the misbehaviours are for the gateway's tests.
type Options struct {
	// Name answers NAME; its team is the name without trailing digits.
	Name string
	// Seed makes every choice; one seed and one game give the same replies.
	Seed uint64
	// Token is sent as "Authorization: Bearer" when the server wants a JWT.
	Token string

	// Silent lists request kinds the agent never answers (the server's
	// timeout must act for it).
	Silent map[string]bool
	// Garbage lists request kinds answered with GarbageText (default: text
	// that is no name and no utterance the protocol knows).
	Garbage     map[string]bool
	GarbageText string
	// DropAfter closes the connection, without a close frame, when the
	// request after this many answered ones arrives (0: never).
	DropAfter int
	// Rejoin makes the agent connect again after a drop, after RejoinDelay,
	// and answer NAME with the same name.
	Rejoin      bool
	RejoinDelay time.Duration
	// Delay is waited before each reply (of the kinds in DelayOn, or every
	// kind when DelayOn is nil).
	Delay   time.Duration
	DelayOn map[string]bool

	// Discard keeps no packets in the Result (long benchmark runs).
	Discard bool
	// Observe, when set, is called after each packet is handled: its
	// request, when it arrived and when the reply was written (zero for a
	// packet without reply).
	Observe func(request string, received, replied time.Time)
}

// Result is what an agent's game came to.
type Result struct {
	Name   string // the name it gave
	Agent  string // its in-game name (Agent[03] or a profile name)
	GameID string
	Role   string
	// Winner is derived from FINISH's maps: VILLAGER when no wolf lives,
	// WEREWOLF when the humans (the possessed among them) are no more than
	// the wolves, NONE otherwise (max_day, or a game aborted). "" when no
	// FINISH came.
	Winner   string
	Won      bool
	Finished bool
	Packets  []Packet // every packet received, in order (unless Discard)
	Replies  []string // every reply sent, in order (unless Discard)
	Errors   []error  // undecodable packets and connection failures met on the way
}

// ErrNoName is returned when Options.Name is empty.
var ErrNoName = errors.New("agent: Options.Name is empty")

// Play connects to url, plays one game and returns at FINISH, or when the
// server closes the connection (with an error unless after FINISH), or when
// ctx ends.
func Play(ctx context.Context, url string, opts Options) (Result, error) {
	if opts.Name == "" {
		return Result{}, ErrNoName
	}
	a := &run{opts: opts, s: newState(), res: Result{Name: opts.Name}}
	a.p = &player{s: a.s, rng: rand.New(rand.NewPCG(opts.Seed, 0x61_69_77_6f_6c_66))}
	dropped := false
	for {
		err := a.connect(ctx, url, !dropped)
		if errors.Is(err, errDropped) && !dropped {
			dropped = true
			if !opts.Rejoin {
				a.finish()
				return a.res, nil
			}
			if err := sleep(ctx, opts.RejoinDelay); err != nil {
				return a.done(err)
			}
			continue
		}
		return a.done(err)
	}
}

var errDropped = errors.New("agent: dropped the connection on purpose")

// run is one Play's mutable state.
type run struct {
	opts     Options
	s        *state
	p        *player
	res      Result
	answered int
}

func (a *run) done(err error) (Result, error) {
	a.finish()
	if err != nil {
		a.res.Errors = append(a.res.Errors, err)
	}
	return a.res, err
}

func (a *run) finish() {
	a.res.Agent, a.res.GameID, a.res.Role = a.s.me, a.s.gameID, a.s.role
}

// connect holds one connection until FINISH (nil), a drop on purpose
// (errDropped), or a failure.
func (a *run) connect(ctx context.Context, url string, first bool) error {
	var hdr http.Header
	if a.opts.Token != "" {
		hdr = http.Header{"Authorization": {"Bearer " + a.opts.Token}}
	}
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: hdr})
	if err != nil {
		return fmt.Errorf("agent %s: dial %s: %w", a.opts.Name, url, err)
	}
	defer c.CloseNow()
	// A 13-player day's history runs to tens of kilobytes.
	c.SetReadLimit(4 << 20)
	// The reader runs apart so that pings are answered while the agent
	// waits before a slow reply.
	type frame struct {
		data []byte
		err  error
	}
	frames := make(chan frame, 64)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer close(frames)
		for {
			typ, data, err := c.Read(rctx)
			if err == nil && typ != websocket.MessageText {
				err = fmt.Errorf("a binary frame of %d bytes", len(data))
			}
			select {
			case frames <- frame{data, err}:
			case <-rctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	for f := range frames {
		if f.err != nil {
			if a.res.Finished {
				return nil
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("agent %s: the connection ended before FINISH: %w", a.opts.Name, f.err)
		}
		received := time.Now()
		var pk Packet
		if err := json.Unmarshal(f.data, &pk); err != nil {
			a.res.Errors = append(a.res.Errors, fmt.Errorf("agent %s: undecodable packet %.80q: %w", a.opts.Name, f.data, err))
			continue
		}
		if !a.opts.Discard {
			a.res.Packets = append(a.res.Packets, pk)
		}
		if NeedsReply(pk.Request) && pk.Request != ReqName && a.opts.DropAfter > 0 && a.answered == a.opts.DropAfter && first {
			return errDropped
		}
		reply, ok := a.handle(&pk)
		var replied time.Time
		if ok {
			if d := a.opts.Delay; d > 0 && (a.opts.DelayOn == nil || a.opts.DelayOn[pk.Request]) {
				if err := sleep(ctx, d); err != nil {
					return err
				}
			}
			if !a.opts.Discard {
				a.res.Replies = append(a.res.Replies, reply)
			}
			// The reference Python client ends each reply with a newline,
			// which the server deletes.
			if err := c.Write(ctx, websocket.MessageText, []byte(reply+"\n")); err != nil {
				if a.res.Finished {
					return nil
				}
				return fmt.Errorf("agent %s: write %s reply: %w", a.opts.Name, pk.Request, err)
			}
			replied = time.Now()
			if pk.Request != ReqName {
				a.answered++
			}
		}
		if a.opts.Observe != nil {
			a.opts.Observe(pk.Request, received, replied)
		}
		if pk.Request == ReqFinish {
			c.Close(websocket.StatusNormalClosure, "")
			return nil
		}
	}
	if a.res.Finished {
		return nil
	}
	return fmt.Errorf("agent %s: the connection ended before FINISH", a.opts.Name)
}

// handle folds a packet into the state and returns the reply, if any.
func (a *run) handle(pk *Packet) (string, bool) {
	a.s.update(pk)
	if pk.Request == ReqFinish {
		a.res.Finished = true
		a.res.Winner = winner(a.s.roles, a.s.status)
		a.res.Won = a.res.Winner != NoWinner && a.res.Winner == team(a.s.role)
		a.finish()
		return "", false
	}
	if !NeedsReply(pk.Request) {
		return "", false
	}
	if pk.Request == ReqName {
		return a.opts.Name, true
	}
	if a.opts.Silent[pk.Request] {
		return "", false
	}
	if a.opts.Garbage[pk.Request] {
		if a.opts.GarbageText != "" {
			return a.opts.GarbageText, true
		}
		return "}{\x01 not-an-agent[99] \u202e", true
	}
	var lim LengthSetting
	var remain, remainLength *int
	if pk.Info != nil {
		remain, remainLength = pk.Info.RemainCount, pk.Info.RemainLength
	}
	switch pk.Request {
	case ReqTalk:
		if a.s.setting != nil {
			lim = a.s.setting.Talk.MaxLength
		}
		return a.p.talk(remain, lim, remainLength), true
	case ReqWhisper:
		if a.s.setting != nil {
			lim = a.s.setting.Whisper.MaxLength
		}
		if remain != nil && *remain <= 0 {
			return Over, true
		}
		return a.p.whisper(lim, remainLength), true
	case ReqVote:
		return a.p.voteTarget(), true
	case ReqDivine:
		return a.p.divineTarget(), true
	case ReqGuard:
		return a.p.guardTarget(), true
	case ReqAttack:
		return a.p.attackTarget(), true
	}
	return "", false
}

// team is the camp a role wins with.
func team(role string) string {
	if role == Werewolf || role == Possessed {
		return Werewolf
	}
	return Villager
}

// winner reads the end of a game from FINISH's full role_map and status_map.
func winner(roles, status map[string]string) string {
	wolves, humans := 0, 0
	for n, st := range status {
		if st != Alive {
			continue
		}
		if roles[n] == Werewolf {
			wolves++
		} else {
			humans++
		}
	}
	switch {
	case wolves == 0:
		return Villager
	case humans <= wolves:
		return Werewolf
	}
	return NoWinner
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
