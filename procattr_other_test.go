//go:build !linux

package rodagent_test

import "syscall"

// ownGroupAttr starts a process that leads its own process group, so cleanup
// ends exactly it and its helpers.
func ownGroupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
