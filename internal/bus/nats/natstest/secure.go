package natstest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// newSecurity writes a CA, a server certificate for 127.0.0.1, a client
// certificate and an NKey user's seed into a temporary folder.
func newSecurity(t testing.TB) *Security {
	t.Helper()
	dir := t.TempDir()
	sec := &Security{User: "wolfden", Password: "bus-password-for-tests",
		CA: filepath.Join(dir, "ca.pem"), Cert: filepath.Join(dir, "client.pem"), Key: filepath.Join(dir, "client-key.pem"),
		NKeySeed: filepath.Join(dir, "user.nk")}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "natstest CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	writePEM(t, sec.CA, "CERTIFICATE", caDER)
	ca, _ = x509.ParseCertificate(caDER)
	leaf := func(serial int64, name string, usage x509.ExtKeyUsage, ip bool, certFile, keyFile string) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		c := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage}}
		if ip {
			c.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
		}
		der, err := x509.CreateCertificate(rand.Reader, c, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kb, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		writePEM(t, certFile, "CERTIFICATE", der)
		writePEM(t, keyFile, "EC PRIVATE KEY", kb)
	}
	leaf(2, "127.0.0.1", x509.ExtKeyUsageServerAuth, true, filepath.Join(dir, "server.pem"), filepath.Join(dir, "server-key.pem"))
	leaf(3, "wolfden node", x509.ExtKeyUsageClientAuth, false, sec.Cert, sec.Key)
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := kp.Seed()
	if err := os.WriteFile(sec.NKeySeed, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	return sec
}

func writePEM(t testing.TB, file, typ string, der []byte) {
	t.Helper()
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// configure makes o require what sec describes.
func (sec *Security) configure(t testing.TB, o *server.Options) {
	t.Helper()
	dir := filepath.Dir(sec.CA)
	cfg, err := server.GenTLSConfig(&server.TLSConfigOpts{
		CertFile: filepath.Join(dir, "server.pem"), KeyFile: filepath.Join(dir, "server-key.pem"),
		CaFile: sec.CA, Verify: true, Timeout: 2,
	})
	if err != nil {
		t.Fatalf("natstest: TLS: %v", err)
	}
	cfg.MinVersion = tls.VersionTLS12
	o.TLSConfig, o.TLS, o.TLSVerify, o.TLSTimeout = cfg, true, true, 2
	seed, err := os.ReadFile(sec.NKeySeed)
	if err != nil {
		t.Fatal(err)
	}
	kp, err := nkeys.FromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	o.Users = []*server.User{{Username: sec.User, Password: sec.Password}}
	o.Nkeys = []*server.NkeyUser{{Nkey: pub}}
}
