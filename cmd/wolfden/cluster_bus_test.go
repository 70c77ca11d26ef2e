package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	natsgo "github.com/nats-io/nats.go"

	"github.com/wolfden/wolfden/internal/client"
)

// TestClusterBusShowsAReaderNoTokenAndTakesNoForgery: a plain NATS client
// subscribed to every subject (">") while a room is made on one node, its
// seats taken, its game started and a seat connected through the other,
// reads no seat's token and not the host's in any message; the pause it
// sends the owner with the host's token, and a request of the nodes it
// captured and sends again, get no answer, and the game is not paused.
func TestClusterBusShowsAReaderNoTokenAndTakesNoForgery(t *testing.T) {
	cl := startCluster(t, 2, "5s", nil)
	owner, relay := cl.nodes[0], cl.nodes[1]
	spy, err := natsgo.Connect(cl.nats.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer spy.Close()
	var mu sync.Mutex
	var seen []*natsgo.Msg
	if _, err := spy.Subscribe(">", func(m *natsgo.Msg) {
		mu.Lock()
		seen = append(seen, m)
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	if err := spy.Flush(); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var c client.Created
	if err := (&client.API{Base: owner.base}).Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9",
		"seed": 3, "practice": true, "timers": clusterTimers}, &c); err != nil {
		t.Fatal(err)
	}
	room := c.Room.ID
	api := &client.API{Base: relay.base}
	secrets := [][]byte{[]byte(c.HostToken)}
	var seats []seatToken
	for i := range c.Room.Players {
		var s seatToken
		if err := api.Do(ctx, "POST", "/api/rooms/"+room+"/join", "", map[string]any{"nickname": fmt.Sprint("p", i+1)}, &s); err != nil {
			t.Fatal(err)
		}
		seats = append(seats, s)
		secrets = append(secrets, []byte(s.Token))
	}
	if err := api.Do(ctx, "POST", "/api/rooms/"+room+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := client.Dial(ctx, relay.base, room, seats[0].Token, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for f := range conn.Frames {
		if f.Type == "state" {
			break
		}
	}
	conn.Close()

	cmd := "wolfden.room." + room + ".cmd"
	mu.Lock()
	var captured []byte
	for _, m := range seen {
		if m.Subject == cmd {
			captured = m.Data
		}
	}
	nodesSaid := slices.Clone(seen) // not what the spy sends next
	mu.Unlock()
	if captured == nil {
		t.Fatal("the spy saw no request to the owner")
	}
	forged := fmt.Appendf(nil, `{"op":"http","method":"POST","url":"/api/rooms/%s/pause","addr":"203.0.113.9","header":{"Authorization":["Bearer %s"]}}`, room, c.HostToken)
	for what, data := range map[string][]byte{"a forged pause": forged, "a replayed request": captured} {
		if m, err := spy.Request(cmd, data, time.Second); !errors.Is(err, natsgo.ErrTimeout) {
			t.Errorf("%s: %v (answered %q), want no answer", what, err, msgData(m))
		}
	}
	var view struct {
		Game struct {
			Paused bool `json:"paused"`
		} `json:"game"`
	}
	if err := (&client.API{Base: owner.base}).Do(ctx, "GET", "/api/rooms/"+room, "", nil, &view); err != nil {
		t.Fatal(err)
	}
	if view.Game.Paused {
		t.Error("the game was paused by a client of the bus")
	}

	if len(nodesSaid) < 20 {
		t.Fatalf("the spy saw only %d messages", len(nodesSaid))
	}
	for _, m := range nodesSaid {
		var carried struct {
			Data, Body []byte
		}
		_ = json.Unmarshal(m.Data, &carried)
		for i, s := range secrets {
			if slices.ContainsFunc([][]byte{m.Data, carried.Data, carried.Body}, func(b []byte) bool { return bytes.Contains(b, s) }) {
				t.Fatalf("the spy read %s on %s", map[bool]string{true: "the host's token", false: fmt.Sprintf("seat %d's token", i)}[i == 0], m.Subject)
			}
		}
	}
}

func msgData(m *natsgo.Msg) []byte {
	if m == nil {
		return nil
	}
	return m.Data
}
