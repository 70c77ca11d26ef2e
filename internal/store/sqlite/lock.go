package sqlite

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
)

// fileLock is an exclusive advisory lock (flock) on a file beside the
// database, held while the store is open: two servers writing one file
// would each believe they know its last record numbers.
type fileLock struct{ f *os.File }

func lockFile(path string) (*fileLock, error) {
	name := path + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return nil, fmt.Errorf("%w: %s (its lock file %s cannot be made: check the folder's permissions, and that its disk is not mounted read-only)", ErrReadOnly, path, name)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s (stop the other server, or give this one another --db)", ErrInUse, path)
		}
		return nil, fmt.Errorf("sqlite: lock %s: %w", path, err)
	}
	return &fileLock{f}, nil
}

func (l *fileLock) release() {
	if l != nil && l.f != nil {
		l.f.Close() // closing the file releases the lock
		l.f = nil
	}
}

// The start-window failpoint, for the crash trial (docs/server.md, "When
// the store fails"): with WOLFDEN_CRASH_IN_START=N in its environment, the
// process kills itself inside the N-th start's transaction, its writes made
// and not committed.
var (
	crashAt     = func() int64 { n, _ := strconv.ParseInt(os.Getenv("WOLFDEN_CRASH_IN_START"), 10, 64); return n }()
	startsSoFar atomic.Int64
)

func crashPoint() {
	if crashAt > 0 && startsSoFar.Add(1) == crashAt {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}
