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
}

// PlayHooked plays the seat as PlayRandom does, telling h what it does.
// A command that could not be sent ends the play with ErrClosed, once the
// connection has ended (so that CloseStatus is known): the caller dials
// again.
func (c *Conn) PlayHooked(ctx context.Context, r *rand.Rand, h Hooks) (Stats, error) {
	var st Stats
	var id int64
	var inFlight bool
	var cmd rules.Command
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
