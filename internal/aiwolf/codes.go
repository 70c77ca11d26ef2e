package aiwolf

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"sync"
	"time"
)

// A credential in a WebSocket URL is kept by every proxy's and server's
// access log on the way, for as long as the logs live. So the gateway takes
// a JWT or an agent seat's token in the Authorization header only, and
// where a client can only give a URL (a browser's WebSocket, a config
// that holds one string), a code that stands for the credential: traded
// for it by a POST that carries the credential in its header, valid for a
// short while, good for one connection.

// CodeTTL is how long a code traded for a JWT lasts: a program trades it
// just before it dials. SeatCodeTTL is an agent seat's, in the link its
// room's host copies to his agent by hand.
const (
	CodeTTL     = time.Minute
	SeatCodeTTL = 10 * time.Minute
	maxCodes    = 10000 // codes outstanding; past it, minting waits for some to be used or to expire
)

var errCodesFull = errors.New("too many codes outstanding; try again in a minute")

// grant is what a code stands for: a JWT's claims, or a room's agent seat
// (its room and token).
type grant struct {
	claims      Claims
	room, token string
	expires     time.Time
}

// urlCodes holds the codes outstanding.
type urlCodes struct {
	mu  sync.Mutex
	m   map[string]grant
	now func() time.Time
}

func newURLCodes() *urlCodes { return &urlCodes{m: map[string]grant{}, now: time.Now} }

// mint makes a code for g, valid for ttl.
func (c *urlCodes) mint(g grant, ttl time.Duration) (string, error) {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	code := base64.RawURLEncoding.EncodeToString(b)
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if len(c.m) >= maxCodes {
		for k, x := range c.m {
			if !now.Before(x.expires) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= maxCodes {
			return "", errCodesFull
		}
	}
	g.expires = now.Add(ttl)
	c.m[code] = g
	return code, nil
}

// take spends a code: its grant, or false when it is unknown, spent or
// expired.
func (c *urlCodes) take(code string) (grant, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, ok := c.m[code]
	delete(c.m, code)
	if !ok || !c.now().Before(g.expires) {
		return grant{}, false
	}
	return g, true
}
