package llm

import (
	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// QueueSize is the number of messages waiting for a player, as for a
// WebSocket connection: a player that let them pile up would be dropped.
const QueueSize = 1024

// Attach joins a game on seat as one more connection of the seat, from
// the start of its stream: the frames it is sent, and the table to act
// at. kick is called if the game drops it (too slow to read); leave
// detaches it.
func Attach(a *game.Actor, seat rules.Seat, kick func()) (frames <-chan []byte, t Table, leave func(), err error) {
	sub := game.NewSub(seat, QueueSize, kick)
	if err := a.Join(sub, 0, 0); err != nil {
		return nil, nil, nil, err
	}
	return sub.Out, actorTable{a, sub}, func() { a.Leave(sub) }, nil
}

// actorTable makes a connection's two requests.
type actorTable struct {
	a   *game.Actor
	sub *game.Sub
}

func (t actorTable) Act(id int64, c rules.Command) error { return t.a.Act(t.sub, id, c) }

func (t actorTable) Chat(id int64, channel, text string) error {
	return t.a.Chat(t.sub, id, channel, text)
}
