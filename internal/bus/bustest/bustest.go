// Package bustest is the contract of bus.Bus as tests, run by every
// adapter's own tests: Run(t, bustest.Adapter{…}). What only one adapter
// has (a NATS server shut down under its clients) stays in that adapter's
// tests.
package bustest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/bus"
)

// Adapter is what the suite needs to know of an adapter.
type Adapter struct {
	// NewNetwork makes a new bus (a server, a hub) and returns how to
	// connect a node to it; each connection is closed when t ends (a test
	// may close it sooner: a second Close is then ignored).
	NewNetwork func(t testing.TB) (connect func(t testing.TB) bus.Bus)
}

// Run runs the contract's tests on a.
func Run(t *testing.T, a Adapter) {
	tests := []struct {
		name string
		run  func(connect func(testing.TB) bus.Bus, t *testing.T)
	}{
		{"PublishReachesOnlySubscribersOfThatSubject", testPublishReachesOnlyItsSubject},
		{"WildcardsAndBadSubjectsAreRefused", testBadSubjects},
		{"DeliveriesKeepThePublishersOrder", testOrder},
		{"PublishedDataIsCopied", testDataCopied},
		{"RequestGetsTheOwnersReply", testRequestReply},
		{"ReplyMayComeFromAnotherGoroutine", testLateReply},
		{"RequestWithNoSubscriberIsNoResponders", testNoResponders},
		{"UnansweredRequestTimesOut", testTimeout},
		{"RespondToAPublishIsRefused", testRespondToPublish},
		{"UnsubscribeStopsDeliveries", testUnsubscribe},
		{"ClosedBusRefusesCalls", testClosed},
		{"CloseFailsTheRequestsWaiting", testCloseFailsWaitingRequests},
		{"ConcurrentRequestsFromManyNodes", testConcurrentRequests},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) { c.run(a.NewNetwork(t), t) })
	}
}

// waitTimeout bounds every wait of the suite on a state; a test that
// reaches it has failed, it is never how a test passes.
const waitTimeout = 30 * time.Second

// recorder keeps what a subscription received.
type recorder struct {
	mu   sync.Mutex
	msgs []bus.Msg
	more chan struct{}
}

func newRecorder() *recorder { return &recorder{more: make(chan struct{}, 1)} }

func (r *recorder) handle(m bus.Msg) {
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
	select {
	case r.more <- struct{}{}:
	default:
	}
}

func (r *recorder) data() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var d []string
	for _, m := range r.msgs {
		d = append(d, string(m.Data))
	}
	return d
}

// waitFor waits until r holds n messages, and fails t if it does not.
func (r *recorder) waitFor(t testing.TB, n int) []string {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		if d := r.data(); len(d) >= n {
			return d
		}
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("waiting for %d messages, got %q", n, r.data())
		}
	}
}

func subscribe(t testing.TB, b bus.Bus, subject string, h bus.Handler) bus.Subscription {
	t.Helper()
	s, err := b.Subscribe(subject, h)
	if err != nil {
		t.Fatalf("subscribe %q: %v", subject, err)
	}
	return s
}

func publish(t testing.TB, b bus.Bus, subject, data string) {
	t.Helper()
	if err := b.Publish(context.Background(), subject, []byte(data)); err != nil {
		t.Fatalf("publish %q: %v", subject, err)
	}
}

func subjects(t testing.TB, room string, seats ...int) (cmd, all string, seat []string) {
	t.Helper()
	var err error
	if cmd, err = bus.Commands(room); err != nil {
		t.Fatal(err)
	}
	if all, err = bus.Conn(room, "all"); err != nil {
		t.Fatal(err)
	}
	for _, s := range seats {
		sub, err := bus.Conn(room, fmt.Sprintf("seat%d", s))
		if err != nil {
			t.Fatal(err)
		}
		seat = append(seat, sub)
	}
	return cmd, all, seat
}

