package server

import (
	"fmt"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/usertext"
	"github.com/wolfden/wolfden/internal/wire"
	"github.com/wolfden/wolfden/rules"
)

// MaxFrame is the largest frame a client may send, in bytes.
const MaxFrame = wire.MaxFrame

// inFrame is a frame from a client (wire.ClientFrame), with the server's
// reading of it.
type inFrame wire.ClientFrame

// decodeFrame reads a client frame strictly (wire.Decode, which the
// engine on the device shares).
func decodeFrame(data []byte) (inFrame, error) {
	f, err := wire.Decode(data, game.MaxChat)
	if err == nil && f.Type == "chat" {
		if err := usertext.Check(f.Text); err != nil {
			return inFrame(f), &textError{fmt.Errorf("chat: %v", err)}
		}
	}
	return inFrame(f), err
}

// textError is a chat refused by the rule of every user text: the client is
// told with the code "text", which it translates.
type textError struct{ error }

// command turns an act frame into an engine command; the seat is the
// connection's, never the frame's.
func (f *inFrame) command() (rules.Command, error) { return (*wire.ClientFrame)(f).Command() }
