//go:build unix

package main

import (
	"os"
	"syscall"
)

// lock holds the session's lock file, so two CLI calls at once start one server.
func (s *session) lock() (unlock func(), err error) {
	f, err := os.OpenFile(s.path(".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// detached runs the background server in its own session, away from the
// terminal (and its Ctrl-C) of the call that started it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