// testPublishReachesOnlyItsSubject: node A holds seat 1's connection, node
// B seat 2's; both hold the room. A seat's frame reaches the node of that
// seat only, the room's frames both, and neither a subject that merely
// begins like another nor another room's reaches them. Each subscription's
// last message is published after what it must not receive, so that its
// arrival shows the rest would have come first.
func testPublishReachesOnlyItsSubject(connect func(testing.TB) bus.Bus, t *testing.T) {
	owner, a, b := connect(t), connect(t), connect(t)
	_, all, seats := subjects(t, "r1", 1, 2, 10)
	_, otherAll, _ := subjects(t, "r2")
	aAll, aSeat, bAll, bSeat := newRecorder(), newRecorder(), newRecorder(), newRecorder()
	subscribe(t, a, all, aAll.handle)
	subscribe(t, a, seats[0], aSeat.handle)
	subscribe(t, b, all, bAll.handle)
	subscribe(t, b, seats[1], bSeat.handle)

	publish(t, owner, seats[0], "to seat 1")
	publish(t, owner, seats[1], "to seat 2")
	publish(t, owner, seats[2], "to seat 10")
	publish(t, owner, otherAll, "room r2")
	publish(t, owner, "wolfden.room.r1", "the room's prefix")
	publish(t, owner, all, "to all")
	publish(t, owner, seats[0], "seat 1 again")
	publish(t, owner, seats[1], "seat 2 again")

	want := map[string][]string{
		"a's room":   {"to all"},
		"a's seat 1": {"to seat 1", "seat 1 again"},
		"b's room":   {"to all"},
		"b's seat 2": {"to seat 2", "seat 2 again"},
	}
	got := map[string][]string{
		"a's room":   aAll.waitFor(t, 1),
		"a's seat 1": aSeat.waitFor(t, 2),
		"b's room":   bAll.waitFor(t, 1),
		"b's seat 2": bSeat.waitFor(t, 2),
	}
	// A last message on each room subscription, so that one more that came
	// with "to all" would show.
	publish(t, owner, all, "end")
	got["a's room"] = aAll.waitFor(t, 2)[:1]
	got["b's room"] = bAll.waitFor(t, 2)[:1]
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("%s received %q, want %q", k, got[k], w)
		}
	}
	for _, r := range []*recorder{aAll, aSeat, bAll, bSeat} {
		for _, m := range r.msgs {
			if m.Respond(nil) == nil {
				t.Errorf("a published message on %s can be answered", m.Subject)
			}
		}
	}
}

func testBadSubjects(connect func(testing.TB) bus.Bus, t *testing.T) {
	b := connect(t)
	nop := func(bus.Msg) {}
	for _, s := range []string{"", "wolfden.room.*", "wolfden.room.>", "wolfden.room.r1.seat.*", "wolfden..r1", "wolfden.room r1", "wolfden.room.r1."} {
		if _, err := b.Subscribe(s, nop); !errors.Is(err, bus.ErrSubject) {
			t.Errorf("subscribe %q: %v, want bus.ErrSubject", s, err)
		}
		if err := b.Publish(context.Background(), s, nil); !errors.Is(err, bus.ErrSubject) {
			t.Errorf("publish %q: %v, want bus.ErrSubject", s, err)
		}
		if _, err := b.Request(context.Background(), s, nil); !errors.Is(err, bus.ErrSubject) {
			t.Errorf("request %q: %v, want bus.ErrSubject", s, err)
		}
	}
}

func testOrder(connect func(testing.TB) bus.Bus, t *testing.T) {
	pub, recv := connect(t), connect(t)
	_, all, _ := subjects(t, "r1")
	r := newRecorder()
	subscribe(t, recv, all, r.handle)
	const n = 2000
	var want []string
	for i := range n {
		want = append(want, fmt.Sprint(i))
		publish(t, pub, all, want[i])
	}
	if got := r.waitFor(t, n); !slices.Equal(got, want) {
		t.Fatalf("the messages came out of order or changed (first 10: %q)", got[:10])
	}
}

func testDataCopied(connect func(testing.TB) bus.Bus, t *testing.T) {
	pub, recv := connect(t), connect(t)
	_, all, _ := subjects(t, "r1")
	r := newRecorder()
	subscribe(t, recv, all, r.handle)
	buf := []byte("first")
	if err := pub.Publish(context.Background(), all, buf); err != nil {
		t.Fatal(err)
	}
	copy(buf, "XXXXX")
	if got := r.waitFor(t, 1); got[0] != "first" {
		t.Fatalf("received %q after the sender reused its buffer", got[0])
	}
}

