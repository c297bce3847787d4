package rodagent_test

import "syscall"

// ownGroupAttr starts a process that leads its own process group (so cleanup
// ends exactly it and its helpers) and that the kernel kills when the test
// binary dies: a run ended by its timeout or by a signal leaves no browser
// behind writing into a profile directory nobody will remove.
func ownGroupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
