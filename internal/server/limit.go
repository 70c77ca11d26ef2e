package server

import (
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// hostLimits bounds how often one address may do something (create rooms):
// a token bucket per address, forgotten once idle.
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

func (h *hostLimits) allow(r *http.Request) bool {
	if h == nil {
		return true
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
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
	b := h.buckets[host]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(h.every, h.burst)}
		h.buckets[host] = b
	}
	b.seen = now
	return b.lim.AllowN(now, 1)
}