// echo answers each request on subject with "re:" and its data.
func echo(t testing.TB, b bus.Bus, subject string) bus.Subscription {
	return subscribe(t, b, subject, func(m bus.Msg) {
		if err := m.Respond(append([]byte("re:"), m.Data...)); err != nil {
			t.Errorf("respond: %v", err)
		}
	})
}

func request(ctx context.Context, b bus.Bus, subject, data string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	r, err := b.Request(ctx, subject, []byte(data))
	return string(r), err
}

func testRequestReply(connect func(testing.TB) bus.Bus, t *testing.T) {
	owner, node := connect(t), connect(t)
	cmd, _, _ := subjects(t, "r1")
	echo(t, owner, cmd)
	for i := range 5 {
		got, err := request(context.Background(), node, cmd, fmt.Sprint("vote ", i))
		if err != nil || got != fmt.Sprint("re:vote ", i) {
			t.Fatalf("request %d: %q, %v", i, got, err)
		}
	}
	// Another room's owner does not answer for r1.
	cmd2, _, _ := subjects(t, "r2")
	if _, err := request(context.Background(), node, cmd2, "x"); !errors.Is(err, bus.ErrNoResponders) {
		t.Fatalf("a room nobody owns: %v", err)
	}
}

// testLateReply: the owner answers once its game has taken the command,
// from the game's goroutine, not the bus's.
func testLateReply(connect func(testing.TB) bus.Bus, t *testing.T) {
	owner, node := connect(t), connect(t)
	cmd, _, _ := subjects(t, "r1")
	taken := make(chan bus.Msg, 1)
	subscribe(t, owner, cmd, func(m bus.Msg) { taken <- m })
	go func() {
		m := <-taken
		m.Respond([]byte("done"))
		m.Respond([]byte("a second answer")) // dropped
	}()
	if got, err := request(context.Background(), node, cmd, "x"); err != nil || got != "done" {
		t.Fatalf("%q, %v", got, err)
	}
}

func testNoResponders(connect func(testing.TB) bus.Bus, t *testing.T) {
	node := connect(t)
	cmd, _, _ := subjects(t, "nobody")
	// The deadline is far: the answer must not be the timeout.
	if _, err := request(context.Background(), node, cmd, "x"); !errors.Is(err, bus.ErrNoResponders) || errors.Is(err, bus.ErrTimeout) {
		t.Fatalf("got %v, want bus.ErrNoResponders", err)
	}
}

func testTimeout(connect func(testing.TB) bus.Bus, t *testing.T) {
	owner, node := connect(t), connect(t)
	cmd, _, _ := subjects(t, "r1")
	heard := newRecorder()
	subscribe(t, owner, cmd, heard.handle) // never answers
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := node.Request(ctx, cmd, []byte("x"))
	if !errors.Is(err, bus.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want bus.ErrTimeout wrapping the deadline", err)
	}
	heard.waitFor(t, 1)
	// A context already done is refused before anything is sent.
	if _, err := node.Request(ctx, cmd, []byte("y")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a done context: %v", err)
	}
}

func testRespondToPublish(connect func(testing.TB) bus.Bus, t *testing.T) {
	a, b := connect(t), connect(t)
	_, all, _ := subjects(t, "r1")
	r := newRecorder()
	subscribe(t, b, all, r.handle)
	publish(t, a, all, "x")
	r.waitFor(t, 1)
	if err := r.msgs[0].Respond([]byte("y")); !errors.Is(err, bus.ErrNoReply) {
		t.Fatalf("got %v, want bus.ErrNoReply", err)
	}
}

func testUnsubscribe(connect func(testing.TB) bus.Bus, t *testing.T) {
	pub, a, b := connect(t), connect(t), connect(t)
	cmd, all, _ := subjects(t, "r1")
	ra, rb := newRecorder(), newRecorder()
	sa := subscribe(t, a, all, ra.handle)
	subscribe(t, b, all, rb.handle)
	publish(t, pub, all, "1")
	ra.waitFor(t, 1)
	rb.waitFor(t, 1)
	if err := sa.Unsubscribe(); err != nil {
		t.Fatal(err)
	}
	publish(t, pub, all, "2")
	rb.waitFor(t, 2) // published after the unsubscribe, so a's would be in by now
	if got := ra.data(); !slices.Equal(got, []string{"1"}) {
		t.Fatalf("after Unsubscribe a received %q", got)
	}
	if err := sa.Unsubscribe(); !errors.Is(err, bus.ErrClosed) {
		t.Fatalf("a second Unsubscribe: %v", err)
	}
	// The owner that lets a game go stops answering for it.
	s := echo(t, a, cmd)
	if _, err := request(context.Background(), pub, cmd, "x"); err != nil {
		t.Fatal(err)
	}
	if err := s.Unsubscribe(); err != nil {
		t.Fatal(err)
	}
	if _, err := request(context.Background(), pub, cmd, "x"); !errors.Is(err, bus.ErrNoResponders) {
		t.Fatalf("after the owner's Unsubscribe: %v", err)
	}
}

