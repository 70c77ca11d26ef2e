//go:build !linux

package sqlite

import "os"

// Only Linux has sync_file_range(2); elsewhere the checkpoint's fsync
// writes the WAL's pages, as it always did, and the WAL is not opened.
const canWriteback = false

func startWriteback(*os.File) error { return nil }
