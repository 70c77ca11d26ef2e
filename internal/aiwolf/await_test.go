package aiwolf

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// awaitTable is a table of one seat on c, for the tests of its requests.
func awaitTable(c *conn, opts Options) (*table, *seat) {
	tb := &table{g: &Gateway{opts: opts}, ended: make(chan struct{}), box: mailbox{ready: make(chan struct{}, 1)}}
	s := &seat{t: tb, no: 1, c: c}
	tb.seats = []*seat{nil, s}
	return tb, s
}

// nextMail waits for the table's next mail that ok accepts.
func nextMail(ctx context.Context, t *testing.T, tb *table, ok func(*mail) bool) *mail {
	t.Helper()
	for {
		for _, m := range tb.box.take(nil) {
			if ok(&m) {
				return &m
			}
		}
		select {
		case <-tb.box.ready:
		case <-ctx.Done():
			t.Fatal("the table was never told")
		}
	}
}

func isReport(m *mail) bool { return m.rep != nil }

// agentReads fails unless the agent's next frame is want.
func agentReads(ctx context.Context, t *testing.T, agent *websocket.Conn, want string) {
	t.Helper()
	_, got, err := agent.Read(ctx)
	if err != nil || string(got) != want {
		t.Fatalf("the agent read %q (%v), want %q", got, err, want)
	}
}

// A seat's request is answered by the connection's reader, with the
// agent's reply; a request queued behind it goes out only after that
// reply.
func TestASeatsRequestIsAnsweredByTheReader(t *testing.T) {
	ctx, agent, c := connected(t, nil)
	tb, s := awaitTable(c, Options{ActionTimeout: time.Minute, Acceptable: time.Second})

	// reply sends the agent's frame; the table is told want as the reply
	// to req.
	reply := func(frame, want, req string) {
		t.Helper()
		if err := agent.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
			t.Fatal(err)
		}
		r := nextMail(ctx, t, tb, isReport).rep
		if r.err != nil || r.reply != want || r.out.req != req {
			t.Fatalf("the report is %+v, want the reply %q to %s", r, want, req)
		}
	}

	vote := `{"request":"VOTE"}`
	s.enqueue(&outgoing{req: ReqVote, body: []byte(vote)})
	tb.flushSeats()
	agentReads(ctx, t, agent, vote)
	reply("Agent[03]\n", "Agent[03]", ReqVote) // its "\n" deleted

	talk, whisper := `{"request":"TALK"}`, `{"request":"WHISPER"}`
	s.enqueue(&outgoing{req: ReqTalk, body: []byte(talk)})
	s.enqueue(&outgoing{req: ReqWhisper, body: []byte(whisper)})
	tb.flushSeats()
	agentReads(ctx, t, agent, talk)
	if len(s.queue) != 1 {
		t.Fatalf("%d packets queued while the TALK awaits its reply, want the WHISPER", len(s.queue))
	}
	tb.flushSeats() // the reply has not come: nothing goes out
	reply("Over", "Over", ReqTalk)
	tb.flushSeats()
	agentReads(ctx, t, agent, whisper)
	reply("Skip", "Skip", ReqWhisper)
	if n := c.asking.Load(); n != 0 {
		t.Errorf("%d requests are still counted as awaiting a reply", n)
	}
}

// A request that times out is reported as such, and the NAME probe
// follows it; nothing else is sent to the seat until the probe ends, and
// the reply that comes late is the probe's, never a later request's.
func TestATimedOutRequestHoldsTheSeatUntilItsProbeEnds(t *testing.T) {
	ctx, agent, c := connected(t, nil)
	c.name = "kanolab1"
	tb, s := awaitTable(c, Options{ActionTimeout: time.Millisecond, ResponseTimeout: time.Minute})

	vote := `{"request":"VOTE"}`
	s.enqueue(&outgoing{req: ReqVote, body: []byte(vote)})
	tb.flushSeats()
	agentReads(ctx, t, agent, vote)
	if r := nextMail(ctx, t, tb, isReport).rep; r.err != errTimeout {
		t.Fatalf("the report is %+v, want a timeout", r)
	}
	agentReads(ctx, t, agent, string(namePacket))

	divine := `{"request":"DIVINE"}`
	s.enqueue(&outgoing{req: ReqDivine, body: []byte(divine)})
	tb.flushSeats()
	if len(s.queue) != 1 {
		t.Fatalf("the DIVINE went out during the probe")
	}
	for _, frame := range []string{"Agent[02]", "kanolab1"} { // the late vote, then the name
		if err := agent.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
			t.Fatal(err)
		}
	}
	if p := nextMail(ctx, t, tb, func(m *mail) bool { return m.probe != nil || m.rep != nil }); p.probe == nil || !p.probe.ok {
		t.Fatalf("the probe's outcome is %+v, want the name in time", p)
	}
	s.probed()
	// The DIVINE waits for its reply: a millisecond was all a loaded
	// machine took to have it time out as well.
	tb.g.opts.ActionTimeout = time.Minute
	tb.flushSeats()
	agentReads(ctx, t, agent, divine)
	if err := agent.Write(ctx, websocket.MessageText, []byte("Agent[04]")); err != nil {
		t.Fatal(err)
	}
	if r := nextMail(ctx, t, tb, isReport).rep; r.err != nil || r.reply != "Agent[04]" || r.out.req != ReqDivine {
		t.Fatalf("the DIVINE's report is %+v", r)
	}
}
