package agenttool

import "time"

// The download verb's wait for a file, shortened so a test of a click that
// downloads nothing does not take a minute.
func init() { downloadWait = 10 * time.Second }
