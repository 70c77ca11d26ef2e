package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRefusesBadDomainFlags: --domain's flags (and their environment
// variables) are checked at start-up, each error naming the flag at fault,
// before anything listens or is asked of a CA.
func TestServeRefusesBadDomainFlags(t *testing.T) {
	certFile, keyFile, _ := selfSigned(t)
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"a certificate of one's own", nil, []string{"--domain", "wolf.example.org", "--tls-cert", certFile, "--tls-key", keyFile}, "--domain obtains its own certificate: drop --tls-cert and --tls-key"},
		{"--addr", nil, []string{"--domain", "wolf.example.org", "--addr", "0.0.0.0:8080"}, "not on --addr: drop --addr"},
		{"WOLFDEN_ADDR", map[string]string{"WOLFDEN_ADDR": "0.0.0.0:8080"}, []string{"--domain", "wolf.example.org"}, "drop --addr (WOLFDEN_ADDR)"},
		{"a cluster", nil, []string{"--domain", "wolf.example.org", "--bus", "nats://127.0.0.1:4222"}, "--domain runs on one server"},
		{"--https-addr alone", nil, []string{"--https-addr", ":8443", "--addr", "127.0.0.1:0"}, "--https-addr (WOLFDEN_HTTPS_ADDR) goes with --domain"},
		{"--acme-email alone", nil, []string{"--acme-email", "a@example.org", "--addr", "127.0.0.1:0"}, "--acme-email (WOLFDEN_ACME_EMAIL) goes with --domain"},
		{"WOLFDEN_CERT_DIR alone", map[string]string{"WOLFDEN_CERT_DIR": dir}, []string{"--addr", "127.0.0.1:0"}, "--cert-dir (WOLFDEN_CERT_DIR) goes with --domain"},
		{"a URL", nil, []string{"--domain", "https://wolf.example.org"}, `--domain "https://wolf.example.org" is not a bare host name`},
		{"a port", nil, []string{"--domain", "wolf.example.org:443"}, `--domain "wolf.example.org:443" is not a bare host name`},
		{"an address", nil, []string{"--domain", "192.168.1.20"}, `--domain "192.168.1.20" is an address`},
		{"one label", nil, []string{"--domain", "localhost"}, `--domain "localhost" has no dot`},
		{"capitals", nil, []string{"--domain", "Wolf.example.org"}, `--domain "Wolf.example.org" may hold only lower-case letters`},
		{"a wildcard", nil, []string{"--domain", "*.example.org"}, `--domain "*.example.org" may hold only`},
		{"an empty label", nil, []string{"--domain", "wolf..org"}, `--domain "wolf..org" has an empty`},
		{"the second of a list", nil, []string{"--domain", "wolf.example.org,-x.example.org"}, `--domain "-x.example.org" has an empty, over-long or hyphen-edged label`},
		{"WOLFDEN_DOMAIN", map[string]string{"WOLFDEN_DOMAIN": "wolf.example.org,bad"}, nil, `--domain "bad" has no dot`},
		{"no port", nil, []string{"--domain", "wolf.example.org", "--https-addr", "443"}, `--https-addr "443" is not HOST:PORT`},
		{"a port name", nil, []string{"--domain", "wolf.example.org", "--https-addr", ":https"}, `--https-addr ":https" needs a port number`},
		{"one listener twice", nil, []string{"--domain", "wolf.example.org", "--https-addr", ":8443", "--http-addr", ":8443"}, "--http-addr and --https-addr are both :8443"},
		{"a bad --http-addr", nil, []string{"--domain", "wolf.example.org", "--http-addr", "80"}, `--http-addr "80" is not HOST:PORT`},
		{"plain ACME", nil, []string{"--domain", "wolf.example.org", "--acme-directory", "http://127.0.0.1:14000/dir"}, "--acme-directory \"http://127.0.0.1:14000/dir\" must be an https:// URL"},
		{"a bad e-mail", nil, []string{"--domain", "wolf.example.org", "--acme-email", "host"}, `--acme-email "host" is not an e-mail address`},
		{"a missing CA file", nil, []string{"--domain", "wolf.example.org", "--acme-ca", notPEM + ".gone"}, "--acme-ca: open " + notPEM + ".gone"},
		{"a CA file without PEM", nil, []string{"--domain", "wolf.example.org", "--acme-ca", notPEM}, "--acme-ca " + notPEM + " holds no PEM certificate"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			// Cancelled: a server that wrongly starts stops at once.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			err := run(ctx, append([]string{"serve", "--db", filepath.Join(dir, "x.db")}, c.args...), strings.NewReader(""), io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v: %v, want %q", c.args, err, c.want)
			}
		})
	}
}