func testClosed(connect func(testing.TB) bus.Bus, t *testing.T) {
	owner, node := connect(t), connect(t)
	cmd, all, _ := subjects(t, "r1")
	echo(t, owner, cmd)
	if err := owner.Ready(); err != nil {
		t.Fatalf("ready before close: %v", err)
	}
	if err := owner.Close(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for name, err := range map[string]error{
		"Publish": owner.Publish(ctx, all, nil),
		"Request": func() error { _, err := owner.Request(ctx, cmd, nil); return err }(),
		"Subscribe": func() error {
			_, err := owner.Subscribe(all, func(bus.Msg) {})
			return err
		}(),
		"Ready": owner.Ready(),
		"Close": owner.Close(),
	} {
		if !errors.Is(err, bus.ErrClosed) {
			t.Errorf("%s after Close: %v, want bus.ErrClosed", name, err)
		}
	}
	// Its subscriptions went with it: the server may take a moment to
	// notice a closed connection, so wait for that state.
	deadline := time.Now().Add(waitTimeout)
	for {
		rctx, cancel := context.WithTimeout(ctx, time.Second)
		_, err := node.Request(rctx, cmd, nil)
		cancel()
		if errors.Is(err, bus.ErrNoResponders) {
			break
		}
		if err == nil {
			t.Fatal("a closed node answered a request")
		}
		if time.Now().After(deadline) {
			t.Fatalf("the closed node's subscription is still heard: %v", err)
		}
	}
}

// testCloseFailsWaitingRequests: a node that closes its bus (it stops)
// does not leave its requests waiting for their deadlines.
func testCloseFailsWaitingRequests(connect func(testing.TB) bus.Bus, t *testing.T) {
	owner, node := connect(t), connect(t)
	cmd, _, _ := subjects(t, "r1")
	heard := newRecorder()
	subscribe(t, owner, cmd, heard.handle) // never answers
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	waiting := make(chan error, 1)
	go func() {
		_, err := node.Request(ctx, cmd, []byte("x"))
		waiting <- err
	}()
	heard.waitFor(t, 1)
	node.Close()
	select {
	case err := <-waiting:
		if !errors.Is(err, bus.ErrClosed) {
			t.Fatalf("got %v, want bus.ErrClosed", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("the request is still waiting after Close")
	}
}

func testConcurrentRequests(connect func(testing.TB) bus.Bus, t *testing.T) {
	const rooms, nodes, each = 4, 3, 50
	owner := connect(t)
	for r := range rooms {
		cmd, _, _ := subjects(t, fmt.Sprint("r", r))
		echo(t, owner, cmd)
	}
	var wg sync.WaitGroup
	for range nodes {
		n := connect(t)
		for r := range rooms {
			cmd, _, _ := subjects(t, fmt.Sprint("r", r))
			wg.Go(func() {
				for i := range each {
					want := fmt.Sprintf("re:%d/%d", r, i)
					got, err := request(context.Background(), n, cmd, want[3:])
					if err != nil || got != want {
						t.Errorf("got %q, %v, want %q", got, err, want)
						return
					}
				}
			})
		}
	}
	wg.Wait()
}

// BenchmarkRequestReply measures one command's round trip from a node to
// a game's owner on another connection.
func BenchmarkRequestReply(b *testing.B, a Adapter) {
	connect := a.NewNetwork(b)
	owner, node := connect(b), connect(b)
	cmd, err := bus.Commands("bench")
	if err != nil {
		b.Fatal(err)
	}
	echo(b, owner, cmd)
	data := make([]byte, 200) // about a command's size
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := node.Request(ctx, cmd, data); err != nil {
			b.Fatal(err)
		}
	}
}
