package game

import "time"

// Clock is where the actor reads the time and sets its one timer. The
// server runs every game on the wall clock; a test runs a forum game's
// hour-long phases on a clock it moves itself (Config.Clock).
type Clock interface {
	Now() time.Time
	NewTimer(d time.Duration) Timer
}

// Timer is the part of a time.Timer the actor uses.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
	Reset(d time.Duration) bool
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) NewTimer(d time.Duration) Timer { return wallTimer{time.NewTimer(d)} }

type wallTimer struct{ *time.Timer }

func (t wallTimer) C() <-chan time.Time { return t.Timer.C }

// now is the game's time.
func (a *Actor) now() time.Time { return a.cfg.Clock.Now() }
