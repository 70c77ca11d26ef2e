package aiwolf

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
)

// The reference's optional authentication: an HMAC JWT (HS256) signed
// with the server's secret (env SECRET_KEY), claims role PLAYER and team,
// given as Authorization: Bearer (as the reference's client sends it) or
// traded for a one-use code (codes.go). The reference server also reads
// ?token=; this gateway refuses it, since URLs are logged on their way.
// Checked with the standard library: it is one signature and two claims.

// errAuth is the refusal of a connection without a valid token.
var errAuth = errors.New("a valid token is required (Authorization: Bearer JWT, HS256, claims role PLAYER and team; or ?code= from POST /aiwolf/code)")

// errTokenInURL refuses ?token=: docs/aiwolf.md, "Authentication".
var errTokenInURL = errors.New("a token in the URL is refused, since proxies keep URLs in their logs: " +
	"send it as Authorization: Bearer TOKEN, or trade it for a one-use code (POST /aiwolf/code with that header) and connect with ?code=CODE")

// Claims are the token's claims the gateway reads.
type Claims struct {
	Role string `json:"role"`
	Team string `json:"team"`
	Exp  int64  `json:"exp,omitempty"`
}

// bearer is the request's Authorization: Bearer token, or "".
func bearer(r *http.Request) string {
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return ""
}

// verify checks a token's signature and claims; now is unix seconds.
func verify(secret []byte, token string, now int64) (Claims, error) {
	var c Claims
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return c, errAuth
	}
	var head struct {
		Alg string `json:"alg"`
	}
	hb, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil || json.Unmarshal(hb, &head) != nil || head.Alg != "HS256" {
		return c, errAuth
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return c, errAuth
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(parts[0] + "." + parts[1]))
	if !hmac.Equal(sig, m.Sum(nil)) {
		return c, errAuth
	}
	cb, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil || json.Unmarshal(cb, &c) != nil || c.Role != "PLAYER" || c.Team == "" {
		return c, errAuth
	}
	if c.Exp != 0 && now >= c.Exp {
		return c, errors.New("the token has expired")
	}
	return c, nil
}

// Sign makes a token for team (tests, and operators who hand tokens out:
// docs/aiwolf.md).
func Sign(secret []byte, team string) string {
	enc := base64.RawURLEncoding.EncodeToString
	head := enc([]byte(`{"alg":"HS256","typ":"JWT"}`))
	body, _ := json.Marshal(Claims{Role: "PLAYER", Team: team})
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(head + "." + enc(body)))
	return head + "." + enc(body) + "." + enc(m.Sum(nil))
}
