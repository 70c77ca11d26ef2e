// Package autotls serves HTTPS under a domain name with a certificate it
// obtains and renews itself by ACME (Let's Encrypt by default), so that a
// club's server is a secure page to every phone with one flag:
// `wolfden serve --domain wolf.example.org` (docs/server.md).
//
// It answers both challenges a CA may send: TLS-ALPN-01 on the HTTPS
// listener and HTTP-01 on the plain HTTP one, which otherwise redirects to
// HTTPS.
package autotls

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// LetsEncrypt is the default ACME directory: Let's Encrypt's production
// CA. Its staging directory (LetsEncryptStaging) issues untrusted
// certificates under far looser rate limits, for trying a set-up out.
const (
	LetsEncrypt        = autocert.DefaultACMEDirectory
	LetsEncryptStaging = "https://acme-staging-v02.api.letsencrypt.org/directory"
)

// Config says which names to serve and where to get their certificates.
type Config struct {
	Domains   []string       // host names, checked by CheckDomain; the first is the canonical one
	CacheDir  string         // where the account key and certificates are kept across restarts
	Directory string         // the ACME directory URL; LetsEncrypt if empty
	Email     string         // the CA's contact for expiry and incident notices; may be empty
	CARoots   *x509.CertPool // trusted for the ACME server's own HTTPS (a private CA); the system's if nil
	HTTPSPort int            // the port players reach HTTPS on, for redirects; 443 if zero
	Log       *slog.Logger
}

// Manager holds a Config's certificates.
type Manager struct {
	cfg Config
	m   *autocert.Manager
}

// New checks cfg and returns its Manager. Nothing is asked of the CA yet:
// certificates come at the first handshake for a name, or from Obtain.
func New(cfg Config) (*Manager, error) {
	if len(cfg.Domains) == 0 {
		return nil, errors.New("no domain to serve")
	}
	for _, d := range cfg.Domains {
		if err := CheckDomain(d); err != nil {
			return nil, err
		}
	}
	if cfg.CacheDir == "" {
		return nil, errors.New("no directory to keep the certificates in")
	}
	// The account key and the certificates' private keys are kept there.
	if err := os.MkdirAll(cfg.CacheDir, 0o700); err != nil {
		return nil, fmt.Errorf("the certificates' directory: %v", err)
	}
	if cfg.Directory == "" {
		cfg.Directory = LetsEncrypt
	}
	if cfg.HTTPSPort == 0 {
		cfg.HTTPSPort = 443
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	hc := &http.Client{Timeout: time.Minute}
	if cfg.CARoots != nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.TLSClientConfig = &tls.Config{RootCAs: cfg.CARoots, MinVersion: tls.VersionTLS12}
		hc.Transport = t
	}
	log := cfg.Log
	m := &autocert.Manager{
		// Serving with --domain is the operator's acceptance of the CA's terms;
		// the log says which.
		Prompt: func(tos string) bool {
			log.Info("accepting the ACME CA's terms of service", "terms", tos)
			return true
		},
		Cache:      autocert.DirCache(cfg.CacheDir),
		HostPolicy: hostPolicy(cfg.Domains),
		Client:     &acme.Client{DirectoryURL: cfg.Directory, HTTPClient: hc, UserAgent: "wolfden"},
		Email:      cfg.Email,
	}
	return &Manager{cfg: cfg, m: m}, nil
}

// TLSConfig is the HTTPS listener's: the names' certificates, and the
// TLS-ALPN-01 challenge. HTTP/1.1 only, as WebSockets are upgrades of
// HTTP/1.1 requests.
func (m *Manager) TLSConfig() *tls.Config {
	return &tls.Config{GetCertificate: m.m.GetCertificate, MinVersion: tls.VersionTLS12,
		NextProtos: []string{"http/1.1", acme.ALPNProto}}
}

