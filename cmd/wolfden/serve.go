package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store/sqlite"
	"github.com/wolfden/wolfden/web"
)

func serveCmd() *cobra.Command {
	var addr, db, logFormat string
	var origins []string
	var drain, linger time.Duration
	var roomRate int
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--db FILE]",
		Short: "Run the game server: rooms, real-time play over WebSockets, stored games",
		Long: `Run the game server (docs/server.md). It listens on 127.0.0.1:8080 and keeps
everything in ./wolfden.db (SQLite) unless --addr / WOLFDEN_ADDR and
--db / WOLFDEN_DB say otherwise. Games in play when the server stopped or
crashed resume where they were, timers included.

On SIGTERM or Ctrl-C the server drains: /readyz answers 503, no new room or
game starts, the games being played go on until they end or --drain runs
out; games still running then are stored and resume at the next start.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("addr") {
				if v := os.Getenv("WOLFDEN_ADDR"); v != "" {
					addr = v
				}
			}
			if !cmd.Flags().Changed("db") {
				if v := os.Getenv("WOLFDEN_DB"); v != "" {
					db = v
				}
			}
			var h slog.Handler
			switch logFormat {
			case "text":
				h = slog.NewTextHandler(cmd.ErrOrStderr(), nil)
			case "json":
				h = slog.NewJSONHandler(cmd.ErrOrStderr(), nil)
			default:
				return fmt.Errorf("serve: --log must be text or json, not %q", logFormat)
			}
			if drain < 0 || linger <= 0 || roomRate < 0 {
				return errors.New("serve: --drain and --room-rate cannot be negative and --linger must be positive")
			}
			opts := server.Options{Origins: origins, Linger: linger, Log: slog.New(h), Web: web.Dist(), RoomsPerMinute: roomRate}
			return serve(cmd.Context(), addr, db, opts, drain, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (env WOLFDEN_ADDR)")
	cmd.Flags().StringVar(&db, "db", "wolfden.db", "SQLite database file (env WOLFDEN_DB)")
	cmd.Flags().StringSliceVar(&origins, "origin", nil, "other hosts whose pages may open WebSockets (e.g. game.example.com)")
	cmd.Flags().DurationVar(&drain, "drain", 30*time.Second, "on SIGTERM, how long running games may go on before the server stops")
	cmd.Flags().DurationVar(&linger, "linger", 10*time.Minute, "how long a finished game stays live for its players")
	cmd.Flags().StringVar(&logFormat, "log", "text", "log format: text or json")
	cmd.Flags().IntVar(&roomRate, "room-rate", 60, "rooms one address may create a minute (0: no limit, for load tests)")
	return cmd
}

func serve(ctx context.Context, addr, dbPath string, opts server.Options, drain time.Duration, out interface{ Write([]byte) (int, error) }) error {
	st, err := sqlite.Open(dbPath)
	if err != nil {
		return fmt.Errorf("serve: %v", err)
	}
	defer st.Close()
	srv := server.New(st, opts)
	t0 := time.Now()
	n, err := srv.Restore(ctx)
	if err != nil {
		return fmt.Errorf("serve: resuming the stored games: %v", err)
	}
	opts.Log.Info("games resumed", "games", n, "took", time.Since(t0).Round(time.Millisecond).String())
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		srv.Stop()
		return fmt.Errorf("serve: %v", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(out, "wolfden serving on http://%s (database %s)\n", ln.Addr(), dbPath)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		srv.Stop()
		return fmt.Errorf("serve: %v", err)
	case <-ctx.Done():
	}
	opts.Log.Info("draining", "for", drain.String())
	srv.Drain()
	dctx, cancel := context.WithTimeout(context.Background(), drain)
	if err := srv.Wait(dctx); err != nil {
		opts.Log.Info("games still running are stored and resume at the next start")
	}
	cancel()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Close(sctx) // connections get their last frames
	_ = hs.Shutdown(sctx)
	opts.Log.Info("stopped")
	return nil
}
