package server

import "time"

// SetDownloadWait shortens how long kind=download waits for a file, for the
// test of a click that downloads nothing; the returned func restores it.
func SetDownloadWait(d time.Duration) func() {
	old := downloadWait
	downloadWait = d
	return func() { downloadWait = old }
}
