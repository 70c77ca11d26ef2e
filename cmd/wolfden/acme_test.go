package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/letsencrypt/challtestsrv"
)

// A local ACME CA for the tests: Pebble (Let's Encrypt's test server, a
// tool dependency of the module), validating challenges for real against
// the server under test, with every name resolved to 127.0.0.1 by a DNS
// server in the test.

var (
	pebbleOnce sync.Once
	pebbleBin  string
	pebbleErr  error
)

// buildPebble builds the pebble tool once per test binary.
func buildPebble(t *testing.T) string {
	t.Helper()
	pebbleOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wolfden-pebble-")
		if err != nil {
			pebbleErr = err
			return
		}
		pebbleBin = filepath.Join(dir, "pebble")
		out, err := exec.Command("go", "build", "-o", pebbleBin, "github.com/letsencrypt/pebble/v2/cmd/pebble").CombinedOutput()
		if err != nil {
			pebbleErr = fmt.Errorf("go build pebble: %v\n%s", err, out)
		}
	})
	if pebbleErr != nil {
		t.Fatal(pebbleErr)
	}
	return pebbleBin
}

// removePebble removes what buildPebble built, after the tests (TestMain).
func removePebble() {
	if pebbleBin != "" {
		os.RemoveAll(filepath.Dir(pebbleBin))
	}
}

// acmeCA is a running Pebble.
type acmeCA struct {
	directory string         // its ACME directory URL
	caFile    string         // the PEM file its own HTTPS is trusted with (--acme-ca)
	roots     *x509.CertPool // the root its certificates chain to
	cmd       *exec.Cmd
}