// HTTPHandler is the plain HTTP listener's: it answers the CA's HTTP-01
// challenges and sends everything else to HTTPS.
func (m *Manager) HTTPHandler() http.Handler {
	return m.m.HTTPHandler(http.HandlerFunc(m.redirect))
}

// redirect sends a plain request to the same path over HTTPS, on the name
// asked for if it is one of ours (never to a host a request names).
func (m *Manager) redirect(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "use HTTPS", http.StatusBadRequest)
		return
	}
	host := m.cfg.Domains[0]
	asked := r.Host
	if h, _, err := net.SplitHostPort(asked); err == nil {
		asked = h
	}
	for _, d := range m.cfg.Domains {
		if strings.EqualFold(strings.TrimSuffix(asked, "."), d) {
			host = d
		}
	}
	http.Redirect(w, r, m.origin(host)+r.URL.RequestURI(), http.StatusMovedPermanently)
}

// origin is https://host, with the port when it is not 443.
func (m *Manager) origin(host string) string {
	if m.cfg.HTTPSPort == 443 {
		return "https://" + host
	}
	return "https://" + net.JoinHostPort(host, strconv.Itoa(m.cfg.HTTPSPort))
}

// PublicURL is where players reach the server: the first name over HTTPS.
func (m *Manager) PublicURL() string { return m.origin(m.cfg.Domains[0]) }

// Obtain gets (or loads from the cache) each name's certificate now, once
// the listeners answer, so that a wrong DNS record or a closed port shows
// in the log at start-up rather than at a player's first visit. A failure
// is logged, not fatal: the next handshake tries again.
func (m *Manager) Obtain() {
	for _, d := range m.cfg.Domains {
		// A handshake's hello as a current browser's, so that the
		// certificate obtained is the ECDSA one browsers are served.
		hello := &tls.ClientHelloInfo{ServerName: d, SupportedCurves: []tls.CurveID{tls.X25519, tls.CurveP256},
			SignatureSchemes: []tls.SignatureScheme{tls.ECDSAWithP256AndSHA256, tls.PSSWithSHA256},
			CipherSuites:     []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}}
		cert, err := m.m.GetCertificate(hello)
		if err != nil {
			m.cfg.Log.Error("no certificate yet (a visit in a minute tries again): check that the name's DNS record is this machine's address, that ports 443 and 80 are open to the internet, and that the CA answers",
				"domain", d, "acme", m.cfg.Directory, "err", err)
			continue
		}
		until := ""
		if cert.Leaf != nil {
			until = cert.Leaf.NotAfter.UTC().Format(time.DateOnly)
		}
		m.cfg.Log.Info("certificate ready; it is renewed before it expires", "domain", d, "expires", until, "acme", m.cfg.Directory)
	}
}

// hostPolicy allows only our names. An HTTP-01 challenge's Host carries
// the port when it is not 80, which is not part of the name.
func hostPolicy(domains []string) autocert.HostPolicy {
	ours := autocert.HostWhitelist(domains...)
	return func(ctx context.Context, host string) error {
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		return ours(ctx, host)
	}
}

// CheckDomain checks a --domain: an ASCII host name with at least two
// labels (a CA certifies names, not addresses nor bare hosts).
func CheckDomain(d string) error {
	bad := func(why string) error {
		return fmt.Errorf("--domain %q %s: give a host name such as wolf.example.org", d, why)
	}
	switch {
	case d == "":
		return bad("is empty")
	case strings.Contains(d, "://") || strings.ContainsAny(d, "/:@"):
		return bad("is not a bare host name (no scheme, port or path)")
	case net.ParseIP(d) != nil:
		return bad("is an address: a certificate by ACME names a host")
	case len(d) > 253:
		return bad("is longer than 253 characters")
	case !strings.Contains(d, "."):
		return bad("has no dot")
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return bad("has an empty, over-long or hyphen-edged label")
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return bad("may hold only lower-case letters a-z, digits, hyphens and dots (an internationalised name in its xn-- form)")
			}
		}
	}
	return nil
}
