package client

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/bot"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// Hooks are what PlayHooked tells its caller and waits for. Every field may
// be nil.
type Hooks struct {
	// Frame sees every frame received; true stops the play, as
	// PlayRandom's stop.
	Frame func(Frame) bool
	// Before runs before a command is chosen for a pending state, and the
	// command waits for it: a test holds a table still while it kills a
	// node. Its error ends the play.
	Before func(ctx context.Context, state Frame) error
	// Sent is told every command as it is sent, Acked every one the
	// server acknowledged, each with the connection's seat: the cluster's
	// tests look for each in the stored game (an acknowledged command must
	// be there, a command must not be there twice).
	Sent, Acked func(rules.Command)
	// Avoid lists kinds of command never chosen (claims never are): the
	// cluster's tests leave out the wolves' self-explosion (自爆), with
	// which random wolves end a game before its first vote.
	Avoid []rules.CmdKind
	// Resumed are the commands an earlier connection left unanswered
	// (Stats.Unanswered), named in this one's hello (Resume.Pending): the
	// acks this connection gets for them are told to Acked.
	Resumed []Unanswered
}

// Unanswered is a command sent on a connection that ended before its
// answer came.
type Unanswered struct {
	ID  int64
	Cmd rules.Command
}

// Pending is the ids of us, for the next connection's hello.
func Pending(us []Unanswered) []int64 {
	ids := make([]int64, len(us))
	for i, u := range us {
		ids[i] = u.ID
	}
	return ids
}

// PlayHooked plays the seat as PlayRandom does, telling h what it does.
// A command that could not be sent ends the play with ErrClosed, once the
// connection has ended (so that CloseStatus is known): the caller dials
// again.
func (c *Conn) PlayHooked(ctx context.Context, r *rand.Rand, h Hooks) (st Stats, err error) {
	// Ids unique within the seat's game, across its connections: the
	// server acks a resumed command by its id. Not drawn from r, whose
	// choices a test may replay.
	id := rand.Int64N(1 << 50)
	var inFlight bool
	var cmd rules.Command
	resumed := slices.Clone(h.Resumed)
	defer func() {
		if errors.Is(err, ErrClosed) {
			if inFlight {
				resumed = append(resumed, Unanswered{ID: id, Cmd: cmd})
			}
			st.Unanswered = resumed[max(0, len(resumed)-wire.MaxPending):]
		}
	}()
	var sent time.Time
	var last *Frame // the latest state: it may come before the ack of the command that led to it
	act := func() error {
		if last == nil || !last.Pending || inFlight {
			return nil
		}
		if h.Before != nil {
			if err := h.Before(ctx, *last); err != nil {
				return err
			}
		}
		var pool []rules.Choice
		for _, j := range last.Choices {
			ch, err := choice(j)
			if err != nil {
				return err
			}
			if ch.Kind != rules.CmdClaim && !slices.Contains(h.Avoid, ch.Kind) {
				pool = append(pool, ch)
			}
		}
		cmd = rules.Command{Kind: rules.CmdSkip}
		if len(pool) > 0 {
			cmd = bot.RandomCommand(r, pool[r.IntN(len(pool))])
		}
		cmd.Seat = c.Seat
		id++
		inFlight, sent, last = true, time.Now(), nil
		if h.Sent != nil {
			h.Sent(cmd)
		}
		if err := c.Send(ctx, Act(id, cmd)); err != nil {
			c.drain(ctx)
			return fmt.Errorf("%w (sending: %v)", ErrClosed, err)
		}
		return nil
	}
	for {
		var f Frame
		var ok bool
		select {
		case f, ok = <-c.Frames:
		case <-ctx.Done():
			return st, ctx.Err()
		}
		if !ok {
			return st, fmt.Errorf("%w (%v)", ErrClosed, c.err)
		}
		st.Frames++
		if h.Frame != nil && h.Frame(f) {
			return st, nil
		}
		switch f.Type {
		case "ack":
			if inFlight && f.ID == id {
				inFlight = false
				st.Latencies = append(st.Latencies, time.Since(sent))
				st.Commands++
				if h.Acked != nil {
					h.Acked(cmd)
				}
			} else if i := slices.IndexFunc(resumed, func(u Unanswered) bool { return u.ID == f.ID }); i >= 0 {
				if h.Acked != nil { // taken before the last connection ended
					h.Acked(resumed[i].Cmd)
				}
				resumed = slices.Delete(resumed, i, i+1)
			}
		case "error":
			if f.Code == "bad_frame" {
				return st, fmt.Errorf("client: %s", f.Message)
			}
			if f.ID != id {
				continue
			}
			inFlight = false // act again only on a state newer than the refused command
		case "state":
			if f.Over {
				st.Winner = f.Winner
				return st, nil
			}
			last = &f
		default:
			continue
		}
		if err := act(); err != nil {
			return st, err
		}
	}
}

// drain reads what is left until the connection ends.
func (c *Conn) drain(ctx context.Context) {
	for {
		select {
		case _, ok := <-c.Frames:
			if !ok {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// CloseStatus says how the connection ended, once Frames is closed: the
// code and reason of the server's close frame, or -1 and "" when none came
// (the server's process died, the network dropped, Kill). A node closes a
// connection whose game moved to another node with 1012 (service restart)
// and the reason "moved" (docs/cluster.md).
func (c *Conn) CloseStatus() (websocket.StatusCode, string) {
	var ce websocket.CloseError
	if errors.As(c.err, &ce) {
		return ce.Code, ce.Reason
	}
	return -1, ""
}
