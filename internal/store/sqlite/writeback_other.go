//go:build !linux

package sqlite

import "os"

// startWriteback: only Linux has sync_file_range(2); elsewhere the
// checkpoint's fsync writes the pages, as it always did.
func startWriteback(*os.File) error { return nil }
