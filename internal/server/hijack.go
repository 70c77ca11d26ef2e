package server

import (
	"net/http"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/takeover"
)

// wsWriteBuffer holds a whole night message and its frame header (at most
// 14 bytes). The HTTP server's 4 KiB writer, which the WebSocket library
// otherwise keeps, sent each of them in two writes: 4,096 bytes, then the
// last 4; at night that is most of the server's work.
const wsWriteBuffer = game.NightMessage + 16

// wsBuffers gives the WebSocket library a writer of wsWriteBuffer bytes
// when it takes the connection over.
func wsBuffers(w http.ResponseWriter) takeover.Writer {
	return takeover.Writer{ResponseWriter: w, Size: wsWriteBuffer}
}
