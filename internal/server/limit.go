package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limits bound what one player or one address may do at once.
type limits struct {
	seatConns           int        // connections one seat may have open
	seatConnsPerMinute  int        // connections one seat may open a minute (as many at once)
	spectators          int        // spectators one room takes
	spectatorsPerAddr   int        // spectators one address may have in one room
	spectatorsPerMinute int        // spectator connections one address may open a minute (as many at once)
	chatRate            rate.Limit // messages a second one seat may send, over all its connections …
	chatBurst           int        // … and at once
}

var defaultLimits = limits{seatConns: 2, seatConnsPerMinute: 20, spectators: 100, spectatorsPerAddr: 5, spectatorsPerMinute: 10,
	chatRate: 1, chatBurst: 5}

// hostLimits bounds how often one address may do something (create rooms,
// take seats, watch): a token bucket per address, forgotten once idle.
type hostLimits struct {
	mu      sync.Mutex
	every   rate.Limit
	burst   int
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// newHostLimits allows perMinute a minute, perMinute at once; 0 allows all.
func newHostLimits(perMinute int) *hostLimits {
	if perMinute <= 0 {
		return nil
	}
	return &hostLimits{every: rate.Limit(float64(perMinute) / 60), burst: perMinute, buckets: map[string]*bucket{}}
}

func (h *hostLimits) allow(addr string) bool {
	if h == nil {
		return true
	}
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if now.Sub(h.swept) > time.Minute { // forget addresses idle long enough to have a full bucket again
		for k, b := range h.buckets {
			if now.Sub(b.seen) > 2*time.Minute {
				delete(h.buckets, k)
			}
		}
		h.swept = now
	}
	b := h.buckets[addr]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(h.every, h.burst)}
		h.buckets[addr] = b
	}
	b.seen = now
	return b.lim.AllowN(now, 1)
}

// clientAddr is the key a request's limits are counted against (limitKey):
// its peer's address, or, when the peer is a trusted proxy, the last address of
// X-Forwarded-For that is not a trusted proxy (each proxy appends the
// address it was reached from; what comes before may be forged).
func (s *Server) clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if !s.trusted(host) {
		return s.limitKey(host)
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop := strings.TrimSpace(hops[i])
		if _, err := netip.ParseAddr(hop); err == nil && !s.trusted(hop) {
			return s.limitKey(hop)
		}
	}
	return s.limitKey(host)
}

// DefaultIPv6Prefix is Options.IPv6Prefix's default: a subscriber's network
// is a /64 (or wider), and each of its 2^64 addresses is his to use.
const DefaultIPv6Prefix = 64

// limitKey is what an address's limits are counted under: an IPv4 address
// whole, an IPv6 address by its first Options.IPv6Prefix bits, so that one
// client cannot multiply a limit by the addresses of his network.
func (s *Server) limitKey(host string) string {
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	bits := s.opts.IPv6Prefix
	if bits <= 0 || bits > 128 {
		bits = DefaultIPv6Prefix
	}
	p, err := a.Prefix(bits)
	if err != nil {
		return a.String()
	}
	return p.String()
}

func (s *Server) trusted(host string) bool {
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range s.opts.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
