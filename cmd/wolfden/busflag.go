package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/bus"
	"github.com/wolfden/wolfden/internal/bus/nats"
)

// busFlag is serve's --bus: the NATS server of a cluster (docs/cluster.md).
// For now the node only connects and reports the connection on /readyz:
// no command or frame goes through it yet.
type busFlag struct{ url string }

func (f *busFlag) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.url, "bus", "", "NATS server of a cluster, nats://HOST:PORT (env WOLFDEN_BUS); for now only connected and reported on /readyz (docs/cluster.md)")
}

// open connects to --bus, or is nil without one.
func (f *busFlag) open(ctx context.Context, changed func(string) bool, log *slog.Logger) (bus.Bus, error) {
	if !changed("bus") {
		f.url = os.Getenv("WOLFDEN_BUS")
	}
	if f.url == "" {
		return nil, nil
	}
	if !strings.HasPrefix(f.url, "nats://") && !strings.HasPrefix(f.url, "tls://") {
		return nil, fmt.Errorf("serve: --bus takes a NATS URL, nats://HOST:PORT (or tls://HOST:PORT), not %q", redactBus(f.url))
	}
	host, _ := os.Hostname()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	b, err := nats.Open(ctx, f.url, nats.Options{Name: "wolfden " + host, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("serve: --bus: %v", err)
	}
	return b, nil
}

// redactBus is what of a bad --bus value may be shown: its scheme only,
// as it may hold a password.
func redactBus(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		return u[:i+3] + "…"
	}
	return "…"
}
