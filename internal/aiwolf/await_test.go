package aiwolf

import (
	"testing"
	"time"

	"github.com/coder/websocket"
)

// A seat's request is answered by the reader, with the agent's reply;
// and a sender whose table ended while a request awaited its reply ends
// when the reply comes, having sent what was queued behind it.
func TestASendersRequestIsAnsweredByTheReader(t *testing.T) {
	ctx, agent, c := connected(t, nil)

	g := &Gateway{opts: Options{ActionTimeout: time.Minute, Acceptable: time.Second}}
	tb := &table{g: g, ended: make(chan struct{}), box: mailbox{ready: make(chan struct{}, 1)}}
	s := &seat{t: tb, no: 1, c: c, wake: make(chan struct{}, 1)}
	done := make(chan struct{})
	go func() { s.send(); close(done) }()

	read := func(want string) {
		t.Helper()
		_, got, err := agent.Read(ctx)
		if err != nil || string(got) != want {
			t.Fatalf("the agent read %q (%v), want %q", got, err, want)
		}
	}
	// reply sends the agent's frame; the table is told want as the reply
	// to req.
	reply := func(frame, want, req string) {
		t.Helper()
		if err := agent.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
			t.Fatal(err)
		}
		for {
			select {
			case <-tb.box.ready:
			case <-ctx.Done():
				t.Fatalf("no report of the reply %q", want)
			}
			for _, m := range tb.box.take(nil) {
				if r := m.rep; r != nil {
					if r.err != nil || r.reply != want || r.out.req != req {
						t.Fatalf("the report is %+v, want the reply %q to %s", r, want, req)
					}
					return
				}
			}
		}
	}

	vote := `{"request":"VOTE"}`
	s.enqueue(&outgoing{req: ReqVote, body: []byte(vote)})
	read(vote)
	reply("Agent[03]\n", "Agent[03]", ReqVote) // its "\n" deleted

	// A second request waits behind the first, and goes out after its
	// reply.
	talk, whisper := `{"request":"TALK"}`, `{"request":"WHISPER"}`
	s.enqueue(&outgoing{req: ReqTalk, body: []byte(talk)})
	s.enqueue(&outgoing{req: ReqWhisper, body: []byte(whisper)})
	read(talk)
	reply("Over", "Over", ReqTalk)
	read(whisper)

	// The table ends while the request awaits its reply, with nothing
	// queued behind it: the sender ends once the reply comes.
	close(tb.ended)
	reply("Skip", "Skip", ReqWhisper)
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the sender did not end with its table")
	}
	if n := c.asking.Load(); n != 0 {
		t.Errorf("%d requests are still counted as awaiting a reply", n)
	}
}
