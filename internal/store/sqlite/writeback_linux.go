package sqlite

import (
	"os"

	"golang.org/x/sys/unix"
)

const canWriteback = true

// startWriteback asks the system to start writing f's changed pages to the
// disk, and returns without waiting for them (sync_file_range(2),
// SYNC_FILE_RANGE_WRITE): a later fsync of f then finds them written.
func startWriteback(f *os.File) error {
	return unix.SyncFileRange(int(f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
}
