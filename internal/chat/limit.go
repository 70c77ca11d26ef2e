package chat

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiter bounds the lines each user may send: a flood is answered once,
// then ignored until the user slows down, so the flood cannot make the
// bridge flood the group back.
type limiter struct {
	mu     sync.Mutex
	per    rate.Limit
	burst  int
	users  map[string]*userRate
	pruned time.Time
}

type userRate struct {
	l      *rate.Limiter
	warned bool // told of the flood since his last accepted line
	seen   time.Time
}

func newLimiter(perMinute int) *limiter {
	return &limiter{per: rate.Limit(float64(perMinute) / 60), burst: perMinute, users: map[string]*userRate{}}
}

// allow takes one line of user's from his budget.
func (l *limiter) allow(user string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.pruned) > 10*time.Minute { // forget the idle: their budget is full anyway
		for k, u := range l.users {
			if now.Sub(u.seen) > 10*time.Minute {
				delete(l.users, k)
			}
		}
		l.pruned = now
	}
	u := l.users[user]
	if u == nil {
		u = &userRate{l: rate.NewLimiter(l.per, l.burst)}
		l.users[user] = u
	}
	u.seen = now
	if u.l.AllowN(now, 1) {
		u.warned = false
		return true
	}
	return false
}

// warn reports whether the user is to be told of his flood: once a flood.
func (l *limiter) warn(user string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := l.users[user]
	if u == nil || u.warned {
		return false
	}
	u.warned = true
	return true
}
