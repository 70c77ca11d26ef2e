package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// BenchmarkWriteAMessage: one day message (500 bytes) written to a real
// WebSocket over loopback, read and dropped by a client, as the writer
// writes it (the guard: one watchdog, a context that cannot end) and as it
// wrote it before (the session's context, for which the library arms a
// context.AfterFunc per write).
func BenchmarkWriteAMessage(b *testing.B) {
	msg := []byte(`{"type":"event","seq":1,"kind":"x"}` + strings.Repeat(" ", 464))
	for _, mode := range []string{"guard", "context per write"} {
		b.Run(mode, func(b *testing.B) {
			conns := make(chan *websocket.Conn, 1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				c, err := websocket.Accept(wsBuffers(w), r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
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
				if mode == "guard" {
					err = g.write(msg)
				} else {
					err = conn.Write(ctx, websocket.MessageText, msg)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
