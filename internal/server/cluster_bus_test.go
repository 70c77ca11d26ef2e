package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/wolfden/wolfden/internal/bus"
)

// busLog is every message the nodes put on the bus, as a client of the
// NATS server would read them.
type busLog struct {
	mu   sync.Mutex
	msgs []busMsg
}

type busMsg struct {
	subject string
	data    []byte
}

func (w *busLog) add(subject string, data []byte) {
	w.mu.Lock()
	w.msgs = append(w.msgs, busMsg{subject, slices.Clone(data)})
	w.mu.Unlock()
}

func (w *busLog) all() []busMsg {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.msgs)
}

// busTap is a node's connection to the bus, under its sealing, that logs
// what the node sends: published messages, requests and replies.
type busTap struct {
	bus.Bus
	log *busLog
}

func (w *busTap) Publish(ctx context.Context, subject string, data []byte) error {
	w.log.add(subject, data)
	return w.Bus.Publish(ctx, subject, data)
}

func (w *busTap) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	w.log.add(subject, data)
	return w.Bus.Request(ctx, subject, data)
}

func (w *busTap) Subscribe(subject string, h bus.Handler) (bus.Subscription, error) {
	return w.Bus.Subscribe(subject, func(m bus.Msg) {
		h(bus.NewMsg(m.Subject, m.Data, func(data []byte) error {
			w.log.add("reply to "+m.Subject, data)
			return m.Respond(data)
		}))
	})
}

// readable is what a reader of the bus makes of a message: its bytes, and
// if it is a request or an answer, what they carry (a WebSocket message,
// a body) decoded.
func readable(data []byte) [][]byte {
	out := [][]byte{data}
	var e envelope
	if json.Unmarshal(data, &e) == nil {
		out = append(out, e.Data)
	}
	var a answer
	if json.Unmarshal(data, &a) == nil {
		out = append(out, a.Body)
	}
	return out
}

// TestClusterBusCarriesNoTokenAndTakesNoForgery: a game whose room is
// made on one node, its seats taken, started and played through the two
// others, puts on the bus not one seat's token nor the host's, in any
// message, nor the game's frames in clear; a client of the bus without the
// cluster's secret, holding the host's token, sends the owner a pause of
// the game and is not answered (the request refused, the game not
// paused); a request a node sent, captured and sent again, is refused too.
func TestClusterBusCarriesNoTokenAndTakesNoForgery(t *testing.T) {
	c := newTestCluster(t)
	c.wire = &busLog{}
	nodes := []*clusterNode{c.node(t, "a"), c.node(t, "b"), c.node(t, "c")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	room, players := clusterTable(ctx, t, nodes, map[string]any{"preset": "std-9", "seed": 8, "practice": true, "timers": quick})
	id := room.Room.ID
	own := owner(t, id, nodes...)
	cmd, err := bus.Commands(id)
	if err != nil {
		t.Fatal(err)
	}

	// A forger on the bus, who knows the host's token.
	raw := c.hub.Connect()
	defer raw.Close()
	forged, _ := json.Marshal(envelope{Op: "http", Method: "POST", URL: "/api/rooms/" + id + "/pause", Addr: "203.0.113.9",
		Header: http.Header{"Authorization": {"Bearer " + room.HostToken}}})
	ask := func(data []byte) error {
		rctx, rcancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer rcancel()
		a, err := raw.Request(rctx, cmd, data)
		if err == nil {
			return errors.New("answered: " + string(a))
		}
		return err
	}
	refused := own.seal.Refused()
	if err := ask(forged); !errors.Is(err, bus.ErrTimeout) {
		t.Fatalf("a forged pause: %v, want no answer", err)
	}
	// A request node b sealed, sent again.
	var captured []byte
	for _, m := range c.wire.all() {
		if m.subject == cmd {
			captured = m.data
		}
	}
	if captured == nil {
		t.Fatal("no request to the owner was seen on the bus")
	}
	if err := ask(captured); !errors.Is(err, bus.ErrTimeout) {
		t.Fatalf("a replayed request: %v, want no answer", err)
	}
	if got := own.seal.Refused() - refused; got != 2 {
		t.Fatalf("the owner refused %d messages, want 2", got)
	}
	if got := testutil.ToFloat64(own.cl.m.refused); got != float64(refused+2) {
		t.Fatalf("wolfden_cluster_bus_refused_total is %v, want %d", got, refused+2)
	}

	playSeats(ctx, t, id, players, func(i, _ int) *clusterNode { return nodes[1+i%2] })() // relayed, every one
	if t.Failed() {
		return
	}
	checkStreams(ctx, t, own, id, players) // not paused: played to its end
	secrets := [][]byte{[]byte(room.HostToken)}
	for _, p := range players {
		secrets = append(secrets, []byte(p.token))
	}
	wire := c.wire.all()
	if len(wire) < 100 {
		t.Fatalf("only %d messages on the bus", len(wire))
	}
	for _, m := range wire {
		for i, s := range secrets {
			if slices.ContainsFunc(readable(m.data), func(b []byte) bool { return bytes.Contains(b, s) }) {
				t.Fatalf("the bus carried %s's token on %s", map[bool]string{true: "the host", false: "a seat"}[i == 0], m.subject)
			}
		}
	}
	for _, m := range wire {
		for _, clear := range [][]byte{[]byte(`"type":"state"`), []byte(`"type":"event"`), []byte(`"op":`)} {
			if bytes.Contains(m.data, clear) {
				t.Fatalf("the bus carried %s in clear on %s", clear, m.subject)
			}
		}
	}
}
