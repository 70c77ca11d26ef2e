package main

import (
	"bytes"
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
	"github.com/wolfden/wolfden/internal/bus/sealed"
)

// busFlag is serve's --bus, --node and --lease-ttl: the NATS server of a
// cluster, this node's name in it and how long its leases last; the
// NATS login and TLS files; and the cluster's secret, which seals every
// message on the bus (docs/cluster.md, "Security").
type busFlag struct {
	url, node string
	ttl       time.Duration

	user, creds, nkey, ca, cert, key string
	secretFile                       string
}

// busFiles are the flags that only a node takes, with their variables.
var busFiles = []struct{ flag, env string }{
	{"bus-user", "WOLFDEN_BUS_USER"},
	{"bus-creds", "WOLFDEN_BUS_CREDS"},
	{"bus-nkey", "WOLFDEN_BUS_NKEY"},
	{"bus-tls-ca", "WOLFDEN_BUS_TLS_CA"},
	{"bus-tls-cert", "WOLFDEN_BUS_TLS_CERT"},
	{"bus-tls-key", "WOLFDEN_BUS_TLS_KEY"},
	{"cluster-secret-file", "WOLFDEN_CLUSTER_SECRET_FILE"},
}

func (f *busFlag) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.url, "bus", "", "NATS server of a cluster, nats://HOST:PORT (env WOLFDEN_BUS); with --db postgres://… the server is one node of the cluster (docs/cluster.md)")
	cmd.Flags().StringVar(&f.node, "node", "", "this node's name in the cluster, unique among live nodes (env WOLFDEN_NODE; default: host name and --addr's port)")
	cmd.Flags().DurationVar(&f.ttl, "lease-ttl", 10*time.Second, "how long a node's claim on a game lasts unrenewed; another node takes the game this long after its node died")
	cmd.Flags().StringVar(&f.user, "bus-user", "", "NATS user (env WOLFDEN_BUS_USER); its password only from the environment, WOLFDEN_BUS_PASSWORD")
	cmd.Flags().StringVar(&f.creds, "bus-creds", "", "NATS credentials file, a user JWT and its NKey seed (env WOLFDEN_BUS_CREDS)")
	cmd.Flags().StringVar(&f.nkey, "bus-nkey", "", "file holding the NKey seed of a NATS user (env WOLFDEN_BUS_NKEY)")
	cmd.Flags().StringVar(&f.ca, "bus-tls-ca", "", "PEM file of the CA that signed the NATS server's certificate: TLS to the bus is then required (env WOLFDEN_BUS_TLS_CA)")
	cmd.Flags().StringVar(&f.cert, "bus-tls-cert", "", "client certificate (PEM) for a NATS server that verifies its clients, with --bus-tls-key (env WOLFDEN_BUS_TLS_CERT)")
	cmd.Flags().StringVar(&f.key, "bus-tls-key", "", "the key of --bus-tls-cert (env WOLFDEN_BUS_TLS_KEY)")
	cmd.Flags().StringVar(&f.secretFile, "cluster-secret-file", "", "file holding the cluster's secret, the same on every node, 32 bytes or more: it seals every message on the bus (env WOLFDEN_CLUSTER_SECRET_FILE, or the secret itself in WOLFDEN_CLUSTER_SECRET)")
}

// given is whether a flag only a node takes was given.
func (f *busFlag) given(changed func(string) bool) bool {
	if changed("node") || changed("lease-ttl") {
		return true
	}
	for _, b := range busFiles {
		if changed(b.flag) {
			return true
		}
	}
	return false
}

// env fills the flags not given from their environment variables.
func (f *busFlag) env(changed func(string) bool) {
	vals := map[string]*string{"bus-user": &f.user, "bus-creds": &f.creds, "bus-nkey": &f.nkey, "bus-tls-ca": &f.ca,
		"bus-tls-cert": &f.cert, "bus-tls-key": &f.key, "cluster-secret-file": &f.secretFile}
	for _, b := range busFiles {
		if !changed(b.flag) {
			*vals[b.flag] = os.Getenv(b.env)
		}
	}
}

// secret reads the cluster's secret: WOLFDEN_CLUSTER_SECRET, or the file
// (its last line break is not part of it).
func (f *busFlag) secret() ([]byte, error) {
	v, inEnv := os.LookupEnv("WOLFDEN_CLUSTER_SECRET")
	switch {
	case inEnv && f.secretFile != "":
		return nil, errors.New("serve: the cluster's secret comes from --cluster-secret-file or WOLFDEN_CLUSTER_SECRET, not both")
	case inEnv:
		return []byte(v), nil
	case f.secretFile == "":
		return nil, fmt.Errorf("serve: a cluster node needs the cluster's secret (%d bytes or more, the same on every node; e.g. openssl rand -hex 32 > secret): --cluster-secret-file FILE or WOLFDEN_CLUSTER_SECRET", sealed.MinSecret)
	}
	b, err := os.ReadFile(f.secretFile)
	if err != nil {
		return nil, fmt.Errorf("serve: --cluster-secret-file: %v", err)
	}
	return bytes.TrimRight(b, "\r\n"), nil
}

// open connects to --bus, or is nil without one.
func (f *busFlag) open(ctx context.Context, changed func(string) bool, addr string, log *slog.Logger) (bus.Bus, error) {
	if !changed("bus") {
		f.url = os.Getenv("WOLFDEN_BUS")
	}
	if !changed("node") {
		f.node = os.Getenv("WOLFDEN_NODE")
	}
	f.env(changed)
	if f.url == "" {
		if changed("node") || changed("lease-ttl") {
			return nil, errors.New("serve: --node and --lease-ttl are a cluster node's: give --bus nats://… too")
		}
		for _, b := range busFiles {
			if changed(b.flag) {
				return nil, fmt.Errorf("serve: --%s is a cluster node's: give --bus nats://… too", b.flag)
			}
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
	secret, err := f.secret()
	if err != nil {
		return nil, err
	}
	if len(secret) < sealed.MinSecret {
		return nil, fmt.Errorf("serve: the cluster's secret is %d bytes; it needs %d or more, the same on every node (e.g. openssl rand -hex 32 > secret)", len(secret), sealed.MinSecret)
	}
	for flag, file := range map[string]string{"bus-creds": f.creds, "bus-nkey": f.nkey, "bus-tls-ca": f.ca, "bus-tls-cert": f.cert, "bus-tls-key": f.key} {
		if _, err := os.Stat(file); file != "" && err != nil {
			return nil, fmt.Errorf("serve: --%s: %v", flag, err)
		}
	}
	if (f.cert == "") != (f.key == "") {
		return nil, errors.New("serve: --bus-tls-cert and --bus-tls-key go together: a client certificate and its key")
	}
	password := os.Getenv("WOLFDEN_BUS_PASSWORD")
	if f.user == "" && password != "" {
		return nil, errors.New("serve: WOLFDEN_BUS_PASSWORD without a user: give --bus-user (or WOLFDEN_BUS_USER)")
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	nb, err := nats.Open(ctx, f.url, nats.Options{Name: "wolfden " + f.node, Logger: log,
		User: f.user, Password: password, CredsFile: f.creds, NKeyFile: f.nkey, CA: f.ca, Cert: f.cert, Key: f.key})
	if err != nil {
		return nil, fmt.Errorf("serve: --bus: %v", err)
	}
	b, err := sealed.New(nb, secret, sealed.Options{Logger: log})
	if err != nil {
		nb.Close()
		return nil, fmt.Errorf("serve: %v", err)
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
