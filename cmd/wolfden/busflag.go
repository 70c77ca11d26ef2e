package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/bus"
	"github.com/wolfden/wolfden/internal/bus/nats"
)

// busFlag is serve's --bus, --node and --lease-ttl: the NATS server of a
// cluster, this node's name in it and how long its leases last
// (docs/cluster.md).
type busFlag struct {
	url, node string
	ttl       time.Duration
}

func (f *busFlag) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.url, "bus", "", "NATS server of a cluster, nats://HOST:PORT (env WOLFDEN_BUS); with --db postgres://… the server is one node of the cluster (docs/cluster.md)")
	cmd.Flags().StringVar(&f.node, "node", "", "this node's name in the cluster, unique among live nodes (env WOLFDEN_NODE; default: host name and --addr's port)")
	cmd.Flags().DurationVar(&f.ttl, "lease-ttl", 10*time.Second, "how long a node's claim on a game lasts unrenewed; another node takes the game this long after its node died")
}

// open connects to --bus, or is nil without one.
func (f *busFlag) open(ctx context.Context, changed func(string) bool, addr string, log *slog.Logger) (bus.Bus, error) {
	if !changed("bus") {
		f.url = os.Getenv("WOLFDEN_BUS")
	}
	if !changed("node") {
		f.node = os.Getenv("WOLFDEN_NODE")
	}
	if f.url == "" {
		if changed("node") || changed("lease-ttl") {
			return nil, errors.New("serve: --node and --lease-ttl are a cluster node's: give --bus nats://… too")
		}
		return nil, nil
	}
	if !strings.HasPrefix(f.url, "nats://") && !strings.HasPrefix(f.url, "tls://") {
		return nil, fmt.Errorf("serve: --bus takes a NATS URL, nats://HOST:PORT (or tls://HOST:PORT), not %q", redactBus(f.url))
	}
	if f.ttl < time.Second {
		return nil, fmt.Errorf("serve: --lease-ttl must be 1s or more, not %v", f.ttl)
	}
	if f.node == "" {
		host, _ := os.Hostname()
		_, port, _ := net.SplitHostPort(addr)
		f.node = host + "-" + port
	}
	if strings.ContainsAny(f.node, " \t\n") {
		return nil, fmt.Errorf("serve: --node %q: a node's name has no spaces", f.node)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	b, err := nats.Open(ctx, f.url, nats.Options{Name: "wolfden " + f.node, Logger: log})
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
