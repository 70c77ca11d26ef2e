//go:build !linux

package sqlite

// yieldToServer leaves the copier at the server's priority: elsewhere than
// on Linux, a process's threads do not each have a niceness to set.
func yieldToServer() {}
