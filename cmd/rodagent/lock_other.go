//go:build !unix

package main

import "syscall"

// lock is a no-op where flock is missing: two simultaneous first calls may
// each start a server, and the later one's files win.
func (s *session) lock() (unlock func(), err error) { return func() {}, nil }

func detached() *syscall.SysProcAttr { return nil }