// startPebble runs Pebble on free ports. It validates HTTP-01 on httpPort
// and TLS-ALPN-01 on tlsPort of the names it certifies (all of them
// 127.0.0.1), and issues certificates valid for validity seconds.
func startPebble(t *testing.T, httpPort, tlsPort, validity int) *acmeCA {
	t.Helper()
	bin := buildPebble(t)
	dnsAddr := freeUDPAddr(t)
	dns, err := challtestsrv.New(challtestsrv.Config{DNSAddrs: []string{dnsAddr}, Log: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	dns.SetDefaultDNSIPv4("127.0.0.1")
	dns.SetDefaultDNSIPv6("")
	dns.Run()
	t.Cleanup(dns.Shutdown)
	// Pebble finds the names through it: it must answer before Pebble asks
	// (it starts in the background, and says nothing if its port was taken).
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "udp", dnsAddr)
	}}
	for i := 0; ; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		ips, err := r.LookupHost(ctx, "wolf.test")
		cancel()
		if err == nil && len(ips) == 1 && ips[0] == "127.0.0.1" {
			break
		}
		if i == 100 {
			t.Fatalf("the test's DNS server on %s does not answer for wolf.test: %v %v", dnsAddr, ips, err)
		}
		time.Sleep(20 * time.Millisecond)
	}

	certFile, keyFile, pool := selfSigned(t)
	listen, mgmt := freeAddr(t), freeAddr(t)
	cfg := map[string]any{"pebble": map[string]any{
		"listenAddress": listen, "managementListenAddress": mgmt, "certificate": certFile, "privateKey": keyFile,
		"httpPort": httpPort, "tlsPort": tlsPort, "keyAlgorithm": "ecdsa",
		"retryAfter": map[string]int{"authz": 1, "order": 1},
		"profiles":   map[string]any{"default": map[string]any{"description": "test", "validityPeriod": validity}},
	}}
	b, _ := json.Marshal(cfg)
	cfgFile := filepath.Join(t.TempDir(), "pebble.json")
	if err := os.WriteFile(cfgFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cmd := exec.Command(bin, "-config", cfgFile, "-dnsserver", dnsAddr)
	// No random pause before validating, no nonce rejected on purpose.
	cmd.Env = append(os.Environ(), "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ca := &acmeCA{directory: "https://" + listen + "/dir", caFile: certFile, cmd: cmd}
	t.Cleanup(func() {
		ca.stop()
		if t.Failed() {
			t.Logf("pebble's log:\n%s", logs.String())
		}
	})
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 10 * time.Second}
	var root []byte
	for i := 0; ; i++ { // until it serves its root
		resp, err := hc.Get("https://" + mgmt + "/roots/0")
		if err == nil {
			root, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil && resp.StatusCode == 200 {
				break
			}
		}
		if i == 1000 {
			t.Fatalf("pebble does not serve its root: %v\n%s", err, logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	ca.roots = x509.NewCertPool()
	if !ca.roots.AppendCertsFromPEM(root) {
		t.Fatalf("pebble's root is not PEM: %q", root)
	}
	return ca
}

func (ca *acmeCA) stop() {
	if ca.cmd.Process != nil && ca.cmd.ProcessState == nil {
		ca.cmd.Process.Kill()
		ca.cmd.Wait()
	}
}

func freeUDPAddr(t *testing.T) string {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().String()
}

// hangUp listens on a port of its own, closing every connection at once;
// it returns the port.
func hangUp(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return port(ln.Addr().String())
}

func port(addr string) int {
	_, p, _ := net.SplitHostPort(addr)
	var n int
	fmt.Sscan(p, &n)
	return n
}

// domainClient reaches any name on 127.0.0.1, at the port its URL names,
// trusts only roots, and follows no redirect.
func domainClient(roots *x509.CertPool) *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", fmt.Sprint(port(addr))))
	}
	return &http.Client{
		Transport:     &http.Transport{DialContext: dial, TLSClientConfig: &tls.Config{RootCAs: roots}},
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// startDomain runs `wolfden serve --domain` against the CA; it returns a
// function that stops it (called at the test's end if not before).
func startDomain(t *testing.T, ca *acmeCA, domain, httpsAddr, httpAddr, db string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	logs := &strings.Builder{}
	t.Cleanup(func() { // after stop (cleanups run last first): nothing writes any more
		if t.Failed() { // its ACME errors name what the CA found wrong
			t.Logf("wolfden's log:\n%s", logs.String())
		}
	})
	go func() {
		done <- run(ctx, []string{"serve", "--domain", domain, "--https-addr", httpsAddr, "--http-addr", httpAddr,
			"--db", db, "--acme-directory", ca.directory, "--acme-ca", ca.caFile, "--acme-email", "host@example.org", "--drain", "0s"},
			strings.NewReader(""), io.Discard, &lockedWriter{w: logs})
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// waitCertified waits until HTTPS to the name answers with a certificate
// for it that chains to roots; it returns that certificate.
func waitCertified(t *testing.T, hc *http.Client, url string) *x509.Certificate {
	t.Helper()
	var last error
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		resp, err := hc.Get(url)
		if err != nil {
			last = err
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", url, resp.Status)
		}
		return resp.TLS.PeerCertificates[0]
	}
	t.Fatalf("no certified HTTPS at %s: %v", url, last)
	return nil
}

// TestDomainObtainsCertificateByACME: `serve --domain` gets its
// certificate from the ACME CA by each challenge (the other one made to
// fail at the CA), serves HTTPS under the name with it, and redirects
// plain HTTP there; the certificate is kept across a restart without the
// CA, and renewed before it expires.
func TestDomainObtainsCertificateByACME(t *testing.T) {
	for _, c := range []struct {
		challenge string
		validity  int
	}{
		{"tls-alpn-01", 30}, // a short life: renewed after about 20 s
		{"http-01", 3600},
	} {
		t.Run(c.challenge, func(t *testing.T) {
			const domain = "wolf.test"
			httpsAddr, httpAddr := freeAddr(t), freeAddr(t)
			for httpAddr == httpsAddr {
				httpAddr = freeAddr(t)
			}
			httpPort, tlsPort := port(httpAddr), port(httpsAddr)
			if c.challenge == "tls-alpn-01" {
				httpPort = hangUp(t) // the CA's HTTP-01 validation fails
			} else {
				tlsPort = hangUp(t)
			}
			ca := startPebble(t, httpPort, tlsPort, c.validity)
			dir := t.TempDir()
			db := filepath.Join(dir, "wolfden.db")
			stop := startDomain(t, ca, domain, httpsAddr, httpAddr, db)

			hc := domainClient(ca.roots)
			base := fmt.Sprintf("https://%s:%d", domain, port(httpsAddr))
			cert := waitCertified(t, hc, base+"/healthz")
			if len(cert.DNSNames) != 1 || cert.DNSNames[0] != domain {
				t.Fatalf("the certificate names %v, want [%s]", cert.DNSNames, domain)
			}
			// Kept beside the database (written just after it is first served).
			for i := 0; ; i++ {
				_, err := os.Stat(filepath.Join(dir, "certs", domain))
				if err == nil {
					break
				}
				if i == 1000 {
					t.Fatalf("the certificate is not kept beside the database: %v", err)
				}
				time.Sleep(10 * time.Millisecond)
			}

			// Plain HTTP is sent to the same path over HTTPS on the name.
			resp, err := hc.Get(fmt.Sprintf("http://%s:%d/j/ABCD?x=1", domain, port(httpAddr)))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if want := base + "/j/ABCD?x=1"; resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != want {
				t.Errorf("plain HTTP: %s to %q, want 301 to %q", resp.Status, resp.Header.Get("Location"), want)
			}
			// A room's QR code links to the name over HTTPS.
			resp, err = hc.Post(base+"/api/rooms", "application/json", strings.NewReader(`{"preset":"std-9","nickname":"a"}`))
			if err != nil {
				t.Fatal(err)
			}
			var room struct{ Room struct{ ID string } }
			json.NewDecoder(resp.Body).Decode(&room)
			resp.Body.Close()
			resp, err = hc.Get(base + "/api/rooms/" + room.Room.ID + "/qr.svg")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if link := resp.Header.Get("X-Join-Link"); resp.StatusCode != 200 || !strings.HasPrefix(link, base+"/j/") {
				t.Errorf("the room's QR code: %s, links to %q, want %s/j/…", resp.Status, link, base)
			}

			if c.challenge == "tls-alpn-01" {
				// Renewed before it expires: a new certificate is served.
				for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
					now := waitCertified(t, hc, base+"/healthz")
					if now.SerialNumber.Cmp(cert.SerialNumber) != 0 {
						if !now.NotAfter.After(cert.NotAfter) {
							t.Errorf("the renewed certificate expires %v, the first %v", now.NotAfter, cert.NotAfter)
						}
						break
					}
					if time.Now().After(deadline) || time.Now().After(cert.NotAfter) {
						t.Fatalf("the certificate expiring %v was not renewed", cert.NotAfter)
					}
					hc.CloseIdleConnections() // a new handshake each time
				}
				return
			}

			// Restarted with the CA gone, it serves the certificate it kept.
			stop()
			ca.stop()
			startDomain(t, ca, domain, httpsAddr, httpAddr, db)
			again := waitCertified(t, hc, base+"/healthz")
			if again.SerialNumber.Cmp(cert.SerialNumber) != 0 {
				t.Errorf("after a restart the server has certificate %v, not the one it kept (%v)", again.SerialNumber, cert.SerialNumber)
			}
		})
	}
}
