package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wolfden/wolfden/internal/client"
)

// selfSigned writes a certificate for 127.0.0.1 and its key; it returns
// their files and a pool that trusts it.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "wolfden test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestServeSpeaksTLS: with --tls-cert and --tls-key the server answers
// HTTPS on --addr, and a seat plays over WSS; /metrics is on the operator
// listener only.
func TestServeSpeaksTLS(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	addr, ops := freeAddr(t), freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", addr, "--db", filepath.Join(t.TempDir(), "tls.db"), "--metrics-addr", ops,
			"--tls-cert", certFile, "--tls-key", keyFile, "--drain", "0s"}, strings.NewReader(""), io.Discard, io.Discard)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 10 * time.Second}
	base := "https://" + addr
	for i := 0; ; i++ { // until it serves
		resp, err := hc.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.TLS == nil || resp.StatusCode != 200 {
				t.Fatalf("/healthz: %d, TLS %v", resp.StatusCode, resp.TLS != nil)
			}
			break
		}
		if i == 500 {
			t.Fatalf("the server does not answer HTTPS: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if resp, err := http.Get("http://" + addr + "/healthz"); err == nil && resp.StatusCode == 200 {
		t.Error("the TLS listener answers plain HTTP")
	}
	if resp, err := hc.Get(base + "/metrics"); err != nil || resp.StatusCode != 404 {
		t.Errorf("/metrics on the public listener: %v %v", resp, err)
	}
	if resp, err := http.Get("http://" + ops + "/metrics"); err != nil || resp.StatusCode != 200 {
		t.Errorf("/metrics on the operator listener: %v %v", resp, err)
	}
	api := &client.API{Base: base, HTTP: hc}
	var c client.Created
	if err := api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9", "nickname": "a"}, &c); err != nil {
		t.Fatal(err)
	}
	if err := api.Do(ctx, "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := client.DialWith(ctx, hc, base, c.Room.ID, c.Token, 0, 0)
	if err != nil {
		t.Fatalf("wss: %v", err)
	}
	defer conn.Close()
	for f := range conn.Frames {
		if f.Type == "state" {
			if f.Role == "" {
				t.Errorf("the seat's state over wss has no role: %s", f.Raw)
			}
			return
		}
	}
	t.Fatal("the wss connection closed before a state frame")
}

// TestServeRefusesHalfATLSPair: the certificate and key go together, and
// a file that cannot be read is named.
func TestServeRefusesHalfATLSPair(t *testing.T) {
	certFile, keyFile, _ := selfSigned(t)
	db := filepath.Join(t.TempDir(), "x.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--tls-cert", certFile}, "--tls-cert and --tls-key go together"},
		{[]string{"--tls-key", keyFile}, "--tls-cert and --tls-key go together"},
		{[]string{"--tls-cert", certFile + ".gone", "--tls-key", keyFile}, "--tls-cert: open " + certFile + ".gone"},
		{[]string{"--tls-cert", certFile, "--tls-key", keyFile + ".gone"}, "--tls-key: open " + keyFile + ".gone"},
		{[]string{"--tls-cert", keyFile, "--tls-key", certFile}, "--tls-cert " + keyFile + " and --tls-key " + certFile},
		{[]string{"--trusted-proxy", "nginx"}, `--trusted-proxy "nginx" is not an address or a CIDR prefix`},
	} {
		args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, c.args...)
		err := run(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
