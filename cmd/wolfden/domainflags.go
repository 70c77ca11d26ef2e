package main

import (
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/autotls"
)

// domainFlags are serve's flags for HTTPS under a domain name with a
// certificate obtained by ACME (docs/server.md: "Host wolfden for your club").
type domainFlags struct {
	domains                                            []string
	httpsAddr, httpAddr, certDir, directory, email, ca string
}

// domainEnv names each flag's environment variable.
var domainEnv = map[string]string{"domain": "WOLFDEN_DOMAIN", "https-addr": "WOLFDEN_HTTPS_ADDR", "http-addr": "WOLFDEN_HTTP_ADDR",
	"cert-dir": "WOLFDEN_CERT_DIR", "acme-directory": "WOLFDEN_ACME_DIRECTORY", "acme-email": "WOLFDEN_ACME_EMAIL", "acme-ca": "WOLFDEN_ACME_CA"}

func (f *domainFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringSliceVar(&f.domains, "domain", nil, "serve HTTPS for this name (repeat, or a comma list), with a certificate obtained and renewed by ACME (env WOLFDEN_DOMAIN)")
	fl.StringVar(&f.httpsAddr, "https-addr", ":443", "with --domain: the HTTPS listener (env WOLFDEN_HTTPS_ADDR)")
	fl.StringVar(&f.httpAddr, "http-addr", ":80", `with --domain: the plain HTTP listener, which answers the CA's HTTP-01 challenges and redirects to HTTPS ("" for none; env WOLFDEN_HTTP_ADDR)`)
	fl.StringVar(&f.certDir, "cert-dir", "", "with --domain: where the ACME account and certificates are kept (default: certs beside the SQLite database; env WOLFDEN_CERT_DIR)")
	fl.StringVar(&f.directory, "acme-directory", autotls.LetsEncrypt, "with --domain: the ACME CA's directory URL, e.g. Let's Encrypt's staging "+autotls.LetsEncryptStaging+" (env WOLFDEN_ACME_DIRECTORY)")
	fl.StringVar(&f.email, "acme-email", "", "with --domain: the address the CA writes to about the certificates (env WOLFDEN_ACME_EMAIL)")
	fl.StringVar(&f.ca, "acme-ca", "", "with --domain: PEM certificates to trust for the ACME server's own HTTPS, for a private CA (env WOLFDEN_ACME_CA)")
}

// domainListen is how serve listens with --domain.
type domainListen struct {
	https, http string // listeners' addresses; http may be empty
	m           *autotls.Manager
}

// config reads the flags (and their environment variables) into a
// Manager, or nil without --domain. addr says whether --addr or
// WOLFDEN_ADDR was given, tls whether --tls-cert or --tls-key was.
func (f *domainFlags) config(changed func(string) bool, db string, addr, tls, cluster bool, log *slog.Logger) (*domainListen, error) {
	set := map[string]bool{}
	for name, env := range domainEnv {
		if changed(name) {
			set[name] = true
			continue
		}
		v := os.Getenv(env)
		if v == "" {
			continue
		}
		set[name] = true
		switch name {
		case "domain":
			f.domains = strings.Split(v, ",")
		case "https-addr":
			f.httpsAddr = v
		case "http-addr":
			f.httpAddr = v
		case "cert-dir":
			f.certDir = v
		case "acme-directory":
			f.directory = v
		case "acme-email":
			f.email = v
		case "acme-ca":
			f.ca = v
		}
	}
	if !set["domain"] {
		for _, name := range []string{"https-addr", "http-addr", "cert-dir", "acme-directory", "acme-email", "acme-ca"} {
			if set[name] {
				return nil, fmt.Errorf("--%s (%s) goes with --domain", name, domainEnv[name])
			}
		}
		return nil, nil
	}
	switch {
	case tls:
		return nil, errors.New("--domain obtains its own certificate: drop --tls-cert and --tls-key")
	case addr:
		return nil, errors.New("--domain listens on --https-addr and --http-addr (:443 and :80), not on --addr: drop --addr (WOLFDEN_ADDR)")
	case cluster:
		return nil, errors.New("--domain runs on one server: a cluster's nodes sit behind a proxy that holds the certificate (docs/cluster.md)")
	}
	var domains []string
	for _, d := range f.domains {
		d = strings.TrimSpace(d)
		if err := autotls.CheckDomain(d); err != nil {
			return nil, err
		}
		domains = append(domains, d)
	}
	_, port, err := net.SplitHostPort(f.httpsAddr)
	if err != nil {
		return nil, fmt.Errorf("--https-addr %q is not HOST:PORT (e.g. :443)", f.httpsAddr)
	}
	httpsPort, err := strconv.Atoi(port)
	if err != nil || httpsPort <= 0 {
		return nil, fmt.Errorf("--https-addr %q needs a port number (e.g. :443)", f.httpsAddr)
	}
	if f.httpAddr != "" {
		if _, _, err := net.SplitHostPort(f.httpAddr); err != nil {
			return nil, fmt.Errorf("--http-addr %q is not HOST:PORT (e.g. :80)", f.httpAddr)
		}
		if f.httpAddr == f.httpsAddr {
			return nil, fmt.Errorf("--http-addr and --https-addr are both %s: they are two listeners", f.httpAddr)
		}
	}
	if !strings.HasPrefix(f.directory, "https://") {
		return nil, fmt.Errorf("--acme-directory %q must be an https:// URL", f.directory)
	}
	if f.email != "" && (!strings.Contains(f.email, "@") || strings.ContainsAny(f.email, " ,<>")) {
		return nil, fmt.Errorf("--acme-email %q is not an e-mail address", f.email)
	}
	var roots *x509.CertPool
	if f.ca != "" {
		pem, err := os.ReadFile(f.ca)
		if err != nil {
			return nil, fmt.Errorf("--acme-ca: %v", err)
		}
		roots = x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--acme-ca %s holds no PEM certificate", f.ca)
		}
	}
	dir := f.certDir
	if dir == "" {
		dir = "certs"
		if !isPostgres(db) {
			dir = filepath.Join(filepath.Dir(db), "certs")
		}
	}
	m, err := autotls.New(autotls.Config{Domains: domains, CacheDir: dir, Directory: f.directory, Email: f.email,
		CARoots: roots, HTTPSPort: httpsPort, Log: log})
	if err != nil {
		return nil, err
	}
	return &domainListen{https: f.httpsAddr, http: f.httpAddr, m: m}, nil
}
