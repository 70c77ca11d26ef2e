package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/internal/takeover"
)

// BenchmarkWriteAMessage: one day message (500 bytes) written to a real
// WebSocket over loopback, read and dropped by a client, as the writer
// writes it (the guard: one watchdog, a context that cannot end, the frame
// made here: frames.go), through the library's own writer with the same
// guard, and as it wrote it at first (the library, and the session's
// context, for which the library arms a context.AfterFunc per write).
func BenchmarkWriteAMessage(b *testing.B) {
	msg := []byte(`{"type":"event","seq":1,"kind":"x"}` + strings.Repeat(" ", 464))
	for _, mode := range []string{"guard", "guard, the library's writer", "context per write"} {
		b.Run(mode, func(b *testing.B) {
			conns := make(chan wsConn, 1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				opts := &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled}
				var c wsConn
				var err error
				if mode == "guard" {
					c, err = accept(w, r, opts)
				} else { // the library's writer, with a buffer that holds a night message as before
					c, err = websocket.Accept(&takeover.Writer{ResponseWriter: w, Size: game.NightMessage + 16}, r, opts)
				}
				if err != nil {
					b.Error(err)
					return
				}
				conns <- c
				<-r.Context().Done()
			}))
			defer srv.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cl, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cl.CloseNow()
			go func() {
				for {
					if _, _, err := cl.Read(ctx); err != nil {
						return
					}
				}
			}()
			conn := <-conns
			defer conn.CloseNow()
			g := newWriteGuard(ctx, conn, writeWait, cancel)
			defer g.stop()
			b.ReportAllocs()
			for b.Loop() {
				if mode == "context per write" {
					err = conn.Write(ctx, websocket.MessageText, msg)
				} else {
					err = g.write(msg)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
