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
	reportOf := func() *report {
		t.Helper()
		for {
			select {
			case <-tb.box.ready:
			case <-ctx.Done():
				t.Fatal("no report came")
			}
			for _, m := range tb.box.take(nil) {
				if m.rep != nil {
					return m.rep
				}
			}
		}
	}

	vote := `{"request":"VOTE"}`
	s.enqueue(&outgoing{req: ReqVote, body: []byte(vote)})
	read(vote)
	if err := agent.Write(ctx, websocket.MessageText, []byte("Agent[03]\n")); err != nil {
		t.Fatal(err)
	}
	if r := reportOf(); r.err != nil || r.reply != "Agent[03]" || r.out.req != ReqVote {
		t.Fatalf("the report is %+v, want the reply Agent[03] to VOTE", r)
	}

	// A second request waits behind the first, and goes out after its
	// reply.
	talk, whisper := `{"request":"TALK"}`, `{"request":"WHISPER"}`
	s.enqueue(&outgoing{req: ReqTalk, body: []byte(talk)})
	s.enqueue(&outgoing{req: ReqWhisper, body: []byte(whisper)})
	read(talk)
	if err := agent.Write(ctx, websocket.MessageText, []byte("Over")); err != nil {
		t.Fatal(err)
	}
	if r := reportOf(); r.err != nil || r.reply != "Over" || r.out.req != ReqTalk {
		t.Fatalf("the report is %+v, want the reply Over to TALK", r)
	}
	read(whisper)

	// The table ends while the request awaits its reply, with nothing
	// queued behind it: the sender ends once the reply comes.
	close(tb.ended)
	if err := agent.Write(ctx, websocket.MessageText, []byte("Skip")); err != nil {
		t.Fatal(err)
	}
	if r := reportOf(); r.err != nil || r.reply != "Skip" || r.out.req != ReqWhisper {
		t.Fatalf("the report is %+v, want the reply Skip to WHISPER", r)
	}
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the sender did not end with its table")
	}
	if n := c.asking.Load(); n != 0 {
		t.Errorf("%d requests are still counted as awaiting a reply", n)
	}
}
